//! Building blocks for the fixes rules attach to their diagnostics: edits of YAML text that keep
//! it valid (a scalar replaced in the quoting it was written in, a sequence item removed with
//! its separator or its line). Each helper checks that the text at the range is what the rule
//! believes is written there, and offers nothing otherwise: a value reached through an alias is
//! placed at the alias, and replacing `*common` with an id would change every use of the anchor.

use crate::diagnostic::{FileId, Fix};
use crate::syntax::TextRange;

/// How a scalar is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quoting {
    Plain,
    Single,
    Double,
}

/// How `value` is written at `range` of `text`, if it is written there as a scalar on its own
/// (plain, or in quotes without escapes).
pub fn written_as(text: &str, range: TextRange, value: &str) -> Option<Quoting> {
    let written = text.get(range.start as usize..range.end as usize)?;
    if written == value {
        return Some(Quoting::Plain);
    }
    let inner = |quote: char| {
        written
            .strip_prefix(quote)
            .and_then(|w| w.strip_suffix(quote))
            .filter(|inner| *inner == value && !inner.contains(['\\', quote]))
    };
    if inner('"').is_some() {
        Some(Quoting::Double)
    } else if inner('\'').is_some() {
        Some(Quoting::Single)
    } else {
        None
    }
}

/// True when `text` reads back as the same string written plain anywhere a YAML value or flow
/// item may stand: ids, names, paths. Anything else (numbers, booleans, `null`, indicators,
/// `: ` or ` #`) is quoted.
pub fn plain_is_safe(text: &str) -> bool {
    let Some(first) = text.chars().next() else {
        return false;
    };
    let looks_like_other_type = matches!(
        text.to_ascii_lowercase().as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~" | "y" | "n"
    ) || text.parse::<f64>().is_ok()
        || text.starts_with("0x")
        || text.starts_with("0o");
    (first.is_alphanumeric() || first == '_' || first == '/' || first == '.')
        && !looks_like_other_type
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | '@' | '+'))
}

/// `value` as a YAML scalar in the quoting asked for, falling back to double quotes when plain
/// would not read back as the same string.
pub fn scalar(value: &str, quoting: Quoting) -> String {
    match quoting {
        Quoting::Plain if plain_is_safe(value) => value.to_owned(),
        Quoting::Single if !value.contains('\'') => format!("'{value}'"),
        _ => double_quoted(value),
    }
}

/// `value`, a string written where a list belongs, as the flow list it most likely meant, valid
/// YAML that reads back as strings: split at its commas (`a, b` → `[a, b]`) unless that leaves
/// an empty part, each item quoted where plain would not read back as the same string
/// (`[x: y]` would be a mapping, `[#x]` a comment). `None` for a blank value: nothing is meant.
pub fn flow_list(value: &str) -> Option<String> {
    if value.trim().is_empty() {
        return None;
    }
    let parts: Vec<&str> = value.split(',').map(str::trim).collect();
    let items: Vec<String> = if parts.iter().all(|part| !part.is_empty()) {
        parts
            .iter()
            .map(|part| scalar(part, Quoting::Plain))
            .collect()
    } else {
        vec![scalar(value.trim(), Quoting::Plain)]
    };
    Some(format!("[{}]", items.join(", ")))
}

/// `value` in double quotes, escaped as YAML (a JSON string is a valid YAML double-quoted one).
pub fn double_quoted(value: &str) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| format!("\"{value}\""))
}

/// "Replace `old` with `new`": the scalar at `range` rewritten in the quoting it has. `None`
/// when the text there is not `old` written as a scalar.
pub fn replace_scalar(
    text: &str,
    file: FileId,
    range: TextRange,
    old: &str,
    new: &str,
) -> Option<Fix> {
    let quoting = written_as(text, range, old)?;
    Some(Fix::replace(
        format!("Replace `{old}` with `{new}`"),
        file,
        range,
        scalar(new, quoting),
    ))
}

