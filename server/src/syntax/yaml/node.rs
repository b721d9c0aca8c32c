//! Reading the tree: a [`Node`] handle looks through aliases for content and keeps the range
//! written, walks entries and items, finds a key (through the document's key tables when the
//! mapping is large), and converts a subtree to JSON for the schema check.

use super::{NodeData, NodeId, NodeKind, ScalarValue, Style, YamlDocument, TABLE_KEYS_FROM};
use crate::syntax::TextRange;

/// A handle to one node. Methods that read content look through aliases; [`Node::range`] stays the
/// range written at this place (the alias itself), which is where a diagnostic belongs.
#[derive(Clone, Copy)]
pub struct Node<'a> {
    pub(super) doc: &'a YamlDocument,
    pub(super) id: NodeId,
}

impl std::fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Node({:?} @ {:?})", self.kind(), self.range())
    }
}

impl<'a> Node<'a> {
    pub fn id(self) -> NodeId {
        self.id
    }

    pub fn range(self) -> TextRange {
        self.doc.data(self.id).range
    }

    /// True when written in flow style (`[a, b]`, `{a: b}`).
    pub fn is_flow(self) -> bool {
        self.resolved_data().flow
    }

    pub(super) fn resolved_data(self) -> &'a NodeData {
        let mut data = self.doc.data(self.id);
        // Aliases point at nodes completed earlier, so this walk always ends.
        while let NodeKind::Alias(target) = data.kind {
            data = self.doc.data(target);
        }
        data
    }

    /// The node's content, looking through aliases.
    pub fn kind(self) -> &'a NodeKind {
        &self.resolved_data().kind
    }

    pub fn is_alias(self) -> bool {
        matches!(self.doc.data(self.id).kind, NodeKind::Alias(_))
    }

    /// The anchored node this alias names (for an alias), or the node itself.
    pub fn resolved(self) -> Node<'a> {
        let mut id = self.id;
        while let NodeKind::Alias(target) = self.doc.data(id).kind {
            id = target;
        }
        Node { doc: self.doc, id }
    }

    /// Nodes this one stands for when aliases are expanded.
    pub fn expanded_size(self) -> u32 {
        self.doc.data(self.id).expanded
    }

    /// Levels of nesting this node stands for when aliases are expanded (a scalar is 1).
    pub fn expanded_height(self) -> u32 {
        self.doc.data(self.id).height as u32
    }

    /// The scalar text, whatever its YAML type (`42` gives "42").
    pub fn scalar(self) -> Option<&'a str> {
        match self.kind() {
            NodeKind::Scalar { text, .. } => Some(self.doc.text(*text)),
            _ => None,
        }
    }

    pub fn style(self) -> Option<Style> {
        match self.kind() {
            NodeKind::Scalar { style, .. } => Some(*style),
            _ => None,
        }
    }

    /// The scalar interpreted with the YAML 1.2 core schema.
    pub fn value(self) -> ScalarValue<'a> {
        match self.kind() {
            NodeKind::Scalar { text, style } => {
                ScalarValue::interpret(self.doc.text(*text), *style)
            }
            NodeKind::BadAlias => ScalarValue::Null,
            _ => ScalarValue::NotScalar,
        }
    }

    /// The string when the scalar is a YAML string (not a number, bool or null).
    pub fn as_str(self) -> Option<&'a str> {
        match self.value() {
            ScalarValue::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_null(self) -> bool {
        matches!(self.value(), ScalarValue::Null)
    }

    pub fn is_mapping(self) -> bool {
        matches!(self.kind(), NodeKind::Mapping(_))
    }

    pub fn is_sequence(self) -> bool {
        matches!(self.kind(), NodeKind::Sequence(_))
    }

    pub(super) fn entry_ids(self) -> &'a [NodeId] {
        match self.kind() {
            NodeKind::Mapping(children) => self.doc.run(*children, 2),
            _ => &[],
        }
    }

    pub(super) fn item_ids(self) -> &'a [NodeId] {
        match self.kind() {
            NodeKind::Sequence(children) => self.doc.run(*children, 1),
            _ => &[],
        }
    }

    /// Entries of a mapping as (key, value); empty for anything else.
    pub fn entries(self) -> impl ExactSizeIterator<Item = (Node<'a>, Node<'a>)> + 'a {
        let doc = self.doc;
        self.entry_ids()
            .chunks_exact(2)
            .map(move |pair| (doc.node(pair[0]), doc.node(pair[1])))
    }

    /// Items of a sequence; empty for anything else.
    pub fn items(self) -> impl ExactSizeIterator<Item = Node<'a>> + DoubleEndedIterator + 'a {
        let doc = self.doc;
        self.item_ids().iter().map(move |&id| doc.node(id))
    }

    /// The `index`th item of a sequence.
    pub fn item(self, index: usize) -> Option<Node<'a>> {
        self.item_ids().get(index).map(|&id| self.doc.node(id))
    }

    /// The first entry whose key is the scalar `key`. O(1) in a large mapping (see
    /// `KeyTables`).
    pub fn entry(self, key: &str) -> Option<(Node<'a>, Node<'a>)> {
        let mapping = self.resolved();
        let entry_ids = mapping.entry_ids();
        let scan = || self.entries().find(|(k, _)| k.scalar() == Some(key));
        if entry_ids.len() / 2 < TABLE_KEYS_FROM {
            return scan();
        }
        let tables = self.doc.key_tables();
        let position = *tables.positions.get(&(mapping.id, tables.hash(key)))? as usize;
        let pair = &entry_ids[2 * position..2 * position + 2];
        if self.doc.scalar_of(pair[0]) == Some(key) {
            Some((self.doc.node(pair[0]), self.doc.node(pair[1])))
        } else {
            // Another key with the same hash came first.
            scan()
        }
    }

    /// The value of the first entry whose key is the scalar `key`.
    pub fn get(self, key: &str) -> Option<Node<'a>> {
        self.entry(key).map(|(_, v)| v)
    }

    /// A short name of the node's YAML type, for messages.
    pub fn type_name(self) -> &'static str {
        self.value().type_name().unwrap_or(match self.kind() {
            NodeKind::Sequence(_) => "list",
            _ => "mapping",
        })
    }

    /// A scalar, or null for a collection: the leaves of [`Node::to_json`].
    pub(super) fn scalar_json(self) -> Option<serde_json::Value> {
        use serde_json::Value;
        Some(match self.value() {
            ScalarValue::Null => Value::Null,
            ScalarValue::Bool(b) => Value::Bool(b),
            ScalarValue::Int(i) => Value::from(i),
            ScalarValue::Float(f) => {
                serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
            }
            ScalarValue::Str(s) => Value::String(s.to_owned()),
            ScalarValue::NotScalar => return None,
        })
    }

    /// Converts to JSON for schema validation. Aliases expand here; the builder capped what the
    /// whole document expands to ([`MAX_ALIAS_EXPANSION`](super::MAX_ALIAS_EXPANSION) nodes, [`MAX_DEPTH`](super::MAX_DEPTH) levels), so the
    /// result is proportional to the text. Iterative: an explicit stack of open collections.
    pub fn to_json(self) -> serde_json::Value {
        use serde_json::Value;
        enum Open<'a> {
            List {
                items: std::slice::Iter<'a, NodeId>,
                out: Vec<Value>,
            },
            Object {
                entries: std::slice::ChunksExact<'a, NodeId>,
                out: serde_json::Map<String, Value>,
                key: String,
            },
        }
        let doc = self.doc;
        let open = |node: Node<'a>| -> Result<Value, Open<'a>> {
            if let Some(leaf) = node.scalar_json() {
                return Ok(leaf);
            }
            match node.kind() {
                NodeKind::Sequence(_) => Err(Open::List {
                    items: node.item_ids().iter(),
                    out: Vec::with_capacity(node.item_ids().len()),
                }),
                _ => Err(Open::Object {
                    entries: node.entry_ids().chunks_exact(2),
                    out: serde_json::Map::new(),
                    key: String::new(),
                }),
            }
        };
        let mut stack = match open(self) {
            Ok(leaf) => return leaf,
            Err(collection) => vec![collection],
        };
        loop {
            let top = stack
                .last_mut()
                .expect("the stack holds the root until it is done");
            // The next child to convert, or the finished collection.
            let next = match top {
                Open::List { items, .. } => items.next().map(|&id| doc.node(id)),
                Open::Object { entries, out, key } => loop {
                    let Some(pair) = entries.next() else {
                        break None;
                    };
                    let k = doc.node(pair[0]);
                    let name = k
                        .scalar()
                        .map_or_else(|| k.type_name().to_owned(), str::to_owned);
                    // The tree keeps only the last of repeated scalar keys; two keys that are not
                    // scalars (rare, and nothing SwarmKit reads) may still share a type name.
                    if !out.contains_key(&name) {
                        *key = name;
                        break Some(doc.node(pair[1]));
                    }
                },
            };
            let value = match next {
                Some(child) => match open(child) {
                    Ok(leaf) => leaf,
                    Err(collection) => {
                        stack.push(collection);
                        continue;
                    }
                },
                None => match stack.pop().expect("checked above") {
                    Open::List { out, .. } => Value::Array(out),
                    Open::Object { out, .. } => Value::Object(out),
                },
            };
            // `value` is complete: hang it on its parent, or it is the result.
            match stack.last_mut() {
                None => return value,
                Some(Open::List { out, .. }) => out.push(value),
                Some(Open::Object { out, key, .. }) => {
                    out.insert(std::mem::take(key), value);
                }
            }
        }
    }

    /// Follows a JSON pointer's segments (object keys / array indices) down the tree.
    pub fn descend<'s>(self, segments: impl IntoIterator<Item = &'s str>) -> Option<Node<'a>> {
        let mut node = self;
        for segment in segments {
            node = match node.kind() {
                NodeKind::Mapping(_) => node.get(segment)?,
                NodeKind::Sequence(_) => node.item(segment.parse().ok()?)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// The smallest node whose range contains `offset`, with the path of (key, value) nodes down
    /// to it. Used by the IDE layer to find what the cursor is on. Follows the text as written:
    /// an alias is a leaf here.
    pub fn path_to(self, offset: u32) -> Vec<Node<'a>> {
        let mut path = vec![self];
        let mut node = self;
        'descend: loop {
            if node.is_alias() {
                break;
            }
            match node.kind() {
                NodeKind::Mapping(_) => {
                    for (k, v) in node.entries() {
                        if k.range().contains_inclusive(offset) {
                            path.push(k);
                            break 'descend;
                        }
                        if v.range().contains_inclusive(offset) {
                            path.push(v);
                            node = v;
                            continue 'descend;
                        }
                    }
                    break;
                }
                NodeKind::Sequence(_) => {
                    for item in node.items() {
                        if item.range().contains_inclusive(offset) {
                            path.push(item);
                            node = item;
                            continue 'descend;
                        }
                    }
                    break;
                }
                _ => break,
            }
        }
        path
    }
}
