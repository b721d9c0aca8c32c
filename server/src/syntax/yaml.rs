//! Text -> spanned YAML tree.
//!
//! saphyr-parser gives us a stream of events with character-indexed marks; we turn them into an
//! arena of nodes in which every key, scalar, sequence and mapping carries a byte range. Parsing
//! never fails: when the text stops parsing we close every open collection at the error position
//! and return what was read so far, plus the error.
//!
//! Limits hold for the whole document, so no shape of input under the file cap can make a later
//! walk over the tree blow up:
//! - nesting deeper than [`MAX_DEPTH`] as written stops the parse with an error;
//! - aliases are kept as references to their anchor (never copied), but what they stand for is
//!   counted: an alias that would make the document expand by more than [`MAX_ALIAS_EXPANSION`]
//!   nodes or [`MAX_ALIAS_BYTES`] bytes of scalar text in total (all aliases together, not per
//!   alias), or reach deeper than [`MAX_DEPTH`] once expanded, is read as null and reported.
//!
//! Memory: one arena of nodes (32 bytes each), one arena of child ids, and one string holding the
//! text of every scalar, so a scalar costs the bytes it holds plus its node. A document whose
//! large mappings are searched by key also holds a table of their keys (see [`KeyTables`]).

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::OnceLock;

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

use super::TextRange;

/// Deepest nesting we accept, as written and once aliases are expanded. Real files stay far
/// below; anything beyond is hostile or broken.
pub const MAX_DEPTH: usize = 256;
/// Most nodes that expanding aliases may add to one document, all aliases together.
pub const MAX_ALIAS_EXPANSION: u32 = 100_000;
/// Most bytes of scalar text that expanding aliases may add to one document, all aliases
/// together: as much as the file cap, so what readers of the tree copy stays within twice the
/// file.
pub const MAX_ALIAS_BYTES: u32 = 4 * 1024 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

/// The children of a collection: a run in the document's child arena (for a mapping, `len`
/// entries of key and value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Children {
    start: u32,
    len: u32,
}

impl Children {
    /// Items of a sequence, entries of a mapping.
    pub fn len(self) -> usize {
        self.len as usize
    }

    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScalarText {
    start: u32,
    len: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Scalar {
        text: ScalarText,
        style: Style,
    },
    Sequence(Children),
    Mapping(Children),
    /// An alias: a reference to the anchored node it names.
    Alias(NodeId),
    /// An alias that named no anchor, or stood for too much: behaves as null.
    BadAlias,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    Plain,
    Quoted,
    Block,
    /// A string that `${…}` substitution produced (`syntax::interpolate`): its text is not the
    /// text written at its range, so no part of the range can be mapped to part of the text.
    Substituted,
}

#[derive(Clone, Debug)]
struct NodeData {
    kind: NodeKind,
    range: TextRange,
    /// How many nodes this node stands for once aliases are expanded (saturating).
    expanded: u32,
    /// How many bytes of scalar text this node stands for once aliases are expanded
    /// (saturating): an alias of one long scalar is one node, but every reader copies its text.
    bytes: u32,
    /// Levels of nesting below and including this node once aliases are expanded (a scalar is 1).
    height: u16,
    flow: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum YamlErrorKind {
    /// The text stops being YAML here.
    Syntax,
    /// Nesting deeper than [`MAX_DEPTH`] as written.
    TooDeep,
    /// An alias naming no anchor.
    Alias,
    /// An alias past the document's expansion budget ([`MAX_ALIAS_EXPANSION`]).
    AliasExpansion,
    /// An alias that reaches deeper than [`MAX_DEPTH`] once expanded.
    AliasDepth,
    /// A second document in a file that should hold one.
    MultipleDocuments,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    pub kind: YamlErrorKind,
    pub range: TextRange,
    pub message: String,
}

/// A key written twice in one mapping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateKey {
    pub key: String,
    pub first: TextRange,
    pub second: TextRange,
}

/// A parsed YAML document: an arena of nodes, the root, and what went wrong on the way.
#[derive(Clone, Debug, Default)]
pub struct YamlDocument {
    nodes: Vec<NodeData>,
    /// Child ids of every collection, each collection's run contiguous.
    children: Vec<NodeId>,
    /// The text of every scalar, one after the other.
    scalars: String,
    root: Option<NodeId>,
    pub errors: Vec<YamlError>,
    pub duplicate_keys: Vec<DuplicateKey>,
    /// The keys of the large mappings, made on the first lookup in one (see [`KeyTables`]).
    key_tables: OnceLock<KeyTables>,
}

/// A mapping with at least this many entries finds a key through [`KeyTables`]; a smaller one
/// is scanned, which costs about what hashing the key would.
const TABLE_KEYS_FROM: usize = 16;

/// Where each key of every large mapping of a document is, so that a lookup costs O(1) however
/// many keys the mapping has: the schema check looks up every field it reports, and a mapping
/// may hold tens of thousands of unknown ones. Made from the finished tree (repeated keys
/// dropped, `${…}` substituted) the first time a large mapping is searched; the parser's own
/// index for repeated keys is gone by then, and most documents never need this one.
#[derive(Clone, Debug, Default)]
struct KeyTables {
    hasher: RandomState,
    /// (mapping, hash of a key's text) -> the entry's position in the mapping. Of two keys
    /// with one hash, the first is kept; a lookup that meets the other falls back to a scan.
    positions: HashMap<(NodeId, u64), u32>,
}

impl KeyTables {
    fn hash(&self, text: &str) -> u64 {
        self.hasher.hash_one(text)
    }
}

impl YamlDocument {
    /// Parses `text` (already decoded, BOM removed by the caller or not). `base` is added to every
    /// offset, so a frontmatter block can be parsed with positions in its enclosing file.
    pub fn parse(text: &str, base: u32) -> YamlDocument {
        Builder::new(text, base).run()
    }

    pub fn root(&self) -> Option<Node<'_>> {
        self.root.map(|id| Node { doc: self, id })
    }

