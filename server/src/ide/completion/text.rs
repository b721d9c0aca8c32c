//! Reading where the cursor is from the text of a (possibly half-typed) YAML document, which is
//! often not valid YAML: the cursor's line, the keys enclosing it from the indentation above,
//! the entries of the mapping around it, and flow collections opened on its line.

use crate::syntax::TextRange;

/// The entries of the mapping holding the key whose value is the block mapping with keys at
/// column `col` around the line at `line_start` (`id: git` beside `permission_overrides:`).
pub(super) fn parent_entries(
    text: &str,
    line_start: usize,
    col: usize,
) -> Option<Vec<(&str, Option<&str>)>> {
    let key_column = |line: &str| line.len() - strip_dashes(line.trim_start_matches(' ')).len();
    for above in text[..line_start].lines().rev() {
        let body = above.trim_start_matches(' ');
        if body.trim().is_empty() || body.starts_with('#') {
            continue;
        }
        if key_column(above) < col {
            let start = above.as_ptr() as usize - text.as_ptr() as usize;
            let mut entries = mapping_entries(text, start, key_column(above));
            // The parent's own line is its key (with no value on it).
            entries.extend(
                strip_dashes(body)
                    .trim_end()
                    .strip_suffix(':')
                    .map(|k| (k, None)),
            );
            return Some(entries);
        }
    }
    None
}

/// The keys written in the mapping whose keys start at column `col` around the cursor's line,
/// with their scalar values (quotes taken off); the cursor's own line, where a key is being
/// typed, aside. Reads from the line of the mapping's first key (its `- ` item, or the first
/// line at `col`) to its last.
pub(super) fn mapping_entries<'t>(
    text: &'t str,
    line_start: usize,
    col: usize,
) -> Vec<(&'t str, Option<&'t str>)> {
    let mut out = Vec::new();
    let entry = |line: &'t str, out: &mut Vec<(&'t str, Option<&'t str>)>| {
        let Some(body) = line.get(col..) else { return };
        let Some((key, value)) = body.split_once(':') else {
            return;
        };
        let key = key.trim_end();
        if key.is_empty() || key.contains(' ') || key.starts_with(['#', '-']) {
            return;
        }
        let value = value.trim();
        let value = value
            .strip_prefix(['"', '\''])
            .and_then(|v| v.strip_suffix(['"', '\'']))
            .unwrap_or(value);
        out.push((key, (!value.is_empty()).then_some(value)));
    };
    // Where a line's own key starts: after its indentation and any `- `.
    let key_column = |line: &str| line.len() - strip_dashes(line.trim_start_matches(' ')).len();
    for above in text[..line_start].lines().rev() {
        let body = above.trim_start_matches(' ');
        if body.trim().is_empty() || body.starts_with('#') {
            continue;
        }
        let spaces = above.len() - body.len();
        if key_column(above) == col && spaces < col {
            entry(above, &mut out); // the `- key:` line the item starts with
            break;
        }
        if spaces < col {
            break;
        }
        if spaces == col {
            entry(above, &mut out);
        }
    }
    let line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |i| line_start + i + 1);
    for below in text[line_end..].lines() {
        let body = below.trim_start_matches(' ');
        if body.trim().is_empty() || body.starts_with('#') {
            continue;
        }
        let spaces = below.len() - body.len();
        if spaces < col {
            break;
        }
        if spaces == col {
            entry(below, &mut out);
        }
    }
    out
}

/// The key of the cursor's line and the value written after it, when the cursor is in that
/// value: the key, its column, and the whole value (inside quotes, before a comment), which is
/// what an item replaces (`swarmkit:author:…` holds colons, which end a word elsewhere).
pub(super) fn key_and_value(
    text: &str,
    line_start: usize,
    offset: u32,
) -> Option<(&str, usize, TextRange)> {
    let offset = offset as usize;
    let line_end = text[line_start..]
        .find(['\n', '\r'])
        .map_or(text.len(), |i| line_start + i);
    let line = &text[line_start..line_end];
    let rest = strip_dashes(line.trim_start_matches(' '));
    let col = line.len() - rest.len();
    let colon = rest.find(':')?;
    let key = rest[..colon].trim_end();
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_' || c == '.');
    if !plain {
        return None;
    }
    let after = &rest[colon + 1..];
    let mut start = line_start + col + colon + 1 + (after.len() - after.trim_start().len());
    if offset < start || offset > line_end {
        return None;
    }
    let written = &text[start..line_end];
    let mut end = start + written.find(" #").unwrap_or(written.len());
    end = start + text[start..end].trim_end().len();
    if let Some(quote) = text[start..end]
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\''))
    {
        start += 1;
        if end > start && text[..end].ends_with(quote) {
            end -= 1;
        }
    }
    let end = end.max(offset);
    (offset >= start).then(|| (key, col, TextRange::new(start as u32, end as u32)))
}

