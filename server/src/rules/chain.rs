//! The proposed `metadata.chain` of a SKILL.md (seeds/skill-chaining-proposal.txt): an ordered
//! list of skills to load, with options beside it under `metadata`. File-local: the shape of the
//! list and options, entries that are paths going up or absolute, options that need `async`.
//! Cross-file: resolving entries (same parent folder first, then folders at the same level or
//! deeper), names that resolve only outside the chain's parent folder, cycles of chains calling
//! chains, and nesting deeper than `max_depth`.
//!
//! Reporting choices: a cycle is reported once per tangle of chains calling each other, on the
//! chain entry of the member whose SKILL.md path sorts first, naming the shortest loop through
//! it (elided in the middle when long), with a related location on its other edges. A chain that is not on a cycle but reaches one nests without end: that is reported as
//! `skillmd.chain-depth` on the entry leading to it.

use std::path::Path;

use super::rule_doc::RuleDoc;
use super::SkillMdScope;
use crate::diagnostic::{codes, Diagnostic, FileId, Severity};
use crate::graph::path;
use crate::index::{Content, FileEntry, Key, Lookup};
use crate::model::skill_md::extensions::{Chain, Extensions, OptionType, Shape};
use crate::model::skill_md::{normalize_name, skill_root};
use crate::semantics::chain::{chain_graph, display, is_path, path_escape, resolve, Target};
use crate::syntax::TextRange;

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::SKILLMD_CHAIN_SHAPE,
        summary: "`metadata.chain` or one of its options has the wrong type or value.",
        explanation: "`chain` is a non-empty list of skill names (or relative paths to skill folders). Its \
options sit beside it under `metadata`: `async`, `continue_on_error`, `validate_on_load`, `cleanup_after`, \
`continue_on_success`, `pass_state`, `race_mode` are booleans; `timeout` and `retry_count` whole numbers of at \
least 0, `max_depth` and `parallel_limit` at least 1; `early_exit_on` one of `none`, `failure`, `success`, \
`critical`; `retry_until` one of `none`, `stable`, `success`. A runtime reading a wrong type falls back to a \
default silently (`timeout: \"30s\"` becomes no timeout). Write the value in the listed type; quoting a number \
makes it a string.",
    },
    RuleDoc {
        code: codes::SKILLMD_CHAIN_UNKNOWN_SKILL,
        summary: "A chain entry names no skill the chain can reach.",
        explanation: "Entries resolve as the proposal describes: a skill of that name in the same parent folder \
as the chain's own skill folder first, then in folders at the same level or deeper. When nothing matches, a \
runtime that validates on load refuses the chain, and one that does not fails part-way through. An error by \
default; a warning when the chain sets `validate_on_load: false`. Fix the name (a suggestion is given when one \
is close), or create the skill.",
    },
    RuleDoc {
        code: codes::SKILLMD_CHAIN_ESCAPE,
        summary: "A chain entry reaches above the chain's parent folder.",
        explanation: "A chain at one level may call skills at the same level or deeper, never above: this keeps \
a chain's reach inside its own subtree. Reported for an entry that is a path going up (`../audit`), an \
absolute path, and a name that resolves only to a skill outside the chain's parent folder (the related \
location shows it). Move the skill into the chain's subtree, or move the chain up.",
    },
    RuleDoc {
        code: codes::SKILLMD_CHAIN_CYCLE,
        summary: "Chains call each other in a loop.",
        explanation: "A chain that, through the chains it calls, calls itself again never finishes (or is cut \
off at `max_depth` with a half-run state). Each tangle of chains calling each other is reported once, on the entry \
of the member whose SKILL.md path sorts first, with the shortest loop through it in the message (its first and last \
hops and a count of the rest when long) and a related location on its other edges. Remove one of \
the entries on the path.",
    },
    RuleDoc {
        code: codes::SKILLMD_CHAIN_DEPTH,
        summary: "Chains nest deeper than the chain's `max_depth` (default 10).",
        explanation: "A chain that calls only plain skills has depth 1; each chain it calls adds its own depth. \
The runtime stops at `max_depth`, so the skills beyond it never run. Also reported when the chain reaches a \
cycle of other chains: the nesting never ends. The message walks the deepest path (or the path to the loop), eliding \
the middle of a long one. Flatten the chains, or raise \
`max_depth` if the nesting is intended.",
    },
    RuleDoc {
        code: codes::SKILLMD_CHAIN_OPTION_CONFLICT,
        summary: "`parallel_limit` or `race_mode` is set on a chain that does not run in parallel.",
        explanation: "Both options only mean something when the chain's skills run in parallel, which takes \
`async: true`; chains are sequential by default, so the option is ignored and the chain does not behave as the \
file suggests. Add `async: true`, or remove the option.",
    },
];

