//! Text -> spanned JSON tree: every value, and every object key, with its byte range. Used for
//! the manifests the hosts read (`.claude-plugin/plugin.json`, `marketplace.json`), whose
//! diagnostics point at a JSON string.
//!
//! One left-to-right pass with an explicit stack (no recursion), so no input can overflow the
//! call stack; nesting deeper than [`MAX_DEPTH`] stops the parse with an error. The grammar is
//! RFC 8259's, as strict as `serde_json`: no comments, no trailing commas, no control characters
//! in strings, one value and nothing after it but whitespace. A string's escapes are decoded
//! (`\u` pairs joined; a lone surrogate reads as U+FFFD). Repeated keys are all kept; readers
//! take the last, as JavaScript and `serde_json` do.
//!
//! On the first error the parse stops and the document holds no tree, only the error with where
//! it is: a broken manifest is one diagnostic and nothing read from half of it.

use super::TextRange;

/// Deepest nesting accepted. Manifests nest a few levels; anything beyond is hostile or broken.
pub const MAX_DEPTH: usize = 128;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JsonId(u32);

#[derive(Clone, Debug, PartialEq)]
pub enum JsonKind {
    Null,
    Bool(bool),
    /// The number as written (validated against the grammar).
    Number(String),
    String(String),
    /// Entries in order: the key (decoded), its range (quotes included) and the value.
    Object(Vec<(String, TextRange, JsonId)>),
    Array(Vec<JsonId>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct JsonValue {
    pub kind: JsonKind,
    /// The value as written; a string's range includes its quotes.
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// Where the parse stopped: the offending character (or the end of the text).
    pub range: TextRange,
    pub message: String,
}

/// A parsed document: its values in an arena (the root last, children before parents) or the
/// first error.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JsonDocument {
    values: Vec<JsonValue>,
    root: Option<JsonId>,
    pub error: Option<JsonError>,
}

/// A value of a document, with its document to read children through.
#[derive(Clone, Copy, Debug)]
pub struct JsonNode<'d> {
    doc: &'d JsonDocument,
    id: JsonId,
}

impl<'d> JsonNode<'d> {
    pub fn value(self) -> &'d JsonValue {
        &self.doc.values[self.id.0 as usize]
    }

    pub fn kind(self) -> &'d JsonKind {
        &self.value().kind
    }

    pub fn range(self) -> TextRange {
        self.value().range
    }

    pub fn as_str(self) -> Option<&'d str> {
        match self.kind() {
            JsonKind::String(s) => Some(s),
            _ => None,
        }
    }

    /// An object's value at `key` (the last, when repeated).
    pub fn get(self, key: &str) -> Option<JsonNode<'d>> {
        match self.kind() {
            JsonKind::Object(entries) => entries
                .iter()
                .rev()
                .find(|(k, _, _)| k == key)
                .map(|&(_, _, id)| self.doc.node(id)),
            _ => None,
        }
    }

    /// An object's entries, in order: key, key range, value.
    pub fn entries(self) -> impl Iterator<Item = (&'d str, TextRange, JsonNode<'d>)> + 'd {
        let doc = self.doc;
        let entries: &'d [(String, TextRange, JsonId)] = match self.kind() {
            JsonKind::Object(entries) => entries,
            _ => &[],
        };
        entries
            .iter()
            .map(move |(k, r, id)| (k.as_str(), *r, doc.node(*id)))
    }

    /// An array's items, in order.
    pub fn items(self) -> impl Iterator<Item = JsonNode<'d>> + 'd {
        let doc = self.doc;
        let items: &'d [JsonId] = match self.kind() {
            JsonKind::Array(items) => items,
            _ => &[],
        };
        items.iter().map(move |id| doc.node(*id))
    }
}

impl JsonDocument {
    /// Parses `text`, whose ranges start at `offset` in the file (after a BOM).
    pub fn parse(text: &str, offset: u32) -> JsonDocument {
        let mut parser = Parser {
            bytes: text.as_bytes(),
            text,
            at: 0,
            offset,
            values: Vec::new(),
        };
        match parser.document() {
            Ok(root) => JsonDocument {
                values: parser.values,
                root: Some(root),
                error: None,
            },
            Err(error) => JsonDocument {
                values: Vec::new(),
                root: None,
                error: Some(error),
            },
        }
    }

    pub fn root(&self) -> Option<JsonNode<'_>> {
        self.root.map(|id| self.node(id))
    }

    fn node(&self, id: JsonId) -> JsonNode<'_> {
        JsonNode { doc: self, id }
    }
}

