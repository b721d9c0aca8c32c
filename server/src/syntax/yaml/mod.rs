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
//! large mappings are searched by key also holds a table of their keys (see `KeyTables`).
//!
//! By stage: `build` (text to tree), this file (the document and its arenas), `node` (reading
//! it), `scalar` (what a scalar means). It knows nothing of skills, agents or the LSP.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::sync::OnceLock;

use super::TextRange;

mod build;
mod node;
mod scalar;
#[cfg(test)]
mod tests;

use build::Builder;
pub use node::Node;
pub use scalar::ScalarValue;

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
    /// The keys of the large mappings, made on the first lookup in one (see `KeyTables`).
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