/// File-local checks of `metadata.chain` and its options.
pub(crate) fn check_local(file: FileId, extensions: &Extensions, out: &mut Vec<Diagnostic>) {
    let Some(chain) = &extensions.chain else {
        // Without `chain`, the option names are ordinary metadata (checked as such).
        return;
    };
    let shape = |range: TextRange, message: String| {
        Diagnostic::new(codes::SKILLMD_CHAIN_SHAPE, file, range, message)
    };
    let list = &chain.value;
    if !list.is_list() {
        // A string is the portable form, read as a list (`model::skill_md::portable`).
        out.push(shape(
            list.range,
            format!(
                "`metadata.chain` must be a list of skill names (or a string of them separated by commas), found {}",
                super::tools::article(list.type_name())
            ),
        ));
    } else if chain.items.is_empty() {
        out.push(shape(
            list.range,
            "`metadata.chain` is empty, so the chain loads nothing; list the skills to run in order"
                .to_owned(),
        ));
    }
    for item in &chain.items {
        match item.as_str() {
            Some(entry) if !entry.trim().is_empty() => {
                if let Some(why) = is_path(entry).then(|| path_escape(entry)).flatten() {
                    out.push(Diagnostic::new(
                        codes::SKILLMD_CHAIN_ESCAPE,
                        file,
                        item.range,
                        format!("`{entry}` is {why}; a chain may only call skills in its own parent folder or below it"),
                    ));
                }
            }
            Some(_) => out.push(shape(
                item.range,
                "a chain entry is empty; write a skill name".to_owned(),
            )),
            None => out.push(shape(
                item.range,
                format!(
                    "chain entries must be skill names (strings), found {}",
                    super::tools::article(item.type_name())
                ),
            )),
        }
    }
    for setting in &chain.options {
        let name = setting.option.key;
        let value = &setting.value;
        let problem = match (setting.option.kind, value.shape) {
            (OptionType::Bool, Shape::Bool(_)) => continue,
            (OptionType::Bool, _) => format!(
                "`{name}` must be `true` or `false`, found {}",
                super::tools::article(value.type_name())
            ),
            (OptionType::Int { min }, Shape::Int(i)) if i >= min => continue,
            (OptionType::Int { min }, Shape::Int(i)) => {
                format!("`{name}` must be at least {min}, found {i}")
            }
            (OptionType::Int { min }, _) => format!(
                "`{name}` must be a whole number of at least {min}, found {}{}",
                super::tools::article(value.type_name()),
                if value.as_str().is_some_and(|s| s.parse::<i64>().is_ok()) {
                    "; remove the quotes"
                } else {
                    ""
                }
            ),
            (OptionType::Enum(allowed), Shape::Str)
                if allowed.iter().any(|a| Some(a.value) == value.as_str()) =>
            {
                continue
            }
            (OptionType::Enum(allowed), _) => format!(
                "`{name}` must be one of {}, found `{}`",
                allowed
                    .iter()
                    .map(|a| format!("`{}`", a.value))
                    .collect::<Vec<_>>()
                    .join(", "),
                value.scalar().unwrap_or(value.type_name())
            ),
        };
        out.push(shape(value.range, problem));
    }
    if !chain.runs_async() {
        for setting in &chain.options {
            let option = setting.option.key;
            let set = match option {
                "parallel_limit" => !setting.value.is_null(),
                "race_mode" => setting.value.shape == Shape::Bool(true),
                _ => false,
            };
            if set {
                out.push(Diagnostic::new(
                    codes::SKILLMD_CHAIN_OPTION_CONFLICT,
                    file,
                    setting.key,
                    format!("`{option}` only applies when the chain runs in parallel, and this chain is sequential (no `async: true`), so it is ignored; add `async: true` or remove `{option}`"),
                ));
            }
        }
    }
}

