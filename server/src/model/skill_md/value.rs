//! A frontmatter field's value as written, lowered once when the SKILL.md is analysed, so that
//! the cross-file rules and the IDE never walk the YAML tree again (the tree is dropped after
//! analysis). A value is seen through aliases, as a YAML loader reads it, but keeps the range
//! where it is written; one level of its children is kept (a list's items, a mapping's keys),
//! which is as deep as the host value checks and the fixes look.

use crate::syntax::yaml::Style;
use crate::syntax::{Node, NodeKind, ScalarValue, TextRange};

/// What a value is, looking through aliases, without its children.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Scalar(Scalar),
    /// An alias that named no anchor or stood for too much: it reads as null.
    BadAlias,
    List,
    Mapping,
}

/// A scalar's text (after unquoting and folding) and how it was written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Scalar {
    pub text: Box<str>,
    pub style: Style,
}

/// A top-level field's value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Value {
    /// Where the value is written (for an alias, the alias `*name` itself).
    pub range: TextRange,
    /// Written as an alias (`*name`).
    pub aliased: bool,
    /// A collection written in flow style (`[a, b]`, `{a: b}`).
    pub flow: bool,
    pub shape: Shape,
    /// The items of a list, in order; empty for anything else.
    pub items: Vec<Item>,
    /// The entries of a mapping, in order; empty for anything else.
    pub entries: Vec<Entry>,
}

/// An item of a list-valued field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Item {
    pub range: TextRange,
    pub shape: Shape,
}

/// An entry of a mapping-valued field: its key (when the key is a scalar) and where the key and
/// the value are written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    pub key: Option<Box<str>>,
    pub key_range: TextRange,
    pub value_range: TextRange,
}

impl Shape {
    fn of(node: Node<'_>) -> Shape {
        match node.kind() {
            NodeKind::Scalar { .. } => Shape::Scalar(Scalar {
                text: node.scalar().unwrap_or_default().into(),
                style: node.style().unwrap_or(Style::Plain),
            }),
            NodeKind::Sequence(_) => Shape::List,
            NodeKind::Mapping(_) => Shape::Mapping,
            NodeKind::Alias(_) | NodeKind::BadAlias => Shape::BadAlias,
        }
    }

    /// The scalar's text, whatever its YAML type (`42` gives "42").
    pub fn scalar(&self) -> Option<&str> {
        match self {
            Shape::Scalar(scalar) => Some(&scalar.text),
            _ => None,
        }
    }

    /// The scalar's style, for a scalar.
    pub fn style(&self) -> Option<Style> {
        match self {
            Shape::Scalar(scalar) => Some(scalar.style),
            _ => None,
        }
    }

    /// The value read with the YAML 1.2 core schema, as [`Node::value`] reads it.
    pub fn value(&self) -> ScalarValue<'_> {
        match self {
            Shape::Scalar(scalar) => ScalarValue::interpret(&scalar.text, scalar.style),
            Shape::BadAlias => ScalarValue::Null,
            Shape::List | Shape::Mapping => ScalarValue::NotScalar,
        }
    }

    /// The string when the scalar is a YAML string (not a number, bool or null).
    pub fn as_str(&self) -> Option<&str> {
        match self.value() {
            ScalarValue::Str(text) => Some(text),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self.value(), ScalarValue::Null)
    }

    /// A short name of the YAML type, for messages (as [`Node::type_name`] gives it).
    pub fn type_name(&self) -> &'static str {
        self.value().type_name().unwrap_or(match self {
            Shape::List => "list",
            _ => "mapping",
        })
    }
}

impl Value {
    /// Lowers `node` and its children, one level down (no recursion: children of children are
    /// kept as their shape alone, so the cost is the node's own items or entries).
    pub(super) fn lower(node: Node<'_>) -> Value {
        let shape = Shape::of(node);
        let items = match shape {
            Shape::List => node
                .items()
                .map(|item| Item {
                    range: item.range(),
                    shape: Shape::of(item),
                })
                .collect(),
            _ => Vec::new(),
        };
        let entries = match shape {
            Shape::Mapping => node
                .entries()
                .map(|(key, value)| Entry {
                    key: key.scalar().map(Box::from),
                    key_range: key.range(),
                    value_range: value.range(),
                })
                .collect(),
            _ => Vec::new(),
        };
        Value {
            range: node.range(),
            aliased: node.is_alias(),
            flow: node.is_flow(),
            shape,
            items,
            entries,
        }
    }

    /// The first entry of a mapping whose key is `key`.
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key.as_deref() == Some(key))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::slice;
    use super::*;
    use crate::syntax::YamlDocument;

    fn field(text: &str, key: &str) -> Value {
        let doc = YamlDocument::parse(text, 0);
        let root = doc.root().expect("a document");
        Value::lower(root.get(key).expect("the key"))
    }

    #[test]
    fn scalars_keep_their_text_style_and_type() {
        let text = "a: \"true\"\nb: true\nc:\nd: 1.5\ne: |\n  x\n";
        let quoted = field(text, "a");
        assert_eq!(quoted.shape.as_str(), Some("true"));
        assert_eq!(quoted.shape.style(), Some(Style::Quoted));
        assert_eq!(slice(text, quoted.range), "\"true\"");
        assert_eq!(field(text, "b").shape.value(), ScalarValue::Bool(true));
        assert!(field(text, "c").shape.is_null());
        assert_eq!(field(text, "d").shape.type_name(), "number");
        assert_eq!(field(text, "e").shape.scalar(), Some("x\n"));
        assert_eq!(field(text, "e").shape.style(), Some(Style::Block));
    }

    #[test]
    fn collections_keep_one_level_of_children() {
        let text = "l: [Read, 3, [x]]\nm:\n  k: v\n  ? [c]\n  : w\n";
        let list = field(text, "l");
        assert!(list.flow);
        assert_eq!(list.shape.type_name(), "list");
        let shapes: Vec<&str> = list.items.iter().map(|i| i.shape.type_name()).collect();
        assert_eq!(shapes, ["string", "integer", "list"]);
        assert_eq!(slice(text, list.items[2].range), "[x]");
        let map = field(text, "m");
        assert!(!map.flow);
        assert_eq!(map.entries.len(), 2);
        assert_eq!(slice(text, map.entry("k").expect("k").value_range), "v");
        assert_eq!(map.entries[1].key, None);
        assert_eq!(slice(text, map.entries[1].key_range), "[c]");
    }

    #[test]
    fn aliases_read_as_their_anchor_at_their_own_range() {
        let text = "a: &x fork\nb: *x\nc: *nothing\n";
        let alias = field(text, "b");
        assert!(alias.aliased);
        assert_eq!(alias.shape.as_str(), Some("fork"));
        assert_eq!(slice(text, alias.range), "*x");
        assert_eq!(field(text, "c").shape.type_name(), "null");
        // Past the document's expansion budget an alias stands for nothing.
        let wide = vec!["x"; 1000].join(", ");
        let uses = vec!["*a"; 100].join(", ");
        let text = format!("a: &a [{wide}]\nb: [{uses}]\nc: *a\n");
        let refused = field(&text, "c");
        assert_eq!(refused.shape, Shape::BadAlias);
        assert_eq!(refused.shape.type_name(), "null");
        assert_eq!(refused.shape.scalar(), None);
        assert!(refused.shape.is_null());
    }
}