/// The range to delete to remove the sequence item written at `range` (whose value is
/// `value`): in a flow sequence the item and one comma next to it; in a block sequence its
/// whole line. `None` when the item is not written there as that scalar, or is the only item
/// of a block sequence (removing it would leave the key null rather than an empty list).
pub fn remove_item(text: &str, range: TextRange, value: &str) -> Option<TextRange> {
    written_as(text, range, value)?;
    let bytes = text.as_bytes();
    let (start, end) = (range.start as usize, range.end as usize);
    // Only the item's surroundings are read, never the rest of its line: one flow line may hold
    // thousands of repeats, each removed by a fix of its own.
    if let Some(line_start) = block_item_line_start(text, start) {
        let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
        let before = &text[line_start..start];
        let after = text[end..line_end].trim_end_matches('\r');
        let after_is_empty = after.trim().is_empty() || after.trim_start().starts_with('#');
        if !after_is_empty {
            return None;
        }
        let indent = &before[..before.len() - before.trim_start().len()];
        let marker = format!("{indent}-");
        let is_sibling = |line: &str| {
            line.strip_prefix(marker.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
        };
        let previous = text[..line_start.saturating_sub(1)]
            .rsplit('\n')
            .next()
            .filter(|_| line_start > 0);
        let next = text.get(line_end + 1..).and_then(|t| t.split('\n').next());
        let has_sibling = previous.is_some_and(is_sibling) || next.is_some_and(is_sibling);
        if !has_sibling {
            return None;
        }
        let through = if line_end < text.len() {
            line_end + 1
        } else {
            line_end
        };
        return Some(TextRange::new(line_start as u32, through as u32));
    }
    // A flow item: take the comma before it (and the space after that comma), else the comma
    // after it with the space that follows.
    let back = blanks_before(bytes, start);
    if back > 0 && bytes[back - 1] == b',' {
        return Some(TextRange::new((back - 1) as u32, end as u32));
    }
    let forward = blanks_after(bytes, end);
    if forward < bytes.len() && bytes[forward] == b',' {
        let through = blanks_after(bytes, forward + 1);
        return Some(TextRange::new(start as u32, through as u32));
    }
    None
}

/// Where the spaces and tabs just before `at` start (`at` itself when there are none).
pub fn blanks_before(bytes: &[u8], at: usize) -> usize {
    let mut back = at;
    while back > 0 && matches!(bytes[back - 1], b' ' | b'\t') {
        back -= 1;
    }
    back
}

/// Where the spaces and tabs from `at` on end (`at` itself when there are none).
pub fn blanks_after(bytes: &[u8], at: usize) -> usize {
    let mut forward = at;
    while forward < bytes.len() && matches!(bytes[forward], b' ' | b'\t') {
        forward += 1;
    }
    forward
}

/// Where the line of the item starting at `start` begins, when the item is a block sequence's:
/// nothing but indentation, `-` and at most one space before it on its line. Reads back over
/// the indentation only, so an item in the middle of a long flow line costs O(1).
fn block_item_line_start(text: &str, start: usize) -> Option<usize> {
    let before = &text[..start];
    let before = before.strip_suffix(' ').unwrap_or(before);
    let before = before.strip_suffix('-')?;
    let indent: usize = before
        .chars()
        .rev()
        .take_while(|&c| c != '\n' && c.is_whitespace())
        .map(char::len_utf8)
        .sum();
    let line_start = before.len() - indent;
    // The indentation stopped at the line's start, not at something written before the `-`.
    (line_start == 0 || text.as_bytes()[line_start - 1] == b'\n').then_some(line_start)
}

/// The insertion that appends `value` to a sequence whose items are written at `items`: `, x`
/// after the last item of a flow sequence, a `- x` line after the last item of a block one.
/// `None` for an empty sequence (nothing shows its style) or one reached through an alias.
pub fn append_item(text: &str, items: &[TextRange], value: &str) -> Option<(TextRange, String)> {
    let (first, last) = (items.first()?, items.last()?);
    let written = |r: &TextRange| text.get(r.start as usize..r.end as usize);
    if items
        .iter()
        .any(|r| written(r).is_none_or(|w| w.starts_with('*')))
    {
        return None;
    }
    let item = scalar(value, Quoting::Plain);
    let (line_start, indent) = line_of(text, first.start);
    let before_first = text[line_start..first.start as usize].trim();
    if before_first == "-" {
        let end = last.end as usize;
        let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
        let line_end = if text[..line_end].ends_with('\r') {
            line_end - 1
        } else {
            line_end
        };
        let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
        return Some((
            TextRange::empty(line_end as u32),
            format!("{newline}{indent}- {item}"),
        ));
    }
    // A flow sequence: the last item is followed by `]` or `,` (spaces and line breaks
    // between are allowed).
    let rest = text[last.end as usize..].trim_start();
    if rest.starts_with(']') || rest.starts_with(',') {
        return Some((TextRange::empty(last.end), format!(", {item}")));
    }
    None
}

/// The indentation (spaces and tabs) of the line holding `offset`, and where that line starts.
pub fn line_of(text: &str, offset: u32) -> (usize, &str) {
    let offset = (offset as usize).min(text.len());
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[start..];
    let indent_len = line.len() - line.trim_start_matches([' ', '\t']).len();
    (start, &line[..indent_len])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn removed(text: &str, value: &str) -> Option<String> {
        let at = text.find(value).unwrap();
        let range = TextRange::new(at as u32, (at + value.len()) as u32);
        let cut = remove_item(text, range, value)?;
        Some(format!(
            "{}{}",
            &text[..cut.start as usize],
            &text[cut.end as usize..]
        ))
    }

    #[test]
    fn flow_items_go_with_one_comma() {
        assert_eq!(removed("s: [a, bb, c]\n", "bb").unwrap(), "s: [a, c]\n");
        assert_eq!(removed("s: [bb, c]\n", "bb").unwrap(), "s: [c]\n");
        assert_eq!(removed("s: [a, bb]\n", "bb").unwrap(), "s: [a]\n");
        assert_eq!(removed("s: [bb]\n", "bb"), None);
    }

    #[test]
    fn block_items_go_with_their_line_unless_alone() {
        let text = "s:\n  - a\n  - bb\nt: 1\n";
        assert_eq!(removed(text, "bb").unwrap(), "s:\n  - a\nt: 1\n");
        assert_eq!(removed("s:\n  - bb\nt: 1\n", "bb"), None);
        assert_eq!(removed("s:\n  - bb\n  - a", "bb").unwrap(), "s:\n  - a");
    }

    #[test]
    fn each_repeat_on_one_long_flow_line_goes_with_its_own_comma() {
        let count = 100_000;
        let text = format!("s: [{}]\n", vec!["ab"; count].join(", "));
        let starts: Vec<u32> = text.match_indices("ab").map(|(at, _)| at as u32).collect();
        let cuts: Vec<TextRange> = starts
            .iter()
            .map(|&at| remove_item(&text, TextRange::new(at, at + 2), "ab").unwrap())
            .collect();
        // The first item takes the comma after it; every other one the comma before it.
        assert_eq!(cuts[0], TextRange::new(4, 8));
        for (cut, &at) in cuts.iter().zip(&starts).skip(1) {
            assert_eq!(*cut, TextRange::new(at - 2, at + 2));
        }
        // Removing every repeat leaves the first item alone in its list.
        let mut left = text.clone();
        for cut in cuts[1..].iter().rev() {
            left.replace_range(cut.start as usize..cut.end as usize, "");
        }
        assert_eq!(left, "s: [ab]\n");
    }

    #[test]
    fn block_items_are_told_from_flow_items_by_what_precedes_them_on_their_line() {
        // Indentation of any whitespace, `-` and at most one space make a block item.
        let nbsp = "s:\n\u{a0} - a\n\u{a0} - bb\n";
        assert_eq!(removed(nbsp, "bb").unwrap(), "s:\n\u{a0} - a\n");
        assert_eq!(removed("s:\n  -bb\n  - a\n", "bb").unwrap(), "s:\n  - a\n");
        // Anything else is read as a flow item, which needs a comma.
        assert_eq!(removed("s:\n  -  bb\n  - a\n", "bb"), None);
        assert_eq!(removed("s:\n  - - bb\n  - - a\n", "bb"), None);
    }

    #[test]
    fn items_are_appended_in_the_sequence_style() {
        let append = |text: &str, items: &[&str]| {
            let ranges: Vec<TextRange> = items
                .iter()
                .map(|i| {
                    let at = text.find(i).unwrap() as u32;
                    TextRange::new(at, at + i.len() as u32)
                })
                .collect();
            let (at, insert) = append_item(text, &ranges, "new-one")?;
            let at = at.start as usize;
            Some(format!("{}{insert}{}", &text[..at], &text[at..]))
        };
        assert_eq!(
            append("s: [aa, bb]\n", &["aa", "bb"]).unwrap(),
            "s: [aa, bb, new-one]\n"
        );
        assert_eq!(
            append("s:\n  - aa\n  - bb\nt: 1\n", &["aa", "bb"]).unwrap(),
            "s:\n  - aa\n  - bb\n  - new-one\nt: 1\n"
        );
        assert_eq!(append("s: *all\n", &["*all"]), None);
    }

    #[test]
    fn scalars_keep_their_quoting_and_aliases_are_left_alone() {
        let fix = replace_scalar("k: 'ab'", FileId(0), TextRange::new(3, 7), "ab", "cd").unwrap();
        assert_eq!(fix.edits[0].text, "'cd'");
        assert!(replace_scalar("k: *ab", FileId(0), TextRange::new(3, 6), "ab", "cd").is_none());
        assert_eq!(scalar("1.0", Quoting::Plain), "\"1.0\"");
        assert_eq!(scalar("a: b", Quoting::Plain), "\"a: b\"");
        assert_eq!(scalar("search-code", Quoting::Plain), "search-code");
    }
}
