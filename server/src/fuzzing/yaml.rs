//! The YAML layer with `${…}` substitution: a document parsed (at offset 0 and at an offset, as a
//! SKILL.md frontmatter is), walked, and substituted from a property file and an environment.
//!
//! Input: the artifact's text; when a line `#%env` is in it, the text before that line is the
//! workspace's `workspace.env.yaml` and the text after it the artifact.
//!
//! Properties: nothing panics; every node's range and every substitution's range is a range of
//! the text; the tree is the same at any base offset, its ranges shifted; a substituted value
//! grows by at most the cap; line and column of every node's ends convert back to the offset in
//! both encodings.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use super::{assert_range_in, text_of};
use crate::model::swarmkit::EnvFile;
use crate::syntax::interpolate::{interpolate, MAX_GROWTH};
use crate::syntax::{LineIndex, Node, PositionEncoding, TextRange, YamlDocument};

/// The line that separates the property file from the artifact.
const ENV_MARKER: &str = "#%env\n";
/// Where the second parse puts the text.
const BASE: u32 = 7;

pub fn yaml(data: &[u8]) {
    let input = text_of(data);
    let (env_text, text) = match input.find(ENV_MARKER) {
        Some(at) if at == 0 || input.as_bytes()[at - 1] == b'\n' => {
            (&input[..at], &input[at + ENV_MARKER.len()..])
        }
        _ => ("", input.as_str()),
    };

    let env_doc = YamlDocument::parse(env_text, 0);
    walk(&env_doc, env_text, 0);
    let environment: Arc<BTreeMap<String, String>> = Arc::new(
        [
            ("HOME", "/home/user"),
            ("EMPTY", ""),
            ("NESTED", "${HOME}"),
            ("PORT", "8080"),
        ]
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .collect(),
    );
    let variables = EnvFile::lower(&env_doc, env_text)
        .variables(Path::new("/ws/workspace.env.yaml"), &environment);
    for property in variables.properties.values() {
        assert_range_in(env_text, property.range, &"a property");
    }

    let mut doc = YamlDocument::parse(text, 0);
    let shape = walk(&doc, text, 0);
    for error in &doc.errors {
        assert_range_in(text, error.range, &"a syntax error");
    }
    for duplicate in &doc.duplicate_keys {
        assert_range_in(text, duplicate.first, &"a repeated key's first");
        assert_range_in(text, duplicate.second, &"a repeated key");
    }

    // As a frontmatter is parsed: at an offset into the whole file.
    let mut shifted_text = " ".repeat(BASE as usize);
    shifted_text.push_str(text);
    let shifted = YamlDocument::parse(text, BASE);
    let shifted_shape = walk(&shifted, &shifted_text, BASE);
    assert_eq!(
        shape, shifted_shape,
        "the tree differs when parsed at an offset"
    );

    let substitutions = interpolate(&mut doc, &variables);
    let mut grown = 0usize;
    for substitution in &substitutions {
        assert_range_in(text, substitution.range, &"a substitution");
        let written = &text[substitution.range.start as usize..substitution.range.end as usize];
        grown += substitution.value.len().saturating_sub(written.len());
    }
    assert!(
        grown <= MAX_GROWTH,
        "substitution grew the document by {grown} bytes"
    );
    walk(&doc, text, 0);

    let lines = LineIndex::new(text);
    let mut offsets: Vec<u32> = shape.iter().flat_map(|(r, _)| [r.start, r.end]).collect();
    offsets.sort_unstable();
    offsets.dedup();
    for offset in offsets.into_iter().take(512) {
        for encoding in [PositionEncoding::Utf8, PositionEncoding::Utf16] {
            let position = lines.line_col(text, offset, encoding);
            assert_eq!(
                lines.offset(text, position, encoding),
                offset,
                "offset {offset} -> {position:?} ({encoding:?}) does not convert back"
            );
        }
    }
}

/// Every node as written (aliases not followed), depth first: its range less `base`, and what it
/// is. Asserts that each range is a range of `text` and that expanded sizes are answered.
fn walk(doc: &YamlDocument, text: &str, base: u32) -> Vec<(TextRange, String)> {
    let mut out = Vec::new();
    let mut stack: Vec<Node<'_>> = doc.root().into_iter().collect();
    while let Some(node) = stack.pop() {
        assert_range_in(text, node.range(), &"a node");
        let _ = (node.expanded_size(), node.expanded_height(), node.value());
        let what = match node.scalar() {
            _ if node.is_alias() => {
                let target = node.resolved();
                assert_range_in(text, target.range(), &"an alias's target");
                "alias".to_owned()
            }
            Some(scalar) => format!("{scalar:?} {:?}", node.style()),
            None => node.type_name().to_owned(),
        };
        let range = TextRange::new(node.range().start - base, node.range().end - base);
        out.push((range, what));
        if node.is_alias() {
            continue;
        }
        if node.is_mapping() {
            for (key, value) in node.entries() {
                stack.push(value);
                stack.push(key);
            }
        } else if node.is_sequence() {
            stack.extend(node.items().rev());
        }
    }
    out
}
