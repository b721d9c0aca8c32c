//! Claude Code's arguments in a SKILL.md body (`model::arguments`): a positional placeholder
//! that is really shell or regex syntax, named placeholders against the `arguments` field, and
//! indexed arguments without an `argument-hint`. Judged only in a skill Claude Code may load
//! (`skill_hosts::hosts_of`) that takes arguments (`model::arguments::takes_arguments`).

use super::rule_doc::RuleDoc;
use super::SkillMdScope;
use crate::diagnostic::{codes, Diagnostic, Fix};
use crate::model::arguments::{
    declared, placeholders, takes_arguments, Occurrence, Placeholder, Site,
};
use crate::model::hosts::Host;
use crate::model::skill_links::body_start;
use crate::syntax::TextRange;

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::SKILLMD_ARGUMENT_IN_CODE,
        summary: "A `$1` in code that reads as shell or regex syntax is replaced by Claude Code with an argument.",
        explanation: "Claude Code substitutes `$N` (and `$ARGUMENTS[N]`) with the argument at 0-based index N \
everywhere in the body, fenced and inline code included, and leaves it as written only when no argument was \
given at that index (https://code.claude.com/docs/en/skills, checked 2026-12-04; the facts are rows in \
`model/hosts.rs`). So `awk '{print $1}'`, `sed 's/(x)/\\1 $1/'` or `str.replace(/(a)/, '$1')` in a skill \
invoked with arguments reaches the model with the user's words in place of the field or the capture group. \
Reported in a skill that takes arguments (one that declares `arguments` or `argument-hint`, or uses \
`$ARGUMENTS`) and that Claude Code may load, for a `$N` in code whose line reads as awk, sed, perl, a regex \
replacement (`.replace(`, `replaceAll(`, `re.sub(`, `gsub(`, `preg_replace`, `s/…/…/`) or shell positional \
parameters (`$#`, `$@`, `shift`, `local `, a function definition), or in a block whose language is `awk`, \
`sed` or `perl`. A plain `gh issue view $0` in a bash block is the intended placeholder and is not reported. \
The host's matching is followed even where a reader would not: `$0.01` in a price is `$0` and `.01`. The fix \
writes `\\$1`, which Claude Code keeps as a literal `$1`; it is not applied by `check --fix`, since the `$1` \
may be meant.",
    },
    RuleDoc {
        code: codes::SKILLMD_ARGUMENT_UNDECLARED,
        summary: "A `$name` placeholder names no argument the `arguments` field declares.",
        explanation: "Claude Code replaces `$name` only for a name `arguments` declares (in order: the first name \
is the argument at index 0); any other `$name` reaches the model as written. Reported in a skill that declares \
`arguments` and that Claude Code may load, for a lower-case `$name` in prose, or anywhere when it is one or \
two edits from a declared name (in code, `$HOME` or `$var` is most often the language's own). Declare the \
argument, or fix the name (the message offers the nearest declared one).",
    },
    RuleDoc {
        code: codes::SKILLMD_ARGUMENT_UNUSED,
        summary: "An argument declared in `arguments` is never used in the body.",
        explanation: "A declared argument the body never places (`$name`, `$N` or `$ARGUMENTS[N]` at its \
index, or `$ARGUMENTS`, which holds them all) is dropped: Claude Code appends the arguments as \
`ARGUMENTS: …` only when the body holds no `$ARGUMENTS`. A `$N` reported as shell or regex syntax \
(`skillmd.argument-in-code`) is not counted as a use, so escaping it brings no new report. Use it where it \
belongs, or remove it from `arguments`.",
    },
    RuleDoc {
        code: codes::SKILLMD_ARGUMENT_HINT_MISSING,
        summary: "The body uses arguments by index but the skill has no `argument-hint`.",
        explanation: "`$0`, `$1` or `$ARGUMENTS[N]` expect arguments in an order only the body knows; \
`argument-hint` (`[issue] [branch]`) is what Claude Code shows after `/name` in autocomplete. As information, \
on the first indexed placeholder; declaring `arguments` with names serves too.",
    },
];

/// Words on a line of code that make a `$N` the line's own (awk fields, regex groups, shell
/// positional parameters) rather than a placeholder.
const SHELL_OR_REGEX: &[&str] = &[
    "awk",
    "sed ",
    "sed -",
    "sed'",
    "perl",
    ".replace(",
    "replaceall(",
    "re.sub(",
    "gsub(",
    "preg_replace",
    "regex.replace",
    "$#",
    "$@",
    "shift",
    "local ",
    "() {",
    "function ",
    "getopts",
];

fn reads_as_shell_or_regex(text: &str, occurrence: &Occurrence) -> bool {
    if let Site::Fenced(language) = &occurrence.site {
        if matches!(language.as_str(), "awk" | "sed" | "perl" | "regex") {
            return true;
        }
    }
    let line = &text[occurrence.context.start as usize..occurrence.context.end as usize];
    let lower = line.to_ascii_lowercase();
    if SHELL_OR_REGEX.iter().any(|word| lower.contains(word)) {
        return true;
    }
    // `s/pattern/$1/`: a substitution command.
    lower.contains("s/") && lower.matches('/').count() >= 3
}

