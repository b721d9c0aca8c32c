//! The gate, observed: SwarmKit's audit log read back against the `requires:` rules written in
//! a workspace (`skillgraph audit`, the hover and inlay hints on a rule, the ordering graph's
//! `--observed` labels). It must not know where the log is or how it is stored: rows come in as
//! values, and the faces decide how a count is shown.
//!
//! This is the pure half: counts are a function of (rows, rules as written now). Reading the
//! log (SQLite or PostgreSQL, where the runtime puts it) is I/O at the edge, in `audit_log`,
//! which streams rows into a [`Tally`] grouped by (run, agent) in timestamp order. The editor
//! keeps the calls of the last runs instead ([`Recording`], bounded) and replays them through
//! the rules as the buffer has them, without reading the log again.
//!
//! What a row means is the runtime's (swarmkit-runtime 1.265.0, checked 2026-12-04):
//! - one `skill.executed` row per tool call (`_record_skill_executed`,
//!   `langgraph_compiler/_tool_loop.py`; `_Registration._audit`, `mcp/_gateway.py`);
//! - a prerequisite refusal carries the sentence `prerequisites.refusal` writes
//!   (`prerequisites.py`), in `policy_reason` on the model path and only in the payload's
//!   `outputs.result` on the harness path ([`rows`]);
//! - the ledger is per (run, agent) and holds the skills whose call returned without an MCP
//!   error result (`note_satisfied`, called from `execute_skill` in
//!   `langgraph_compiler/_skill_executor.py` and `governed_mcp_call` in `mcp/_governed.py`),
//!   which only `mcp_tool` skills reach: the project's own reading of that fact,
//!   `ImplementationType::records_calls`, decides the replay's ledger.

mod recording;
pub mod rows;
pub mod rules;
mod tally;

use std::borrow::Cow;

pub use recording::{Recorder, Recording, MAX_KEPT, MAX_PAIR_CALLS};
pub use rules::{
    topology_root, topology_rules, written_rules, AgentRules, WorkspaceRules, WrittenRule,
};
pub use tally::Tally;

/// Where the edge hands the rows it reads: the count of `skillgraph audit` ([`Tally`]) or the
/// editor's recording ([`Recorder`]). Rows of a (run, agent) pair come together, in timestamp
/// order.
pub trait Rows {
    fn push(&mut self, row: &AuditRow<'_>);
}

impl Rows for Tally<'_> {
    fn push(&mut self, row: &AuditRow<'_>) {
        Tally::push(self, row);
    }
}

impl Rows for Recorder {
    fn push(&mut self, row: &AuditRow<'_>) {
        Recorder::push(self, row);
    }
}

/// One row of `audit_events`, as the edge read it. Every field may be missing (NULL, or a column
/// of another type); a row without a run or an agent belongs to no (run, agent) pair and is
/// skipped.
#[derive(Clone, Debug, Default)]
pub struct AuditRow<'a> {
    pub event_id: Option<Cow<'a, str>>,
    pub event_type: Option<Cow<'a, str>>,
    pub run_id: Option<Cow<'a, str>>,
    pub agent_id: Option<Cow<'a, str>>,
    pub topology_id: Option<Cow<'a, str>>,
    pub skill_id: Option<Cow<'a, str>>,
    pub timestamp: Option<Cow<'a, str>>,
    pub policy_decision: Option<Cow<'a, str>>,
    pub policy_reason: Option<Cow<'a, str>>,
    /// The payload's `outputs.result` (see [`rows::result_of_payload`]).
    pub result: Option<Cow<'a, str>>,
}

/// Rows of the notes scenario (agent `reader` of topology `notes`, whose `get-note` requires
/// `list-notes`), for the tests of the count, the recording and the editor's observed facts.
#[cfg(test)]
pub(crate) mod notes_rows {
    use std::borrow::Cow;

    use super::AuditRow;

    /// What the runtime answers a `get-note` called before `list-notes`.
    pub(crate) const REFUSAL: &str = "get-note requires list-notes, which has not been called in this session. Call list-notes first, then retry.";

