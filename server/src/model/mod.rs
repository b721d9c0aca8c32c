//! Spanned trees -> typed artifacts. Lowering never fails: whatever shape the YAML has, we take
//! what we can read and leave the rest to the schema and shape checks, so one broken field never
//! hides the ids and references around it.

pub mod config;
pub mod hosts;
pub mod skill_links;
pub mod skill_md;
pub mod swarmkit;
pub mod tools;

use crate::syntax::{Node, TextRange};

/// A value with the byte range it was read from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Spanned<T> {
    pub value: T,
    pub range: TextRange,
}

impl<T> Spanned<T> {
    pub fn new(value: T, range: TextRange) -> Self {
        Spanned { value, range }
    }
}

pub type SpannedStr = Spanned<String>;

/// The scalar at `node` as text, whatever its YAML type (`1.0` reads as "1.0"), with its range.
/// Ids written as numbers are still ids to the person who wrote them; the schema check reports
/// the type.
pub(crate) fn spanned_scalar(node: Node<'_>) -> Option<SpannedStr> {
    if node.is_null() {
        return None;
    }
    node.scalar()
        .map(|text| Spanned::new(text.to_owned(), node.range()))
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
        node.items().filter_map(spanned_scalar).collect()
    } else {
        spanned_scalar(node).into_iter().collect()
    }
}
