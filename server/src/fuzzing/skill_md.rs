//! SKILL.md frontmatter and body scanning: the file split into frontmatter and body, lowered,
//! its links found, then checked in a workspace of its own (file-local and cross-file checks,
//! suppression comments in the body) and asked for its outline, links and hovers.
//!
//! Input: the bytes of one SKILL.md (decoded as the disk reader decodes them).
//!
//! Properties: nothing panics; every range the split, the lowering, the links, the diagnostics
//! and the IDE's answers name is a range of the text.

use std::path::PathBuf;

use super::{assert_diagnostic_ranges, assert_ide_answers, assert_range_in, probe_offsets};
use crate::index::{Change, Index};
use crate::model::skill_md::SkillMd;
use crate::syntax::{bom_len, frontmatter_yaml, split_frontmatter, Frontmatter};

/// Where the file sits: a Claude Code skills folder, so the host's rules apply too.
const PATH: &str = "/ws/.claude/skills/demo/SKILL.md";

pub fn skill_md(data: &[u8]) {
    let data = &data[..data.len().min(super::MAX_INPUT)];
    let change = Change::from_bytes(PathBuf::from(PATH), data);
    let text = match &change {
        Change::Set { text, .. } | Change::SetDecoded { text, .. } => text.clone(),
        _ => unreachable!("a file read as bytes is set"),
    };

    let frontmatter = split_frontmatter(&text, bom_len(&text));
    match &frontmatter {
        Frontmatter::Missing => {}
        Frontmatter::Unclosed { open } => assert_range_in(&text, *open, &"an opening fence"),
        Frontmatter::Closed { open, yaml, close } => {
            for range in [open, yaml, close] {
                assert_range_in(&text, *range, &"a frontmatter's part");
            }
        }
    }
    let yaml = frontmatter_yaml(&text, &frontmatter);
    let skill = SkillMd::lower(&text, frontmatter, yaml.as_ref());
    for field in &skill.fields {
        assert_range_in(&text, field.key.range, &"a field's key");
        assert_range_in(&text, field.value.range, &"a field's value");
    }
    for link in skill.links(&text) {
        assert_range_in(&text, link.range, &"a link");
    }

    let mut index = Index::new(&crate::rules::CHECKS);
    index.apply(vec![change]);
    let file = index
        .file_id(std::path::Path::new(PATH))
        .expect("the SKILL.md is indexed");
    for diagnostic in index.diagnostics(file) {
        assert_diagnostic_ranges(&index, &diagnostic);
    }
    assert_ide_answers(&index, file, &probe_offsets(&text));
}
