//! What a bundled SwarmKit schema allows at a place of a file: the keys a mapping accepts and the
//! values a key takes, with what the schema says of each. Completion asks with the keys enclosing
//! the cursor, read from the text (a half-typed document is often not valid YAML), so the answer
//! is the one `rules::schema` holds the file to.
//!
//! A place is a [`View`]: the schemas that apply there, kept as the schema combines them
//! (`allOf` parts all apply, `oneOf` / `anyOf` branches are alternatives), so the root agent's
//! `role` is `root` alone (the agent's enum narrowed by the root's `const`) while a child's is
//! `leader` or `worker`. Lists are stepped through: a key below a list's `- ` is a key of its
//! items. Only local `$ref`s (`#/$defs/...`) occur in the bundled schemas.

use serde_json::Value;

use crate::model::swarmkit::ArtifactKind;
use crate::rules::schema::KeyOrder;

/// The schemas that apply at one place.
#[derive(Debug)]
pub enum View<'s> {
    Schema(&'s Value),
    /// Every part applies.
    All(Vec<View<'s>>),
    /// One of the branches applies.
    Any(Vec<View<'s>>),
}

/// A key a mapping accepts.
#[derive(Debug)]
pub struct KeyInfo<'s> {
    pub name: &'s str,
    /// The schema of its value (its description, type, values).
    pub schema: &'s Value,
    pub required: bool,
}

/// How far `$ref`, `allOf` and branches are followed inside one place. The bundled schemas nest a
/// handful of levels; this only stops a schema that refers to itself without a key between.
const MAX_NESTING: usize = 32;

pub struct Shape<'s> {
    root: &'s Value,
    /// The written order of the keys; without it keys come sorted.
    order: Option<&'s KeyOrder>,
}