/// An open container on the parser's stack.
enum Open {
    Object {
        start: usize,
        entries: Vec<(String, TextRange, JsonId)>,
        /// The key read, waiting for its value.
        key: Option<(String, TextRange)>,
    },
    Array {
        start: usize,
        items: Vec<JsonId>,
    },
}

struct Parser<'t> {
    bytes: &'t [u8],
    text: &'t str,
    at: usize,
    offset: u32,
    values: Vec<JsonValue>,
}

impl Parser<'_> {
    fn range(&self, start: usize, end: usize) -> TextRange {
        TextRange::new(self.offset + start as u32, self.offset + end as u32)
    }

    fn error(&self, message: impl Into<String>) -> JsonError {
        // The offending character, whole (a multi-byte one too), or the end.
        let end = self.text[self.at..]
            .chars()
            .next()
            .map_or(self.at, |c| self.at + c.len_utf8());
        JsonError {
            range: self.range(self.at, end),
            message: message.into(),
        }
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn push(&mut self, kind: JsonKind, start: usize) -> JsonId {
        let id = JsonId(self.values.len() as u32);
        self.values.push(JsonValue {
            kind,
            range: self.range(start, self.at),
        });
        id
    }

    fn document(&mut self) -> Result<JsonId, JsonError> {
        let mut stack: Vec<Open> = Vec::new();
        loop {
            // Here a value is expected.
            self.skip_whitespace();
            let start = self.at;
            let mut done = match self.bytes.get(self.at) {
                None => return Err(self.error("the text ends where a value was expected")),
                Some(b'{') | Some(b'[') => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(
                            self.error(format!("the values nest deeper than {MAX_DEPTH} levels"))
                        );
                    }
                    let object = self.bytes[self.at] == b'{';
                    self.at += 1;
                    self.skip_whitespace();
                    let close = if object { b'}' } else { b']' };
                    if self.bytes.get(self.at) == Some(&close) {
                        self.at += 1;
                        let kind = if object {
                            JsonKind::Object(Vec::new())
                        } else {
                            JsonKind::Array(Vec::new())
                        };
                        Some(self.push(kind, start))
                    } else if object {
                        let key = self.key()?;
                        stack.push(Open::Object {
                            start,
                            entries: Vec::new(),
                            key: Some(key),
                        });
                        None
                    } else {
                        stack.push(Open::Array {
                            start,
                            items: Vec::new(),
                        });
                        None
                    }
                }
                Some(b'"') => {
                    let value = self.string()?;
                    Some(self.push(JsonKind::String(value), start))
                }
                Some(b't') => Some(self.literal("true", JsonKind::Bool(true))?),
                Some(b'f') => Some(self.literal("false", JsonKind::Bool(false))?),
                Some(b'n') => Some(self.literal("null", JsonKind::Null)?),
                Some(b'-' | b'0'..=b'9') => {
                    self.number()?;
                    let written = self.text[start..self.at].to_owned();
                    Some(self.push(JsonKind::Number(written), start))
                }
                Some(_) => return Err(self.error("expected a value here")),
            };
            // A value is complete: hand it to its container, closing containers as they end.
            while let Some(value) = done.take() {
                let Some(open) = stack.last_mut() else {
                    self.skip_whitespace();
                    if self.at < self.bytes.len() {
                        return Err(self.error("nothing may follow the document's value"));
                    }
                    return Ok(value);
                };
                self.skip_whitespace();
                let next = self.bytes.get(self.at).copied();
                match open {
                    Open::Object { entries, key, .. } => {
                        let (name, range) =
                            key.take().expect("an object awaits a value after a key");
                        entries.push((name, range, value));
                        match next {
                            Some(b',') => {
                                self.at += 1;
                                let key = self.key()?;
                                if let Some(Open::Object { key: slot, .. }) = stack.last_mut() {
                                    *slot = Some(key);
                                }
                            }
                            Some(b'}') => {
                                self.at += 1;
                                let Some(Open::Object { start, entries, .. }) = stack.pop() else {
                                    unreachable!("the object is on top");
                                };
                                done = Some(self.push(JsonKind::Object(entries), start));
                            }
                            _ => return Err(self.error("expected `,` or `}` after the value")),
                        }
                    }
                    Open::Array { items, .. } => {
                        items.push(value);
                        match next {
                            Some(b',') => self.at += 1,
                            Some(b']') => {
                                self.at += 1;
                                let Some(Open::Array { start, items }) = stack.pop() else {
                                    unreachable!("the array is on top");
                                };
                                done = Some(self.push(JsonKind::Array(items), start));
                            }
                            _ => return Err(self.error("expected `,` or `]` after the value")),
                        }
                    }
                }
            }
        }
    }

    /// An object key and the `:` after it.
    fn key(&mut self) -> Result<(String, TextRange), JsonError> {
        self.skip_whitespace();
        if self.bytes.get(self.at) != Some(&b'"') {
            return Err(self.error("expected a key (a string in double quotes)"));
        }
        let start = self.at;
        let key = self.string()?;
        let range = self.range(start, self.at);
        self.skip_whitespace();
        if self.bytes.get(self.at) != Some(&b':') {
            return Err(self.error("expected `:` after the key"));
        }
        self.at += 1;
        Ok((key, range))
    }

    fn literal(&mut self, word: &str, kind: JsonKind) -> Result<JsonId, JsonError> {
        let start = self.at;
        if !self.bytes[self.at..].starts_with(word.as_bytes()) {
            return Err(self.error("expected a value here"));
        }
        self.at += word.len();
        Ok(self.push(kind, start))
    }

    fn digits(&mut self) -> usize {
        let from = self.at;
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
        self.at - from
    }

    fn number(&mut self) -> Result<(), JsonError> {
        if self.bytes.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        match self.bytes.get(self.at) {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.error("expected a digit")),
        }
        if self.bytes.get(self.at) == Some(&b'.') {
            self.at += 1;
            if self.digits() == 0 {
                return Err(self.error("expected a digit after `.`"));
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.at) {
            self.at += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.at) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("expected a digit in the exponent"));
            }
        }
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut value = 0;
        for _ in 0..4 {
            let digit = self
                .bytes
                .get(self.at)
                .and_then(|&b| (b as char).to_digit(16))
                .ok_or_else(|| self.error("expected four hex digits after `\\u`"))?;
            value = value * 16 + digit;
            self.at += 1;
        }
        Ok(value)
    }

    /// A string, from its opening quote to after its closing one, decoded.
    fn string(&mut self) -> Result<String, JsonError> {
        self.at += 1;
        let mut out = String::new();
        loop {
            // Copy the run of plain characters at once.
            let run = self.bytes[self.at..]
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .map_or(self.bytes.len(), |i| self.at + i);
            out.push_str(&self.text[self.at..run]);
            self.at = run;
            match self.bytes.get(self.at) {
                None => return Err(self.error("the string is not closed")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escaped = match self.bytes.get(self.at) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.at += 1;
                            let high = self.hex4()?;
                            out.push(self.code_point(high)?);
                            continue;
                        }
                        _ => return Err(self.error("not an escape JSON knows")),
                    };
                    self.at += 1;
                    out.push(escaped);
                }
                Some(_) => {
                    return Err(self.error(
                        "a control character in a string must be escaped (`\\n`, `\\t`, `\\u0001`)",
                    ))
                }
            }
        }
    }

    /// The character of a `\u` escape, joining a surrogate pair written as two escapes.
    fn code_point(&mut self, high: u32) -> Result<char, JsonError> {
        if (0xD800..0xDC00).contains(&high) && self.bytes[self.at..].starts_with(b"\\u") {
            let back = self.at;
            self.at += 2;
            let low = self.hex4()?;
            if (0xDC00..0xE000).contains(&low) {
                let joined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                return Ok(char::from_u32(joined).unwrap_or('\u{fffd}'));
            }
            // Not a low surrogate: the high one is alone, and the next escape is read again.
            self.at = back;
        }
        Ok(char::from_u32(high).unwrap_or('\u{fffd}'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> JsonDocument {
        JsonDocument::parse(text, 0)
    }

    fn to_serde(node: JsonNode<'_>) -> serde_json::Value {
        match node.kind() {
            JsonKind::Null => serde_json::Value::Null,
            JsonKind::Bool(b) => (*b).into(),
            JsonKind::Number(n) => serde_json::from_str(n).expect("a valid number"),
            JsonKind::String(s) => s.clone().into(),
            JsonKind::Array(_) => node.items().map(to_serde).collect(),
            JsonKind::Object(_) => {
                let mut map = serde_json::Map::new();
                for (key, _, value) in node.entries() {
                    map.insert(key.to_owned(), to_serde(value));
                }
                map.into()
            }
        }
    }

    fn at(text: &str, range: TextRange) -> &str {
        &text[range.start as usize..range.end as usize]
    }

    #[test]
    fn values_keys_and_their_ranges() {
        let text =
            r#" { "name": "p", "skills": ["./a", "./b"], "n": -1.5e3, "ok": true, "x": null } "#;
        let doc = parse(text);
        assert_eq!(doc.error, None);
        let root = doc.root().unwrap();
        assert_eq!(at(text, root.range()), &text[1..text.len() - 1]);
        let name = root.get("name").unwrap();
        assert_eq!(name.as_str(), Some("p"));
        assert_eq!(at(text, name.range()), "\"p\"");
        let skills: Vec<&str> = root
            .get("skills")
            .unwrap()
            .items()
            .map(|i| at(text, i.range()))
            .collect();
        assert_eq!(skills, ["\"./a\"", "\"./b\""]);
        let keys: Vec<&str> = root.entries().map(|(_, r, _)| at(text, r)).collect();
        assert_eq!(keys, ["\"name\"", "\"skills\"", "\"n\"", "\"ok\"", "\"x\""]);
        assert_eq!(at(text, root.get("n").unwrap().range()), "-1.5e3");
    }

    #[test]
    fn escapes_are_decoded_and_ranges_stay_on_the_text() {
        let text = "{\"a\\u00e9\": \"x\\n\\\"y\\ud83d\\ude00\\ud800z\"}";
        let doc = parse(text);
        let root = doc.root().unwrap();
        let value = root.get("a\u{e9}").unwrap();
        assert_eq!(value.as_str(), Some("x\n\"y\u{1f600}\u{fffd}z"));
        assert_eq!(value.range().end as usize, text.len() - 1);
    }

    #[test]
    fn the_last_of_repeated_keys_is_read() {
        let doc = parse(r#"{"a": 1, "a": 2}"#);
        let root = doc.root().unwrap();
        assert_eq!(to_serde(root.get("a").unwrap()), serde_json::json!(2));
        assert_eq!(root.entries().count(), 2);
    }

    #[test]
    fn one_error_where_the_text_breaks() {
        for (text, at_char) in [
            ("{\"a\": 1,}", "}"),
            ("{\"a\": 1 \"b\": 2}", "\""),
            ("[1, 2", ""),
            ("{\"a\" 1}", "1"),
            ("{\"a\": tru}", "t"),
            ("\"\u{1}\"", "\u{1}"),
            ("[01]", "1"),
            ("{} x", "x"),
            ("", ""),
            ("{\"é\": é}", "é"),
            ("// comment\n{}", "/"),
        ] {
            let doc = parse(text);
            let error = doc
                .error
                .as_ref()
                .unwrap_or_else(|| panic!("{text:?} parses"));
            assert_eq!(
                at(text, error.range),
                at_char,
                "{text:?}: {}",
                error.message
            );
            assert!(doc.root().is_none());
        }
    }

    #[test]
    fn deep_nesting_stops_with_an_error_and_no_recursion() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let doc = parse(&deep);
        let error = doc.error.expect("too deep");
        assert!(error.message.contains("deeper"), "{}", error.message);
        assert_eq!(error.range.start as usize, MAX_DEPTH);
        let fine = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&fine).error.is_none());
    }

    #[test]
    fn agrees_with_serde_json_on_what_parses_and_what_it_means() {
        let seeds = [
            r#"{"name":"p","version":"1.0.0","skills":"./s","agents":["./a.md"],"hooks":{"x":[1,2.5e-3,-0]}}"#,
            r#"[true,false,null,"\u0041\t",{},[],{"":""}]"#,
            r#"{"a":"\ud83d\ude00","b":1E+2}"#,
        ];
        // Every prefix, and every one-byte change of each seed, must parse exactly when serde
        // does, to the same value.
        let mut inputs: Vec<String> = Vec::new();
        for seed in seeds {
            for end in 0..=seed.len() {
                inputs.push(seed[..end].to_owned());
            }
            for i in 0..seed.len() {
                for b in [b' ', b'"', b',', b'}', b']', b'\\', b'0', b'e', b'-', b':'] {
                    let mut bytes = seed.as_bytes().to_vec();
                    bytes[i] = b;
                    if let Ok(text) = String::from_utf8(bytes) {
                        inputs.push(text);
                    }
                }
            }
        }
        for text in inputs {
            let ours = parse(&text);
            let theirs: Result<serde_json::Value, _> = serde_json::from_str(&text);
            match (ours.root(), theirs) {
                (Some(root), Ok(value)) => assert_eq!(to_serde(root), value, "{text:?}"),
                (None, Err(_)) => {}
                // serde refuses a lone surrogate; this parser reads it as U+FFFD.
                (Some(_), Err(e))
                    if e.to_string().contains("surrogate")
                        || e.to_string().contains("end of hex escape") => {}
                (mine, theirs) => panic!("{text:?}: ours {:?}, serde {theirs:?}", mine.is_some()),
            }
        }
    }

    #[test]
    fn offsets_shift_ranges() {
        let doc = JsonDocument::parse("{\"a\": \"b\"}", 3);
        assert_eq!(
            doc.root().unwrap().get("a").unwrap().range(),
            TextRange::new(9, 12)
        );
    }
}
