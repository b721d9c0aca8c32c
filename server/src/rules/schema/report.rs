//! Turns the validator's errors into diagnostics: one per violation, on the offending node, with
//! a message that names the field, what is allowed, and what to do. The part that makes `oneOf`
//! readable (which branch the author meant) is [`union`].

use jsonschema::error::{ValidationError, ValidationErrorKind};
use serde_json::Value;

use super::locate::{locate, segments, Target};
use crate::diagnostic::{codes, Code, Diagnostic, FileId, Fix};
use crate::suggest::closest;
use crate::syntax::yaml::Style;
use crate::syntax::{Node, TextRange};

mod union;

/// How deep `$ref` chains and nested unions are followed when describing a schema.
const MAX_RESOLVE: usize = 16;

pub(super) struct Reporter<'s, 'a> {
    schema: &'s Value,
    root: Node<'a>,
    file: FileId,
    /// What the document is called in messages about its root ("Skill", "approval policy").
    root_name: &'static str,
    /// Appended to every message about the error being reported (see [`Scope`]).
    tail: Option<String>,
    /// SwarmKit's code for a document its schema check passes but its model refuses, for the
    /// kinds it builds a model of (see [`model_only_refusal`]).
    model_construction: Option<Code>,
    out: Vec<Diagnostic>,
}

/// What an enclosing `oneOf` choice adds to messages about the value at `pointer`: a note in its
/// label ("type: mcp_tool") so the reader knows which form's rules apply, or a closing remark
/// naming the other forms it could have been written in.
#[derive(Clone, Default)]
pub(super) struct Scope {
    pointer: String,
    label_note: Option<String>,
    tail: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Union {
    /// `oneOf`, no branch matched.
    OneOfNone,
    /// `oneOf`, more than one branch matched.
    OneOfMany,
    /// `anyOf`, no branch matched.
    AnyOf,
}

impl<'s, 'a> Reporter<'s, 'a> {
    pub fn new(schema: &'s Value, root: Node<'a>, file: FileId, root_name: &'static str) -> Self {
        Reporter {
            schema,
            root,
            file,
            root_name,
            tail: None,
            model_construction: None,
            out: Vec::new(),
        }
    }

    /// Reports a value that only SwarmKit's model refuses under `code` (`skill.model-construction`)
    /// rather than as a pattern mismatch.
    pub fn with_model_construction(mut self, code: Option<Code>) -> Self {
        self.model_construction = code;
        self
    }

    /// The diagnostics, in document order, without repeats.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        self.out.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        self.out
            .dedup_by(|a, b| a.range == b.range && a.code == b.code && a.message == b.message);
        self.out
    }

    fn emit(&mut self, code: Code, range: TextRange, message: String) {
        self.emit_with_related(code, range, message, None);
    }

    /// The diagnostic `emit` would push, for callers that add to it first.
    fn diagnostic(&self, code: Code, range: TextRange, message: String) -> Diagnostic {
        let message = match &self.tail {
            Some(tail) => format!("{message}{tail}"),
            None => message,
        };
        Diagnostic::new(code, self.file, range, message)
    }

    fn emit_with_related(
        &mut self,
        code: Code,
        range: TextRange,
        message: String,
        related: Option<(TextRange, String)>,
    ) {
        let mut diagnostic = self.diagnostic(code, range, message);
        if let Some((related_range, note)) = related {
            diagnostic = diagnostic.with_related(self.file, related_range, note);
        }
        self.out.push(diagnostic);
    }

    /// The code to report `value` under when only SwarmKit's model refuses it, not its schema
    /// check. The runtime checks patterns with Python's `re`, whose `$` also matches just before
    /// a final line break, so `"summarize\n"` passes the schema check; the model built next (its
    /// pydantic classes hold the same patterns, matched without that allowance) then refuses the
    /// whole artifact (swarmkit-runtime 1.265.0, `skills/__init__.py`, `build_skill_registry`,
    /// and the same in each registry builder).
    fn model_only_refusal(&self, pattern: &str, value: Option<&str>) -> Option<Code> {
        let code = self.model_construction?;
        let stripped = value?.strip_suffix('\n')?;
        let matches = jsonschema::is_valid(
            &serde_json::json!({ "pattern": pattern }),
            &Value::String(stripped.to_owned()),
        );
        matches.then_some(code)
    }

