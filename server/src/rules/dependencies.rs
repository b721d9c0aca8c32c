//! The proposed `dependencies:` field of a SKILL.md (seeds/skill-md-dependencies-proposal.txt):
//! its shape (type keys `tools`, `resources`, `prompts`; each a list, shorthand for `all`, or a
//! mapping with `all` and/or `any`), and, when a tool inventory is configured, which tools are
//! missing. Evaluation is soft, as the proposal asks: a missing tool is a warning, never an error.

use super::rule_doc::RuleDoc;
use super::tools::Inventory;
use super::SkillMdScope;
use crate::diagnostic::{codes, Diagnostic, FileId};
use crate::model::skill_md::extensions::{Dependencies, Extensions, Value, DEPENDENCY_TYPES};
use crate::syntax::TextRange;

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::SKILLMD_DEPENDENCIES_SHAPE,
        summary: "`dependencies:` does not have the proposed shape.",
        explanation: "`dependencies` maps a type (`tools`, `resources` or `prompts`) to either a list of names \
(every one needed; shorthand for `all`) or a mapping with `all` (every one needed) and/or `any` (at least one \
needed), each a list of strings. An unknown type or key, a name that is not a string, a lone string where a \
list belongs, or an empty `any` (which no environment could satisfy) makes the declaration unreadable for hosts, \
which would then surface a skill that cannot run. Example:\n\n```yaml\ndependencies:\n  tools:\n    all: \
[get_order, get_check_details]\n    any: [dispute_chargeback, dispute_chargeback_v2]\n```",
    },
    RuleDoc {
        code: codes::SKILLMD_DEPENDENCIES_UNSATISFIED,
        summary: "A tool the skill declares in `dependencies.tools` is not in the configured tool inventory.",
        explanation: "Reported per missing `all` entry, and once per `any` group none of whose members is \
available. A host evaluating the declaration would hide the skill, or the agent would start it and stop at the \
missing tool. Only checked when the nearest `skillgraph.toml` configures a tool inventory (`[tools] available`, \
`presets` or `mcp-tool-lists`; SwarmKit MCP tools below it count too); without one, dependencies are not \
evaluated. `resources` and `prompts` are never evaluated. Add the tool to the inventory if the environment has \
it, or fix the name.",
    },
];

/// One type's requirement: names that are all needed, and `any` groups.
struct Requirement<'a> {
    kind: &'a str,
    all: Vec<&'a Value>,
    /// The `any` key and its members.
    any: Option<(&'a Value, Vec<&'a Value>)>,
}

fn is_type(kind: &str) -> bool {
    DEPENDENCY_TYPES.iter().any(|t| t.value == kind)
}

/// Reads `dependencies`, reporting every shape problem into `out` (when given).
fn read<'a>(
    file: FileId,
    deps: &'a Dependencies,
    mut out: Option<&mut Vec<Diagnostic>>,
) -> Vec<Requirement<'a>> {
    let mut report = |range: TextRange, message: String| {
        if let Some(out) = out.as_deref_mut() {
            out.push(Diagnostic::new(
                codes::SKILLMD_DEPENDENCIES_SHAPE,
                file,
                range,
                message,
            ));
        }
    };
    let mut found = Vec::new();
    if !deps.value.is_mapping() {
        let at = if deps.value.is_null() {
            deps.key
        } else {
            deps.value.range
        };
        report(
            at,
            format!(
                "`dependencies` must be a mapping of `tools`, `resources` or `prompts` to lists, found {}",
                super::tools::article(deps.value.type_name())
            ),
        );
        return found;
    }
    for entry in &deps.types {
        let kind = entry.key.scalar().unwrap_or_default();
        if !is_type(kind) {
            let hint = super::suggest::closest(kind, DEPENDENCY_TYPES.iter().map(|t| t.value))
                .map_or_else(String::new, |best| format!("; did you mean `{best}`?"));
            report(
                entry.key.range,
                format!("`{kind}` is not a dependency type; use `tools`, `resources` or `prompts`{hint}"),
            );
            continue;
        }
        let mut requirement = Requirement {
            kind,
            all: Vec::new(),
            any: None,
        };
        let value = &entry.value;
        if value.is_list() {
            requirement.all = names(&entry.items, &format!("dependencies.{kind}"), &mut report);
        } else if value.is_mapping() {
            let mut seen = false;
            for group in &entry.groups {
                let name = group.key.scalar().unwrap_or_default();
                let label = format!("dependencies.{kind}.{name}");
                let members = &group.value;
                match name {
                    "all" => {
                        seen = true;
                        if members.is_list() {
                            requirement.all = names(&group.items, &label, &mut report);
                        } else {
                            report(members.range, format!("`{label}` must be a list of names, found {}", super::tools::article(members.type_name())));
                        }
                    }
                    "any" => {
                        seen = true;
                        if !members.is_list() {
                            report(members.range, format!("`{label}` must be a list of names, found {}", super::tools::article(members.type_name())));
                        } else if group.items.is_empty() {
                            report(members.range, format!("`{label}` is empty, so no environment can satisfy it; list the alternatives, or remove it"));
                        } else {
                            requirement.any = Some((&group.key, names(&group.items, &label, &mut report)));
                        }
                    }
                    _ => report(
                        group.key.range,
                        format!("`{name}` is not a key of `dependencies.{kind}`; use `all` (every one needed) or `any` (at least one)"),
                    ),
                }
            }
            if !seen && entry.groups.is_empty() {
                report(
                    value.range,
                    format!("`dependencies.{kind}` is empty; give it `all` and/or `any` lists"),
                );
            }
        } else {
            let hint = match value.as_str().and_then(super::fixes::flow_list) {
                Some(list) => format!("; write `{kind}: {list}`"),
                None => String::new(),
            };
            report(
                value.range,
                format!("`dependencies.{kind}` must be a list of names or a mapping with `all` / `any`, found {}{hint}", super::tools::article(value.type_name())),
            );
        }
        found.push(requirement);
    }
    found
}