impl<'s> Shape<'s> {
    /// The bundled schema of `kind`, its keys offered in the order the schema writes them.
    pub fn bundled(kind: ArtifactKind) -> Option<Shape<'static>> {
        Some(Shape {
            root: crate::rules::schema::bundled_schema(kind)?,
            order: crate::rules::schema::bundled_key_order(kind),
        })
    }

    fn target(&self, schema: &'s Value) -> Option<&'s Value> {
        let reference = schema.get("$ref")?.as_str()?;
        self.root.pointer(reference.strip_prefix('#')?)
    }

    /// The place below the document root at `path`, outermost key first.
    pub fn at(&self, path: &[&str]) -> View<'s> {
        let mut view = View::Schema(self.root);
        for key in path {
            view = self.child(&view, key, 0);
        }
        view
    }

    /// The value of `key` in the mapping at `view` (or in the items of the list at `view`).
    pub fn child(&self, view: &View<'s>, key: &str, depth: usize) -> View<'s> {
        match view {
            View::All(parts) => {
                View::All(parts.iter().map(|p| self.child(p, key, depth)).collect())
            }
            View::Any(parts) => {
                View::Any(parts.iter().map(|p| self.child(p, key, depth)).collect())
            }
            View::Schema(schema) => {
                let mut parts = Vec::new();
                if depth > MAX_NESTING {
                    return View::All(parts);
                }
                match schema.get("properties").and_then(|p| p.get(key)) {
                    Some(property) => parts.push(View::Schema(property)),
                    None => {
                        if let Some(other) =
                            schema.get("additionalProperties").filter(|a| a.is_object())
                        {
                            parts.push(View::Schema(other));
                        }
                    }
                }
                for nested in self.nested(schema) {
                    parts.push(self.child(&View::Schema(nested), key, depth + 1));
                }
                if let Some(items) = schema.get("items").filter(|i| i.is_object()) {
                    parts.push(self.child(&View::Schema(items), key, depth + 1));
                }
                for branches in ["oneOf", "anyOf"] {
                    if let Some(list) = schema.get(branches).and_then(Value::as_array) {
                        parts.push(View::Any(
                            list.iter()
                                .map(|b| self.child(&View::Schema(b), key, depth + 1))
                                .collect(),
                        ));
                    }
                }
                View::All(parts)
            }
        }
    }

    /// The items of the list at `view`.
    pub fn items(&self, view: &View<'s>, depth: usize) -> View<'s> {
        match view {
            View::All(parts) => View::All(parts.iter().map(|p| self.items(p, depth)).collect()),
            View::Any(parts) => View::Any(parts.iter().map(|p| self.items(p, depth)).collect()),
            View::Schema(schema) => {
                let mut parts = Vec::new();
                if depth > MAX_NESTING {
                    return View::All(parts);
                }
                if let Some(items) = schema.get("items").filter(|i| i.is_object()) {
                    parts.push(View::Schema(items));
                }
                for nested in self.nested(schema) {
                    parts.push(self.items(&View::Schema(nested), depth + 1));
                }
                for branches in ["oneOf", "anyOf"] {
                    if let Some(list) = schema.get(branches).and_then(Value::as_array) {
                        parts.push(View::Any(
                            list.iter()
                                .map(|b| self.items(&View::Schema(b), depth + 1))
                                .collect(),
                        ));
                    }
                }
                View::All(parts)
            }
        }
    }

    /// The schemas that apply along with `schema` itself: its `$ref` and its `allOf` parts.
    fn nested(&self, schema: &'s Value) -> Vec<&'s Value> {
        let mut out: Vec<&'s Value> = self.target(schema).into_iter().collect();
        if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
            out.extend(all);
        }
        out
    }

    /// The values a scalar at `view` may take, when the schema lists them (`enum`, `const`, a
    /// boolean), in the schema's order; `None` when it does not restrict them to a list.
    pub fn values(&self, view: &View<'s>) -> Option<Vec<String>> {
        self.values_within(view, 0)
    }

    fn values_within(&self, view: &View<'s>, depth: usize) -> Option<Vec<String>> {
        match view {
            View::All(parts) => parts
                .iter()
                .map(|p| self.values_within(p, depth))
                .fold(None, intersect),
            View::Any(parts) => union(parts.iter().map(|p| self.values_within(p, depth))),
            View::Schema(schema) => {
                if depth > MAX_NESTING {
                    return None;
                }
                let mut found = own_values(schema);
                for nested in self.nested(schema) {
                    found = intersect(found, self.values_within(&View::Schema(nested), depth + 1));
                }
                for branches in ["oneOf", "anyOf"] {
                    if let Some(list) = schema.get(branches).and_then(Value::as_array) {
                        let any = union(
                            list.iter()
                                .map(|b| self.values_within(&View::Schema(b), depth + 1)),
                        );
                        found = intersect(found, any);
                    }
                }
                found
            }
        }
    }

    /// The keys the mapping at `view` accepts, in the order each schema writes them (sorted
    /// without a [`KeyOrder`]), the first description of each kept. Branches that a key already `written` in the mapping rules out are skipped
    /// (`type: mcp_tool` leaves the keys of an `mcp_tool` implementation).
    pub fn keys(&self, view: &View<'s>, written: &[(&str, &str)]) -> Vec<KeyInfo<'s>> {
        let mut out: Vec<KeyInfo<'s>> = Vec::new();
        self.keys_into(view, written, 0, &mut out);
        out
    }

    fn keys_into(
        &self,
        view: &View<'s>,
        written: &[(&str, &str)],
        depth: usize,
        out: &mut Vec<KeyInfo<'s>>,
    ) {
        match view {
            View::All(parts) => {
                for p in parts {
                    self.keys_into(p, written, depth, out);
                }
            }
            View::Any(parts) => {
                for p in parts.iter().filter(|p| self.admits(p, written)) {
                    self.keys_into(p, written, depth, out);
                }
            }
            View::Schema(schema) => {
                if depth > MAX_NESTING {
                    return;
                }
                let required = |name: &str| {
                    schema
                        .get("required")
                        .and_then(Value::as_array)
                        .is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name)))
                };
                if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
                    let names = match self.order {
                        Some(order) => order.keys(properties),
                        None => properties.keys().map(String::as_str).collect(),
                    };
                    for (name, property) in names
                        .into_iter()
                        .filter_map(|name| Some((name, properties.get(name)?)))
                    {
                        match out.iter_mut().find(|k| k.name == name) {
                            Some(known) => {
                                known.required |= required(name);
                                if self.description(known.schema).is_none() {
                                    known.schema = property;
                                }
                            }
                            None => out.push(KeyInfo {
                                name,
                                schema: property,
                                required: required(name),
                            }),
                        }
                    }
                }
                for nested in self.nested(schema) {
                    self.keys_into(&View::Schema(nested), written, depth + 1, out);
                }
                if let Some(items) = schema.get("items").filter(|i| i.is_object()) {
                    self.keys_into(&View::Schema(items), written, depth + 1, out);
                }
                for branches in ["oneOf", "anyOf"] {
                    if let Some(list) = schema.get(branches).and_then(Value::as_array) {
                        let any = View::Any(list.iter().map(View::Schema).collect());
                        self.keys_into(&any, written, depth + 1, out);
                    }
                }
            }
        }
    }

    /// False when a branch lists the values of a key written in the mapping and the written
    /// value is not among them.
    fn admits(&self, branch: &View<'s>, written: &[(&str, &str)]) -> bool {
        written.iter().all(|(key, value)| {
            self.values(&self.child(branch, key, 0))
                .is_none_or(|allowed| allowed.iter().any(|a| a == value))
        })
    }

    /// What the schema says of a value: its own description, else that of what it refers to.
    pub fn description(&self, schema: &'s Value) -> Option<&'s str> {
        let mut at = schema;
        for _ in 0..MAX_NESTING {
            if let Some(text) = at.get("description").and_then(Value::as_str) {
                return Some(text);
            }
            at = self.target(at)?;
        }
        None
    }

    /// A few words on the type of a value: `list`, `mapping`, `boolean`, `one of a, b`.
    pub fn summary(&self, schema: &'s Value) -> String {
        if let Some(values) = self.values(&View::Schema(schema)) {
            return format!("one of {}", values.join(", "));
        }
        let mut at = schema;
        for _ in 0..MAX_NESTING {
            if let Some(kind) = at.get("type") {
                let kinds: Vec<&str> = match kind {
                    Value::String(k) => vec![k.as_str()],
                    Value::Array(ks) => ks.iter().filter_map(Value::as_str).collect(),
                    _ => Vec::new(),
                };
                return kinds
                    .iter()
                    .map(|k| match *k {
                        "array" => "list",
                        "object" => "mapping",
                        "integer" => "whole number",
                        other => other,
                    })
                    .collect::<Vec<_>>()
                    .join(" or ");
            }
            match self.target(at) {
                Some(next) => at = next,
                None => break,
            }
        }
        if schema.get("oneOf").is_some() || schema.get("anyOf").is_some() {
            return "one of several shapes".to_owned();
        }
        "any value".to_owned()
    }
}