    fn label(&self, target: &Target<'_>, pointer: &str, scope: &Scope) -> String {
        let base = target.label(self.root_name);
        match &scope.label_note {
            Some(note) if scope.pointer == pointer => format!("{base} ({note})"),
            _ => base,
        }
    }

    /// The schema value at a canonical schema path (as the validator reports it).
    fn at(&self, pointer: &str) -> Option<&'s Value> {
        self.schema.pointer(pointer)
    }

    /// Follows local `$ref`s (the bundled schemas have no other kind).
    fn resolve(&self, mut schema: &'s Value) -> &'s Value {
        for _ in 0..MAX_RESOLVE {
            let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
                break;
            };
            match reference
                .strip_prefix('#')
                .and_then(|p| self.schema.pointer(p))
            {
                Some(next) => schema = next,
                None => break,
            }
        }
        schema
    }

    pub fn report(&mut self, error: &ValidationError<'_>, scope: &Scope) {
        let tail = scope
            .tail
            .clone()
            .filter(|_| scope.pointer == error.instance_path().as_str());
        let outer = std::mem::replace(&mut self.tail, tail);
        self.report_one(error, scope);
        self.tail = outer;
    }

    fn report_one(&mut self, error: &ValidationError<'_>, scope: &Scope) {
        use ValidationErrorKind as K;
        let instance: &Value = error.instance();
        let kind = error.kind();
        let pointer = error.instance_path().as_str();
        let target = locate(self.root, &segments(pointer));
        let label = self.label(&target, pointer, scope);
        let schema_path = error.schema_path().as_str();
        match kind {
            K::Required { property } => {
                let name = property.as_str().unwrap_or_default();
                self.required(&target, &label, schema_path, name);
            }
            K::AdditionalProperties { unexpected } | K::UnevaluatedProperties { unexpected } => {
                self.unknown_fields(&target, &label, schema_path, unexpected);
            }
            K::Type { .. } => {
                let expected = self
                    .at(schema_path)
                    .map_or_else(|| "of another type".to_owned(), type_phrase);
                let message = format!("{label} must be {expected}; found {}", found(instance));
                self.emit(codes::SCHEMA_TYPE_MISMATCH, target.value_range(), message);
            }
            K::Enum { options } => {
                let values: Vec<&Value> = options
                    .as_array()
                    .map(|a| a.iter().collect())
                    .unwrap_or_default();
                let mut message = format!(
                    "{label} must be one of {}; found {}",
                    list_values(&values),
                    found(instance)
                );
                push_suggestion(&mut message, instance, &values);
                self.emit(codes::SCHEMA_ENUM_MISMATCH, target.value_range(), message);
            }
            K::Constant { expected_value } => {
                let message = format!(
                    "{label} must be {}; found {}",
                    show_value(expected_value),
                    found(instance)
                );
                self.emit(codes::SCHEMA_CONST_MISMATCH, target.value_range(), message);
            }
            K::Pattern { pattern } => {
                if let Some(code) = self.model_only_refusal(pattern, instance.as_str()) {
                    let message = format!(
                        "{label} ends with a line break; SwarmKit's schema check lets that through, \
                         but building the {} refuses it (`{pattern}`), so `swarmkit validate` rejects \
                         the file; remove the line break",
                        self.root_name
                    );
                    self.emit(code, target.value_range(), message);
                    return;
                }
                let hint = pattern_hint(pattern).map_or_else(String::new, |h| format!(" ({h})"));
                let message = format!(
                    "{label} must match `{pattern}`{hint}; found {}",
                    found(instance)
                );
                self.emit(
                    codes::SCHEMA_PATTERN_MISMATCH,
                    target.value_range(),
                    message,
                );
            }
            K::BacktrackLimitExceeded { .. } | K::RegexEngineFailure { .. } => {
                let message = format!("{label} could not be checked against its pattern: {error}");
                self.emit(
                    codes::SCHEMA_PATTERN_MISMATCH,
                    target.value_range(),
                    message,
                );
            }
            K::MinLength { limit } | K::MaxLength { limit } => {
                let length = instance.as_str().map_or(0, |s| s.chars().count());
                let message = match kind {
                    K::MinLength { .. } if *limit == 1 => format!("{label} must not be empty"),
                    K::MinLength { .. } => {
                        format!("{label} must be at least {limit} characters long; found {length}")
                    }
                    _ => format!("{label} must be at most {limit} characters long; found {length}"),
                };
                self.emit(codes::SCHEMA_LENGTH, target.value_range(), message);
            }
            K::MinItems { limit } | K::MaxItems { limit } => {
                let count = instance.as_array().map_or(0, Vec::len);
                let found = match count {
                    0 => "an empty list".to_owned(),
                    1 => "1 item".to_owned(),
                    n => format!("{n} items"),
                };
                let message = match kind {
                    K::MinItems { .. } => {
                        format!("{label} needs at least {}; found {found}", items(*limit))
                    }
                    _ => format!("{label} takes at most {}; found {found}", items(*limit)),
                };
                self.emit(codes::SCHEMA_ARRAY_SIZE, target.value_range(), message);
            }
            K::MinProperties { limit } | K::MaxProperties { limit } => {
                let count = instance.as_object().map_or(0, serde_json::Map::len);
                let bound = if matches!(kind, K::MinProperties { .. }) {
                    "at least"
                } else {
                    "at most"
                };
                let message = format!("{label} needs {bound} {limit} entries; found {count}");
                self.emit(codes::SCHEMA_OBJECT_SIZE, target.value_range(), message);
            }
            K::Minimum { limit }
            | K::Maximum { limit }
            | K::ExclusiveMinimum { limit }
            | K::ExclusiveMaximum { limit } => {
                let bound = match kind {
                    K::Minimum { .. } => "at least",
                    K::Maximum { .. } => "at most",
                    K::ExclusiveMinimum { .. } => "greater than",
                    _ => "less than",
                };
                let message = format!("{label} must be {bound} {limit}; found {}", found(instance));
                self.emit(codes::SCHEMA_RANGE, target.value_range(), message);
            }
            K::UniqueItems => self.unique_items(&target, &label, pointer, instance),
            K::Format { format } => {
                let what = match format.as_str() {
                    "date" => "date written YYYY-MM-DD",
                    "date-time" => "date and time in RFC 3339 form",
                    "uri" => "absolute URI such as https://example.com/hook",
                    other => other,
                };
                let message = format!("{label} must be a valid {what}; found {}", found(instance));
                self.emit(codes::SCHEMA_FORMAT, target.value_range(), message);
            }
            K::OneOfNotValid { context } => {
                self.union(error, &target, &label, context, Union::OneOfNone, scope)
            }
            K::OneOfMultipleValid { context } => {
                self.union(error, &target, &label, context, Union::OneOfMany, scope);
            }
            K::AnyOf { context } => {
                self.union(error, &target, &label, context, Union::AnyOf, scope)
            }
            K::Not { schema } => self.not(&target, &label, instance, schema),
            K::PropertyNames { error: inner } => self.property_name(&target, &label, inner),
            K::FalseSchema => {
                let range = target
                    .key
                    .filter(|_| target.resolved)
                    .map_or_else(|| target.value_range(), Node::range);
                self.emit(
                    codes::SCHEMA_OTHER,
                    range,
                    format!("{label} is not allowed here; remove it"),
                );
            }
            _ => {
                self.emit(
                    codes::SCHEMA_OTHER,
                    target.value_range(),
                    format!("{label}: {error}"),
                );
            }
        }
    }

    fn required(&mut self, target: &Target<'_>, label: &str, schema_path: &str, name: &str) {
        let mut message = format!("{label} is missing the required field `{name}`");
        if let Some(condition) = self.condition(schema_path) {
            message.push_str(&format!(", needed when {condition}"));
        }
        let property = parent(schema_path)
            .and_then(|p| self.at(p))
            .and_then(|s| s.get("properties"))
            .and_then(|p| p.get(name))
            .map(|s| self.resolve(s));
        match property.and_then(allowed_values).as_deref() {
            Some([only]) => message.push_str(&format!("; add `{name}: {}`", plain(only))),
            Some(values) => message.push_str(&format!(" (one of {}); add it", list_values(values))),
            None => message.push_str("; add it"),
        }
        self.emit(codes::SCHEMA_REQUIRED_FIELD, target.head_range(), message);
    }

    /// For a keyword under `…/then/…`, the `if` it depends on, in words: "`category` is `decision`".
    fn condition(&self, schema_path: &str) -> Option<String> {
        let at = schema_path.rfind("/then/")?;
        let condition = self.at(&format!("{}/if", &schema_path[..at]))?;
        let parts: Vec<String> = condition
            .get("properties")?
            .as_object()?
            .iter()
            .filter_map(|(name, s)| {
                if let Some(value) = s.get("const") {
                    Some(format!("`{name}` is {}", show_value(value)))
                } else {
                    let values: Vec<&Value> = s.get("enum")?.as_array()?.iter().collect();
                    Some(format!("`{name}` is one of {}", list_values(&values)))
                }
            })
            .collect();
        (!parts.is_empty()).then(|| parts.join(" and "))
    }

    fn unknown_fields(
        &mut self,
        target: &Target<'_>,
        label: &str,
        schema_path: &str,
        unexpected: &[String],
    ) {
        let object = parent(schema_path).and_then(|p| self.at(p));
        let allowed: Vec<&str> = object
            .and_then(|s| s.get("properties"))
            .and_then(Value::as_object)
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let patterns: Vec<&str> = object
            .and_then(|s| s.get("patternProperties"))
            .and_then(Value::as_object)
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        for name in unexpected {
            let mut message = format!("unknown field `{name}` in {label}");
            let suggestion = closest(name, allowed.iter().copied());
            if let Some(suggestion) = suggestion {
                message.push_str(&format!("; did you mean `{suggestion}`?"));
            }
            if allowed.is_empty() && patterns.is_empty() {
                message.push_str("; it takes no fields, remove it");
            } else {
                let mut listed: Vec<String> = allowed.iter().map(|a| format!("`{a}`")).collect();
                listed.extend(patterns.iter().map(|p| format!("keys matching `{p}`")));
                let separator = if message.ends_with('?') { " " } else { "; " };
                message.push_str(&format!("{separator}allowed fields: {}", listed.join(", ")));
            }
            let key = target.key_of(name);
            let range = key.map_or_else(|| target.head_range(), Node::range);
            // Renaming the key fixes it unless the mapping has the suggested key already.
            let fix = key
                .zip(suggestion.filter(|s| target.key_of(s).is_none()))
                .and_then(|(key, suggestion)| rename_key(self.file, key, name, suggestion));
            let mut diagnostic = self.diagnostic(codes::SCHEMA_UNKNOWN_FIELD, range, message);
            diagnostic.fixes.extend(fix);
            self.out.push(diagnostic);
        }
    }

    fn unique_items(&mut self, target: &Target<'_>, label: &str, pointer: &str, instance: &Value) {
        let items = instance.as_array().map(Vec::as_slice).unwrap_or_default();
        let repeat = (1..items.len()).find_map(|j| {
            items[..j]
                .iter()
                .position(|earlier| *earlier == items[j])
                .map(|i| (i, j))
        });
        let Some((first, second)) = repeat else {
            let message = format!("{label} lists an entry more than once; remove the repeat");
            // SwarmKit reports repeated entries under its catch-all code; so do we.
            self.emit(codes::SCHEMA_OTHER, target.value_range(), message);
            return;
        };
        let item_range = |index: usize| {
            let mut segs = segments(pointer);
            segs.push(index.to_string());
            let item = locate(self.root, &segs);
            if item.resolved {
                item.node.range()
            } else {
                target.value_range()
            }
        };
        let (first_range, second_range) = (item_range(first), item_range(second));
        let message = format!(
            "{label} lists {} more than once; remove the repeated entry",
            show_value(&items[second])
        );
        let related = Some((first_range, "first listed here".to_owned()));
        self.emit_with_related(codes::SCHEMA_OTHER, second_range, message, related);
    }

    fn not(&mut self, target: &Target<'_>, label: &str, instance: &Value, forbidden: &Value) {
        let names: Vec<&str> = forbidden
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if !names.is_empty() && instance.is_object() {
            let keys: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            let message = format!("{label} cannot have {}; keep only one", both(&keys));
            self.conflict(target, &names, codes::SCHEMA_OTHER, message);
            return;
        }
        if let (Some(pattern), Some(_)) = (
            forbidden.get("pattern").and_then(Value::as_str),
            instance.as_str(),
        ) {
            let message = format!(
                "{label} must not match `{pattern}`; found {}",
                found(instance)
            );
            self.emit(
                codes::SCHEMA_PATTERN_MISMATCH,
                target.value_range(),
                message,
            );
            return;
        }
        let message = format!(
            "{label} must not be {}; change it",
            self.describe(forbidden, 0)
        );
        self.emit(codes::SCHEMA_OTHER, target.value_range(), message);
    }

    /// Fields that exclude each other are all present: flag the later one, point at the earlier.
    fn conflict(&mut self, target: &Target<'_>, present: &[&str], code: Code, message: String) {
        let key = |name: Option<&&str>| name.and_then(|n| target.key_of(n));
        let range = key(present.last()).map_or_else(|| target.head_range(), Node::range);
        let related = key(present.first())
            .zip(present.first())
            .map(|(first, name)| (first.range(), format!("`{name}` is given here")));
        self.emit_with_related(code, range, message, related);
    }

    fn property_name(&mut self, target: &Target<'_>, label: &str, inner: &ValidationError<'_>) {
        use ValidationErrorKind as K;
        let key = inner.instance();
        let name = key.as_str().map_or_else(|| key.to_string(), str::to_owned);
        let range = target
            .key_of(&name)
            .map_or_else(|| target.head_range(), Node::range);
        let (code, message) = match inner.kind() {
            K::Pattern { pattern } if self.model_only_refusal(pattern, Some(&name)).is_some() => (
                self.model_only_refusal(pattern, Some(&name))
                    .unwrap_or(codes::SCHEMA_PATTERN_MISMATCH),
                format!(
                    "key `{}` in {label} ends with a line break; SwarmKit's schema check lets \
                     that through, but building the {} refuses it (`{pattern}`), so `swarmkit \
                     validate` rejects the file; remove the line break",
                    name.trim_end(),
                    self.root_name
                ),
            ),
            K::Pattern { pattern } => {
                let hint = pattern_hint(pattern).map_or_else(String::new, |h| format!(" ({h})"));
                (
                    codes::SCHEMA_PATTERN_MISMATCH,
                    format!("key `{name}` in {label} must match `{pattern}`{hint}"),
                )
            }
            K::Type { .. } => (
                codes::SCHEMA_TYPE_MISMATCH,
                format!("key `{name}` in {label} must be a string"),
            ),
            _ => (
                codes::SCHEMA_OTHER,
                format!("key `{name}` in {label} is not allowed: {inner}"),
            ),
        };
        self.emit(code, range, message);
    }
}

