//! Output proportional to input: a file reports at most [`MAX_DIAGNOSTICS_PER_FILE`]
//! diagnostics, plus one `file.too-many-diagnostics` saying how many were left out. When the cap
//! cuts, root causes are kept before what they cause: [`PRIORITY`] ranks the codes. The code is
//! documented with the other `file.*` codes in `rules/mod.rs`.
//!
//! Messages quote what the file says (an id, a tool entry, a value) between backticks, and a
//! quote is as long as the file lets it be: a 3 MB skill id would make every message and related
//! note naming it 3 MB. [`clip_quotes`] shortens each quote to its ends, so a diagnostic's size
//! is bounded whatever the file holds; the range still covers the whole text.

use crate::diagnostic::{codes, Code, Diagnostic, FileId};
use crate::syntax::TextRange;

pub use crate::diagnostic::MAX_DIAGNOSTICS_PER_FILE;

/// The files that share one thing (an id, a name), in path order, with how many times each file
/// is among them. Built once per state of what they share and read by every member: a member
/// learns how many others there are, and walks the first few it names, in time that does not
/// grow with the group (ten thousand files of one id each counting the other ten thousand was a
/// hundred million steps per check of them all).
pub struct Sharing<T> {
    in_order: Vec<(FileId, T)>,
    per_file: std::collections::HashMap<FileId, usize>,
}

impl<T> Default for Sharing<T> {
    fn default() -> Self {
        Sharing {
            in_order: Vec::new(),
            per_file: std::collections::HashMap::new(),
        }
    }
}

impl<T> Sharing<T> {
    /// Adds a member after those already in (callers push in path order).
    pub fn push(&mut self, file: FileId, item: T) {
        self.in_order.push((file, item));
        *self.per_file.entry(file).or_default() += 1;
    }

    /// How many entries belong to files other than `file`.
    pub fn others_count(&self, file: FileId) -> usize {
        self.in_order.len() - self.per_file.get(&file).copied().unwrap_or(0)
    }

    /// The entries of the files other than `file`, in path order (take what is shown).
    pub fn others(&self, file: FileId) -> impl Iterator<Item = (FileId, &T)> + Clone {
        self.in_order
            .iter()
            .filter(move |(member, _)| *member != file)
            .map(|(member, item)| (*member, item))
    }
}

/// How early a code is kept when the cap cuts: lower first. Codes not listed rank [`LATER`]:
/// they are either consequences of the ones here (a rule a cycle blocks, a field a broken
/// parse leaves missing) or stand alone.
pub const PRIORITY: &[(Code, u8)] = &[
    // The file itself: nothing else in it can be trusted until these are fixed.
    (codes::FILE_TOO_LARGE, 0),
    (codes::FILE_ENCODING, 0),
    (codes::WORKSPACE_YAML_PARSE, 0),
    (codes::YAML_ALIAS_EXPANSION, 0),
    (codes::YAML_ALIAS_DEPTH, 0),
    (codes::WORKSPACE_KIND_MISMATCH, 0),
    (codes::WORKSPACE_DEEP_NESTING, 0),
    (codes::WORKSPACE_MALFORMED, 0),
    (codes::SKILLMD_NO_FRONTMATTER, 0),
    (codes::SKILLMD_UNCLOSED_FRONTMATTER, 0),
    (codes::SKILLMD_YAML_PARSE, 0),
    (codes::SKILLMD_NOT_A_MAPPING, 0),
    (codes::CONFIG_INVALID, 0),
    // Cycles: an agent blocked forever, a chain that never ends. Each tangle is reported once,
    // so they are few; kept before the other root causes, which can be many (a thousand unknown
    // ids must not hide the one cycle).
    (codes::AGENT_DEPENDS_ON_CYCLE, 1),
    (codes::AGENT_REQUIRES_CYCLE, 1),
    (codes::SKILL_COMPOSED_CYCLE, 1),
    (codes::SKILLMD_CHAIN_CYCLE, 1),
    // Root causes: each explains diagnostics elsewhere (blocked or unsatisfiable rules,
    // references resolving to the wrong definition, a value that is not the one read).
    (codes::YAML_DUPLICATE_KEY, 2),
    (codes::SKILL_DUPLICATE_ID, 2),
    (codes::ARCHETYPE_DUPLICATE_ID, 2),
    (codes::TOPOLOGY_DUPLICATE_ID, 2),
    (codes::TRIGGER_DUPLICATE_ID, 2),
    (codes::FUNNEL_DUPLICATE_ID, 2),
    (codes::ROLE_DUPLICATE_ID, 2),
    (codes::CONTRACT_DUPLICATE_ID, 2),
    (codes::AGENT_DUPLICATE_ID, 2),
    (codes::SKILLMD_DUPLICATE_NAME, 2),
    (codes::COMMAND_PACK_ID_COLLISION, 2),
    (codes::WORKSPACE_PACK_ID_COLLISION, 2),
    (codes::AGENT_UNKNOWN_ARCHETYPE, 2),
    (codes::AGENT_UNKNOWN_FUNNEL, 2),
    (codes::TRIGGER_UNKNOWN_TARGET, 2),
    (codes::AGENT_DEPENDS_ON_UNKNOWN, 2),
    (codes::AGENT_UNKNOWN_SKILL, 2),
    (codes::ARCHETYPE_UNKNOWN_SKILL, 2),
    (codes::AGENT_UNKNOWN_BULK_GRANT, 2),
    (codes::AGENT_REQUIRES_UNKNOWN_SKILL, 2),
    (codes::SKILL_COMPOSED_UNKNOWN, 2),
    (codes::SKILL_UNKNOWN_MCP_SERVER, 2),
    (codes::SKILLMD_CHAIN_UNKNOWN_SKILL, 2),
];

