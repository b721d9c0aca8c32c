//! Text -> spanned YAML tree.
//!
//! saphyr-parser gives us a stream of events with character-indexed marks; we turn them into an
//! arena of nodes in which every key, scalar, sequence and mapping carries a byte range. Parsing
//! never fails: when the text stops parsing we close every open collection at the error position
//! and return what was read so far, plus the error. Aliases are kept as references to their anchor
//! (never copied), and the number of nodes an alias may stand for is capped, so an alias bomb
//! costs nothing. Nesting deeper than [`MAX_DEPTH`] stops the parse with an error instead of
//! letting later recursive walks overflow the stack.

use std::borrow::Cow;

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

use super::TextRange;

/// Deepest nesting we accept. Real files stay far below; anything beyond is hostile or broken.
pub const MAX_DEPTH: usize = 256;
/// Largest number of nodes an alias (or the whole document, once aliases are counted as what they
/// stand for) may represent.
pub const MAX_EXPANDED_NODES: u32 = 100_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Scalar {
        value: String,
        style: Style,
    },
    Sequence(Vec<NodeId>),
    Mapping(Vec<(NodeId, NodeId)>),
    /// An alias: a reference to the anchored node it names.
    Alias(NodeId),
    /// An alias that named no anchor, or stood for too much: behaves as null.
    BadAlias,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Plain,
    Quoted,
    Block,
}

#[derive(Clone, Debug)]
struct NodeData {
    kind: NodeKind,
    range: TextRange,
    /// How many nodes this node stands for once aliases are expanded (saturating).
    expanded: u32,
    flow: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum YamlErrorKind {
    /// The text stops being YAML here.
    Syntax,
    /// Nesting deeper than [`MAX_DEPTH`].
    TooDeep,
    /// An alias naming no anchor, or standing for more than [`MAX_EXPANDED_NODES`] nodes.
    Alias,
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
    root: Option<NodeId>,
    pub errors: Vec<YamlError>,
    pub duplicate_keys: Vec<DuplicateKey>,
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
        self.doc.nodes[self.id.0 as usize].range
    }

    /// True when written in flow style (`[a, b]`, `{a: b}`).
    pub fn is_flow(self) -> bool {
        self.resolved_data().flow
    }