/// The schema path of the object a keyword belongs to (`/a/b/required` -> `/a/b`).
fn parent(schema_path: &str) -> Option<&str> {
    schema_path.rfind('/').map(|at| &schema_path[..at])
}

fn required_names(schema: &Value) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn allowed_values(schema: &Value) -> Option<Vec<&Value>> {
    if let Some(value) = schema.get("const") {
        return Some(vec![value]);
    }
    Some(schema.get("enum")?.as_array()?.iter().collect())
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn static_type(name: &str) -> &'static str {
    match name {
        "null" => "null",
        "boolean" => "boolean",
        "integer" => "integer",
        "number" => "number",
        "string" => "string",
        "array" => "array",
        _ => "object",
    }
}

fn type_accepts(types: &[&str], actual: &str) -> bool {
    types.contains(&actual) || (actual == "integer" && types.contains(&"number"))
}

/// A JSON type as the YAML author knows it.
fn type_name(json_type: &str) -> &'static str {
    match json_type {
        "object" => "a mapping",
        "array" => "a list",
        "string" => "a string",
        "integer" => "an integer",
        "number" => "a number",
        "boolean" => "true or false",
        "null" => "empty (null)",
        _ => "a value",
    }
}

/// The `type` keyword's value in words: "a string", "a mapping or a list".
fn type_phrase(types: &Value) -> String {
    let names: Vec<String> = match types {
        Value::String(s) => vec![type_name(s).to_owned()],
        Value::Array(a) => a
            .iter()
            .filter_map(Value::as_str)
            .map(|s| type_name(s).to_owned())
            .collect(),
        _ => vec!["of another type".to_owned()],
    };
    join_or(&names)
}

