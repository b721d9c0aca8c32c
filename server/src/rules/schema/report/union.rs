//! Making `oneOf` and `anyOf` readable: instead of "not valid under any of the schemas", the
//! reporter picks the branch the author meant (by the fields it requires, by a discriminating
//! constant, by the value's type) and explains that branch's errors, or lists the accepted
//! forms. Also how a schema's accepted forms are described (`describe`), which the reporter's
//! other messages use too.

use jsonschema::error::{ValidationError, ValidationErrorKind};
use serde_json::Value;

use super::super::locate::{locate, segments, Target};
use super::{
    both, found, join_and, join_or, json_type, list_values, pattern_hint, plain, push_suggestion,
    required_names, show_value, static_type, type_accepts, type_name, Reporter, Scope, Union,
    MAX_RESOLVE,
};
use crate::diagnostic::codes;

impl<'s, 'a> Reporter<'s, 'a> {
    /// `oneOf` / `anyOf`: find the branch the author meant and report its errors, or say plainly
    /// which forms are accepted.
    pub(super) fn union(
        &mut self,
        error: &ValidationError<'_>,
        target: &Target<'_>,
        label: &str,
        context: &[Vec<ValidationError<'static>>],
        union: Union,
        scope: &Scope,
    ) {
        let instance: &Value = error.instance();
        let pointer = error.instance_path().as_str();
        let Some(branches) = self
            .at(error.schema_path().as_str())
            .and_then(Value::as_array)
            .map(|b| b.iter().map(|s| self.resolve(s)).collect::<Vec<_>>())
        else {
            self.emit(
                codes::SCHEMA_VARIANT_MISMATCH,
                target.value_range(),
                format!("{label}: {error}"),
            );
            return;
        };
        let report_branch = |this: &mut Self, index: usize, scope: &Scope| {
            for inner in context.get(index).map(Vec::as_slice).unwrap_or_default() {
                this.report(inner, scope);
            }
        };

        // "Exactly one of these fields" (or "at least one" for anyOf), spelled as branches that
        // only require a field each.
        if let Some(names) = exclusive_fields(&branches) {
            let present: Vec<&str> = names
                .iter()
                .copied()
                .filter(|n| instance.as_object().is_some_and(|o| o.contains_key(*n)))
                .collect();
            let listed: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            if present.is_empty() {
                let quantity = if union == Union::AnyOf {
                    "at least one"
                } else {
                    "exactly one"
                };
                let message = format!("{label} needs {quantity} of {}; add one", join_or(&listed));
                self.emit(codes::SCHEMA_REQUIRED_FIELD, target.head_range(), message);
                return;
            }
            if present.len() > 1 && union != Union::AnyOf {
                let given: Vec<String> = present.iter().map(|n| format!("`{n}`")).collect();
                let message = format!(
                    "{label} takes only one of {}, but has {}; keep only one",
                    join_or(&listed),
                    both(&given)
                );
                self.conflict(target, &present, codes::SCHEMA_VARIANT_MISMATCH, message);
                return;
            }
            if let Some(index) = branches
                .iter()
                .position(|b| required_names(b).contains(&present[0]))
            {
                report_branch(self, index, scope);
                return;
            }
        }

        // Branches told apart by a constant field (`type: mcp_tool`, `type: llm_prompt`, …).
        if let (Some((field, consts)), Some(object)) =
            (discriminator(&branches), instance.as_object())
        {
            let allowed: Vec<&Value> = consts.clone();
            match object.get(field) {
                None => {
                    let message = format!(
                        "{label} is missing the required field `{field}`, which says which kind it is (one of {}); add it",
                        list_values(&allowed)
                    );
                    self.emit(codes::SCHEMA_REQUIRED_FIELD, target.head_range(), message);
                }
                Some(value) => match consts.iter().position(|c| *c == value) {
                    Some(index) if union != Union::OneOfMany => {
                        let chosen = Scope {
                            pointer: pointer.to_owned(),
                            label_note: Some(format!("{field}: {}", plain(value))),
                            tail: None,
                        };
                        report_branch(self, index, &chosen);
                    }
                    Some(_) => {
                        let message = format!("{label} matches more than one accepted form; make it match exactly one");
                        self.emit(
                            codes::SCHEMA_VARIANT_MISMATCH,
                            target.value_range(),
                            message,
                        );
                    }
                    None => {
                        let mut segs = segments(pointer);
                        segs.push(field.to_owned());
                        let field_target = locate(self.root, &segs);
                        let field_label = field_target.label(self.root_name);
                        let mut message = format!(
                            "{field_label} must be one of {}; found {}",
                            list_values(&allowed),
                            found(value)
                        );
                        push_suggestion(&mut message, value, &allowed);
                        self.emit(
                            codes::SCHEMA_ENUM_MISMATCH,
                            field_target.value_range(),
                            message,
                        );
                    }
                },
            }
            return;
        }

        if union == Union::OneOfMany {
            let message = format!(
                "{label} matches more than one accepted form ({}); make it match exactly one",
                self.describe_all(&branches)
            );
            self.emit(
                codes::SCHEMA_VARIANT_MISMATCH,
                target.value_range(),
                message,
            );
            return;
        }

        // Branches told apart by the type of the value (a string id or a mapping, …).
        let actual = json_type(instance);
        let accepted: Vec<Option<Vec<&'static str>>> =
            branches.iter().map(|b| self.types(b, 0)).collect();
        let compatible: Vec<usize> = (0..branches.len())
            .filter(|&i| {
                accepted[i]
                    .as_ref()
                    .is_none_or(|types| type_accepts(types, actual))
            })
            .collect();
        if compatible.is_empty() {
            let mut all: Vec<&'static str> = Vec::new();
            for types in accepted.iter().flatten() {
                for t in types {
                    if !all.contains(t) {
                        all.push(t);
                    }
                }
            }
            let expected: Vec<String> = all.iter().map(|t| type_name(t).to_owned()).collect();
            let message = format!(
                "{label} must be {}; found {}",
                join_or(&expected),
                found(instance)
            );
            self.emit(codes::SCHEMA_TYPE_MISMATCH, target.value_range(), message);
            return;
        }
        let pick = if compatible.len() == 1 {
            Some(compatible[0])
        } else {
            // Several forms take this type: keep those whose errors are about the inside of the
            // value rather than its shape, and use one if only one is left.
            let plausible: Vec<usize> = compatible
                .iter()
                .copied()
                .filter(|&i| {
                    !context.get(i).is_some_and(|errors| {
                        errors.iter().any(|e| {
                            e.instance_path().as_str() == pointer
                                && matches!(
                                    e.kind(),
                                    ValidationErrorKind::Type { .. }
                                        | ValidationErrorKind::Constant { .. }
                                        | ValidationErrorKind::Enum { .. }
                                )
                        })
                    })
                })
                .collect();
            (plausible.len() == 1).then(|| plausible[0])
        };
        if let Some(index) = pick {
            let others: Vec<String> = (0..branches.len())
                .filter(|&i| i != index)
                .map(|i| self.describe_briefly(branches[i]))
                .collect();
            let chosen = if others.is_empty() {
                scope.clone()
            } else {
                Scope {
                    pointer: pointer.to_owned(),
                    label_note: None,
                    tail: Some(format!(" (it may also be written as {})", join_or(&others))),
                }
            };
            report_branch(self, index, &chosen);
            return;
        }
        let message = format!(
            "{label} matches none of the accepted forms: {}; rewrite it as one of them",
            self.describe_all(&branches)
        );
        self.emit(
            codes::SCHEMA_VARIANT_MISMATCH,
            target.value_range(),
            message,
        );
    }

    /// The JSON types a schema accepts, when it says (`None`: any type).
    fn types(&self, schema: &Value, depth: usize) -> Option<Vec<&'static str>> {
        if depth > MAX_RESOLVE {
            return None;
        }
        let schema = self.resolve(schema);
        if let Some(t) = schema.get("type") {
            let names: Vec<&'static str> = match t {
                Value::String(s) => vec![static_type(s)],
                Value::Array(a) => a
                    .iter()
                    .filter_map(Value::as_str)
                    .map(static_type)
                    .collect(),
                _ => return None,
            };
            return Some(names);
        }
        if let Some(value) = schema.get("const") {
            return Some(vec![json_type(value)]);
        }
        if let Some(values) = schema.get("enum").and_then(Value::as_array) {
            let mut names: Vec<&'static str> = Vec::new();
            for value in values {
                let t = json_type(value);
                if !names.contains(&t) {
                    names.push(t);
                }
            }
            return Some(names);
        }
        let alternatives = schema
            .get("oneOf")
            .or_else(|| schema.get("anyOf"))?
            .as_array()?;
        let mut names: Vec<&'static str> = Vec::new();
        for alternative in alternatives {
            for t in self.types(alternative, depth + 1)? {
                if !names.contains(&t) {
                    names.push(t);
                }
            }
        }
        Some(names)
    }

    /// A short description of what a schema accepts, for "accepted forms" lists.
    pub(super) fn describe(&self, schema: &Value, depth: usize) -> String {
        let schema = self.resolve(schema);
        if let Some(value) = schema.get("const") {
            return show_value(value);
        }
        if let Some(values) = schema.get("enum").and_then(Value::as_array) {
            let values: Vec<&Value> = values.iter().collect();
            return format!("one of {}", list_values(&values));
        }
        let required: Vec<String> = required_names(schema)
            .iter()
            .map(|n| format!("`{n}`"))
            .collect();
        match self.types(schema, depth) {
            Some(types) if types == ["object"] && !required.is_empty() => {
                format!("a mapping with {}", join_and(&required))
            }
            Some(types) if types == ["string"] => {
                match schema.get("pattern").and_then(Value::as_str) {
                    Some(pattern) => match pattern_hint(pattern) {
                        Some(hint) => format!("a string: {hint}"),
                        None => format!("a string matching `{pattern}`"),
                    },
                    None => "a string".to_owned(),
                }
            }
            Some(types) => {
                let names: Vec<String> = types.iter().map(|t| type_name(t).to_owned()).collect();
                join_or(&names)
            }
            None if !required.is_empty() => format!("a mapping with {}", join_and(&required)),
            None => "another form".to_owned(),
        }
    }

    /// Like [`Self::describe`], without the detail of patterns.
    fn describe_briefly(&self, schema: &Value) -> String {
        let schema = self.resolve(schema);
        match self.types(schema, 0) {
            Some(types) if types == ["string"] => "a string".to_owned(),
            _ => self.describe(schema, 0),
        }
    }

    fn describe_all(&self, branches: &[&Value]) -> String {
        let forms: Vec<String> = branches.iter().map(|b| self.describe(b, 0)).collect();
        join_or(&forms)
    }
}

