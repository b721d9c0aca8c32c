//! The SKILL.md body as the host reads it when the skill is chosen: its length against the
//! spec's and Anthropic's guidance (`model::hosts::BODY_TOKENS`, `BODY_LINES`), measured by
//! `model::skill_body`.

use super::rule_doc::RuleDoc;
use crate::diagnostic::{codes, Diagnostic, FileId};
use crate::graph::path::thousands;
use crate::model::hosts::{BODY_LINES, BODY_TOKENS};
use crate::model::skill_body::{BodyCost, CHARS_PER_TOKEN};
use crate::model::skill_links::body_start;
use crate::model::skill_md::SkillMd;

pub const RULES: &[RuleDoc] = &[RuleDoc {
    code: codes::SKILLMD_BODY_BUDGET,
    summary: "The SKILL.md body is longer than the spec's 5,000 tokens or the 500 lines the guidance recommends.",
    explanation: "A host reads the whole body into the model's context when it chooses the skill, and keeps \
it there while the skill runs. The Agent Skills specification recommends a body under 5,000 tokens \
(https://agentskills.io/specification, Progressive disclosure) and a SKILL.md under 500 lines, as do \
Anthropic's skill authoring best practices \
(https://docs.claude.com/en/docs/agents-and-tools/agent-skills/best-practices); checked 2026-12-04. \
Tokens are an estimate, one per four characters (no host's tokenizer is public; the message says it is an \
estimate), and lines are the body's lines after the frontmatter. The range is the first line past the \
budget that is passed first. Move detailed material (API references, long examples, schemas) into files \
under `references/` and link each from the body with a line saying when to read it; the model reads them \
only when it needs them. A `disable-next-line` comment cannot silence it (a line added above the first line \
past the budget moves that line down); where a long body is meant, turn the code off for those files with an \
`[[overrides]]` entry in `skillgraph.toml`.",
}];

/// `skillmd.body-budget`: one diagnostic however many budgets the body passes.
pub fn check(file: FileId, text: &str, skill: &SkillMd, out: &mut Vec<Diagnostic>) {
    let Some(start) = body_start(text, &skill.frontmatter) else {
        return;
    };
    let cost = BodyCost::of(text, start);
    let range = match (
        cost.over_lines().then_some(cost.past_lines).flatten(),
        cost.over_tokens().then_some(cost.past_tokens).flatten(),
    ) {
        (Some(lines), Some(tokens)) => {
            if lines.start <= tokens.start {
                lines
            } else {
                tokens
            }
        }
        (Some(range), None) | (None, Some(range)) => range,
        (None, None) => return,
    };
    let mut over = Vec::new();
    if cost.over_lines() {
        over.push(format!(
            "{} lines (guidance: at most {})",
            thousands(cost.lines),
            BODY_LINES.limit
        ));
    }
    if cost.over_tokens() {
        over.push(format!(
            "about {} tokens (estimated at {CHARS_PER_TOKEN} characters a token; spec: at most {})",
            thousands(cost.tokens()),
            thousands(BODY_TOKENS.limit)
        ));
    }
    out.push(Diagnostic::new(
        codes::SKILLMD_BODY_BUDGET,
        file,
        range,
        format!(
            "the body is {}, and the host reads all of it when the skill is chosen; move detailed material into files under `references/` and link each from the body, to be read only when needed",
            over.join(" and ")
        ),
    ));
}
