//! Output proportional to input: a file reports at most [`MAX_DIAGNOSTICS_PER_FILE`]
//! diagnostics, plus one `file.too-many-diagnostics` saying how many were left out. When the cap
//! cuts, root causes are kept before what they cause: [`PRIORITY`] ranks the codes. The code is
//! documented with the other `file.*` codes in `rules/mod.rs`.

use crate::diagnostic::{Diagnostic, FileId};
use crate::syntax::TextRange;

/// Most diagnostics one file reports (the summary of what was left out comes on top).
pub const MAX_DIAGNOSTICS_PER_FILE: usize = 1_000;

/// How early a code is kept when the cap cuts: lower first. Codes not listed rank [`LATER`]:
/// they are either consequences of the ones here (a rule a cycle blocks, a field a broken
/// parse leaves missing) or stand alone.
pub const PRIORITY: &[(&str, u8)] = &[
    // The file itself: nothing else in it can be trusted until these are fixed.
    ("file.too-large", 0),
    ("file.encoding", 0),
    ("workspace.yaml-parse", 0),
    ("yaml.alias-expansion", 0),
    ("yaml.alias-depth", 0),
    ("yaml.duplicate-key", 0),
    ("workspace.kind-mismatch", 0),
    ("workspace.deep-nesting", 0),
    ("workspace.malformed", 0),
    ("skillmd.no-frontmatter", 0),
    ("skillmd.unclosed-frontmatter", 0),
    ("skillmd.yaml-parse", 0),
    ("skillmd.not-a-mapping", 0),
    ("config.invalid", 0),
    // Root causes: each explains diagnostics elsewhere (blocked or unsatisfiable rules, chains
    // that never end, references resolving to the wrong definition).
    ("agent.depends-on-cycle", 1),
    ("agent.requires-cycle", 1),
    ("skill.composed-cycle", 1),
    ("skillmd.chain-cycle", 1),
    ("skill.duplicate-id", 1),
    ("archetype.duplicate-id", 1),
    ("topology.duplicate-id", 1),
    ("trigger.duplicate-id", 1),
    ("funnel.duplicate-id", 1),
    ("role.duplicate-id", 1),
    ("contract.duplicate-id", 1),
    ("agent.duplicate-id", 1),
    ("skillmd.duplicate-name", 1),
    ("command-pack.id-collision", 1),
    ("workspace-pack.id-collision", 1),
    ("agent.unknown-archetype", 1),
    ("agent.unknown-funnel", 1),
    ("trigger.unknown-target", 1),
    ("agent.depends-on-unknown", 1),
    ("agent.unknown-skill", 1),
    ("archetype.unknown-skill", 1),
    ("agent.unknown-bulk-grant", 1),
    ("agent.requires-unknown-skill", 1),
    ("skill.composed-unknown", 1),
    ("skill.unknown-mcp-server", 1),
    ("skillmd.chain-unknown-skill", 1),
];

/// The rank of codes [`PRIORITY`] does not list.
pub const LATER: u8 = 2;

pub fn priority(code: &str) -> u8 {
    PRIORITY
        .iter()
        .find(|(c, _)| *c == code)
        .map_or(LATER, |&(_, rank)| rank)
}

/// Applies the cap to one file's diagnostics, sorted by position: keeps the
/// [`MAX_DIAGNOSTICS_PER_FILE`] that rank first (by [`priority`], then severity, then position),
/// still in position order, and adds the summary of what was left out.
pub fn cap_per_file(file: FileId, mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
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
        "file.too-many-diagnostics",
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

    fn diagnostic(code: &'static str, at: u32) -> Diagnostic {
        Diagnostic::new(
            code,
            FileId(0),
            TextRange::new(at, at + 1),
            format!("at {at}"),
        )
    }

    #[test]
    fn every_ranked_code_is_in_the_catalogue() {
        for (code, _) in PRIORITY {
            assert!(super::super::catalogue::lookup(code).is_some(), "{code}");
        }
    }

    #[test]
    fn under_the_cap_nothing_changes() {
        let all: Vec<_> = (0..MAX_DIAGNOSTICS_PER_FILE as u32)
            .map(|i| diagnostic("agent.requires-unsatisfiable", i))
            .collect();
        assert_eq!(cap_per_file(FileId(0), all.clone()), all);
    }

    #[test]
    fn root_causes_are_kept_before_what_they_cause() {
        // 1,500 consequences first in the file, then a cycle and an unknown id, then a syntax
        // error at the very end.
        let mut all: Vec<_> = (0..1_500)
            .map(|i| diagnostic("agent.requires-unsatisfiable", i))
            .collect();
        all.push(diagnostic("agent.requires-cycle", 2_000));
        all.push(diagnostic("agent.unknown-skill", 2_001));
        all.push(diagnostic("workspace.yaml-parse", 2_002));
        let kept = cap_per_file(FileId(0), all);
        assert_eq!(kept.len(), MAX_DIAGNOSTICS_PER_FILE + 1);
        assert_eq!(kept[0].code, "file.too-many-diagnostics");
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
                "agent.requires-cycle",
                "agent.unknown-skill",
                "workspace.yaml-parse"
            ]
        );
        // The consequences kept are the first 997 in position order, still in that order.
        assert!(kept[1..998]
            .iter()
            .enumerate()
            .all(|(i, d)| d.range.start == i as u32));
    }

    #[test]
    fn errors_are_kept_before_warnings_of_the_same_rank() {
        let mut all: Vec<_> = (0..1_200)
            .map(|i| diagnostic("agent.requires-not-enforced", i))
            .collect();
        all.push(diagnostic("agent.requires-unsatisfiable", 5_000));
        assert_ne!(all[0].severity, all[1_200].severity);
        let kept = cap_per_file(FileId(0), all);
        assert!(kept
            .iter()
            .any(|d| d.code == "agent.requires-unsatisfiable"));
    }
}