/// Cross-file checks of one skill's chain.
pub(crate) fn check(scope: &SkillMdScope<'_>, out: &mut Vec<Diagnostic>) {
    let extensions = &scope.skill.extensions;
    let Some(chain) = extensions.chain_list() else {
        return;
    };
    let Some(me) = scope.lookup.file(scope.file) else {
        return;
    };
    let validate = chain.validates_on_load();
    let parent = skill_root(scope.path)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    // The skills the chain could call, sorted once, when the first unknown entry needs them.
    let known = std::cell::OnceCell::new();
    for entry in &chain.entries {
        let name = entry.value.as_str();
        match resolve(scope.lookup, scope.path, name) {
            Target::Found(_) | Target::Invalid => {}
            Target::Outside(target) => {
                let range = match &target.parsed.content {
                    Content::SkillMd(skill) => skill.name_range().unwrap_or_default(),
                    _ => TextRange::default(),
                };
                out.push(
                    Diagnostic::new(
                        codes::SKILLMD_CHAIN_ESCAPE,
                        scope.file,
                        entry.range,
                        format!("`{name}` resolves only to a skill outside `{}`, this chain's parent folder; a chain may only call skills at its own level or below", folder_name(&parent)),
                    )
                    .with_related(target.id, range, format!("the only skill named `{name}`")),
                );
            }
            Target::Unknown => {
                let mut message = format!(
                    "no skill named `{name}` in `{}` or below it",
                    folder_name(&parent)
                );
                let known = known.get_or_init(|| {
                    let mut known: Vec<String> = scope
                        .lookup
                        .get(Key::SkillMdIn {
                            parent: parent.clone(),
                        })
                        .iter()
                        .map(|e| display(e))
                        .collect();
                    known.sort_unstable();
                    known.dedup();
                    known
                });
                let best = scope
                    .lookup
                    .may_suggest()
                    .then(|| super::suggest::closest_in(&normalize_name(name), known.as_slice()))
                    .flatten();
                if let Some(best) = best {
                    message.push_str(&format!("; did you mean `{best}`?"));
                }
                let mut diagnostic = Diagnostic::new(
                    codes::SKILLMD_CHAIN_UNKNOWN_SKILL,
                    scope.file,
                    entry.range,
                    "",
                );
                let fix = best
                    .zip(scope.lookup.file(scope.file))
                    .and_then(|(best, me)| {
                        super::fixes::replace_scalar(&me.text, scope.file, entry.range, name, best)
                    });
                diagnostic
                    .fixes
                    .extend(fix.map(crate::diagnostic::Fix::preferred));
                if validate {
                    message.push_str("; with `validate_on_load` (the default) the chain is refused when it loads");
                } else {
                    message.push_str("; `validate_on_load: false`, so the chain would fail when it reaches this entry");
                    diagnostic = diagnostic.with_severity(Severity::Warning);
                }
                diagnostic.message = message;
                out.push(diagnostic);
            }
        }
    }
    check_graph(scope.lookup, me, chain, out);
}