    pub fn node(&self, id: NodeId) -> Node<'_> {
        Node { doc: self, id }
    }

    pub fn has_syntax_error(&self) -> bool {
        self.errors.iter().any(|e| e.kind == YamlErrorKind::Syntax)
    }

    /// Scalars written as values or sequence items (never keys) whose text holds `${`: the ones
    /// SwarmKit's interpolation may change. Linear in the tree.
    pub fn interpolation_candidates(&self) -> Vec<NodeId> {
        // Most documents hold no reference at all: one scan of the scalar text settles it.
        if !self.scalars.contains("${") {
            return Vec::new();
        }
        let mut is_key = vec![false; self.nodes.len()];
        for data in &self.nodes {
            if let NodeKind::Mapping(children) = data.kind {
                for pair in self.run(children, 2).chunks_exact(2) {
                    is_key[pair[0].0 as usize] = true;
                }
            }
        }
        (0..self.nodes.len())
            .filter(|&at| !is_key[at])
            .map(|at| NodeId(at as u32))
            .filter(|&id| match self.data(id).kind {
                NodeKind::Scalar { text, .. } => self.text(text).contains("${"),
                _ => false,
            })
            .collect()
    }

    /// Replaces the text of the scalar `id` (what substitution made of it); its range stays the
    /// one written. Nothing else in the tree moves.
    pub fn set_scalar(&mut self, id: NodeId, text: &str, style: Style) {
        // An alias used as a key reads the scalar it names, so a table made earlier may be stale.
        self.key_tables = OnceLock::new();
        let start = self.scalars.len() as u32;
        self.scalars.push_str(text);
        let data = &mut self.nodes[id.0 as usize];
        if let NodeKind::Scalar { .. } = data.kind {
            data.kind = NodeKind::Scalar {
                text: ScalarText {
                    start,
                    len: text.len() as u32,
                },
                style,
            };
        }
    }

    /// Nodes written in the text (aliases count once).
    pub fn written_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Bytes held by the tree's arenas, for measuring memory.
    pub fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<NodeData>()
            + self.children.capacity() * std::mem::size_of::<NodeId>()
            + self.scalars.capacity()
    }

    fn data(&self, id: NodeId) -> &NodeData {
        &self.nodes[id.0 as usize]
    }

    fn text(&self, text: ScalarText) -> &str {
        &self.scalars[text.start as usize..(text.start + text.len) as usize]
    }

    fn run(&self, children: Children, per_child: u32) -> &[NodeId] {
        let start = children.start as usize;
        &self.children[start..start + children.len as usize * per_child as usize]
    }

    /// The scalar text of `id`, looking through aliases.
    fn scalar_of(&self, id: NodeId) -> Option<&str> {
        match self.node(id).kind() {
            NodeKind::Scalar { text, .. } => Some(self.text(*text)),
            _ => None,
        }
    }

    /// The key tables of the document's large mappings, made on first use: one pass over the
    /// tree, hashing each of their keys once.
    fn key_tables(&self) -> &KeyTables {
        self.key_tables.get_or_init(|| {
            let mut tables = KeyTables::default();
            for (at, data) in self.nodes.iter().enumerate() {
                let NodeKind::Mapping(children) = data.kind else {
                    continue;
                };
                if children.len() < TABLE_KEYS_FROM {
                    continue;
                }
                let mapping = NodeId(at as u32);
                for (position, pair) in self.run(children, 2).chunks_exact(2).enumerate() {
                    if let Some(text) = self.scalar_of(pair[0]) {
                        let hash = tables.hash(text);
                        tables
                            .positions
                            .entry((mapping, hash))
                            .or_insert(position as u32);
                    }
                }
            }
            tables
        })
    }
}

/// A handle to one node. Methods that read content look through aliases; [`Node::range`] stays the
/// range written at this place (the alias itself), which is where a diagnostic belongs.
#[derive(Clone, Copy)]
pub struct Node<'a> {
    doc: &'a YamlDocument,
    id: NodeId,
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

    fn resolved_data(self) -> &'a NodeData {
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

    fn entry_ids(self) -> &'a [NodeId] {
        match self.kind() {
            NodeKind::Mapping(children) => self.doc.run(*children, 2),
            _ => &[],
        }
    }

    fn item_ids(self) -> &'a [NodeId] {
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
    /// [`KeyTables`]).
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
    fn scalar_json(self) -> Option<serde_json::Value> {
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
    /// whole document expands to ([`MAX_ALIAS_EXPANSION`] nodes, [`MAX_DEPTH`] levels), so the
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
/// A scalar read with the YAML 1.2 core schema.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScalarValue<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'a str),
    NotScalar,
}

impl<'a> ScalarValue<'a> {
    /// A short name of the scalar's YAML type, for messages; `None` for a collection.
    pub fn type_name(self) -> Option<&'static str> {
        Some(match self {
            ScalarValue::Null => "null",
            ScalarValue::Bool(_) => "boolean",
            ScalarValue::Int(_) => "integer",
            ScalarValue::Float(_) => "number",
            ScalarValue::Str(_) => "string",
            ScalarValue::NotScalar => return None,
        })
    }

    /// A scalar's text read with the YAML 1.2 core schema: only a plain scalar can be anything
    /// but a string. What [`Node::value`] gives, for text kept after the tree is gone.
    pub fn interpret(text: &'a str, style: Style) -> ScalarValue<'a> {
        if style != Style::Plain {
            return ScalarValue::Str(text);
        }
        match text {
            "" | "~" | "null" | "Null" | "NULL" => return ScalarValue::Null,
            "true" | "True" | "TRUE" => return ScalarValue::Bool(true),
            "false" | "False" | "FALSE" => return ScalarValue::Bool(false),
            ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
                return ScalarValue::Float(f64::INFINITY)
            }
            "-.inf" | "-.Inf" | "-.INF" => return ScalarValue::Float(f64::NEG_INFINITY),
            ".nan" | ".NaN" | ".NAN" => return ScalarValue::Float(f64::NAN),
            _ => {}
        }
        if let Some(int) = parse_core_int(text) {
            return ScalarValue::Int(int);
        }
        if looks_like_core_float(text) {
            if let Ok(f) = text.parse::<f64>() {
                return ScalarValue::Float(f);
            }
        }
        ScalarValue::Str(text)
    }
}

