//! Text-level syntax: byte ranges, the line index and position encodings, decoding raw bytes,
//! the spanned YAML and JSON trees, and splitting a SKILL.md into frontmatter and body. Knows nothing of
//! skills, agents or workspaces.

mod frontmatter;
pub mod interpolate;
pub mod json;
mod line_index;
mod text;
pub mod yaml;

pub use frontmatter::{frontmatter_yaml, split_frontmatter, Frontmatter};
pub use line_index::{LineCol, LineIndex, PositionEncoding};
pub use text::{bom_len, decode, Decoded};
pub use yaml::{Node, NodeId, NodeKind, ScalarValue, YamlDocument, YamlError, YamlErrorKind};

/// A half-open byte range `[start, end)` in a file's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TextRange {
    pub start: u32,
    pub end: u32,
}

impl TextRange {
    pub fn new(start: u32, end: u32) -> Self {
        debug_assert!(start <= end, "range {start}..{end} is reversed");
        TextRange { start, end }
    }

    pub fn empty(at: u32) -> Self {
        TextRange { start: at, end: at }
    }

    pub fn len(self) -> u32 {
        self.end - self.start
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// True when `offset` is inside, or just after the end (where a cursor after a word sits).
    pub fn contains_inclusive(self, offset: u32) -> bool {
        self.start <= offset && offset <= self.end
    }

    pub fn cover(self, other: TextRange) -> TextRange {
        TextRange::new(self.start.min(other.start), self.end.max(other.end))
    }
}
