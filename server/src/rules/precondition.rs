//! The symfonic skill gate's `metadata.precondition` and `metadata.action_tool`
//! (seeds/symfonic-skill-gate.txt). A precondition is a tool name with optional arguments
//! (`get_integration_status`, `get_x(brand_id=<x>)`), a list of predicates (a conjunction),
//! `{tool: NAME}`, or `{state: {path, op, value}}` with `op` in eq|neq|in|exists. The gate's
//! rule is "broken rules do not admit": a malformed predicate blocks every call, so it is an
//! error. Free text is shown to the model but never enforced (info). Tool names are checked
//! against the tool inventory when one is configured.

use super::rule_doc::RuleDoc;
use super::tools::Inventory;
use super::SkillMdScope;
use crate::diagnostic::{codes, Code, Diagnostic, FileId};
use crate::model::skill_md::extensions::{
    EnumValue, Extensions, Predicate, PredicateMap, State, Value, PRECONDITION_OPS, PREDICATE_KEYS,
    STATE_KEYS,
};
use crate::syntax::TextRange;

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::SKILLMD_PRECONDITION_MALFORMED,
        summary: "`metadata.precondition` or `metadata.action_tool` is present but broken.",
        explanation: "The skill gate evaluates a skill's precondition before the tool named by `action_tool` is \
dispatched, and a rule that exists but cannot be evaluated closes the gate: every call of that tool is refused. \
Reported: an unclosed `(` or text after `)` in `tool(arg=value)`, an argument that is not `name=value`, an \
empty list or value, a mapping that is neither `{tool: NAME}` nor `{state: {path, op, value}}`, a state `path` \
that is not dotted identifiers, an `op` outside `eq`, `neq`, `in`, `exists`, `in` without a list, a missing \
`value`, and an `action_tool` that is not a tool name. The message says which.",
    },
    RuleDoc {
        code: codes::SKILLMD_PRECONDITION_ADVISORY,
        summary: "The precondition is free text, not a tool name: it is shown to the model, never enforced.",
        explanation: "Only tool predicates and `state` predicates can be evaluated by the gate; a sentence such \
as `the user has confirmed the order` reads as guidance for the model and guards nothing. If the condition \
matters, express it as a tool whose success establishes it (`get_order_confirmation`) or as `{state: {path: \
order.confirmed, op: eq, value: true}}`.",
    },
    RuleDoc {
        code: codes::SKILLMD_ACTION_TOOL_UNKNOWN,
        summary: "`metadata.action_tool` names a tool that is not in the configured tool inventory.",
        explanation: "The gate consults a skill only for calls of the tool its `action_tool` names, so with a \
misspelt or unavailable name the skill's precondition never applies. Only checked when the nearest \
`skillgraph.toml` configures a tool inventory. Fix the name, or add the tool to the inventory.",
    },
    RuleDoc {
        code: codes::SKILLMD_PRECONDITION_UNSATISFIED,
        summary: "A tool named in the precondition is not in the configured tool inventory.",
        explanation: "A tool predicate holds once that tool has been called; a tool this environment does not \
have can never be called, so the precondition never holds and the gated action is always refused. Only checked \
when the nearest `skillgraph.toml` configures a tool inventory; `state` predicates are not evaluated. Fix the \
name, or add the tool to the inventory.",
    },
];

/// One readable predicate.
enum Readable<'a> {
    /// A tool predicate: the value holding it and the tool's name.
    Tool(&'a Value, String),
    /// Free text.
    Advisory(&'a Value),
    State,
}

fn is_identifier(s: &str, extra: &[char]) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || extra.contains(&c))
}

const TOOL_CHARS: &[char] = &['-', '.'];

/// What a string predicate is: a tool (name), free text, or broken (why).
fn read_call(text: &str) -> Result<Option<String>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("the precondition is empty; name a tool, or remove it".to_owned());
    }
    if is_identifier(text, TOOL_CHARS) {
        return Ok(Some(text.to_owned()));
    }
    let Some(open) = text.find('(') else {
        return Ok(None);
    };
    let name = text[..open].trim_end();
    if !is_identifier(name, TOOL_CHARS) {
        return Ok(None);
    }
    let Some(close) = text.rfind(')').filter(|&c| c > open) else {
        return Err(format!(
            "`{text}` opens `(` after `{name}` but never closes it; write `{name}(arg=value)`"
        ));
    };
    let rest = text[close + 1..].trim();
    if !rest.is_empty() {
        return Err(format!(
            "`{rest}` follows the closing `)` of `{name}(…)`; a tool predicate ends at `)` (list several predicates instead)"
        ));
    }
    let args = text[open + 1..close].trim();
    if !args.is_empty() {
        for arg in args.split(',') {
            let Some((key, value)) = arg.split_once('=') else {
                return Err(format!(
                    "the argument `{}` of `{name}` is not `name=value`",
                    arg.trim()
                ));
            };
            if !is_identifier(key.trim(), &[]) {
                return Err(format!(
                    "`{}` is not an argument name in `{name}(…)`; use letters, digits and `_`",
                    key.trim()
                ));
            }
            let value = value.trim();
            if value.is_empty() || value.contains('(') || value.contains(')') {
                return Err(format!(
                    "the argument `{}` of `{name}` has no usable value",
                    key.trim()
                ));
            }
        }
    }
    Ok(Some(name.to_owned()))
}