/// The string items of a list; other items are reported.
fn names<'a>(
    items: &'a [Value],
    label: &str,
    report: &mut impl FnMut(TextRange, String),
) -> Vec<&'a Value> {
    let mut out = Vec::new();
    for item in items {
        match item.as_str() {
            Some(name) if !name.trim().is_empty() => out.push(item),
            Some(_) => report(
                item.range,
                format!("an entry of `{label}` is empty; write a name"),
            ),
            None => report(
                item.range,
                format!(
                    "entries of `{label}` must be strings, found {}{}",
                    super::tools::article(item.type_name()),
                    if item.scalar().is_some() {
                        "; quote it"
                    } else {
                        ""
                    }
                ),
            ),
        }
    }
    out
}

/// File-local: the shape of `dependencies`.
pub(crate) fn check_local(file: FileId, extensions: &Extensions, out: &mut Vec<Diagnostic>) {
    if let Some(deps) = &extensions.dependencies {
        read(file, deps, Some(out));
    }
}

/// Cross-file: the declared tools against the inventory.
pub(crate) fn check(scope: &SkillMdScope<'_>, out: &mut Vec<Diagnostic>) {
    let extensions = &scope.skill.extensions;
    let Some(deps) = &extensions.dependencies else {
        return;
    };
    let requirements = read(scope.file, deps, None);
    let Some(tools) = requirements.iter().find(|r| r.kind == "tools") else {
        return;
    };
    let Some(inventory) = Inventory::of(scope.lookup, scope.path) else {
        return;
    };
    let related = |d: Diagnostic| inventory.relate(d);
    for entry in &tools.all {
        let name = entry.as_str().unwrap_or_default();
        if inventory.find(scope.lookup, name).is_none() {
            out.push(related(Diagnostic::new(
                codes::SKILLMD_DEPENDENCIES_UNSATISFIED,
                scope.file,
                entry.range,
                format!("the skill needs the tool `{name}`, which is not in the tool inventory; a host would not offer this skill here. Add `{name}` to the inventory if the environment has it, or fix the name"),
            )));
        }
    }
    if let Some((key, members)) = &tools.any {
        let available = members.iter().any(|m| {
            inventory
                .find(scope.lookup, m.as_str().unwrap_or_default())
                .is_some()
        });
        if !available && !members.is_empty() {
            let listed: Vec<String> = members
                .iter()
                .take(crate::graph::path::MAX_HOPS)
                .map(|m| format!("`{}`", m.as_str().unwrap_or_default()))
                .collect();
            out.push(related(Diagnostic::new(
                codes::SKILLMD_DEPENDENCIES_UNSATISFIED,
                scope.file,
                key.range,
                format!(
                    "the skill needs one of {}, and none is in the tool inventory",
                    crate::graph::path::render_counted(&listed, members.len())
                ),
            )));
        }
    }
}
