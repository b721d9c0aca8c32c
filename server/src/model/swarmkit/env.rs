//! `workspace.env.yaml` (and its `workspace.env.<name>.yaml` variants): the property map that
//! `${…}` references in a workspace's artifacts read first. Lowered as swarmkit-runtime 1.265.0
//! loads it (`load_env_config_typed`, `_flatten`, `_flatten_typed` in
//! `resolver/_env_config.py`): a file that does not parse, or whose top is not a mapping, gives
//! no properties at all; the reserved top-level `secrets:` list is not a property; nested
//! mappings flatten to dotted paths; every other value is a leaf (a list included).

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::syntax::interpolate::{substitute, Property, Typed, Variables, MAX_GROWTH};
use crate::syntax::{Node, NodeKind, ScalarValue, TextRange, YamlDocument};

/// The reserved key that lists which properties are secret (`SECRETS_KEY`).
const SECRETS_KEY: &str = "secrets";

/// One property as written: its text before `${…}` in it is resolved against the environment.
#[derive(Clone, Debug, PartialEq)]
pub struct RawProperty {
    pub path: String,
    /// `str()` of the value, as Python gives it (`True`, `None`, `4096`, a string as is).
    pub text: String,
    pub typed: Typed,
    pub range: TextRange,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct EnvFile {
    /// In file order.
    pub properties: Vec<RawProperty>,
    /// The file does not parse (or holds more than one document): SwarmKit reads no property
    /// from it.
    pub unreadable: bool,
}

impl EnvFile {
    pub fn lower(doc: &YamlDocument, text: &str) -> EnvFile {
        let unreadable = !doc.errors.is_empty();
        let mut properties = Vec::new();
        let root = doc.root().filter(|root| root.is_mapping());
        if let (false, Some(root)) = (unreadable, root) {
            // Depth first in file order, as `_flatten` recurses, with a stack of open mappings
            // instead of recursion.
            let mut open = vec![(String::new(), root.entries())];
            while let Some((prefix, entries)) = open.last_mut() {
                let at_top = prefix.is_empty();
                let Some((key, value)) = entries.next() else {
                    open.pop();
                    continue;
                };
                let Some(key_text) = python_str(key, text) else {
                    continue;
                };
                if at_top && key_text == SECRETS_KEY {
                    continue;
                }
                let path = if prefix.is_empty() {
                    key_text
                } else {
                    format!("{prefix}.{key_text}")
                };
                if value.is_mapping() {
                    open.push((path, value.entries()));
                    continue;
                }
                properties.push(RawProperty {
                    path,
                    text: python_str(value, text).unwrap_or_default(),
                    typed: typed_of(value),
                    range: value.range(),
                });
            }
        }
        EnvFile {
            properties,
            unreadable,
        }
    }