/// Reads `metadata.precondition`, reporting broken parts into `report`.
fn read<'a>(
    predicate: &'a Predicate,
    report: &mut impl FnMut(TextRange, String),
    out: &mut Vec<Readable<'a>>,
) {
    match predicate {
        Predicate::List { value, items } if items.is_empty() => report(
            value.range,
            "the precondition is an empty list; list at least one predicate, or remove it"
                .to_owned(),
        ),
        Predicate::List { items, .. } => {
            for item in items {
                read_one(item, report, out);
            }
        }
        other => read_one(other, report, out),
    }
}

/// A precondition that is not a list, or one item of its list.
fn read_one<'a>(
    predicate: &'a Predicate,
    report: &mut impl FnMut(TextRange, String),
    out: &mut Vec<Readable<'a>>,
) {
    match predicate {
        Predicate::List { value, .. } => report(
            value.range,
            "a precondition list cannot hold another list; list the predicates side by side".to_owned(),
        ),
        Predicate::Mapping(map) => read_mapping(map, report, out),
        Predicate::Scalar(value) => match value.as_str() {
            Some(text) => match read_call(text) {
                Ok(Some(name)) => out.push(Readable::Tool(value, name)),
                Ok(None) => out.push(Readable::Advisory(value)),
                Err(problem) => report(value.range, problem),
            },
            None => report(
                value.range,
                format!(
                    "a precondition must be a tool name, a list, `{{tool: NAME}}` or `{{state: {{path, op, value}}}}`, found {}",
                    super::tools::article(value.type_name())
                ),
            ),
        },
    }
}

fn read_mapping<'a>(
    map: &'a PredicateMap,
    report: &mut impl FnMut(TextRange, String),
    out: &mut Vec<Readable<'a>>,
) {
    report_unknown_keys(&map.keys, PREDICATE_KEYS, report, |name| {
        format!("`{name}` is not a predicate key; a predicate is `{{tool: NAME}}` or `{{state: {{path, op, value}}}}`")
    });
    match (&map.tool, &map.state) {
        (Some(_), Some((second, _))) => report(
            second.range,
            "a predicate is either `tool` or `state`, not both; write them as two list items"
                .to_owned(),
        ),
        (Some((_, tool)), None) => match tool.as_str().map(read_call) {
            Some(Ok(Some(name))) => out.push(Readable::Tool(tool, name)),
            Some(Err(problem)) => report(tool.range, problem),
            _ => report(
                tool.range,
                "`tool` must name a tool, such as `get_order`".to_owned(),
            ),
        },
        (None, Some((_, state))) => {
            read_state(state, report);
            out.push(Readable::State);
        }
        (None, None) if map.keys.is_empty() => report(
            map.value.range,
            "the predicate is empty; write `{tool: NAME}` or `{state: {path, op, value}}`"
                .to_owned(),
        ),
        (None, None) => {}
    }
}

/// Reports each of `keys` that is none of `known`, with what `message` says of its name.
fn report_unknown_keys(
    keys: &[Value],
    known: &[EnumValue],
    report: &mut impl FnMut(TextRange, String),
    message: impl Fn(&str) -> String,
) {
    for key in keys {
        let name = key.scalar().unwrap_or_default();
        if !known.iter().any(|k| k.value == name) {
            report(key.range, message(name));
        }
    }
}

fn is_op(op: &str) -> bool {
    PRECONDITION_OPS.iter().any(|o| o.value == op)
}