fn folder_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Cycles through this skill, and nesting depth.
fn check_graph(lookup: &Lookup<'_>, me: &FileEntry, chain: &Chain, out: &mut Vec<Diagnostic>) {
    let graph = chain_graph(lookup);
    let mine = graph.by_file.get(&me.id).copied();
    if let Some(node) = mine.filter(|&n| graph.components.on_cycle(n)) {
        let component = graph.components.of[node];
        if graph.components.members[component][0] != node {
            return; // reported once, on the member whose path sorts first
        }
        let cycle = &graph.cycle[&component];
        let at = |k: usize| cycle[k % cycle.len()];
        let names: Vec<&str> = (0..=cycle.len())
            .map(|k| graph.names[at(k)].as_str())
            .collect();
        let Some(first) = graph.live_range(lookup, at(0), at(1)) else {
            return;
        };
        let mut diagnostic = Diagnostic::new(
            codes::SKILLMD_CHAIN_CYCLE,
            me.id,
            first,
            format!(
                "chains call each other in a loop: {}; the chain never finishes, so remove one of these entries",
                path::render(&names)
            ),
        );
        for k in path::related_hops(cycle.len()).filter(|&k| k > 0) {
            if let Some(range) = graph.live_range(lookup, at(k), at(k + 1)) {
                diagnostic = diagnostic.with_related(
                    graph.files[at(k)],
                    range,
                    format!(
                        "`{}` calls `{}` here",
                        graph.names[at(k)],
                        graph.names[at(k + 1)]
                    ),
                );
            }
        }
        out.push(diagnostic);
        return;
    }
    // This skill's own calls, resolved as the graph resolves them (an unnamed SKILL.md is in no
    // one's chain, so it is not a node of the graph).
    let calls: Vec<(usize, TextRange)> = match mine {
        // The graph's ranges may be stale; this file's own are at hand.
        Some(node) => graph.calls[node]
            .iter()
            .zip(&graph.call_entries[node])
            .filter_map(|(&(to, _), &k)| Some((to, chain.entries.get(k)?.range)))
            .collect(),
        None => chain
            .entries
            .iter()
            .filter_map(|e| match resolve(lookup, &me.path, &e.value) {
                Target::Found(target) => graph.by_file.get(&target.id).map(|&to| (to, e.range)),
                _ => None,
            })
            .collect(),
    };
    let (reaches_loop, first, hops) = graph.settle(&calls);
    let Some(first) = first else { return };
    let max_depth = chain.max_depth();
    if !reaches_loop && (hops as i64) <= max_depth {
        return;
    }
    let me_name = display(me);
    let at = |i: usize| {
        if i == 0 {
            None
        } else {
            Some(graph.onward_at_calls(&calls, first, i))
        }
    };
    let name = |i: usize| at(i).map_or(me_name.as_str(), |n| graph.names[n].as_str());
    let shown = path::split(hops + 1, path::HEAD_HOPS, path::TAIL_HOPS);
    let mut names: Vec<&str> = (0..shown.head).map(name).collect();
    let omission = path::omission(shown.omitted);
    if shown.omitted > 0 {
        names.push(&omission);
        names.extend((hops + 1 - shown.tail..=hops).map(name));
    }
    let range = calls[first].1;
    if reaches_loop {
        out.push(Diagnostic::new(
            codes::SKILLMD_CHAIN_DEPTH,
            me.id,
            range,
            format!(
                "the nesting of chains never ends: {} reaches a loop of chains, so the runtime stops at `max_depth` ({max_depth})",
                names.join(" → ")
            ),
        ));
        return;
    }
    let mut diagnostic = Diagnostic::new(
        codes::SKILLMD_CHAIN_DEPTH,
        me.id,
        range,
        format!(
            "chains nest {hops} levels deep ({}), deeper than `max_depth` ({max_depth}); the runtime stops there, so the innermost skills never run",
            names.join(" → ")
        ),
    );
    for i in path::related_hops(hops).filter(|&i| i > 0) {
        let (Some(from), Some(to)) = (at(i), at(i + 1)) else {
            continue;
        };
        if let Some(range) = graph.live_range(lookup, from, to) {
            diagnostic = diagnostic.with_related(
                graph.files[from],
                range,
                format!("`{}` calls `{}` here", graph.names[from], graph.names[to]),
            );
        }
    }
    out.push(diagnostic);
}