    /// The variables of a workspace whose property file this is, with `${…}` inside property
    /// values resolved against `environment` (properties do not see each other). A later
    /// property of the same path wins, as a Python dict update does.
    pub fn variables(
        &self,
        path: &std::path::Path,
        environment: &Arc<BTreeMap<String, String>>,
    ) -> Variables {
        let only_environment = Variables {
            environment: environment.clone(),
            ..Variables::default()
        };
        // Growth is capped as in artifacts: a property whose substitution would pass what is
        // left of the cap keeps its text as written.
        let mut budget = MAX_GROWTH;
        let properties = self
            .properties
            .iter()
            .map(|raw| {
                let most = raw.text.len() + budget;
                let text = substitute(&raw.text, &only_environment, &mut Vec::new(), most)
                    .unwrap_or_else(|| raw.text.clone());
                budget -= text.len().saturating_sub(raw.text.len());
                let property = Property {
                    text,
                    typed: raw.typed.clone(),
                    range: raw.range,
                };
                (raw.path.clone(), property)
            })
            .collect();
        Variables {
            properties: Arc::new(properties),
            property_file: Some(path.to_owned()),
            environment: environment.clone(),
        }
    }
}

/// The type a whole-value reference to this leaf takes.
fn typed_of(value: Node<'_>) -> Typed {
    match value.value() {
        ScalarValue::Str(_) => Typed::Str,
        ScalarValue::Null => Typed::Plain("null".to_owned()),
        ScalarValue::Bool(b) => Typed::Plain(b.to_string()),
        ScalarValue::Int(i) => Typed::Plain(i.to_string()),
        ScalarValue::Float(f) => Typed::Plain(python_float(f)),
        ScalarValue::NotScalar => Typed::Collection,
    }
}

/// `str()` of a value as Python prints it. A list is shown as written (Python would print its
/// `repr`), which only matters when a longer string embeds it.
fn python_str(node: Node<'_>, text: &str) -> Option<String> {
    Some(match node.value() {
        ScalarValue::Str(s) => s.to_owned(),
        ScalarValue::Null => "None".to_owned(),
        ScalarValue::Bool(true) => "True".to_owned(),
        ScalarValue::Bool(false) => "False".to_owned(),
        ScalarValue::Int(i) => i.to_string(),
        ScalarValue::Float(f) => python_float(f),
        ScalarValue::NotScalar => match node.kind() {
            NodeKind::Sequence(_) => text
                .get(node.range().start as usize..node.range().end as usize)?
                .to_owned(),
            _ => return None,
        },
    })
}

fn python_float(f: f64) -> String {
    if f.is_nan() {
        "nan".to_owned()
    } else if f.is_infinite() {
        if f > 0.0 { "inf" } else { "-inf" }.to_owned()
    } else {
        format!("{f:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lower(text: &str) -> EnvFile {
        EnvFile::lower(&YamlDocument::parse(text, 0), text)
    }

    #[test]
    fn flattens_to_dotted_paths_without_secrets() {
        let env = lower(
            "model:\n  name: m\n  vision: {num_ctx: 4096, on: true}\nsecrets: [model.name]\ntags: [a, b]\nnone: ~\nf: 1.0\n",
        );
        let found: Vec<(&str, &str, &Typed)> = env
            .properties
            .iter()
            .map(|p| (p.path.as_str(), p.text.as_str(), &p.typed))
            .collect();
        assert_eq!(
            found,
            vec![
                ("model.name", "m", &Typed::Str),
                ("model.vision.num_ctx", "4096", &Typed::Plain("4096".into())),
                ("model.vision.on", "True", &Typed::Plain("true".into())),
                ("tags", "[a, b]", &Typed::Collection),
                ("none", "None", &Typed::Plain("null".into())),
                ("f", "1.0", &Typed::Plain("1.0".into())),
            ]
        );
    }

    #[test]
    fn a_file_that_does_not_parse_or_is_not_a_mapping_gives_nothing() {
        assert!(lower("a: [1\n").properties.is_empty());
        assert!(lower("a: [1\n").unreadable);
        assert!(lower("- a\n- b\n").properties.is_empty());
        assert!(!lower("- a\n").unreadable);
    }

    #[test]
    fn property_values_resolve_the_environment_only() {
        let env = lower("url: http://${HOST:-localhost}/${other}\nother: x\n");
        let environment = Arc::new(BTreeMap::from([("HOST".to_owned(), "h".to_owned())]));
        let variables = env.variables(std::path::Path::new("/w/workspace.env.yaml"), &environment);
        assert_eq!(variables.properties["url"].text, "http://h/${other}");
    }

    #[test]
    fn property_growth_is_capped_like_artifacts() {
        // Each property references an environment value of a megabyte three times: the first
        // fits, the second would pass what is left of the cap and stays as written.
        let refs = "${BIG}".repeat(3);
        let env = lower(&format!("a: \"{refs}\"\nb: \"{refs}\"\n"));
        let environment = Arc::new(BTreeMap::from([(
            "BIG".to_owned(),
            "z".repeat(1024 * 1024),
        )]));
        let variables = env.variables(std::path::Path::new("/w/workspace.env.yaml"), &environment);
        assert_eq!(variables.properties["a"].text.len(), 3 * 1024 * 1024);
        assert_eq!(variables.properties["b"].text, refs);
    }
}