/// The rank of codes [`PRIORITY`] does not list.
pub const LATER: u8 = 3;

pub fn priority(code: Code) -> u8 {
    PRIORITY
        .iter()
        .find(|(c, _)| *c == code)
        .map_or(LATER, |&(_, rank)| rank)
}

/// Longest quote, in characters, a message shows whole.
pub const MAX_QUOTE_CHARS: usize = 80;
/// What a longer quote keeps of its start and of its end, around an ellipsis.
const QUOTE_HEAD_CHARS: usize = 56;
const QUOTE_TAIL_CHARS: usize = 16;

/// Shortens every backtick quote of `text` longer than [`MAX_QUOTE_CHARS`] to its first
/// `QUOTE_HEAD_CHARS` and last `QUOTE_TAIL_CHARS` characters around `…`. One pass; a text
/// with nothing to shorten is left as it is.
pub fn clip_quotes(text: &mut String) {
    let ticks: Vec<usize> = text.match_indices('`').map(|(at, _)| at).collect();
    let long = |pair: &[usize]| {
        text[pair[0] + 1..pair[1]]
            .chars()
            .nth(MAX_QUOTE_CHARS)
            .is_some()
    };
    if !ticks.chunks_exact(2).any(long) {
        return;
    }
    let mut clipped = String::with_capacity(text.len().min(4096));
    let mut copied = 0;
    for pair in ticks.chunks_exact(2) {
        if !long(pair) {
            continue;
        }
        let quote = &text[pair[0] + 1..pair[1]];
        let head_end = quote
            .char_indices()
            .nth(QUOTE_HEAD_CHARS)
            .map_or(quote.len(), |(at, _)| at);
        let tail_start = quote
            .char_indices()
            .rev()
            .nth(QUOTE_TAIL_CHARS - 1)
            .map_or(0, |(at, _)| at);
        clipped.push_str(&text[copied..=pair[0]]);
        clipped.push_str(&quote[..head_end]);
        clipped.push('…');
        clipped.push_str(&quote[tail_start..]);
        copied = pair[1];
    }
    clipped.push_str(&text[copied..]);
    *text = clipped;
}

/// Longest message (or related note, or fix title) kept whole, in bytes, once its quotes are
/// clipped. A longer one (a parser's error quoting the text around it, a list of many short
/// names) keeps its start and its end, where the advice is, around a count of what was left out.
pub const MAX_MESSAGE_BYTES: usize = 1_200;
const MESSAGE_HEAD_BYTES: usize = 800;
const MESSAGE_TAIL_BYTES: usize = 300;