fn parse_core_int(text: &str) -> Option<i64> {
    if let Some(hex) = text.strip_prefix("0x") {
        return i64::from_str_radix(hex, 16).ok();
    }
    if let Some(oct) = text.strip_prefix("0o") {
        return i64::from_str_radix(oct, 8).ok();
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
fn looks_like_core_float(text: &str) -> bool {
    let s = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (int_part, frac_part) = match mantissa.find('.') {
        Some(i) => (&mantissa[..i], Some(&mantissa[i + 1..])),
        None => (mantissa, None),
    };
    let digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match frac_part {
        Some(frac) => digits(int_part) && digits(frac) && !(int_part.is_empty() && frac.is_empty()),
        None => !int_part.is_empty() && digits(int_part),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    mantissa_ok && exponent_ok
}

/// Converts saphyr's character indices to byte offsets. Pure-ASCII text (the common case) needs
/// no table.
struct CharToByte {
    table: Option<Vec<u32>>,
    len: u32,
    base: u32,
}

impl CharToByte {
    fn new(text: &str, base: u32) -> Self {
        let table = (!text.is_ascii()).then(|| {
            let mut table: Vec<u32> = text.char_indices().map(|(i, _)| i as u32).collect();
            table.push(text.len() as u32);
            table
        });
        CharToByte {
            table,
            len: text.len() as u32,
            base,
        }
    }

    fn byte(&self, char_index: usize) -> u32 {
        let local = match &self.table {
            None => (char_index as u32).min(self.len),
            Some(table) => table.get(char_index).copied().unwrap_or(self.len),
        };
        local + self.base
    }

    fn range(&self, span: &Span) -> TextRange {
        TextRange::new(self.byte(span.start.index()), self.byte(span.end.index()))
    }
}

/// A collection being read. Its children so far sit on the builder's scratch stack from
/// `first_child` up (for a mapping, key and value alternating).
struct Open {
    mapping: bool,
    start: u32,
    flow: bool,
    anchor: usize,
    first_child: usize,
    /// Hashes of this mapping's keys, once it has enough of them that a scan would cost more.
    keys: Option<HashMap<u64, NodeId>>,
    /// A key was written twice: the earlier entries are dropped when the mapping closes.
    has_duplicates: bool,
}

/// A mapping with this many keys gets a hash index for its duplicate-key check.
const INDEX_KEYS_FROM: usize = 8;

/// The limits an alias can break, in the order of [`Builder::refused`].
const ALIAS_LIMITS: [YamlErrorKind; 2] = [YamlErrorKind::AliasExpansion, YamlErrorKind::AliasDepth];

struct Builder<'t> {
    text: &'t str,
    positions: CharToByte,
    doc: YamlDocument,
    stack: Vec<Open>,
    scratch: Vec<NodeId>,
    /// saphyr's anchor ids (unique per definition) to the node they name, once it is complete.
    anchors: HashMap<usize, NodeId>,
    documents_seen: usize,
    /// Nodes that the aliases accepted so far add to the document when expanded.
    alias_expansion: u32,
    /// Bytes of scalar text that the aliases accepted so far add when expanded.
    alias_bytes: u32,
    /// Per alias limit: the error reporting the first alias refused, and how many more were.
    refused: [(Option<usize>, u32); 2],
    hasher: std::collections::hash_map::RandomState,
}

impl<'t> Builder<'t> {
    fn new(text: &'t str, base: u32) -> Self {
        Builder {
            text,
            positions: CharToByte::new(text, base),
            doc: YamlDocument::default(),
            stack: Vec::new(),
            scratch: Vec::new(),
            anchors: HashMap::new(),
            documents_seen: 0,
            alias_expansion: 0,
            alias_bytes: 0,
            refused: [(None, 0); 2],
            hasher: Default::default(),
        }
    }

    fn run(mut self) -> YamlDocument {
        let mut parser = Parser::new_from_str(self.text);
        let mut last_end = self.positions.byte(0);
        while let Some(result) = parser.next_event() {
            match result {
                Err(error) => {
                    let at = self.positions.byte(error.marker().index());
                    self.doc.errors.push(YamlError {
                        kind: YamlErrorKind::Syntax,
                        range: self.error_range(at),
                        message: describe_scan_error(error.info()),
                    });
                    self.close_all(at.max(last_end));
                    break;
                }
                Ok((event, span)) => {
                    let range = self.positions.range(&span);
                    last_end = last_end.max(range.end);
                    match self.event(event, range) {
                        Flow::Continue => {}
                        Flow::Stop => break,
                    }
                }
            }
        }
        for (error, more) in self.refused {
            if let (Some(error), 1..) = (error, more) {
                let noun = if more == 1 { "alias" } else { "aliases" };
                self.doc.errors[error].message.push_str(&format!(
                    " ({more} more {noun} past the same limit are read as null too)"
                ));
            }
        }
        self.doc.nodes.shrink_to_fit();
        self.doc.children.shrink_to_fit();
        self.doc.scalars.shrink_to_fit();
        self.doc
    }

    /// A syntax error gets the range of the token it sits on (at least one character), clipped to
    /// its line, so the editor shows a visible squiggle.
    fn error_range(&self, at: u32) -> TextRange {
        let base = self.positions.base;
        let local = (at - base) as usize;
        let rest = self.text.get(local..).unwrap_or("");
        let token_len = rest
            .char_indices()
            .find(|&(_, c)| c.is_whitespace())
            .map_or(rest.len(), |(i, _)| i);
        let len = if token_len == 0 {
            rest.chars().next().map_or(0, |c| {
                if c == '\n' || c == '\r' {
                    0
                } else {
                    c.len_utf8()
                }
            })
        } else {
            token_len
        };
        TextRange::new(at, at + len as u32)
    }

    fn event(&mut self, event: Event<'_>, range: TextRange) -> Flow {
        match event {
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => {}
            Event::DocumentStart(_) => {
                self.documents_seen += 1;
                if self.documents_seen > 1 {
                    self.doc.errors.push(YamlError {
                        kind: YamlErrorKind::MultipleDocuments,
                        range: TextRange::new(range.start, range.start + 3.min(range.len())),
                        message: "a second YAML document starts here; this file should hold one document, so everything from here on is ignored".into(),
                    });
                    return Flow::Stop;
                }
            }
            Event::Scalar(value, style, anchor, _tag) => {
                let range = self.after_properties(range);
                let range = match style {
                    ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
                        self.quoted_range(range)
                    }
                    _ => range,
                };
                let style = match style {
                    ScalarStyle::Plain => Style::Plain,
                    ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => Style::Quoted,
                    ScalarStyle::Literal | ScalarStyle::Folded => Style::Block,
                };
                let text = ScalarText {
                    start: self.doc.scalars.len() as u32,
                    len: value.len() as u32,
                };
                self.doc.scalars.push_str(&value);
                let id = self.push(NodeData {
                    kind: NodeKind::Scalar { text, style },
                    range,
                    expanded: 1,
                    bytes: text.len,
                    height: 1,
                    flow: false,
                });
                self.remember_anchor(anchor, id);
                self.attach(id);
            }
            Event::Alias(anchor) => {
                let data = match self.anchors.get(&anchor).copied() {
                    Some(target) => self.alias_to(target, range),
                    None => {
                        self.doc.errors.push(YamlError {
                            kind: YamlErrorKind::Alias,
                            range,
                            message:
                                "this alias names no anchor defined before it; it is read as null"
                                    .to_owned(),
                        });
                        bad_alias(range)
                    }
                };
                let id = self.push(data);
                self.attach(id);
            }
            Event::SequenceStart(anchor, _tag) => {
                return self.open(false, anchor, range);
            }
            Event::MappingStart(anchor, _tag) => {
                return self.open(true, anchor, range);
            }
            Event::SequenceEnd | Event::MappingEnd => self.close_one(Some(range)),
        }
        Flow::Continue
    }

    fn open(&mut self, mapping: bool, anchor: usize, range: TextRange) -> Flow {
        if self.stack.len() >= MAX_DEPTH {
            return self.too_deep(range);
        }
        let flow = self.starts_flow(range.start, if mapping { '{' } else { '[' });
        self.stack.push(Open {
            mapping,
            start: range.start,
            flow,
            anchor,
            first_child: self.scratch.len(),
            keys: None,
            has_duplicates: false,
        });
        Flow::Continue
    }

    /// The node for an alias of `target` written at `range`, unless it breaks a document-wide
    /// limit: then it is read as null and reported.
    fn alias_to(&mut self, target: NodeId, range: TextRange) -> NodeData {
        let (expanded, bytes, height) = {
            let data = self.doc.data(target);
            (data.expanded, data.bytes, data.height)
        };
        let depth = self.stack.len() + height as usize;
        let extra = expanded - 1;
        if depth > MAX_DEPTH {
            self.refuse(
                1,
                range,
                format!(
                    "this alias stands for {height} levels of nesting, which reach {depth} levels deep here, past the limit of {MAX_DEPTH}; it is read as null. Write the content out, or stop chaining anchors inside anchors"
                ),
            );
            return bad_alias(range);
        }
        if self.alias_bytes.saturating_add(bytes) > MAX_ALIAS_BYTES {
            self.refuse(
                0,
                range,
                format!(
                    "with this alias the document would stand for more than {} MiB of text beyond what is written (every use of an alias counts the text it names in full); it is read as null. Share less through aliases, or write the content out",
                    MAX_ALIAS_BYTES / (1024 * 1024)
                ),
            );
            return bad_alias(range);
        }
        if self.alias_expansion.saturating_add(extra) > MAX_ALIAS_EXPANSION {
            self.refuse(
                0,
                range,
                format!(
                    "with this alias the document would stand for more than {MAX_ALIAS_EXPANSION} nodes beyond those written (every use of an alias counts what it names in full; an alias bomb?); it is read as null. Share less through aliases, or write the content out"
                ),
            );
            return bad_alias(range);
        }
        self.alias_expansion += extra;
        self.alias_bytes += bytes;
        NodeData {
            kind: NodeKind::Alias(target),
            range,
            expanded,
            bytes,
            height,
            flow: false,
        }
    }

    /// Reports the first alias over limit `which` of [`ALIAS_LIMITS`]; later ones are counted
    /// into its message (a bomb repeats one alias many times: one mistake, one diagnostic).
    fn refuse(&mut self, which: usize, range: TextRange, message: String) {
        let slot = &mut self.refused[which];
        if slot.0.is_some() {
            slot.1 += 1;
            return;
        }
        slot.0 = Some(self.doc.errors.len());
        self.doc.errors.push(YamlError {
            kind: ALIAS_LIMITS[which].clone(),
            range,
            message,
        });
    }

    /// saphyr's span of a quoted scalar may run on over trailing blanks and a comment; end it
    /// at the closing quote instead (`''` and `\"` are escapes, not the end).
    fn quoted_range(&self, range: TextRange) -> TextRange {
        let base = self.positions.base;
        let local = (range.start - base) as usize;
        let Some(rest) = self.text.get(local..) else {
            return range;
        };
        let mut chars = rest.char_indices();
        let Some((_, quote)) = chars.next().filter(|(_, c)| *c == '\'' || *c == '"') else {
            return range;
        };
        while let Some((i, c)) = chars.next() {
            if quote == '"' && c == '\\' {
                chars.next();
            } else if c == quote {
                if quote == '\'' && rest[i + 1..].starts_with('\'') {
                    chars.next();
                    continue;
                }
                let end = range.start + (i + 1) as u32;
                return TextRange::new(range.start, end.min(range.end.max(end)));
            }
        }
        range
    }

    /// saphyr's span of a scalar starts at its anchor or tag (`&name ghost`); the scalar itself
    /// starts after them.
    fn after_properties(&self, range: TextRange) -> TextRange {
        let base = self.positions.base;
        let end = ((range.end - base) as usize).min(self.text.len());
        let mut at = (range.start - base) as usize;
        while at < end && matches!(self.text.as_bytes()[at], b'&' | b'!') {
            let rest = &self.text[at..end];
            let token = rest.find([' ', '\t', '\n', '\r']).unwrap_or(rest.len());
            let blanks = rest[token..]
                .find(|c: char| !c.is_whitespace())
                .unwrap_or(rest.len() - token);
            if token + blanks >= rest.len() {
                break; // nothing after the properties: keep saphyr's span
            }
            at += token + blanks;
        }
        TextRange::new(at as u32 + base, range.end)
    }

    fn starts_flow(&self, at: u32, bracket: char) -> bool {
        let local = (at - self.positions.base) as usize;
        self.text[local.min(self.text.len())..].starts_with(bracket)
    }

    fn too_deep(&mut self, range: TextRange) -> Flow {
        self.doc.errors.push(YamlError {
            kind: YamlErrorKind::TooDeep,
            range: TextRange::new(range.start, range.start + 1),
            message: format!(
                "nesting deeper than {MAX_DEPTH} levels; the rest of the file is not read"
            ),
        });
        self.close_all(range.start);
        Flow::Stop
    }

    fn push(&mut self, data: NodeData) -> NodeId {
        let id = NodeId(self.doc.nodes.len() as u32);
        self.doc.nodes.push(data);
        id
    }

    fn remember_anchor(&mut self, anchor: usize, id: NodeId) {
        if anchor != 0 {
            self.anchors.insert(anchor, id);
        }
    }

    /// Hangs a finished node on the open collection (or makes it the root).
    fn attach(&mut self, id: NodeId) {
        let Some(open) = self.stack.last() else {
            if self.doc.root.is_none() {
                self.doc.root = Some(id);
            }
            return;
        };
        let is_key = open.mapping && (self.scratch.len() - open.first_child).is_multiple_of(2);
        if is_key {
            self.check_duplicate(id);
        }
        self.scratch.push(id);
    }

    /// Records `key` as a duplicate if the open mapping already has a key with its text. A
    /// small mapping is scanned; a large one keeps a hash index, so each key costs O(1).
    fn check_duplicate(&mut self, key: NodeId) {
        let Some(text) = self.doc.scalar_of(key) else {
            return;
        };
        let top = self.stack.len() - 1;
        let first_child = self.stack[top].first_child;
        let keys_so_far = (self.scratch.len() - first_child) / 2;
        let doc = &self.doc;
        let scan = |scratch: &[NodeId]| {
            scratch[first_child..]
                .iter()
                .step_by(2)
                .copied()
                .find(|&k| doc.scalar_of(k) == Some(text))
        };
        let hash = |text: &str| {
            let mut hasher = std::hash::BuildHasher::build_hasher(&self.hasher);
            text.hash(&mut hasher);
            hasher.finish()
        };
        let first = match &mut self.stack[top].keys {
            Some(index) => match index.entry(hash(text)) {
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(key);
                    None
                }
                std::collections::hash_map::Entry::Occupied(slot) => {
                    let earlier = *slot.get();
                    if doc.scalar_of(earlier) == Some(text) {
                        Some(earlier)
                    } else {
                        // Two texts with one hash: rare enough to afford a scan.
                        scan(&self.scratch)
                    }
                }
            },
            None => {
                let found = scan(&self.scratch);
                if keys_so_far + 1 >= INDEX_KEYS_FROM {
                    let mut index = HashMap::new();
                    let written = self.scratch[first_child..].iter().step_by(2).copied();
                    for k in written.chain(std::iter::once(key)) {
                        if let Some(k_text) = doc.scalar_of(k) {
                            index.entry(hash(k_text)).or_insert(k);
                        }
                    }
                    self.stack[top].keys = Some(index);
                }
                found
            }
        };
        if let Some(first) = first {
            self.stack[top].has_duplicates = true;
            let duplicate = DuplicateKey {
                key: text.to_owned(),
                first: self.doc.data(first).range,
                second: self.doc.data(key).range,
            };
            self.doc.duplicate_keys.push(duplicate);
        }
    }

    fn close_one(&mut self, end_event: Option<TextRange>) {
        let Some(open) = self.stack.pop() else {
            return;
        };
        if open.mapping && (self.scratch.len() - open.first_child) % 2 == 1 {
            // A key whose value never came (cut off by an error) still counts, with null.
            let key = *self.scratch.last().expect("an odd count is not zero");
            let at = self.doc.data(key).range.end;
            let null = self.push(NodeData {
                kind: NodeKind::Scalar {
                    text: ScalarText { start: 0, len: 0 },
                    style: Style::Plain,
                },
                range: TextRange::new(at, at),
                expanded: 1,
                bytes: 0,
                height: 1,
                flow: false,
            });
            self.scratch.push(null);
        }
        // The collection spans everything written in it, discarded duplicates included.
        let children_end = self.scratch[open.first_child..]
            .iter()
            .map(|&child| self.doc.nodes[child.0 as usize].range.end)
            .max();
        if open.has_duplicates {
            self.keep_last_of_each_key(open.first_child);
        }
        let start = self.doc.children.len();
        self.doc
            .children
            .extend(self.scratch.drain(open.first_child..));
        let run = &self.doc.children[start..];
        let mut expanded = 1u32;
        let mut bytes = 0u32;
        let mut height = 0u16;
        for &child in run {
            let data = &self.doc.nodes[child.0 as usize];
            expanded = expanded.saturating_add(data.expanded);
            bytes = bytes.saturating_add(data.bytes);
            height = height.max(data.height);
        }
        let per_child = if open.mapping { 2 } else { 1 };
        let children = Children {
            start: start as u32,
            len: (run.len() / per_child) as u32,
        };
        let kind = if open.mapping {
            NodeKind::Mapping(children)
        } else {
            NodeKind::Sequence(children)
        };
        // Block collections end where their last child ends (saphyr's end event sits at the next
        // token, often lines later); flow collections end after their closing bracket.
        let end = match (open.flow, end_event) {
            (true, Some(e)) => e.end,
            _ => children_end.unwrap_or(open.start),
        }
        .max(open.start);
        let id = self.push(NodeData {
            kind,
            range: TextRange::new(open.start, end),
            expanded,
            bytes,
            height: height.saturating_add(1),
            flow: open.flow,
        });
        self.remember_anchor(open.anchor, id);
        self.attach(id);
    }

    /// Drops every entry of the open mapping (its children from `first_child` up) whose key is
    /// written again later in it: PyYAML, and so SwarmKit, keeps the last value of a repeated
    /// key, so the tree every check reads holds only that one (the repeat is still reported from
    /// [`YamlDocument::duplicate_keys`]). Entries keep their order as written. Linear: one pass
    /// from the end with a set of the keys seen.
    fn keep_last_of_each_key(&mut self, first_child: usize) {
        let doc = &self.doc;
        let entries = &self.scratch[first_child..];
        let mut seen = std::collections::HashSet::with_capacity(entries.len() / 2);
        let mut keep = vec![false; entries.len() / 2];
        for (index, pair) in entries.chunks_exact(2).enumerate().rev() {
            keep[index] = match doc.scalar_of(pair[0]) {
                Some(text) => seen.insert(text),
                // A key that is not a scalar is never a duplicate (see `check_duplicate`).
                None => true,
            };
        }
        let kept: Vec<NodeId> = entries
            .chunks_exact(2)
            .zip(keep)
            .filter(|(_, keep)| *keep)
            .flat_map(|(pair, _)| [pair[0], pair[1]])
            .collect();
        self.scratch.truncate(first_child);
        self.scratch.extend(kept);
    }

    fn close_all(&mut self, at: u32) {
        while !self.stack.is_empty() {
            self.close_one(Some(TextRange::new(at, at)));
        }
    }
}

