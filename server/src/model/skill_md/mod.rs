//! A SKILL.md's frontmatter as typed fields with spans, and the one list of top-level fields we
//! know (the Agent Skills spec, host extensions such as Claude Code's, and the proposals we
//! check). Lowering never fails: whatever the frontmatter holds, we keep what can be read and
//! leave the judging to `rules::skill_md`.
//!
//! Values are kept as the text that was written, whatever their YAML type (`name: 42` has the
//! name "42"): the reference validator `skills-ref` reads every scalar as a string, and so do we,
//! so that a skill is judged the same by both tools.

pub mod extensions;
pub mod portable;
pub mod value;

use std::path::Path;

use unicode_normalization::UnicodeNormalization;

pub use extensions::Extensions;
pub use value::{Shape, Value};

use super::skill_links::Link;
use super::{Spanned, SpannedStr};
use crate::syntax::{Frontmatter, Node, NodeKind, TextRange, YamlDocument};

/// The frontmatter of one SKILL.md.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillMd {
    /// Where the frontmatter is (or that it is missing or unclosed).
    pub frontmatter: Frontmatter,
    /// True when the frontmatter parsed to a mapping (possibly with a syntax error part-way).
    pub is_mapping: bool,
    /// The frontmatter is a mapping written in flow style (`{name: x, ...}`).
    pub is_flow: bool,
    /// The frontmatter's YAML stops part-way; the values it cut short read as empty.
    pub has_syntax_error: bool,
    /// Every top-level entry whose key is a scalar, in the order written.
    pub fields: Vec<Field>,
    pub name: Option<FieldValue>,
    pub description: Option<FieldValue>,
    pub compatibility: Option<FieldValue>,
    /// The proposed extensions (`dependencies`, `metadata.chain`, the skill gate's fields).
    pub extensions: Extensions,
    /// The paths the frontmatter's values point at (`{baseDir}/...`, a `license` file), found
    /// while the tree is at hand; [`SkillMd::links`] adds the body's.
    pub frontmatter_links: Vec<Link>,
    /// Where each key is in `fields`, for a frontmatter of [`FIELDS_BY_KEY_FROM`] fields or
    /// more: checks ask for fields by key, and a frontmatter may hold a hundred thousand.
    fields_by_key: Option<std::collections::HashMap<String, usize>>,
}

/// A frontmatter with this many fields or more finds them by key through a table; a smaller one
/// is scanned, which costs about what hashing would.
const FIELDS_BY_KEY_FROM: usize = 16;

/// A top-level entry: its key as written, and its value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    pub key: SpannedStr,
    pub value: Value,
}

/// The value of a field that should be text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FieldValue {
    /// A scalar, as written (`""` for an empty value, `true` for `true`).
    Text(SpannedStr),
    /// A list or a mapping where text was expected; `kind` is "list" or "mapping".
    Collection {
        kind: &'static str,
        range: TextRange,
    },
}

impl FieldValue {
    pub fn range(&self) -> TextRange {
        match self {
            FieldValue::Text(text) => text.range,
            FieldValue::Collection { range, .. } => *range,
        }
    }

    pub fn text(&self) -> Option<&SpannedStr> {
        match self {
            FieldValue::Text(text) => Some(text),
            FieldValue::Collection { .. } => None,
        }
    }
}

impl SkillMd {
    /// Lowers a split SKILL.md (`text`, the whole file). `yaml` is the parse of the frontmatter
    /// block (present exactly when the frontmatter is closed,
    /// [`crate::syntax::frontmatter_yaml`]); nothing later reads it.
    pub fn lower(text: &str, frontmatter: Frontmatter, yaml: Option<&YamlDocument>) -> SkillMd {
        let mut skill = SkillMd {
            frontmatter,
            is_mapping: false,
            is_flow: false,
            has_syntax_error: yaml.is_some_and(YamlDocument::has_syntax_error),
            fields: Vec::new(),
            name: None,
            description: None,
            compatibility: None,
            extensions: Extensions::default(),
            frontmatter_links: Vec::new(),
            fields_by_key: None,
        };
        let Some(root) = yaml.and_then(YamlDocument::root) else {
            return skill;
        };
        if !root.is_mapping() {
            return skill;
        }
        skill.is_mapping = true;
        skill.is_flow = root.is_flow();
        skill.extensions = Extensions::lower(root);
        portable::read(&mut skill.extensions, root);
        skill.frontmatter_links = super::skill_links::frontmatter_links(text, root);
        for (key, value) in root.entries() {
            let Some(key_text) = key.scalar() else {
                continue;
            };
            skill.fields.push(Field {
                key: Spanned::new(key_text.to_owned(), key.range()),
                value: Value::lower(value),
            });
            // The tree keeps only the last of a repeated key (as PyYAML does); the repeat is a
            // duplicate-key error.
            let slot = match key_text {
                "name" => &mut skill.name,
                "description" => &mut skill.description,
                "compatibility" => &mut skill.compatibility,
                _ => continue,
            };
            if slot.is_none() {
                *slot = Some(field_value(value));
            }
        }
        if skill.fields.len() >= FIELDS_BY_KEY_FROM {
            let mut by_key = std::collections::HashMap::with_capacity(skill.fields.len());
            for (at, field) in skill.fields.iter().enumerate() {
                by_key.entry(field.key.value.clone()).or_insert(at);
            }
            skill.fields_by_key = Some(by_key);
        }
        skill
    }