fn own_values(schema: &Value) -> Option<Vec<String>> {
    let text = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    if let Some(one) = schema.get("const") {
        return text(one).map(|t| vec![t]);
    }
    if let Some(list) = schema.get("enum").and_then(Value::as_array) {
        return Some(list.iter().filter_map(text).collect());
    }
    (schema.get("type").and_then(Value::as_str) == Some("boolean"))
        .then(|| vec!["true".to_owned(), "false".to_owned()])
}

fn intersect(a: Option<Vec<String>>, b: Option<Vec<String>>) -> Option<Vec<String>> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.into_iter().filter(|v| b.contains(v)).collect()),
        (a, None) => a,
        (None, b) => b,
    }
}

/// The values any of the alternatives allows; `None` when none restricts them. An alternative
/// that takes any value (a number where the others list words) does not hide the listed ones.
fn union(parts: impl Iterator<Item = Option<Vec<String>>>) -> Option<Vec<String>> {
    let mut out: Option<Vec<String>> = None;
    for values in parts.flatten() {
        let all = out.get_or_insert_with(Vec::new);
        for v in values {
            if !all.contains(&v) {
                all.push(v);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(kind: ArtifactKind) -> Shape<'static> {
        Shape::bundled(kind).expect("bundled")
    }

    #[test]
    fn values_combine_as_the_schema_does() {
        let topology = shape(ArtifactKind::Topology);
        let root_role = topology.at(&["agents", "root", "role"]);
        assert_eq!(topology.values(&root_role).unwrap(), ["root"]);
        let child_role = topology.at(&["agents", "root", "children", "role"]);
        assert_eq!(topology.values(&child_role).unwrap(), ["leader", "worker"]);
        let deeper = topology.at(&["agents", "root", "children", "children", "role"]);
        assert_eq!(topology.values(&deeper).unwrap(), ["leader", "worker"]);
        let skill = shape(ArtifactKind::Skill);
        assert_eq!(
            skill
                .values(&skill.at(&["implementation", "type"]))
                .unwrap(),
            ["mcp_tool", "llm_prompt", "composed", "command", "agent"]
        );
        assert_eq!(
            skill
                .values(&skill.at(&["implementation", "permission"]))
                .unwrap(),
            ["open", "cautious", "strict", "readonly"]
        );
        assert!(skill.values(&skill.at(&["metadata", "id"])).is_none());
        // An integer or a word: the words are offered.
        let funnel = shape(ArtifactKind::Funnel);
        let quorum = funnel.values(&funnel.at(&["approval", "quorum"]));
        assert!(
            quorum
                .as_ref()
                .is_none_or(|q| q.contains(&"all".to_owned())),
            "{quorum:?}"
        );
    }

    #[test]
    fn keys_follow_refs_items_and_the_branch_written() {
        let topology = shape(ArtifactKind::Topology);
        let agent = topology.at(&["agents", "root"]);
        let names: Vec<&str> = topology.keys(&agent, &[]).iter().map(|k| k.name).collect();
        for key in ["id", "role", "skills", "requires", "depends_on", "children"] {
            assert!(names.contains(&key), "{names:?}");
        }
        let child = topology.at(&["agents", "root", "children"]);
        let keys = topology.keys(&child, &[]);
        let id = keys.iter().find(|k| k.name == "id").unwrap();
        assert!(id.required);
        let skills = keys.iter().find(|k| k.name == "skills").unwrap();
        assert!(topology
            .description(skills.schema)
            .unwrap()
            .starts_with("Skill IDs"));
        let skill = shape(ArtifactKind::Skill);
        let implementation = skill.at(&["implementation"]);
        let mcp: Vec<&str> = skill
            .keys(&implementation, &[("type", "mcp_tool")])
            .iter()
            .map(|k| k.name)
            .collect();
        // In the order the schema writes them (`serde_json` alone would sort them).
        assert_eq!(mcp, ["type", "server", "tool", "arguments"]);
        let all = skill.keys(&implementation, &[]);
        assert!(all.iter().any(|k| k.name == "composes") && all.iter().any(|k| k.name == "pack"));
    }
}