fn read_state(state: &State, report: &mut impl FnMut(TextRange, String)) {
    if !state.value.is_mapping() {
        report(
            state.value.range,
            format!(
                "`state` must be a mapping with `path`, `op` and `value`, found {}",
                super::tools::article(state.value.type_name())
            ),
        );
        return;
    }
    report_unknown_keys(&state.keys, STATE_KEYS, report, |name| {
        format!("`{name}` is not a key of a state predicate; use `path`, `op`, `value`")
    });
    match &state.path {
        None => report(
            state.value.range,
            "the state predicate has no `path`; name the state to test, e.g. `order.status`"
                .to_owned(),
        ),
        Some(path) => {
            let text = path.as_str().unwrap_or_default();
            if !text.split('.').all(|part| is_identifier(part, &[])) {
                report(
                    path.range,
                    format!(
                        "`path` must be dotted identifiers such as `order.status`, found `{}`",
                        path.scalar().unwrap_or(path.type_name())
                    ),
                );
            }
        }
    }
    let op = match &state.op {
        None => {
            report(
                state.value.range,
                "the state predicate has no `op`; use `eq`, `neq`, `in` or `exists`".to_owned(),
            );
            return;
        }
        Some(op) => match op.as_str() {
            Some(o) if is_op(o) => o,
            _ => {
                report(
                    op.range,
                    format!(
                        "`{}` is not an operator; use `eq`, `neq`, `in` or `exists`",
                        op.scalar().unwrap_or(op.type_name())
                    ),
                );
                return;
            }
        },
    };
    match (op, &state.compared) {
        ("exists", Some((key, _))) => report(
            key.range,
            "`exists` takes no `value`; remove it, or use `eq`".to_owned(),
        ),
        ("exists", None) => {}
        (_, None) => report(
            state.value.range,
            format!("`{op}` needs a `value` to compare with"),
        ),
        ("in", Some((_, value))) if !value.is_list() => report(
            value.range,
            format!(
                "`in` needs a list of values, found {}; write `value: [a, b]`",
                super::tools::article(value.type_name())
            ),
        ),
        _ => {}
    }
}

/// The tool `action_tool` names, or what is wrong with it.
fn action_tool(value: &Value) -> Result<String, String> {
    match value.as_str() {
        Some(name) if is_identifier(name.trim(), TOOL_CHARS) => Ok(name.trim().to_owned()),
        Some(name) => Err(format!(
            "`action_tool` must be one tool's name (the gate matches calls on it), found `{name}`"
        )),
        None => Err(format!(
            "`action_tool` must be one tool's name, found {}",
            super::tools::article(value.type_name())
        )),
    }
}

/// File-local: the grammar, and free text.
pub(crate) fn check_local(file: FileId, extensions: &Extensions, out: &mut Vec<Diagnostic>) {
    let mut report = |range: TextRange, message: String| {
        out.push(Diagnostic::new(
            codes::SKILLMD_PRECONDITION_MALFORMED,
            file,
            range,
            message,
        ));
    };
    if let Some(tool) = &extensions.action_tool {
        if let Err(problem) = action_tool(tool) {
            report(tool.range, problem);
        }
    }
    let mut predicates = Vec::new();
    if let Some(precondition) = &extensions.precondition {
        read(precondition, &mut report, &mut predicates);
    }
    for predicate in predicates {
        if let Readable::Advisory(value) = predicate {
            out.push(Diagnostic::new(
                codes::SKILLMD_PRECONDITION_ADVISORY,
                file,
                value.range,
                "this precondition is free text, not a tool name: the model sees it, but the gate cannot evaluate it, so it guards nothing; name a tool, or use `{state: {path, op, value}}`",
            ));
        }
    }
}

/// Cross-file: tool names against the inventory.
pub(crate) fn check(scope: &SkillMdScope<'_>, out: &mut Vec<Diagnostic>) {
    let extensions = &scope.skill.extensions;
    let action = extensions.action_tool.as_ref();
    let condition = extensions.precondition.as_ref();
    if action.is_none() && condition.is_none() {
        return;
    }
    let Some(inventory) = Inventory::of(scope.lookup, scope.path) else {
        return;
    };
    // `code` on `range`, where the tool `name` is written, when the inventory lacks it.
    let mut report_missing =
        |code: Code, range: TextRange, name: &str, message: fn(&str) -> String| {
            if inventory.find(scope.lookup, name).is_none() {
                let diagnostic = Diagnostic::new(code, scope.file, range, message(name));
                out.push(inventory.relate(diagnostic));
            }
        };
    if let Some(value) = action {
        if let Ok(name) = action_tool(value) {
            let code = codes::SKILLMD_ACTION_TOOL_UNKNOWN;
            report_missing(code, value.range, &name, |name| {
                format!("`{name}` is not in the tool inventory, so no call is ever gated by this skill's precondition; fix the name, or add the tool to the inventory")
            });
        }
    }
    let mut predicates = Vec::new();
    if let Some(predicate) = condition {
        read(predicate, &mut |_, _| {}, &mut predicates);
    }
    for predicate in predicates {
        if let Readable::Tool(value, name) = predicate {
            let code = codes::SKILLMD_PRECONDITION_UNSATISFIED;
            report_missing(code, value.range, &name, |name| {
                format!("the precondition needs a call of `{name}`, which is not in the tool inventory; it can never hold, so the gated call is always refused")
            });
        }
    }
}