/// What is being typed at the cursor, read from the text of its line.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum SlotKind {
    /// The value of the key `path[0]`.
    Value,
    /// An item of the list that is the value of `path[0]`.
    Item,
    /// A key of the flow mapping that is the value of `path[0]`.
    Key,
}

/// Where in a (possibly half-typed) YAML document the cursor's value or key goes.
#[derive(Debug)]
pub(super) struct Slot<'t> {
    /// The keys from the one whose value is being typed outwards.
    pub(super) path: Vec<&'t str>,
    pub(super) kind: SlotKind,
    /// For a key of a flow mapping: the keys already written in that mapping, with their plain
    /// values (quotes taken off).
    pub(super) written: Vec<(&'t str, Option<&'t str>)>,
    /// For a key of a flow mapping that is itself a value in a flow mapping on the line
    /// (`{id: git, permission_overrides: {`): the keys written in that outer mapping.
    pub(super) parent_written: Vec<(&'t str, Option<&'t str>)>,
    /// True when a flow collection opened on the cursor's line is still open at the cursor.
    pub(super) in_flow: bool,
}

impl Slot<'_> {
    /// The path outermost first, as the schema is walked.
    pub(super) fn outermost_first(&self) -> Vec<&str> {
        self.path.iter().rev().copied().collect()
    }
}

/// Where the cursor's value goes: the keys from the one whose value is being typed outwards, and
/// whether it is a value, a list item or a key of a flow mapping. Block keys come from the
/// indentation above; flow collections opened on the cursor's line (`[{tool: `) are read left
/// to right in one pass, skipping quoted text. (A flow collection spanning several lines is read
/// from the line the cursor is on only.)
pub(super) fn flow_slot<'t>(text: &'t str, line: &Line<'t>) -> Option<Slot<'t>> {
    let head = line.head;
    let trimmed = head.trim_start();
    let indent = head.len() - trimmed.len();
    if trimmed == "-" {
        return Some(Slot {
            path: enclosing_keys(text, line.start, indent, true),
            kind: SlotKind::Item,
            written: Vec::new(),
            parent_written: Vec::new(),
            in_flow: false,
        });
    }
    let body = strip_dashes(trimmed);
    let col = head.len() - body.len();
    let is_key = |k: &str| {
        !k.is_empty()
            && k.chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_' || c == '.')
    };
    let (block_key, rest) = if body.starts_with(['[', '{']) {
        (None, body)
    } else {
        let (key, rest) = body.split_once(':')?;
        if !is_key(key.trim_end()) || !(rest.is_empty() || rest.starts_with(' ')) {
            return None;
        }
        (Some(key.trim_end()), rest.trim_start())
    };
    let dashed_value = body.len() != trimmed.len() && block_key.is_none();
    let outer = if dashed_value {
        enclosing_keys(text, line.start, indent, true)
    } else {
        enclosing_keys(text, line.start, col, false)
    };
    // One frame per open flow collection: the key that opened it, whether it is a list, the key
    // whose value is being written in it, and (a mapping) the keys written in it so far.
    struct Frame<'t> {
        key: Option<&'t str>,
        list: bool,
        pending: Option<&'t str>,
        written: Vec<(&'t str, Option<&'t str>)>,
    }
    let mut frames = vec![Frame {
        key: None,
        list: dashed_value,
        pending: block_key,
        written: Vec::new(),
    }];
    let bytes = rest.as_bytes();
    let mut token = 0;
    let mut i = 0;
    // A pending key's value ends at `,` or the closing bracket: note it as written.
    let settle = |frame: &mut Frame<'t>, value: &'t str| {
        if let Some(key) = frame.pending.take() {
            let value = value.trim();
            let value = value
                .strip_prefix(['"', '\''])
                .and_then(|v| v.strip_suffix(['"', '\'']))
                .unwrap_or(value);
            frame
                .written
                .push((key, (!value.is_empty()).then_some(value)));
        }
    };
    while i < bytes.len() {
        match bytes[i] {
            b'[' | b'{' => {
                let top = frames.last_mut()?;
                let key = top.pending;
                frames.push(Frame {
                    key,
                    list: bytes[i] == b'[',
                    pending: None,
                    written: Vec::new(),
                });
                token = i + 1;
            }
            b']' | b'}' => {
                if frames.len() == 1 {
                    return None;
                }
                let mut closed = frames.pop()?;
                settle(&mut closed, &rest[token..i]);
                // The collection was the value of the key that opened it.
                let top = frames.last_mut()?;
                settle(top, "");
                token = i + 1;
            }
            b',' => {
                let top = frames.last_mut()?;
                settle(top, &rest[token..i]);
                token = i + 1;
            }
            b':' if bytes.get(i + 1).is_none_or(|b| *b == b' ') => {
                let key = rest[token..i].trim();
                if !is_key(key) {
                    return None;
                }
                frames.last_mut()?.pending = Some(key);
                token = i + 1;
            }
            quote @ (b'"' | b'\'') => match rest[i + 1..].find(quote as char) {
                Some(close) => i += close + 1,
                // A quoted value being typed (`transport: "st|`).
                None if rest[token..i].trim().is_empty() => {
                    token = rest.len();
                    break;
                }
                None => return None,
            },
            _ => {}
        }
        i += 1;
    }
    if !rest[token..].trim().is_empty() {
        // Past a value already written on this line.
        return None;
    }
    let in_flow = frames.len() > 1;
    let top = frames.pop()?;
    let kind = match (top.pending, top.list) {
        (Some(_), _) => SlotKind::Value,
        (None, true) => SlotKind::Item,
        (None, false) if in_flow => SlotKind::Key,
        (None, false) => return None,
    };
    let mut path: Vec<&str> = top.pending.into_iter().collect();
    path.extend(top.key);
    path.extend(frames.iter().rev().filter_map(|f| f.key));
    path.extend(outer);
    let (written, parent_written) = match (&kind, frames.last_mut()) {
        (SlotKind::Key, Some(parent)) if !parent.list => {
            (top.written, std::mem::take(&mut parent.written))
        }
        (SlotKind::Key, _) => (top.written, Vec::new()),
        _ => (Vec::new(), Vec::new()),
    };
    Some(Slot {
        path,
        kind,
        written,
        parent_written,
        in_flow,
    })
}

