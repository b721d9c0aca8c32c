//! Spanned trees -> typed artifacts. Lowering never fails: whatever shape the YAML has, we take
//! what we can read and leave the rest to the schema and shape checks, so one broken field never
//! hides the ids and references around it. It reads one file at a time and must not know the
//! others: what an id resolves to is `index`'s and `semantics`' business.

pub mod arguments;
pub mod bundled;
pub mod config;
pub mod defined_skills;
pub mod hosts;
pub mod machine;
pub mod mentions;
pub mod plugin_manifest;
pub mod prose;
pub mod schema_file;
pub mod skill_body;
pub mod skill_links;
pub mod skill_md;
pub mod swarmkit;
pub mod tools;

use crate::syntax::{Node, TextRange};

/// A value with the byte range it was read from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Spanned<T> {
    pub value: T,
    /// Where the value is used: the text itself, or the alias (`*common`) that stands for it, so
    /// a value shared through an alias is judged at each use.
    pub range: TextRange,
    /// For a value reached through an alias, where it is written (inside the anchor).
    pub origin: Option<TextRange>,
}

impl<T> Spanned<T> {
    pub fn new(value: T, range: TextRange) -> Self {
        Spanned {
            value,
            range,
            origin: None,
        }
    }

    pub fn with_origin(mut self, origin: Option<TextRange>) -> Self {
        self.origin = origin;
        self
    }
}

/// Where a node is used and, when that is through an alias, where it is written. `via` is the
/// alias of an enclosing collection the node was reached through (`skills: *common` makes every
/// item of `common` used at `*common`).
pub(crate) fn use_site(node: Node<'_>, via: Option<TextRange>) -> (TextRange, Option<TextRange>) {
    match via {
        Some(alias) => (alias, Some(node.resolved().range())),
        None if node.is_alias() => (node.range(), Some(node.resolved().range())),
        None => (node.range(), None),
    }
}

pub type SpannedStr = Spanned<String>;

/// The scalar at `node` as text, whatever its YAML type (`1.0` reads as "1.0"), with its range.
/// Ids written as numbers are still ids to the person who wrote them; the schema check reports
/// the type.
pub(crate) fn spanned_scalar(node: Node<'_>) -> Option<SpannedStr> {
    spanned_scalar_via(node, None)
}

fn spanned_scalar_via(node: Node<'_>, via: Option<TextRange>) -> Option<SpannedStr> {
    if node.is_null() {
        return None;
    }
    let (range, origin) = use_site(node, via);
    node.scalar()
        .map(|text| Spanned::new(text.to_owned(), range).with_origin(origin))
}

/// `mapping[key]` as spanned text.
pub(crate) fn field(node: Node<'_>, key: &str) -> Option<SpannedStr> {
    node.get(key).and_then(spanned_scalar)
}

/// `mapping[key]` as a list of spanned scalars; a lone scalar reads as a list of one.
pub(crate) fn scalar_list(node: Option<Node<'_>>) -> Vec<SpannedStr> {
    let Some(node) = node else {
        return Vec::new();
    };
    if node.is_sequence() {
        let via = node.is_alias().then(|| node.range());
        node.items()
            .filter_map(|item| spanned_scalar_via(item, via))
            .collect()
    } else {
        spanned_scalar(node).into_iter().collect()
    }
}
