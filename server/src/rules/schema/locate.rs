//! From a JSON pointer (what the validator reports) back to the YAML node it names, and to the
//! tight range a diagnostic about it belongs on.

use crate::syntax::{Node, NodeKind, TextRange};

/// The unescaped segments of a JSON pointer (`/a/b~1c/0` -> `a`, `b/c`, `0`).
pub(super) fn segments(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Where a pointer led: the deepest node reached, the key it is the value of (none for the root
/// and for sequence items), and a readable path such as `spec.event_map[0].emit`.
pub(super) struct Target<'a> {
    pub node: Node<'a>,
    pub key: Option<Node<'a>>,
    /// False when the pointer went further than the tree (then `node` is the nearest ancestor).
    pub resolved: bool,
    pub is_root: bool,
    pub path: String,
}

impl<'a> Target<'a> {
    /// The range for a statement about the node as a whole ("is missing `x`"): its key, or for a
    /// mapping without a key (the root, a list item) its first key, never the whole block.
    pub fn head_range(&self) -> TextRange {
        if let Some(key) = self.key {
            return key.range();
        }
        match self.node.kind() {
            NodeKind::Mapping(_) => {
                let first = if self.is_root {
                    self.node
                        .entry("kind")
                        .map(|(k, _)| k)
                        .or_else(|| self.node.entries().next().map(|(k, _)| k))
                } else {
                    self.node.entries().next().map(|(k, _)| k)
                };
                first.map_or_else(|| self.node.range(), |k| k.range())
            }
            NodeKind::Sequence(_) if !self.node.is_flow() => self
                .node
                .items()
                .next()
                .map_or_else(|| self.node.range(), |item| item.range()),
            _ => self.node.range(),
        }
    }

    /// The range for a statement about the value ("must be a string"): the value itself when it
    /// is a scalar or written in flow style, the key when it is a block collection or empty.
    pub fn value_range(&self) -> TextRange {
        if !self.resolved {
            return self.head_range();
        }
        let block_collection = !self.node.is_flow()
            && matches!(
                self.node.kind(),
                NodeKind::Mapping(_) | NodeKind::Sequence(_)
            );
        if block_collection || self.node.range().is_empty() {
            return self.head_range();
        }
        self.node.range()
    }

    /// The key node naming `name` in the mapping at this target.
    pub fn key_of(&self, name: &str) -> Option<Node<'a>> {
        if !self.resolved {
            return None;
        }
        self.node.entry(name).map(|(k, _)| k)
    }

    /// The path in backticks, or a phrase for the document itself.
    pub fn label(&self, root_name: &str) -> String {
        if self.path.is_empty() {
            format!("this {root_name}")
        } else {
            format!("`{}`", self.path)
        }
    }
}

/// Follows `segments` from `root`, stopping at the deepest node that exists.
pub(super) fn locate<'a>(root: Node<'a>, segments: &[String]) -> Target<'a> {
    let mut target = Target {
        node: root,
        key: None,
        resolved: true,
        is_root: true,
        path: String::new(),
    };
    for segment in segments {
        let in_sequence = target.resolved && target.node.is_sequence();
        push_segment(&mut target.path, segment, in_sequence || !target.resolved);
        if !target.resolved {
            continue;
        }
        let step = match target.node.kind() {
            NodeKind::Mapping(_) => target
                .node
                .entry(segment)
                .map(|(key, value)| (Some(key), value)),
            NodeKind::Sequence(_) => segment
                .parse::<usize>()
                .ok()
                .and_then(|index| target.node.items().nth(index))
                .map(|item| (None, item)),
            _ => None,
        };
        match step {
            Some((key, node)) => {
                target.key = key;
                target.node = node;
                target.is_root = false;
            }
            None => target.resolved = false,
        }
    }
    target
}

fn push_segment(path: &mut String, segment: &str, in_sequence: bool) {
    let index_like = !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit());
    if in_sequence && index_like {
        path.push('[');
        path.push_str(segment);
        path.push(']');
    } else {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(segment);
    }
}