/// The cursor's line, read from the text.
pub(super) struct Line<'t> {
    /// Where the line starts.
    pub(super) start: usize,
    /// The line up to the word being typed, without trailing spaces.
    pub(super) head: &'t str,
    /// The word around the cursor: what the chosen item replaces.
    pub(super) word: TextRange,
}

pub(super) fn line_at(text: &str, offset: u32) -> Option<Line<'_>> {
    let offset = offset as usize;
    if offset > text.len() || !text.is_char_boundary(offset) {
        return None;
    }
    let is_word = |c: char| c.is_alphanumeric() || c == '-' || c == '_' || c == '.';
    let start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let before = text[start..offset]
        .chars()
        .rev()
        .take_while(|c| is_word(*c))
        .map(char::len_utf8)
        .sum::<usize>();
    let after = text[offset..]
        .chars()
        .take_while(|c| is_word(*c))
        .map(char::len_utf8)
        .sum::<usize>();
    Some(Line {
        start,
        head: text[start..offset - before].trim_end(),
        word: TextRange::new((offset - before) as u32, (offset + after) as u32),
    })
}

/// The key a line's head ends with (`  - role:` gives `role`), and the column of the key.
pub(super) fn key_of(head: &str) -> Option<(&str, usize)> {
    // A value being typed inside quotes (`role: "wo|`).
    let head = head.strip_suffix(['"', '\'']).map_or(head, str::trim_end);
    let rest = strip_dashes(head.trim_start());
    let key = rest.strip_suffix(':')?.trim_end();
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_' || c == '.');
    plain.then_some((key, head.len() - rest.len()))
}

/// `- - x` gives `x`.
pub(super) fn strip_dashes(mut body: &str) -> &str {
    while let Some(rest) = body.strip_prefix("- ") {
        body = rest.trim_start();
    }
    body
}

/// The keys of the mappings enclosing a line, innermost first, from the indentation of the lines
/// above (a half-typed document is often not valid YAML). `col` is the column of the line's key,
/// or of its `-` with `in_list` (whose owning key may then sit at the same column).
pub(super) fn enclosing_keys(
    text: &str,
    line_start: usize,
    col: usize,
    in_list: bool,
) -> Vec<&str> {
    let mut keys = Vec::new();
    let mut limit = col;
    let mut flush = in_list;
    for line in text[..line_start].lines().rev() {
        let body = line.trim_start_matches(' ');
        if body.trim().is_empty() || body.starts_with('#') {
            continue;
        }
        let spaces = line.len() - body.len();
        let rest = strip_dashes(body);
        let key = rest
            .trim_end()
            .strip_suffix(':')
            .filter(|k| !k.contains(": "))
            .map(str::trim);
        if rest.len() != body.len() {
            // An item of a list whose `-` sits at `spaces`.
            if spaces >= limit {
                continue;
            }
            if line.len() - rest.len() < limit {
                keys.extend(key);
            }
            limit = spaces;
            flush = true;
        } else {
            if spaces > limit || (spaces == limit && !flush) {
                continue;
            }
            keys.extend(key);
            if spaces == 0 {
                break;
            }
            limit = spaces;
            flush = false;
        }
    }
    keys
}

/// True when the cursor's line holds nothing but spaces and tabs: a fresh line, where nothing
/// written is under the cursor, though the tree may place a node there (an empty value ends
/// where the next line's item starts). Where the cursor is then comes from the text, as it does
/// for a line with a prefix typed.
pub(super) fn blank_line(text: &str, offset: u32) -> bool {
    let offset = (offset as usize).min(text.len());
    let Some(before) = text.get(..offset) else {
        return false;
    };
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    text[start..end]
        .chars()
        .all(|c| matches!(c, ' ' | '\t' | '\r'))
}
