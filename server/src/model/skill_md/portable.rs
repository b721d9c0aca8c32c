//! The portable encoding of the proposed extensions: every value a string under `metadata`, so
//! that a host reading `metadata` as the spec's string-to-string map (and refusing unknown
//! top-level fields) loads the skill. Read here into the same values the nested form lowers to
//! (`extensions`), so every later reader treats both forms alike; and written here from the
//! nested form, for the conversion.
//!
//! The grammar (docs/skill-md.md shows examples):
//! - `metadata.chain: "a, b, e2e/smoke"`: the entries, separated by commas (an empty entry is kept
//!   and reported as in a list).
//! - Beside a portable chain, a chain option's string value is read by the option's type:
//!   `async: "true"`, `max_depth: "4"`, `early_exit_on: "failure"`.
//! - `metadata.dependencies: "tools.all: a b; tools.any: c d; prompts: p"`: parts separated by
//!   `;`, each a type, an optional `.all` or `.any` group, `:`, and names separated by spaces. A
//!   type without a group is the list form (shorthand for `all`).
//! - `metadata.precondition: "get_order; tool: get_status; state: order.status eq paid"`:
//!   predicates separated by `;` (outside parentheses and brackets). One predicate is the
//!   precondition itself; two or more are a list. A predicate is `tool: NAME`, `state: PATH OP
//!   [VALUE]`, or anything else as written (a tool, or text). A state's value is read as YAML
//!   reads a plain scalar (`3` a number, `true` a boolean), or as a string in single quotes
//!   (`'3'`), or as a list in brackets (`[paid, refunded]`).

use super::extensions::{
    entries_of, Chain, Dependencies, DependencyType, Extensions, Group, Predicate, PredicateMap,
    Shape, State, Value,
};
use crate::syntax::{Node, ScalarValue, TextRange};

/// Reads the portable form of the frontmatter `root` into `extensions` (lowered from the
/// nested form by `Extensions::lower`): a string `metadata.chain` (and its options' string
/// values), a string `metadata.dependencies` when there is no top-level `dependencies`, and a
/// string `metadata.precondition`.
pub fn read(extensions: &mut Extensions, root: Node<'_>) {
    let Some(metadata) = root.get("metadata").filter(|m| m.is_mapping()) else {
        return;
    };
    if let Some(chain) = extensions.chain.as_mut() {
        if let Some((_, list)) = metadata.entry("chain") {
            if let Some(text) = list.as_str() {
                let place = Place::of(text, list.range());
                chain.items = chain_items(text, &place);
                chain.entries = entries_of(&chain.items);
                chain.value = Value {
                    range: list.range(),
                    shape: Shape::List,
                    text: None,
                };
                for setting in &mut chain.options {
                    setting.value = option_value(&setting.value);
                }
                chain.portable = true;
            }
        }
    }
    if extensions.dependencies.is_none() {
        if let Some((key, value)) = metadata.entry("dependencies") {
            if let Some(text) = value.as_str() {
                let place = Place::of(text, value.range());
                let mut read = dependencies(key.range(), &Value::of(value), text, &place);
                read.portable = true;
                extensions.dependencies = Some(read);
            }
        }
    }
    if let Some(node) = metadata.get("precondition") {
        if let Some(text) = node.as_str() {
            let place = Place::of(text, node.range());
            extensions.precondition = Some(precondition(&Value::of(node), text, &place));
            extensions.precondition_portable = true;
        }
    }
}

/// Where the text of a string scalar is written: its offset in the file when the text is
/// written there as it reads (plain, or quoted without escapes); otherwise every part of it is
/// placed at the whole scalar.
#[derive(Clone, Copy, Debug)]
pub struct Place {
    pub whole: TextRange,
    pub base: Option<u32>,
}

impl Place {
    /// The place of `text` written at `range`, judged by lengths alone: as long as the range
    /// (plain) or two shorter (quoted) and on one line.
    pub fn of(text: &str, range: TextRange) -> Place {
        let written = (range.end - range.start) as usize;
        let base = if text.contains('\n') {
            None
        } else if written == text.len() {
            Some(range.start)
        } else if written == text.len() + 2 {
            Some(range.start + 1)
        } else {
            None
        };
        Place { whole: range, base }
    }