/// What was written, for "found …": a quoted string, a number, or the kind of collection.
fn found(value: &Value) -> String {
    match value {
        Value::Null => "an empty value".to_owned(),
        Value::String(s) => quote(s),
        Value::Array(_) => "a list".to_owned(),
        Value::Object(_) => "a mapping".to_owned(),
        other => other.to_string(),
    }
}

fn quote(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() > MAX {
        let cut: String = text.chars().take(MAX).collect();
        format!("{:?}", cut + "…")
    } else {
        format!("{text:?}")
    }
}

/// A value the schema expects, in backticks: `Skill`, `1`.
fn show_value(value: &Value) -> String {
    format!("`{}`", plain(value))
}

fn plain(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// "Rename `name` to `suggestion`": the key rewritten in place, when it is written as a plain or
/// quoted scalar spelled as it reads (the length of its range shows that).
fn rename_key(file: FileId, key: Node<'_>, name: &str, suggestion: &str) -> Option<Fix> {
    if key.is_alias() || key.scalar() != Some(name) {
        return None;
    }
    let written = key.range().len() as usize;
    let text = match key.style()? {
        Style::Plain if written == name.len() => suggestion.to_owned(),
        Style::Quoted if written == name.len() + 2 => {
            crate::diagnostic::fixes::double_quoted(suggestion)
        }
        _ => return None,
    };
    Some(
        Fix::replace(
            format!("Rename `{name}` to `{suggestion}`"),
            file,
            key.range(),
            text,
        )
        .preferred(),
    )
}

/// Allowed values as the example in the docs shows them: `a, b, c`.
fn list_values(values: &[&Value]) -> String {
    values
        .iter()
        .map(|v| plain(v))
        .collect::<Vec<_>>()
        .join(", ")
}

fn push_suggestion(message: &mut String, instance: &Value, allowed: &[&Value]) {
    let Some(written) = instance.as_str() else {
        return;
    };
    let candidates = allowed.iter().filter_map(|v| v.as_str());
    let suggestion = closest(written, candidates).or_else(|| {
        allowed.iter().filter_map(|v| v.as_str()).find(|c| {
            c.eq_ignore_ascii_case(written) || c.replace('-', "_") == written.replace('-', "_")
        })
    });
    if let Some(suggestion) = suggestion {
        message.push_str(&format!("; did you mean `{suggestion}`?"));
    }
}

fn items(count: u64) -> String {
    if count == 1 {
        "1 item".to_owned()
    } else {
        format!("{count} items")
    }
}

fn join_with(parts: &[String], last: &str) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., tail] => format!("{} {last} {tail}", init.join(", ")),
    }
}