    /// The name as hosts and `skills-ref` compare it: trimmed, then NFKC-normalised. `None` when
    /// there is no usable name (missing, empty or not text).
    pub fn normalized_name(&self) -> Option<String> {
        let text = self.name.as_ref()?.text()?;
        let name = normalize_name(&text.value);
        (!name.is_empty()).then_some(name)
    }

    /// The range of the `name` value, if there is one.
    pub fn name_range(&self) -> Option<TextRange> {
        self.name.as_ref().map(FieldValue::range)
    }

    /// The first top-level field whose key is `key` (YAML keeps only the last of a repeated key,
    /// so there is one).
    pub fn field(&self, key: &str) -> Option<&Field> {
        match &self.fields_by_key {
            Some(by_key) => by_key.get(key).map(|&at| &self.fields[at]),
            None => self.fields.iter().find(|f| f.key.value == key),
        }
    }

    /// Every path the file points at, frontmatter and body, in file order.
    pub fn links(&self, text: &str) -> Vec<Link> {
        super::skill_links::links(text, &self.frontmatter, &self.frontmatter_links)
    }
}

/// Trim (Unicode whitespace), then NFKC: the form every name rule is checked on.
pub fn normalize_name(raw: &str) -> String {
    raw.trim().nfkc().collect()
}

/// The skill root of a SKILL.md: the folder holding its skill folder (its grandparent). Skills
/// of one root are loaded together, and a chain resolves from it.
pub fn skill_root(path: &Path) -> Option<&Path> {
    path.parent()?.parent()
}

/// NFKC alone, for folder names (which are not trimmed, as in `skills-ref`).
pub fn nfkc(raw: &str) -> String {
    raw.nfkc().collect()
}

fn field_value(node: Node<'_>) -> FieldValue {
    match node.kind() {
        NodeKind::Sequence(_) => FieldValue::Collection {
            kind: "list",
            range: node.range(),
        },
        NodeKind::Mapping(_) => FieldValue::Collection {
            kind: "mapping",
            range: node.range(),
        },
        // An alias that named nothing reads as an empty value.
        _ => FieldValue::Text(Spanned::new(
            node.scalar().unwrap_or_default().to_owned(),
            node.range(),
        )),
    }
}

pub use super::hosts::{known_field, FieldOrigin, KnownField, KNOWN_FIELDS};

/// Whether a key under `metadata` belongs to the proposed extensions (`metadata.chain` and its
/// options, the skill gate's fields). They are not plain strings, so the string-to-string rule of
/// `metadata` does not apply to them; their own rules check them. The chain options are the
/// chain's only beside a `chain`; elsewhere they are plain metadata.
pub fn is_metadata_extension_key(key: &str, has_chain: bool) -> bool {
    match key {
        "chain" | "precondition" | "action_tool" => true,
        _ => has_chain && extensions::chain_option(key).is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::split_frontmatter;

    fn lower(text: &str) -> SkillMd {
        let frontmatter = split_frontmatter(text, 0);
        let yaml = crate::syntax::frontmatter_yaml(text, &frontmatter);
        SkillMd::lower(text, frontmatter, yaml.as_ref())
    }

    /// The text `range` covers (for the tests of this module's files too).
    pub(super) fn slice(text: &str, range: TextRange) -> &str {
        &text[range.start as usize..range.end as usize]
    }

    #[test]
    fn fields_with_spans_in_the_file() {
        let text = "---\nname: pdf\ndescription: Reads PDFs.\nversion: 1.0.0\n---\n# Body\n";
        let skill = lower(text);
        assert!(skill.is_mapping);
        let keys: Vec<&str> = skill.fields.iter().map(|f| f.key.value.as_str()).collect();
        assert_eq!(keys, ["name", "description", "version"]);
        assert_eq!(slice(text, skill.fields[2].key.range), "version");
        let name = skill.name.as_ref().and_then(FieldValue::text).unwrap();
        assert_eq!(slice(text, name.range), "pdf");
        assert_eq!(skill.normalized_name().as_deref(), Some("pdf"));
    }

    #[test]
    fn every_scalar_is_text_and_collections_are_kept_apart() {
        let skill = lower("---\nname: 42\ndescription:\n  - a\n---\n");
        assert_eq!(skill.normalized_name().as_deref(), Some("42"));
        assert!(matches!(
            skill.description,
            Some(FieldValue::Collection { kind: "list", .. })
        ));
    }

    #[test]
    fn never_fails() {
        for text in [
            "",
            "---",
            "---\n---\n",
            "---\n- a\n---\n",
            "---\n: : :\n---\n",
        ] {
            let skill = lower(text);
            assert!(skill.name.is_none(), "{text:?}");
        }
    }

    #[test]
    fn names_are_trimmed_and_nfkc_normalised() {
        assert_eq!(normalize_name("  ａｂｃ-ﬁ "), "abc-fi");
        assert_eq!(nfkc("x²"), "x2");
    }
}