/// When every branch only says "this field is required" (optionally "and not that one"), the
/// union means "exactly one of these fields": the names, in order.
fn exclusive_fields<'v>(branches: &[&'v Value]) -> Option<Vec<&'v str>> {
    let mut names: Vec<&str> = Vec::new();
    for branch in branches {
        let object = branch.as_object()?;
        let only_required = object
            .keys()
            .all(|k| matches!(k.as_str(), "required" | "not" | "$comment" | "description"));
        let required = required_names(branch);
        if !only_required || required.is_empty() {
            return None;
        }
        for name in required {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    (!names.is_empty()).then_some(names)
}

/// A field every branch pins to a different constant: the field and the constants, by branch.
fn discriminator<'v>(branches: &[&'v Value]) -> Option<(&'v str, Vec<&'v Value>)> {
    let first = branches.first()?.get("properties")?.as_object()?;
    first.iter().find_map(|(field, _)| {
        let consts: Option<Vec<&Value>> = branches
            .iter()
            .map(|b| b.get("properties")?.get(field)?.get("const"))
            .collect();
        let consts = consts?;
        let distinct = consts
            .iter()
            .enumerate()
            .all(|(i, c)| !consts[..i].contains(c));
        (branches.len() > 1 && distinct).then_some((field.as_str(), consts))
    })
}