/// Shortens `text` to [`MAX_MESSAGE_BYTES`] or so when it is longer, at character boundaries.
pub fn clip_message(text: &mut String) {
    if text.len() <= MAX_MESSAGE_BYTES {
        return;
    }
    let head = floor_boundary(text, MESSAGE_HEAD_BYTES);
    let tail = ceil_boundary(text, text.len() - MESSAGE_TAIL_BYTES);
    let left_out = text[head..tail].chars().count();
    *text = format!(
        "{} … ({} characters left out) … {}",
        &text[..head],
        crate::graph::path::thousands(left_out),
        &text[tail..]
    );
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// Both bounds on one text: its quotes, then its length.
fn bound_text(text: &mut String) {
    clip_quotes(text);
    clip_message(text);
}

/// Applies the bounds to one file's diagnostics, sorted by position: keeps the
/// [`MAX_DIAGNOSTICS_PER_FILE`] that rank first (by [`priority`], then severity, then position),
/// still in position order, adds the summary of what was left out, and bounds the texts of what
/// is kept ([`clip_quotes`], then [`clip_message`]: messages, related notes and fix titles).
pub fn cap_per_file(file: FileId, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut kept = cap_count(file, diagnostics);
    for diagnostic in &mut kept {
        bound_text(&mut diagnostic.message);
        for related in &mut diagnostic.related {
            bound_text(&mut related.message);
        }
        for fix in &mut diagnostic.fixes {
            bound_text(&mut fix.title);
        }
    }
    kept
}

fn cap_count(file: FileId, mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if diagnostics.len() <= MAX_DIAGNOSTICS_PER_FILE {
        return diagnostics;
    }
    let left_out = diagnostics.len() - MAX_DIAGNOSTICS_PER_FILE;
    let mut order: Vec<usize> = (0..diagnostics.len()).collect();
    // Position order is the tie-break, since the input is in it and the sort is stable.
    order.sort_by_key(|&i| (priority(diagnostics[i].code), diagnostics[i].severity));
    let mut keep = vec![false; diagnostics.len()];
    for &i in &order[..MAX_DIAGNOSTICS_PER_FILE] {
        keep[i] = true;
    }
    let mut index = 0;
    diagnostics.retain(|_| {
        index += 1;
        keep[index - 1]
    });
    let summary = Diagnostic::new(
        codes::FILE_TOO_MANY_DIAGNOSTICS,
        file,
        TextRange::empty(0),
        format!(
            "this file has {} diagnostics; {left_out} are left out and {MAX_DIAGNOSTICS_PER_FILE} shown, causes before consequences. Fix those and check again",
            left_out + MAX_DIAGNOSTICS_PER_FILE
        ),
    );
    diagnostics.insert(0, summary);
    diagnostics
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagnostic(code: Code, at: u32) -> Diagnostic {
        Diagnostic::new(
            code,
            FileId(0),
            TextRange::new(at, at + 1),
            format!("at {at}"),
        )
    }

    /// `count` diagnostics of one code, at offsets `0..count`.
    fn repeated(code: Code, count: u32) -> Vec<Diagnostic> {
        (0..count).map(|at| diagnostic(code, at)).collect()
    }

    #[test]
    fn under_the_cap_nothing_changes() {
        let all = repeated(
            codes::AGENT_REQUIRES_UNSATISFIABLE,
            MAX_DIAGNOSTICS_PER_FILE as u32,
        );
        assert_eq!(cap_per_file(FileId(0), all.clone()), all);
    }

    #[test]
    fn root_causes_are_kept_before_what_they_cause() {
        // 1,500 consequences first in the file, then a cycle and an unknown id, then a syntax
        // error at the very end.
        let mut all = repeated(codes::AGENT_REQUIRES_UNSATISFIABLE, 1_500);
        all.push(diagnostic(codes::AGENT_REQUIRES_CYCLE, 2_000));
        all.push(diagnostic(codes::AGENT_UNKNOWN_SKILL, 2_001));
        all.push(diagnostic(codes::WORKSPACE_YAML_PARSE, 2_002));
        let kept = cap_per_file(FileId(0), all);
        assert_eq!(kept.len(), MAX_DIAGNOSTICS_PER_FILE + 1);
        assert_eq!(kept[0].code, codes::FILE_TOO_MANY_DIAGNOSTICS);
        assert!(
            kept[0]
                .message
                .contains("1503 diagnostics; 503 are left out"),
            "{}",
            kept[0].message
        );
        let codes: Vec<_> = kept[kept.len() - 3..].iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            [
                codes::AGENT_REQUIRES_CYCLE,
                codes::AGENT_UNKNOWN_SKILL,
                codes::WORKSPACE_YAML_PARSE
            ]
        );
        // The consequences kept are the first 997 in position order, still in that order.
        assert!(kept[1..998]
            .iter()
            .enumerate()
            .all(|(i, d)| d.range.start == i as u32));
    }

    #[test]
    fn long_quotes_keep_their_ends_and_short_ones_stay_whole() {
        let long_id = format!("start-{}-end", "x".repeat(3_000_000));
        let mut text = format!("no skill has the id `{long_id}`; did you mean `skill-1`?");
        clip_quotes(&mut text);
        let expected = format!(
            "no skill has the id `start-{}…{}-end`; did you mean `skill-1`?",
            "x".repeat(QUOTE_HEAD_CHARS - 6),
            "x".repeat(QUOTE_TAIL_CHARS - 4)
        );
        assert_eq!(text, expected);

        // Characters, not bytes: a quote of 80 multi-byte characters is shown whole, one of 81
        // is cut at character boundaries.
        let mut whole = format!("`{}` and `é`", "é".repeat(MAX_QUOTE_CHARS));
        let before = whole.clone();
        clip_quotes(&mut whole);
        assert_eq!(whole, before);
        let mut cut = format!("`{}`", "é".repeat(MAX_QUOTE_CHARS + 1));
        clip_quotes(&mut cut);
        assert_eq!(
            cut.chars().count(),
            QUOTE_HEAD_CHARS + 1 + QUOTE_TAIL_CHARS + 2
        );

        // An unpaired backtick (an id holding one) leaves the rest as it is.
        let mut odd = format!("`{}` then `open", "a".repeat(200));
        clip_quotes(&mut odd);
        assert!(odd.ends_with("` then `open"), "{odd}");
    }

    #[test]
    fn a_long_message_keeps_its_start_and_its_advice() {
        let names: Vec<String> = (0..20_000).map(|i| format!("`t{i}`")).collect();
        let mut text = format!(
            "the skill needs one of {}; add one to the inventory",
            names.join(", ")
        );
        clip_message(&mut text);
        assert!(text.len() <= MAX_MESSAGE_BYTES + 60, "{}", text.len());
        assert!(text.starts_with("the skill needs one of `t0`, `t1`"));
        assert!(text.ends_with("; add one to the inventory"));
        assert!(text.contains("characters left out"));
        // Multi-byte characters are cut at their boundaries.
        let mut wide = "é".repeat(5_000);
        clip_message(&mut wide);
        assert!(wide.starts_with('é') && wide.ends_with('é'));
        let mut short = "fine as it is".to_owned();
        clip_message(&mut short);
        assert_eq!(short, "fine as it is");
    }

    #[test]
    fn the_cap_clips_messages_related_notes_and_fix_titles() {
        let long_id = "y".repeat(10_000);
        let mut d = diagnostic(codes::AGENT_UNKNOWN_SKILL, 0);
        d.message = format!("`{long_id}`");
        d.related.push(crate::diagnostic::Related {
            file: FileId(0),
            range: TextRange::new(0, 1),
            message: format!("`{long_id}` is granted here"),
        });
        d.fixes.push(crate::diagnostic::Fix::replace(
            format!("Replace with `{long_id}`"),
            FileId(0),
            TextRange::new(0, 1),
            long_id.clone(),
        ));
        let kept = cap_per_file(FileId(0), vec![d]);
        assert!(kept[0].message.len() < 200);
        assert!(kept[0].related[0].message.len() < 200);
        assert!(kept[0].fixes[0].title.len() < 200);
        // The edit itself is what the fix writes: never shortened.
        assert_eq!(kept[0].fixes[0].edits[0].text, long_id);
    }

    #[test]
    fn a_cycle_is_kept_behind_a_thousand_other_root_causes() {
        for many in [
            codes::SKILLMD_CHAIN_UNKNOWN_SKILL,
            codes::YAML_DUPLICATE_KEY,
        ] {
            let mut all = repeated(many, 1_500);
            all.push(diagnostic(codes::SKILLMD_CHAIN_CYCLE, 5_000));
            let kept = cap_per_file(FileId(0), all);
            assert!(
                kept.iter().any(|d| d.code == codes::SKILLMD_CHAIN_CYCLE),
                "{many}"
            );
        }
    }

    #[test]
    fn errors_are_kept_before_warnings_of_the_same_rank() {
        let mut all = repeated(codes::AGENT_REQUIRES_NOT_ENFORCED, 1_200);
        all.push(diagnostic(codes::AGENT_REQUIRES_UNSATISFIABLE, 5_000));
        assert_ne!(all[0].severity, all[1_200].severity);
        let kept = cap_per_file(FileId(0), all);
        assert!(kept
            .iter()
            .any(|d| d.code == codes::AGENT_REQUIRES_UNSATISFIABLE));
    }
}