    fn resolved_data(self) -> &'a NodeData {
        let mut data = &self.doc.nodes[self.id.0 as usize];
        // Aliases point at nodes completed earlier, so this walk always ends.
        while let NodeKind::Alias(target) = data.kind {
            data = &self.doc.nodes[target.0 as usize];
        }
        data
    }

    /// The node's content, looking through aliases.
    pub fn kind(self) -> &'a NodeKind {
        &self.resolved_data().kind
    }

    pub fn is_alias(self) -> bool {
        matches!(self.doc.nodes[self.id.0 as usize].kind, NodeKind::Alias(_))
    }

    /// Nodes this one stands for when aliases are expanded.
    pub fn expanded_size(self) -> u32 {
        self.doc.nodes[self.id.0 as usize].expanded
    }

    /// The scalar text, whatever its YAML type (`42` gives "42").
    pub fn scalar(self) -> Option<&'a str> {
        match self.kind() {
            NodeKind::Scalar { value, .. } => Some(value),
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
            NodeKind::Scalar { value, style } => ScalarValue::interpret(value, *style),
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

    /// Entries of a mapping as (key, value); empty for anything else.
    pub fn entries(self) -> impl Iterator<Item = (Node<'a>, Node<'a>)> + 'a {
        let doc = self.doc;
        let slice: &'a [(NodeId, NodeId)] = match self.kind() {
            NodeKind::Mapping(entries) => entries,
            _ => &[],
        };
        slice.iter().map(move |&(k, v)| (doc.node(k), doc.node(v)))
    }

    /// Items of a sequence; empty for anything else.
    pub fn items(self) -> impl Iterator<Item = Node<'a>> + 'a {
        let doc = self.doc;
        let slice: &'a [NodeId] = match self.kind() {
            NodeKind::Sequence(items) => items,
            _ => &[],
        };
        slice.iter().map(move |&id| doc.node(id))
    }

    /// The first entry whose key is the scalar `key`.
    pub fn entry(self, key: &str) -> Option<(Node<'a>, Node<'a>)> {
        self.entries().find(|(k, _)| k.scalar() == Some(key))
    }

    /// The value of the first entry whose key is the scalar `key`.
    pub fn get(self, key: &str) -> Option<Node<'a>> {
        self.entry(key).map(|(_, v)| v)
    }

    /// A short name of the node's YAML type, for messages.
    pub fn type_name(self) -> &'static str {
        match self.value() {
            ScalarValue::Null => "null",
            ScalarValue::Bool(_) => "boolean",
            ScalarValue::Int(_) => "integer",
            ScalarValue::Float(_) => "number",
            ScalarValue::Str(_) => "string",
            ScalarValue::NotScalar => match self.kind() {
                NodeKind::Sequence(_) => "list",
                _ => "mapping",
            },
        }
    }

    /// Converts to JSON for schema validation. Aliases expand here; the builder already capped how
    /// much any alias stands for, so this is bounded.
    pub fn to_json(self) -> serde_json::Value {
        use serde_json::Value;
        match self.value() {
            ScalarValue::Null => Value::Null,
            ScalarValue::Bool(b) => Value::Bool(b),
            ScalarValue::Int(i) => Value::from(i),
            ScalarValue::Float(f) => {
                serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
            }
            ScalarValue::Str(s) => Value::String(s.to_owned()),
            ScalarValue::NotScalar => match self.kind() {
                NodeKind::Sequence(_) => Value::Array(self.items().map(Node::to_json).collect()),
                _ => {
                    let mut map = serde_json::Map::new();
                    for (k, v) in self.entries() {
                        let key = k
                            .scalar()
                            .map_or_else(|| k.type_name().to_owned(), str::to_owned);
                        // First occurrence wins, as in most YAML loaders; duplicates are reported.
                        map.entry(key).or_insert_with(|| v.to_json());
                    }
                    Value::Object(map)
                }
            },
        }
    }

    /// Follows a JSON pointer's segments (object keys / array indices) down the tree.
    pub fn descend<'s>(self, segments: impl IntoIterator<Item = &'s str>) -> Option<Node<'a>> {
        let mut node = self;
        for segment in segments {
            node = match node.kind() {
                NodeKind::Mapping(_) => node.get(segment)?,
                NodeKind::Sequence(_) => node.items().nth(segment.parse().ok()?)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// The smallest node whose range contains `offset`, with the path of (key, value) nodes down
    /// to it. Used by the IDE layer to find what the cursor is on.
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
    fn interpret(text: &'a str, style: Style) -> ScalarValue<'a> {
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

enum Open {
    Sequence {
        start: u32,
        flow: bool,
        anchor: usize,
        items: Vec<NodeId>,
    },
    Mapping {
        start: u32,
        flow: bool,
        anchor: usize,
        entries: Vec<(NodeId, NodeId)>,
        pending_key: Option<NodeId>,
    },
}

struct Builder<'t> {
    text: &'t str,
    positions: CharToByte,
    doc: YamlDocument,
    stack: Vec<Open>,
    anchors: Vec<(usize, NodeId)>,
    documents_seen: usize,
}

impl<'t> Builder<'t> {
    fn new(text: &'t str, base: u32) -> Self {
        Builder {
            text,
            positions: CharToByte::new(text, base),
            doc: YamlDocument::default(),
            stack: Vec::new(),
            anchors: Vec::new(),
            documents_seen: 0,
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
                let id = self.push(NodeData {
                    kind: NodeKind::Scalar {
                        value: Cow::into_owned(value),
                        style,
                    },
                    range,
                    expanded: 1,
                    flow: false,
                });
                self.remember_anchor(anchor, id);
                self.attach(id);
            }
            Event::Alias(anchor) => {
                let target = self
                    .anchors
                    .iter()
                    .rev()
                    .find(|(a, _)| *a == anchor)
                    .map(|&(_, id)| id);
                let (kind, expanded) = match target {
                    Some(target) => {
                        let size = self.doc.nodes[target.0 as usize].expanded;
                        if size > MAX_EXPANDED_NODES {
                            // One report is enough: a bomb repeats the same alias many times.
                            if !self
                                .doc
                                .errors
                                .iter()
                                .any(|e| e.kind == YamlErrorKind::Alias)
                            {
                                self.alias_error(range, "this alias stands for too many nodes (an alias bomb?); it and aliases like it are read as null");
                            }
                            (NodeKind::BadAlias, 1)
                        } else {
                            (NodeKind::Alias(target), size)
                        }
                    }
                    None => {
                        self.alias_error(
                            range,
                            "this alias names no anchor defined before it; it is read as null",
                        );
                        (NodeKind::BadAlias, 1)
                    }
                };
                let id = self.push(NodeData {
                    kind,
                    range,
                    expanded,
                    flow: false,
                });
                self.attach(id);
            }
            Event::SequenceStart(anchor, _tag) => {
                if self.stack.len() >= MAX_DEPTH {
                    return self.too_deep(range);
                }
                let flow = self.starts_flow(range.start, '[');
                self.stack.push(Open::Sequence {
                    start: range.start,
                    flow,
                    anchor,
                    items: Vec::new(),
                });
            }
            Event::MappingStart(anchor, _tag) => {
                if self.stack.len() >= MAX_DEPTH {
                    return self.too_deep(range);
                }
                let flow = self.starts_flow(range.start, '{');
                self.stack.push(Open::Mapping {
                    start: range.start,
                    flow,
                    anchor,
                    entries: Vec::new(),
                    pending_key: None,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => self.close_one(Some(range)),
        }
        Flow::Continue
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

    fn alias_error(&mut self, range: TextRange, message: &str) {
        self.doc.errors.push(YamlError {
            kind: YamlErrorKind::Alias,
            range,
            message: message.to_owned(),
        });
    }

    fn push(&mut self, data: NodeData) -> NodeId {
        let id = NodeId(self.doc.nodes.len() as u32);
        self.doc.nodes.push(data);
        id
    }

    fn remember_anchor(&mut self, anchor: usize, id: NodeId) {
        if anchor != 0 {
            self.anchors.push((anchor, id));
        }
    }

    /// Hangs a finished node on the open collection (or makes it the root).
    fn attach(&mut self, id: NodeId) {
        match self.stack.last_mut() {
            None => {
                if self.doc.root.is_none() {
                    self.doc.root = Some(id);
                }
            }
            Some(Open::Sequence { items, .. }) => items.push(id),
            Some(Open::Mapping {
                entries,
                pending_key,
                ..
            }) => match pending_key.take() {
                None => *pending_key = Some(id),
                Some(key) => {
                    let key_text = self.doc.node(key).scalar().map(str::to_owned);
                    if let Some(key_text) = key_text {
                        if let Some(&(first, _)) = entries
                            .iter()
                            .find(|&&(k, _)| self.doc.node(k).scalar() == Some(key_text.as_str()))
                        {
                            self.doc.duplicate_keys.push(DuplicateKey {
                                key: key_text,
                                first: self.doc.nodes[first.0 as usize].range,
                                second: self.doc.nodes[key.0 as usize].range,
                            });
                        }
                    }
                    entries.push((key, id));
                }
            },
        }
    }

    fn close_one(&mut self, end_event: Option<TextRange>) {
        let Some(open) = self.stack.pop() else {
            return;
        };
        let (kind, start, flow, anchor, children_end, expanded) = match open {
            Open::Sequence {
                start,
                flow,
                anchor,
                items,
            } => {
                let end = items
                    .last()
                    .map(|id| self.doc.nodes[id.0 as usize].range.end);
                let expanded = self.sum_expanded(items.iter().copied());
                (
                    NodeKind::Sequence(items),
                    start,
                    flow,
                    anchor,
                    end,
                    expanded,
                )
            }
            Open::Mapping {
                start,
                flow,
                anchor,
                mut entries,
                pending_key,
            } => {
                // A key whose value never came (cut off by an error) still counts, with null.
                if let Some(key) = pending_key {
                    let at = self.doc.nodes[key.0 as usize].range.end;
                    let null = self.push(NodeData {
                        kind: NodeKind::Scalar {
                            value: String::new(),
                            style: Style::Plain,
                        },
                        range: TextRange::new(at, at),
                        expanded: 1,
                        flow: false,
                    });
                    entries.push((key, null));
                }
                let end = entries.last().map(|&(k, v)| {
                    self.doc.nodes[k.0 as usize]
                        .range
                        .end
                        .max(self.doc.nodes[v.0 as usize].range.end)
                });
                let expanded = self.sum_expanded(entries.iter().flat_map(|&(k, v)| [k, v]));
                (
                    NodeKind::Mapping(entries),
                    start,
                    flow,
                    anchor,
                    end,
                    expanded,
                )
            }
        };
        // Block collections end where their last child ends (saphyr's end event sits at the next
        // token, often lines later); flow collections end after their closing bracket.
        let end = match (flow, end_event) {
            (true, Some(e)) => e.end,
            _ => children_end.unwrap_or(start),
        }
        .max(start);
        let id = self.push(NodeData {
            kind,
            range: TextRange::new(start, end),
            expanded,
            flow,
        });
        self.remember_anchor(anchor, id);
        self.attach(id);
    }

    fn sum_expanded(&self, ids: impl Iterator<Item = NodeId>) -> u32 {
        ids.fold(1u32, |acc, id| {
            acc.saturating_add(self.doc.nodes[id.0 as usize].expanded)
        })
    }

    fn close_all(&mut self, at: u32) {
        while !self.stack.is_empty() {
            self.close_one(Some(TextRange::new(at, at)));
        }
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
    fn duplicate_keys_are_kept_and_reported() {
        let text = "a: 1\nb: 2\na: 3\n";
        let doc = YamlDocument::parse(text, 0);
        assert_eq!(doc.duplicate_keys.len(), 1);
        let dup = &doc.duplicate_keys[0];
        assert_eq!((dup.first.start, dup.second.start), (0, 10));
        assert_eq!(doc.root().unwrap().entries().count(), 3);
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
        assert!(doc.errors.iter().any(|e| e.kind == YamlErrorKind::Alias));
        // Converting to JSON stays small because capped aliases read as null.
        let json = doc.root().unwrap().to_json();
        assert!(json.to_string().len() < 10_000_000);
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