/// "both `a` and `b`", "all of `a`, `b` and `c`".
fn both(parts: &[String]) -> String {
    let lead = if parts.len() == 2 { "both " } else { "all of " };
    format!("{lead}{}", join_and(parts))
}

fn join_or(parts: &[String]) -> String {
    join_with(parts, "or")
}

fn join_and(parts: &[String]) -> String {
    join_with(parts, "and")
}

/// The patterns the bundled schemas use, in words.
fn pattern_hint(pattern: &str) -> Option<&'static str> {
    Some(match pattern {
        r"^[a-z][a-z0-9-]*$" => {
            "lowercase letters, digits and hyphens, starting with a letter, e.g. `code-review`"
        }
        r"^[a-z][a-z0-9_-]*$" => "lowercase letters, digits, `_` and `-`, starting with a letter",
        r"^\d+\.\d+\.\d+$" | r"^[0-9]+\.[0-9]+\.[0-9]+$" => {
            "a version MAJOR.MINOR.PATCH such as `1.0.0`"
        }
        r"^>=\d+\.\d+\.\d+$" => "a minimum version such as `>=1.193.0`",
        r"^(pack:|server:)?[a-z][a-z0-9-]*$" => {
            "a skill id, or `pack:<id>` / `server:<id>` for a bulk grant"
        }
        r"^[a-z][a-z0-9-]*:[a-z][a-z0-9-]*$" => "`area:action` in lowercase, e.g. `design:approve`",
        r"^[a-z][a-z0-9_-]*:[a-z*][a-z0-9_*-]*$" => {
            "`namespace:action` in lowercase, e.g. `repo:read` or `mcp_servers:*`"
        }
        r"^[A-Z][A-Z0-9_]*$" => "an environment variable name in capitals, e.g. `OPENAI_API_KEY`",
        r"^https?://" => "an http:// or https:// URL",
        r"^([a-z][a-z0-9-]*|swarmkit:author:(topology|skill|archetype|mcp-server|init|funnel))$" => {
            "a topology id, or a bundled authoring topology such as `swarmkit:author:skill`"
        }
        _ => return None,
    })
}