    /// The range of `text[at..at + len]`.
    fn range(&self, at: usize, len: usize) -> TextRange {
        match self.base {
            Some(base) => TextRange::new(base + at as u32, base + (at + len) as u32),
            None => self.whole,
        }
    }
}

/// A string value at `text[at..at + len]`.
fn string(place: &Place, text: &str, at: usize) -> Value {
    Value {
        range: place.range(at, text.len()),
        shape: Shape::Str,
        text: Some(text.to_owned()),
    }
}

/// Splits `text` at `sep` (outside parentheses and brackets), each part trimmed, with its
/// offset.
fn split(text: &str, sep: char) -> Vec<(usize, &str)> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (at, c) in text.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            c if c == sep && depth <= 0 => {
                parts.push(trimmed(text, start, at));
                start = at + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(trimmed(text, start, text.len()));
    parts
}

fn trimmed(text: &str, start: usize, end: usize) -> (usize, &str) {
    let part = &text[start..end];
    let lead = part.len() - part.trim_start().len();
    (start + lead, part.trim())
}

/// The words of `text` (separated by spaces or commas), each with its offset.
fn words(text: &str, offset: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (at, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        let gap = c.is_whitespace() || c == ',';
        match (start, gap) {
            (None, false) => start = Some(at),
            (Some(s), true) => {
                out.push((offset + s, &text[s..at]));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// `metadata.chain` written as a string: its entries.
pub fn chain_items(text: &str, place: &Place) -> Vec<Value> {
    if text.trim().is_empty() {
        return Vec::new();
    }
    split(text, ',')
        .into_iter()
        .map(|(at, part)| string(place, part, at))
        .collect()
}

/// A chain option's string value beside a portable chain, read by YAML's plain-scalar rules
/// (`"true"` a boolean, `"4"` a number); any other text stays a string.
pub fn option_value(value: &Value) -> Value {
    let Some(text) = value.as_str() else {
        return value.clone();
    };
    let shape = match ScalarValue::interpret(text.trim(), crate::syntax::yaml::Style::Plain) {
        ScalarValue::Bool(b) => Shape::Bool(b),
        ScalarValue::Int(i) => Shape::Int(i),
        ScalarValue::Float(_) => Shape::Float,
        _ => return value.clone(),
    };
    Value {
        range: value.range,
        shape,
        text: Some(text.trim().to_owned()),
    }
}

/// `metadata.dependencies` written as a string.
pub fn dependencies(key: TextRange, value: &Value, text: &str, place: &Place) -> Dependencies {
    let mut types: Vec<DependencyType> = Vec::new();
    for (at, part) in split(text, ';') {
        if part.is_empty() {
            continue;
        }
        let (head, names_at, names) = match part.find(':') {
            Some(colon) => (&part[..colon], at + colon + 1, &part[colon + 1..]),
            None => (part, at + part.len(), ""),
        };
        let head = head.trim_end();
        let (kind, group) = match head.split_once('.') {
            Some((kind, group)) => (kind, Some((at + kind.len() + 1, group))),
            None => (head, None),
        };
        let items: Vec<Value> = words(names, names_at)
            .into_iter()
            .map(|(at, name)| string(place, name, at))
            .collect();
        let list_range = place.range(names_at, names.len());
        let list = Value {
            range: list_range,
            shape: Shape::List,
            text: None,
        };
        let key_value = string(place, kind, at);
        // `tools.all` and `tools.any` of one type are groups of one mapping.
        let existing = types
            .iter()
            .position(|t| t.key.as_str() == Some(kind) && t.value.is_mapping());
        match (group, existing) {
            (Some((group_at, group)), Some(index)) => types[index].groups.push(Group {
                key: string(place, group, group_at),
                value: list,
                items,
            }),
            (Some((group_at, group)), None) => types.push(DependencyType {
                key: key_value,
                value: Value {
                    range: place.range(at, part.len()),
                    shape: Shape::Mapping,
                    text: None,
                },
                items: Vec::new(),
                groups: vec![Group {
                    key: string(place, group, group_at),
                    value: list,
                    items,
                }],
            }),
            (None, _) => types.push(DependencyType {
                key: key_value,
                value: list,
                items,
                groups: Vec::new(),
            }),
        }
    }
    Dependencies {
        key,
        value: Value {
            range: value.range,
            shape: Shape::Mapping,
            text: None,
        },
        types,
        portable: true,
    }
}

/// `metadata.precondition` written as a string.
pub fn precondition(value: &Value, text: &str, place: &Place) -> Predicate {
    let parts: Vec<(usize, &str)> = split(text, ';')
        .into_iter()
        .filter(|(_, p)| !p.is_empty())
        .collect();
    if parts.len() <= 1 {
        return match parts.first() {
            Some(&(at, part)) => predicate(part, at, place),
            None => Predicate::Scalar(value.clone()),
        };
    }
    Predicate::List {
        value: Value {
            range: value.range,
            shape: Shape::List,
            text: None,
        },
        items: parts
            .into_iter()
            .map(|(at, part)| predicate(part, at, place))
            .collect(),
    }
}

fn predicate(part: &str, at: usize, place: &Place) -> Predicate {
    let whole = Value {
        range: place.range(at, part.len()),
        shape: Shape::Mapping,
        text: None,
    };
    if let Some(rest) = part.strip_prefix("tool:") {
        let lead = rest.len() - rest.trim_start().len();
        let name_at = at + "tool:".len() + lead;
        let key = string(place, "tool", at);
        return Predicate::Mapping(Box::new(PredicateMap {
            value: whole,
            keys: vec![key.clone()],
            tool: Some((key, scalar(rest.trim(), name_at, place))),
            state: None,
        }));
    }
    if let Some(rest) = part.strip_prefix("state:") {
        let key = string(place, "state", at);
        let offset = at + "state:".len();
        let words = words_keep_rest(rest, offset);
        let mut keys = Vec::new();
        let mut state = State {
            value: Value {
                range: place.range(offset, rest.len()),
                shape: Shape::Mapping,
                text: None,
            },
            keys: Vec::new(),
            path: None,
            op: None,
            compared: None,
            compared_items: Vec::new(),
        };
        if let Some(&(path_at, path)) = words.first() {
            keys.push(string(place, "path", path_at));
            state.path = Some(string(place, path, path_at));
        }
        if let Some(&(op_at, op)) = words.get(1) {
            keys.push(string(place, "op", op_at));
            state.op = Some(string(place, op, op_at));
        }
        if let Some(&(value_at, compared)) = words.get(2) {
            let key = string(place, "value", value_at);
            keys.push(key.clone());
            let (value, items) = state_value(compared, value_at, place);
            state.compared = Some((key, value));
            state.compared_items = items;
        }
        state.keys = keys;
        return Predicate::Mapping(Box::new(PredicateMap {
            value: whole,
            keys: vec![key.clone()],
            tool: None,
            state: Some((key, state)),
        }));
    }
    Predicate::Scalar(string(place, part, at))
}

/// A state predicate's words: the path, the operator, and the rest (the value) as one.
fn words_keep_rest(text: &str, offset: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut at = offset;
    for _ in 0..2 {
        let lead = rest.len() - rest.trim_start().len();
        rest = &rest[lead..];
        at += lead;
        if rest.is_empty() {
            return out;
        }
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        out.push((at, &rest[..len]));
        rest = &rest[len..];
        at += len;
    }
    let lead = rest.len() - rest.trim_start().len();
    let value = rest.trim();
    if !value.is_empty() {
        out.push((at + lead, value));
    }
    out
}

/// A scalar read as YAML reads a plain one, or a string in single quotes.
fn scalar(text: &str, at: usize, place: &Place) -> Value {
    if let Some(inner) = text
        .strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .filter(|_| text.len() >= 2)
    {
        return Value {
            range: place.range(at, text.len()),
            shape: Shape::Str,
            text: Some(inner.replace("''", "'")),
        };
    }
    let shape = match ScalarValue::interpret(text, crate::syntax::yaml::Style::Plain) {
        ScalarValue::Null => Shape::Null,
        ScalarValue::Bool(b) => Shape::Bool(b),
        ScalarValue::Int(i) => Shape::Int(i),
        ScalarValue::Float(_) => Shape::Float,
        _ => Shape::Str,
    };
    Value {
        range: place.range(at, text.len()),
        shape,
        text: Some(text.to_owned()),
    }
}

/// A state's value: a scalar, or a list in brackets with its items.
fn state_value(text: &str, at: usize, place: &Place) -> (Value, Vec<Value>) {
    if let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        let items = if inner.trim().is_empty() {
            Vec::new()
        } else {
            split(inner, ',')
                .into_iter()
                .map(|(item_at, item)| scalar(item, at + 1 + item_at, place))
                .collect()
        };
        let list = Value {
            range: place.range(at, text.len()),
            shape: Shape::List,
            text: None,
        };
        return (list, items);
    }
    (scalar(text, at, place), Vec::new())
}

// ---------------------------------------------------------------------------------------------
// Writing the portable form from the nested one.

/// A scalar as the portable grammar writes it inside a predicate: plain when it reads back as
/// the same value, else in single quotes (a string that reads as a number); `None` for text
/// holding a separator (`;`, `,`, brackets, parentheses), which no quoting keeps whole.
fn write_scalar(value: &Value) -> Option<String> {
    let text = value.text.as_deref()?;
    match value.shape {
        Shape::Str => {
            let plain_reads_same = matches!(
                ScalarValue::interpret(text, crate::syntax::yaml::Style::Plain),
                ScalarValue::Str(_)
            );
            // The separators are not quoted away (the reading splits before it unquotes).
            if text.contains([';', ',', '[', ']', '(', ')']) {
                return None;
            }
            let safe = plain_reads_same
                && !text.is_empty()
                && !text.starts_with('\'')
                && text.trim() == text;
            Some(if safe {
                text.to_owned()
            } else {
                format!("'{}'", text.replace('\'', "''"))
            })
        }
        Shape::Null | Shape::Bool(_) | Shape::Int(_) | Shape::Float => Some(text.to_owned()),
        Shape::List | Shape::Mapping => None,
    }
}

/// A name (a chain entry, a dependency, a tool) that reads back as itself: no separator, no
/// surrounding space, not empty.
fn plain_name(value: &Value, extra: &[char]) -> Option<String> {
    let text = value.as_str()?;
    let bad = text.is_empty()
        || text.trim() != text
        || text.contains(extra)
        || text.contains(char::is_whitespace) && extra.contains(&' ');
    (!bad).then(|| text.to_owned())
}

/// The chain's entries as one string; `None` when an item would not read back the same (not a
/// string, holding a comma, or surrounded by spaces).
pub fn write_chain(chain: &Chain) -> Option<String> {
    let mut parts = Vec::with_capacity(chain.items.len());
    for item in &chain.items {
        let text = item.as_str()?;
        if text.contains(',') || text.trim() != text || text.is_empty() {
            return None;
        }
        parts.push(text);
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// A chain option's value as the portable form writes it (`"true"`, `"4"`, `"failure"`);
/// `None` for a value that is not a scalar, or a string that would read back as another type.
pub fn write_option(value: &Value) -> Option<String> {
    match value.shape {
        Shape::Bool(_) | Shape::Int(_) | Shape::Float => value.text.clone(),
        Shape::Str => {
            let text = value.text.as_deref()?;
            let reads_same = matches!(
                ScalarValue::interpret(text.trim(), crate::syntax::yaml::Style::Plain),
                ScalarValue::Str(_) | ScalarValue::Null
            );
            reads_same.then(|| text.to_owned())
        }
        _ => None,
    }
}

/// `dependencies` as one string; `None` when some part would not read back the same.
pub fn write_dependencies(dependencies: &Dependencies) -> Option<String> {
    if !dependencies.value.is_mapping() {
        return None;
    }
    let mut parts = Vec::new();
    for kind in &dependencies.types {
        let key = plain_name(&kind.key, &[';', ':', '.', ' ', ','])?;
        let names = |items: &[Value]| -> Option<String> {
            let names: Option<Vec<String>> = items
                .iter()
                .map(|i| plain_name(i, &[';', ' ', ',', '[', '(']))
                .collect();
            Some(names?.join(" "))
        };
        if kind.value.is_list() {
            parts.push(format!("{key}: {}", names(&kind.items)?));
        } else if kind.value.is_mapping() && !kind.groups.is_empty() {
            for group in &kind.groups {
                let name = plain_name(&group.key, &[';', ':', '.', ' ', ','])?;
                if !group.value.is_list() {
                    return None;
                }
                parts.push(format!("{key}.{name}: {}", names(&group.items)?));
            }
        } else {
            return None;
        }
    }
    Some(
        parts
            .iter()
            .map(|p| p.trim_end().to_owned())
            .collect::<Vec<_>>()
            .join("; "),
    )
}

/// The precondition as one string; `None` when some part would not read back the same (a list
/// of one, which reads back as the predicate alone, is written as the predicate: a list of one
/// and its predicate mean the same to the gate).
pub fn write_precondition(precondition: &Predicate) -> Option<String> {
    match precondition {
        Predicate::List { items, .. } => {
            if items.is_empty() {
                return None;
            }
            let parts: Option<Vec<String>> = items.iter().map(write_predicate).collect();
            Some(parts?.join("; "))
        }
        other => write_predicate(other),
    }
}

fn write_predicate(predicate: &Predicate) -> Option<String> {
    match predicate {
        Predicate::Scalar(value) => {
            let text = value.as_str()?;
            let ok = !text.is_empty()
                && text.trim() == text
                && split(text, ';').len() == 1
                && !text.starts_with("tool:")
                && !text.starts_with("state:")
                && balanced(text);
            ok.then(|| text.to_owned())
        }
        Predicate::List { .. } => None,
        Predicate::Mapping(map) => {
            if map.keys.len() != 1 {
                return None;
            }
            if let Some((_, tool)) = &map.tool {
                let name = tool.as_str()?;
                let ok = !name.is_empty()
                    && name.trim() == name
                    && split(name, ';').len() == 1
                    && !name.starts_with('\'')
                    && balanced(name);
                return ok.then(|| format!("tool: {name}"));
            }
            let (_, state) = map.state.as_ref()?;
            let expected =
                1 + usize::from(state.op.is_some()) + usize::from(state.compared.is_some());
            if !state.value.is_mapping() || state.keys.len() != expected {
                return None;
            }
            let path = plain_name(state.path.as_ref()?, &[';', ' ', ',', '[', '('])?;
            let mut out = format!("state: {path}");
            if let Some(op) = &state.op {
                out.push(' ');
                out.push_str(&plain_name(op, &[';', ' ', ',', '[', '('])?);
            } else if state.compared.is_some() {
                return None;
            }
            if let Some((_, compared)) = &state.compared {
                out.push(' ');
                if compared.is_list() {
                    let items: Option<Vec<String>> =
                        state.compared_items.iter().map(write_scalar).collect();
                    out.push_str(&format!("[{}]", items?.join(", ")));
                } else {
                    let written = write_scalar(compared)?;
                    if compared.shape == Shape::Null && written.is_empty() {
                        return None;
                    }
                    out.push_str(&written);
                }
            }
            Some(out)
        }
    }
}

/// Parentheses and brackets close in order (so `;` inside them is not taken for a separator
/// and a split at depth zero finds the same parts).
fn balanced(text: &str) -> bool {
    let mut depth = 0i32;
    for c in text.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(text: &str) -> Place {
        Place::of(text, TextRange::new(100, 100 + text.len() as u32))
    }

    #[test]
    fn chains_split_at_commas_with_ranges() {
        let text = "test-smoke, e2e/deep ,, x";
        let items = chain_items(text, &place(text));
        let got: Vec<(&str, u32)> = items
            .iter()
            .map(|v| (v.as_str().unwrap(), v.range.start))
            .collect();
        assert_eq!(
            got,
            [
                ("test-smoke", 100),
                ("e2e/deep", 112),
                ("", 122),
                ("x", 124)
            ]
        );
        assert!(chain_items("  ", &place("  ")).is_empty());
    }

    #[test]
    fn dependencies_groups_and_lists() {
        let text = "tools.all: a b; tools.any: c, d; prompts: p";
        let deps = dependencies(
            TextRange::default(),
            &Value {
                range: TextRange::default(),
                shape: Shape::Str,
                text: Some(text.into()),
            },
            text,
            &place(text),
        );
        assert_eq!(deps.types.len(), 2);
        let tools = &deps.types[0];
        let lists: Vec<(&str, Vec<&str>)> = tools
            .lists()
            .into_iter()
            .map(|(g, l)| (g, l.iter().filter_map(Value::as_str).collect()))
            .collect();
        assert_eq!(lists, [("all", vec!["a", "b"]), ("any", vec!["c", "d"])]);
        assert_eq!(deps.types[1].lists()[0].0, "all");
        assert_eq!(
            write_dependencies(&deps).unwrap(),
            "tools.all: a b; tools.any: c d; prompts: p"
        );
    }

    #[test]
    fn preconditions_read_tools_states_and_typed_values() {
        let text = "get_x(id=1; b); tool: get_status; state: order.count eq 3; state: s in [paid, '2']; state: t exists";
        let value = Value {
            range: TextRange::default(),
            shape: Shape::Str,
            text: Some(text.into()),
        };
        let Predicate::List { items, .. } = precondition(&value, text, &place(text)) else {
            panic!("a list")
        };
        assert_eq!(items.len(), 5);
        assert_eq!(items[0].value().as_str(), Some("get_x(id=1; b)"));
        let Predicate::Mapping(count) = &items[2] else {
            panic!()
        };
        let (_, state) = count.state.as_ref().unwrap();
        assert_eq!(state.compared.as_ref().unwrap().1.shape, Shape::Int(3));
        let Predicate::Mapping(within) = &items[3] else {
            panic!()
        };
        let (_, state) = within.state.as_ref().unwrap();
        assert!(state.compared.as_ref().unwrap().1.is_list());
        assert_eq!(state.compared_items[1].shape, Shape::Str);
        assert_eq!(state.compared_items[1].as_str(), Some("2"));
        let again = Predicate::List {
            value: value.clone(),
            items: items.clone(),
        };
        assert_eq!(write_precondition(&again).unwrap(), text);
        // One predicate is the precondition itself.
        assert!(matches!(
            precondition(&value, "get_order", &place("get_order")),
            Predicate::Scalar(_)
        ));
    }

    #[test]
    fn options_read_by_type() {
        let value = |t: &str| Value {
            range: TextRange::default(),
            shape: Shape::Str,
            text: Some(t.into()),
        };
        assert_eq!(option_value(&value("true")).shape, Shape::Bool(true));
        assert_eq!(option_value(&value("4")).shape, Shape::Int(4));
        assert_eq!(option_value(&value("failure")).shape, Shape::Str);
        assert_eq!(write_option(&value("4")), None);
        // A separator inside a state's value cannot be written.
        assert_eq!(write_scalar(&value("a;b")), None);
        assert_eq!(write_scalar(&value("3")).as_deref(), Some("'3'"));
        assert_eq!(write_scalar(&value("it's")).as_deref(), Some("it's"));
        assert_eq!(write_scalar(&value("'x")).as_deref(), Some("'''x'"));
    }

    #[test]
    fn hostile_strings_are_one_pass() {
        let text = "a;".repeat(500_000);
        let value = Value {
            range: TextRange::default(),
            shape: Shape::Str,
            text: Some(text.clone()),
        };
        let Predicate::List { items, .. } = precondition(&value, &text, &place(&text)) else {
            panic!()
        };
        assert_eq!(items.len(), 500_000);
        let deep = "(".repeat(1_000_000);
        assert_eq!(split(&deep, ';').len(), 1);
    }
}
