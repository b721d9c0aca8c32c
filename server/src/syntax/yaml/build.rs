//! The parse: saphyr-parser's events, with their character marks turned into byte ranges, are
//! built into the arenas of the document, counting depth and alias expansion as they go,
//! reporting a repeated key (keeping the last value), and closing every open collection at an
//! error so the partial tree survives.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

use super::{
    Children, DuplicateKey, NodeData, NodeId, NodeKind, ScalarText, Style, YamlDocument, YamlError,
    YamlErrorKind, MAX_ALIAS_BYTES, MAX_ALIAS_EXPANSION, MAX_DEPTH,
};
use crate::syntax::TextRange;

/// Converts saphyr's character indices to byte offsets. Pure-ASCII text (the common case) needs
/// no table.
pub(super) struct CharToByte {
    table: Option<Vec<u32>>,
    len: u32,
    base: u32,
}

impl CharToByte {
    pub(super) fn new(text: &str, base: u32) -> Self {
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

    pub(super) fn byte(&self, char_index: usize) -> u32 {
        let local = match &self.table {
            None => (char_index as u32).min(self.len),
            Some(table) => table.get(char_index).copied().unwrap_or(self.len),
        };
        local + self.base
    }

    pub(super) fn range(&self, span: &Span) -> TextRange {
        TextRange::new(self.byte(span.start.index()), self.byte(span.end.index()))
    }
}

/// A collection being read. Its children so far sit on the builder's scratch stack from
/// `first_child` up (for a mapping, key and value alternating).
pub(super) struct Open {
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
pub(super) const INDEX_KEYS_FROM: usize = 8;

/// The limits an alias can break, in the order of [`Builder::refused`].
pub(super) const ALIAS_LIMITS: [YamlErrorKind; 2] =
    [YamlErrorKind::AliasExpansion, YamlErrorKind::AliasDepth];

pub(super) struct Builder<'t> {
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
    pub(super) fn new(text: &'t str, base: u32) -> Self {
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

    pub(super) fn run(mut self) -> YamlDocument {
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
    pub(super) fn error_range(&self, at: u32) -> TextRange {
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

    pub(super) fn event(&mut self, event: Event<'_>, range: TextRange) -> Flow {
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

    pub(super) fn open(&mut self, mapping: bool, anchor: usize, range: TextRange) -> Flow {
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
    pub(super) fn alias_to(&mut self, target: NodeId, range: TextRange) -> NodeData {
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
    pub(super) fn refuse(&mut self, which: usize, range: TextRange, message: String) {
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
    pub(super) fn quoted_range(&self, range: TextRange) -> TextRange {
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
    pub(super) fn after_properties(&self, range: TextRange) -> TextRange {
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

    pub(super) fn starts_flow(&self, at: u32, bracket: char) -> bool {
        let local = (at - self.positions.base) as usize;
        self.text[local.min(self.text.len())..].starts_with(bracket)
    }

    pub(super) fn too_deep(&mut self, range: TextRange) -> Flow {
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

    pub(super) fn push(&mut self, data: NodeData) -> NodeId {
        let id = NodeId(self.doc.nodes.len() as u32);
        self.doc.nodes.push(data);
        id
    }

    pub(super) fn remember_anchor(&mut self, anchor: usize, id: NodeId) {
        if anchor != 0 {
            self.anchors.insert(anchor, id);
        }
    }

    /// Hangs a finished node on the open collection (or makes it the root).
    pub(super) fn attach(&mut self, id: NodeId) {
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
    pub(super) fn check_duplicate(&mut self, key: NodeId) {
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

    pub(super) fn close_one(&mut self, end_event: Option<TextRange>) {
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
    pub(super) fn keep_last_of_each_key(&mut self, first_child: usize) {
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

    pub(super) fn close_all(&mut self, at: u32) {
        while !self.stack.is_empty() {
            self.close_one(Some(TextRange::new(at, at)));
        }
    }
}

pub(super) fn bad_alias(range: TextRange) -> NodeData {
    NodeData {
        kind: NodeKind::BadAlias,
        range,
        expanded: 1,
        bytes: 0,
        height: 1,
        flow: false,
    }
}

pub(super) enum Flow {
    Continue,
    Stop,
}

/// saphyr's messages are terse; keep them but make the first letter read as a sentence.
pub(super) fn describe_scan_error(info: &str) -> String {
    format!("this is not valid YAML: {info}")
}