    /// A `skill.executed` row of the scenario's agent.
    pub(crate) fn call<'a>(
        run: &'a str,
        event_id: String,
        timestamp: Cow<'a, str>,
        skill: &'a str,
        decision: &'a str,
        reason: Option<&'a str>,
        result: Option<&'a str>,
    ) -> AuditRow<'a> {
        AuditRow {
            event_id: Some(Cow::Owned(event_id)),
            event_type: Some(Cow::Borrowed("skill.executed")),
            run_id: Some(Cow::Borrowed(run)),
            agent_id: Some(Cow::Borrowed("reader")),
            topology_id: Some(Cow::Borrowed("notes")),
            skill_id: Some(Cow::Borrowed(skill)),
            timestamp: Some(timestamp),
            policy_decision: Some(Cow::Borrowed(decision)),
            policy_reason: reason.map(Cow::Borrowed),
            result: result.map(Cow::Borrowed),
        }
    }
}

/// At most this many replay examples are kept per rule: the first calls by (run, event).
pub const MAX_EXAMPLES: usize = 10;

/// What the log says about one rule.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// (run, agent) pairs in which the rule's agent, in its topology, recorded any event.
    pub agent_runs: u64,
    /// Pairs in which it called the guarded skill.
    pub runs: u64,
    /// Calls of the guarded skill, allowed or refused.
    pub calls: u64,
    /// Prerequisite refusals of the guarded skill.
    pub refused: u64,
    /// Pairs whose last refusal was followed by an allowed call of the guarded skill.
    pub recovered: u64,
    /// Pairs whose last refusal had no allowed call of the guarded skill after it.
    pub gave_up: u64,
    /// Refusals naming as missing only skills that had an allowed, non-error call earlier in the
    /// pair: the runtime did not record them (an `llm_prompt` prerequisite, say).
    pub refused_after_prerequisites: u64,
    pub replay: Replay,
}

/// The agent's observed pairs run through the rules as written now.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replay {
    pub runs: u64,
    /// Pairs in which a call of the guarded skill that the runtime allowed would now be refused.
    pub would_refuse: u64,
    pub examples: Vec<Example>,
}

/// The first call of a pair that the rules as written now would refuse.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Example {
    pub run: String,
    pub event: String,
    pub skill: String,
    /// The prerequisites missing from the replayed ledger at that call.
    pub missing: Vec<String>,
}

/// Prerequisite refusals whose rule is no longer written.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Unmatched {
    pub topology: String,
    pub agent: String,
    pub skill: String,
    pub refused: u64,
}

/// The finished tally of one workspace: per rule (parallel to the rules of each
/// [`AgentRules`], agent by agent) and the refusals no rule claims.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observed {
    /// `counts[agent][rule]`.
    pub counts: Vec<Vec<Counts>>,
    pub unmatched: Vec<Unmatched>,
    /// Rows skipped because they name no run or no agent.
    pub rows_without_pair: u64,
}

impl Observed {
    /// The one-line summary shown on a rule in the editor: `refused 7 · recovered 4`, or
    /// `never reached in 12 runs`.
    pub fn summary(counts: &Counts) -> String {
        if counts.agent_runs == 0 {
            return "no runs recorded".to_owned();
        }
        if counts.runs == 0 {
            return format!("never reached in {}", runs(counts.agent_runs));
        }
        let mut parts = vec![
            format!("called in {} of {}", counts.runs, runs(counts.agent_runs)),
            format!("refused {}", counts.refused),
        ];
        if counts.refused > 0 {
            parts.push(format!("recovered {}", counts.recovered));
            parts.push(format!("gave up {}", counts.gave_up));
        }
        if counts.refused_after_prerequisites > 0 {
            parts.push(format!(
                "{} after its prerequisites ran",
                counts.refused_after_prerequisites
            ));
        }
        if counts.replay.would_refuse > 0 {
            parts.push(format!(
                "as written now would refuse {}",
                runs(counts.replay.would_refuse)
            ));
        }
        parts.join(" · ")
    }
}

fn runs(n: u64) -> String {
    format!("{n} {}", if n == 1 { "run" } else { "runs" })
}