fn is_lower_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

pub fn check(scope: &SkillMdScope<'_>, out: &mut Vec<Diagnostic>) {
    let Some(start) = body_start(scope.text, &scope.skill.frontmatter) else {
        return;
    };
    let found = placeholders(scope.text, start);
    if !takes_arguments(scope.skill, &found) {
        return;
    }
    let hosts = super::skill_hosts::hosts_of(scope.lookup, scope.path);
    if !hosts.may_include(Host::ClaudeCode) {
        return;
    }
    let names = declared(scope.text, scope.skill);
    let declared_names: Vec<&str> = names.iter().map(|(n, _)| n.as_str()).collect();
    let mut used = vec![false; names.len()];
    let mut uses_all = false;
    let mut first_index: Option<TextRange> = None;
    // Declared names a misspelt placeholder is taken for: that one mistake is reported once,
    // on the placeholder, not again as an unused argument.
    let mut suggested: Vec<&str> = Vec::new();
    for occurrence in &found {
        let written = &scope.text[occurrence.range.start as usize..occurrence.range.end as usize];
        match &occurrence.placeholder {
            Placeholder::All => uses_all = true,
            Placeholder::Index { at, indexed } => {
                first_index.get_or_insert(occurrence.range);
                let accidental = !indexed
                    && occurrence.in_code()
                    && reads_as_shell_or_regex(scope.text, occurrence);
                // A placeholder reported as shell or regex syntax is no use of the argument: the
                // fix escapes it, and the argument it seemed to use must not turn up unused only
                // then.
                if !accidental {
                    if let Some(slot) = at.and_then(|at| used.get_mut(at as usize)) {
                        *slot = true;
                    }
                }
                if accidental {
                    let escaped = format!("\\{written}");
                    out.push(
                        Diagnostic::new(
                            codes::SKILLMD_ARGUMENT_IN_CODE,
                            scope.file,
                            occurrence.range,
                            format!(
                                "Claude Code replaces `{written}` here with an argument of `/{}` (it substitutes inside code too), but this line reads as shell or regex syntax; write `{escaped}` to keep `{written}` as it is",
                                scope.skill.normalized_name().unwrap_or_default()
                            ),
                        )
                        .with_fix(Fix::replace(
                            format!("Escape as `{escaped}`"),
                            scope.file,
                            occurrence.range,
                            escaped.clone(),
                        )),
                    );
                }
            }
            Placeholder::Named(name) => {
                if let Some(at) = declared_names.iter().position(|d| d == name) {
                    used[at] = true;
                    continue;
                }
                if names.is_empty() || !is_lower_name(name) {
                    continue;
                }
                let nearest = scope
                    .lookup
                    .may_suggest()
                    .then(|| super::suggest::closest(name, declared_names.iter().copied()))
                    .flatten();
                if occurrence.site != Site::Prose && nearest.is_none() {
                    continue;
                }
                let declared_list = declared_names
                    .iter()
                    .take(10)
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let mut message = format!(
                    "`{written}` is not an argument `arguments` declares ({declared_list}), so Claude Code leaves it as written"
                );
                let mut diagnostic_fix = None;
                match nearest {
                    Some(best) => {
                        suggested.push(best);
                        message.push_str(&format!("; did you mean `${best}`?"));
                        diagnostic_fix = Some(Fix::replace(
                            format!("Replace with `${best}`"),
                            scope.file,
                            occurrence.range,
                            format!("${best}"),
                        ));
                    }
                    None => message.push_str("; declare it in `arguments` or fix the name"),
                }
                let mut diagnostic = Diagnostic::new(
                    codes::SKILLMD_ARGUMENT_UNDECLARED,
                    scope.file,
                    occurrence.range,
                    message,
                );
                if let Some(fix) = diagnostic_fix {
                    diagnostic = diagnostic.with_fix(fix);
                }
                out.push(diagnostic);
            }
        }
    }
    if !uses_all {
        for ((name, range), used) in names.iter().zip(&used) {
            if !used && !suggested.contains(&name.as_str()) {
                out.push(Diagnostic::new(
                    codes::SKILLMD_ARGUMENT_UNUSED,
                    scope.file,
                    *range,
                    format!(
                        "the argument `{name}` is declared but the body never uses `${name}` (nor its index, nor `$ARGUMENTS`), so what is typed for it is dropped; use it in the body or remove it"
                    ),
                ));
            }
        }
    }
    if let Some(range) = first_index {
        if scope.skill.field("argument-hint").is_none() && names.is_empty() {
            out.push(Diagnostic::new(
                codes::SKILLMD_ARGUMENT_HINT_MISSING,
                scope.file,
                range,
                "the body takes arguments by index but the skill has no `argument-hint`, so `/name` shows nothing of what to type in which order; add one, e.g. `argument-hint: \"[issue] [branch]\"`",
            ));
        }
    }
}