fn bad_alias(range: TextRange) -> NodeData {
    NodeData {
        kind: NodeKind::BadAlias,
        range,
        expanded: 1,
        bytes: 0,
        height: 1,
        flow: false,
    }
}

enum Flow {
    Continue,
    Stop,
}

/// saphyr's messages are terse; keep them but make the first letter read as a sentence.
fn describe_scan_error(info: &str) -> String {
    format!("this is not valid YAML: {info}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(text: &str, range: TextRange) -> &str {
        &text[range.start as usize..range.end as usize]
    }

    #[test]
    fn keys_scalars_and_collections_have_byte_ranges() {
        let text = "agents:\n  root:\n    id: r😀t\n    skills: [a, \"b\"]\n    list:\n      - x\n      - y\nafter: 1\n";
        let doc = YamlDocument::parse(text, 0);
        assert!(doc.errors.is_empty(), "{:?}", doc.errors);
        let root = doc.root().unwrap();
        let agent = root.get("agents").unwrap().get("root").unwrap();
        let (id_key, id) = agent.entry("id").unwrap();
        assert_eq!(text_of(text, id_key.range()), "id");
        assert_eq!(text_of(text, id.range()), "r😀t");
        let skills = agent.get("skills").unwrap();
        assert!(skills.is_flow());
        assert_eq!(text_of(text, skills.range()), "[a, \"b\"]");
        let b = skills.items().nth(1).unwrap();
        assert_eq!(text_of(text, b.range()), "\"b\"");
        assert_eq!(b.as_str(), Some("b"));
        let list = agent.get("list").unwrap();
        assert_eq!(text_of(text, list.range()), "- x\n      - y");
        assert_eq!(
            text_of(text, agent.range()),
            "id: r😀t\n    skills: [a, \"b\"]\n    list:\n      - x\n      - y"
        );
        assert_eq!(root.get("after").unwrap().value(), ScalarValue::Int(1));
    }

    #[test]
    fn partial_tree_survives_an_error() {
        let text = "a: 1\nb: [x, y\nc: 3\n";
        let doc = YamlDocument::parse(text, 0);
        assert!(doc.has_syntax_error());
        let root = doc.root().expect("a partial root");
        assert_eq!(root.get("a").unwrap().value(), ScalarValue::Int(1));
    }

    #[test]
    fn duplicate_keys_are_reported_and_the_last_value_kept() {
        let text = "a: 1\nb: 2\na: 3\n";
        let doc = YamlDocument::parse(text, 0);
        assert_eq!(doc.duplicate_keys.len(), 1);
        let dup = &doc.duplicate_keys[0];
        assert_eq!((dup.first.start, dup.second.start), (0, 10));
        let root = doc.root().unwrap();
        let keys: Vec<_> = root
            .entries()
            .map(|(k, v)| (k.scalar(), v.scalar()))
            .collect();
        assert_eq!(keys, [(Some("b"), Some("2")), (Some("a"), Some("3"))]);
        // The mapping still spans what was written.
        assert_eq!(root.range(), TextRange::new(0, 14));
        // Nested mappings too, and an anchor in a discarded value still resolves.
        let doc = YamlDocument::parse("m: {x: &v [1], x: 2}\nuse: *v\n", 0);
        let root = doc.root().unwrap();
        assert_eq!(root.get("m").unwrap().get("x").unwrap().scalar(), Some("2"));
        assert_eq!(root.get("use").unwrap().to_json(), serde_json::json!([1]));
    }

    #[test]
    fn aliases_resolve_by_reference() {
        let text = "base: &b {x: 1}\nuse: *b\n";
        let doc = YamlDocument::parse(text, 0);
        let used = doc.root().unwrap().get("use").unwrap();
        assert!(used.is_alias());
        assert_eq!(used.get("x").unwrap().value(), ScalarValue::Int(1));
        assert_eq!(text_of(text, used.range()), "*b");
    }

    #[test]
    fn alias_bomb_is_capped() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let prev = i - 1;
            text.push_str(&format!(
                "a{i}: &a{i} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"
            ));
        }
        let doc = YamlDocument::parse(&text, 0);
        let refused: Vec<_> = doc
            .errors
            .iter()
            .filter(|e| e.kind == YamlErrorKind::AliasExpansion)
            .collect();
        assert_eq!(refused.len(), 1, "{:?}", doc.errors);
        // Converting to JSON stays small because refused aliases read as null.
        let root = doc.root().unwrap();
        assert!(root.expanded_size() <= doc.written_nodes() as u32 + MAX_ALIAS_EXPANSION);
        assert!(root.to_json().to_string().len() < 10_000_000);
    }

    /// One long scalar aliased many times is one node per use, but its text in full to every
    /// reader: the budget counts the bytes too.
    #[test]
    fn aliases_of_a_long_scalar_are_capped_by_their_text() {
        let long = "x".repeat(20_000);
        let uses = vec!["*d"; 2_000].join(", ");
        let doc = YamlDocument::parse(&format!("chain: [&d {long}, {uses}]\n"), 0);
        let refused: Vec<_> = doc
            .errors
            .iter()
            .filter(|e| e.kind == YamlErrorKind::AliasExpansion)
            .collect();
        assert_eq!(refused.len(), 1, "one mistake, one diagnostic");
        let items = doc.root().unwrap().get("chain").unwrap();
        let text: usize = items
            .items()
            .filter_map(|item| item.scalar())
            .map(str::len)
            .sum();
        assert!(text <= 20_000 + MAX_ALIAS_BYTES as usize, "{text}");
        // Within the budget, every use reads the text.
        let doc = YamlDocument::parse(&format!("chain: [&d {long}, *d, *d]\n"), 0);
        assert!(doc.errors.is_empty());
        let root = doc.root().unwrap();
        assert!(root
            .get("chain")
            .unwrap()
            .items()
            .all(|i| i.scalar() == Some(long.as_str())));
    }

    /// One anchor under the per-alias size, used many times: the budget is the document's.
    #[test]
    fn wide_alias_bomb_is_capped_for_the_whole_document() {
        let mut text = String::from("base: &b [");
        text.push_str(&vec!["x"; 20_000].join(", "));
        text.push_str("]\nuses:\n");
        for _ in 0..50 {
            text.push_str("  - *b\n");
        }
        let doc = YamlDocument::parse(&text, 0);
        let refused: Vec<_> = doc
            .errors
            .iter()
            .filter(|e| e.kind == YamlErrorKind::AliasExpansion)
            .collect();
        assert_eq!(refused.len(), 1, "{:?}", doc.errors);
        // 100,000 extra nodes allow five uses of 20,001; the sixth is the first refused.
        let uses = doc.root().unwrap().get("uses").unwrap();
        let sixth = uses.item(5).unwrap();
        assert_eq!(refused[0].range, sixth.range());
        assert!(
            refused[0].message.contains("44 more aliases"),
            "{}",
            refused[0].message
        );
        assert!(uses.item(4).unwrap().is_sequence());
        assert!(sixth.is_null() && uses.item(49).unwrap().is_null());
        assert!(
            doc.root().unwrap().expanded_size() <= doc.written_nodes() as u32 + MAX_ALIAS_EXPANSION
        );
    }

    /// Anchors chained through complex keys nest deeper with each link while the text stays flat.
    #[test]
    fn aliases_at_depth_are_refused_past_the_cap() {
        let mut text = String::from("? &a1 [x]\n: v\n");
        for i in 2..=1000 {
            text.push_str(&format!("? &a{i} [*a{}]\n: v\n", i - 1));
        }
        text.push_str("x: *a1000\n");
        let doc = YamlDocument::parse(&text, 0);
        let refused: Vec<_> = doc
            .errors
            .iter()
            .filter(|e| e.kind == YamlErrorKind::AliasDepth)
            .collect();
        assert_eq!(refused.len(), 1, "{:?}", doc.errors);
        assert!(refused[0].message.contains("past the limit of 256"));
        let root = doc.root().unwrap();
        assert!(root.expanded_height() as usize <= MAX_DEPTH + 1);
        // Every walk over the expansion is bounded by the cap; this one is iterative anyway.
        let json = root.to_json();
        assert!(json.is_object());
        // Under the cap, aliases at depth still resolve.
        let doc = YamlDocument::parse("? &a [[[x]]]\n: v\nuse: *a\n", 0);
        assert!(doc.errors.is_empty());
        let used = doc.root().unwrap().get("use").unwrap();
        assert_eq!(used.expanded_height(), 4);
        assert_eq!(used.to_json(), serde_json::json!([[["x"]]]));
    }

    #[test]
    fn to_json_keeps_the_last_of_duplicate_keys_and_nesting() {
        let doc = YamlDocument::parse("a: 2\na: {b: [1, {c: d}], e: ~}\nf: [[], {}]\n", 0);
        assert_eq!(
            doc.root().unwrap().to_json(),
            serde_json::json!({"a": {"b": [1, {"c": "d"}], "e": null}, "f": [[], {}]})
        );
        assert_eq!(
            YamlDocument::parse("7", 0).root().unwrap().to_json(),
            serde_json::json!(7)
        );
    }

    #[test]
    fn large_mappings_find_every_duplicate_once() {
        let mut text = String::new();
        for i in 0..2_000 {
            text.push_str(&format!("k{i}: 1\n"));
        }
        text.push_str("k3: 2\nk1999: 3\nk3: 4\nnew: 5\n");
        let doc = YamlDocument::parse(&text, 0);
        let found: Vec<_> = doc
            .duplicate_keys
            .iter()
            .map(|d| (d.key.as_str(), d.first.start))
            .collect();
        let at = |key: &str| text.find(&format!("{key}:")).unwrap() as u32;
        assert_eq!(
            found,
            vec![("k3", at("k3")), ("k1999", at("k1999")), ("k3", at("k3"))]
        );
        // Only the last of each repeated key stays in the tree.
        let root = doc.root().unwrap();
        assert_eq!(root.entries().len(), 2_001);
        assert_eq!(root.get("k3").unwrap().scalar(), Some("4"));
        assert_eq!(root.get("k1999").unwrap().scalar(), Some("3"));
    }

    #[test]
    fn every_key_of_a_large_mapping_is_found_by_lookup() {
        let count = 50_000;
        let mut text = String::from("small: {a: 1, b: 2}\nname: &name n\nbig:\n");
        for i in 0..count {
            text.push_str(&format!("  k{i}: v{i}\n"));
        }
        // A repeated key keeps its last value; an alias key reads the scalar it names.
        text.push_str("  k7: again\n  ? *name\n  : aliased\n");
        let medium: Vec<String> = (0..40).map(|i| format!("m{i}: {i}")).collect();
        text.push_str(&format!(
            "medium: &medium {{{}}}\nsame: *medium\n",
            medium.join(", ")
        ));
        let doc = YamlDocument::parse(&text, 0);
        assert!(doc.errors.is_empty(), "{:?}", doc.errors);
        let root = doc.root().unwrap();
        let big = root.get("big").unwrap();
        assert_eq!(big.entries().len(), count + 1);
        for i in (0..count).filter(|&i| i != 7) {
            let (key, value) = big.entry(&format!("k{i}")).unwrap();
            assert_eq!(key.scalar(), Some(format!("k{i}").as_str()));
            assert_eq!(value.scalar(), Some(format!("v{i}").as_str()));
        }
        assert_eq!(big.get("k7").unwrap().scalar(), Some("again"));
        assert_eq!(big.get("n").unwrap().scalar(), Some("aliased"));
        assert!(big.get("k50000").is_none() && big.get("v1").is_none());
        // Through an alias to the mapping, and in a small mapping.
        assert_eq!(
            root.get("same").unwrap().get("m9").unwrap().scalar(),
            Some("9")
        );
        assert_eq!(
            root.get("small").unwrap().get("b").unwrap().scalar(),
            Some("2")
        );
        // Substitution rewrites a scalar an alias key may name: lookups see the new text.
        let mut doc = doc;
        let name = doc.root().unwrap().get("name").unwrap().id();
        doc.set_scalar(name, "renamed", Style::Plain);
        let big = doc.root().unwrap().get("big").unwrap();
        assert_eq!(big.get("renamed").unwrap().scalar(), Some("aliased"));
        assert!(big.get("n").is_none());
    }

    #[test]
    fn scalars_take_the_bytes_they_hold() {
        let text = (0..1_000).map(|i| format!("- s{i}\n")).collect::<String>();
        let doc = YamlDocument::parse(&text, 0);
        let per_scalar = doc.heap_bytes() / 1_000;
        // A node, a child id and the text: far from saphyr's 128 bytes reserved per scalar.
        assert!(per_scalar < 48, "{per_scalar} bytes per scalar");
        assert_eq!(
            doc.root().unwrap().item(999).unwrap().scalar(),
            Some("s999")
        );
    }

    #[test]
    fn deep_nesting_stops_with_an_error() {
        // saphyr's scanner refuses very deep flow nesting itself; either refusal is fine.
        let text = "[".repeat(10_000);
        let doc = YamlDocument::parse(&text, 0);
        assert!(!doc.errors.is_empty());
        let text = "a:\n".to_string()
            + &(1..2000)
                .map(|i| format!("{}b:\n", " ".repeat(i)))
                .collect::<String>();
        let doc = YamlDocument::parse(&text, 0);
        assert!(doc.errors.iter().any(|e| e.kind == YamlErrorKind::TooDeep));
    }

    #[test]
    fn base_offset_shifts_every_range() {
        let doc = YamlDocument::parse("name: x\n", 4);
        let (k, v) = doc.root().unwrap().entry("name").unwrap();
        assert_eq!((k.range().start, v.range().start), (4, 10));
    }

    #[test]
    fn quoted_scalars_end_at_the_closing_quote() {
        let text = "a: 'it''s'\t# it's a comment\nb: \"x\\\"y\"  # \"c\"\n";
        let doc = YamlDocument::parse(text, 0);
        let root = doc.root().unwrap();
        assert_eq!(text_of(text, root.get("a").unwrap().range()), "'it''s'");
        assert_eq!(text_of(text, root.get("b").unwrap().range()), "\"x\\\"y\"");
    }

    #[test]
    fn crlf_text_keeps_byte_ranges() {
        let text = "a: 1\r\nb: two\r\n";
        let doc = YamlDocument::parse(text, 0);
        let b = doc.root().unwrap().get("b").unwrap();
        assert_eq!(text_of(text, b.range()), "two");
    }

    #[test]
    fn core_schema_scalars() {
        let doc = YamlDocument::parse("[1, -2, 1.5, .5, 1e3, true, ~, '1', abc, 0x1f, 1.2.3]", 0);
        let values: Vec<_> = doc.root().unwrap().items().map(|n| n.value()).collect();
        assert_eq!(
            values,
            vec![
                ScalarValue::Int(1),
                ScalarValue::Int(-2),
                ScalarValue::Float(1.5),
                ScalarValue::Float(0.5),
                ScalarValue::Float(1000.0),
                ScalarValue::Bool(true),
                ScalarValue::Null,
                ScalarValue::Str("1"),
                ScalarValue::Str("abc"),
                ScalarValue::Int(31),
                ScalarValue::Str("1.2.3"),
            ]
        );
    }

    #[test]
    fn multiple_documents_are_flagged() {
        let doc = YamlDocument::parse("a: 1\n---\nb: 2\n", 0);
        assert!(doc
            .errors
            .iter()
            .any(|e| e.kind == YamlErrorKind::MultipleDocuments));
        assert!(doc.root().unwrap().get("a").is_some());
    }
}
