//! The streaming count: rows go in grouped by (run, agent), in timestamp order; each pair's calls
//! are kept until the pair ends, then counted against the agent's rules and replayed through
//! them. Memory holds one pair's calls, the counts and the unmatched refusals, whatever the
//! number of rows.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::rows::{classify, Outcome};
use super::{AuditRow, Counts, Example, Observed, Unmatched, WorkspaceRules, MAX_EXAMPLES};

/// The counts of one workspace's rules, filled row by row.
pub struct Tally<'r> {
    rules: &'r WorkspaceRules,
    agents: HashMap<(&'r str, &'r str), Vec<usize>>,
    observed: Observed,
    unmatched: BTreeMap<(String, String, String), u64>,
    pair: Option<Pair>,
}

/// The (run, agent) pair being read.
struct Pair {
    run: String,
    agent: String,
    topology: Option<String>,
    calls: Vec<Call>,
}

struct Call {
    event: String,
    skill: String,
    outcome: Outcome,
}

impl<'r> Tally<'r> {
    pub fn new(rules: &'r WorkspaceRules) -> Self {
        let mut agents: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
        for (i, agent) in rules.agents.iter().enumerate() {
            agents
                .entry((agent.topology.as_str(), agent.agent.as_str()))
                .or_default()
                .push(i);
        }
        Tally {
            rules,
            agents,
            observed: Observed {
                counts: rules
                    .agents
                    .iter()
                    .map(|a| vec![Counts::default(); a.rules.len()])
                    .collect(),
                ..Observed::default()
            },
            unmatched: BTreeMap::new(),
            pair: None,
        }
    }

    /// One row. Rows of a pair must come together, in timestamp order.
    pub fn push(&mut self, row: &AuditRow<'_>) {
        let (Some(run), Some(agent)) = (row.run_id.as_deref(), row.agent_id.as_deref()) else {
            self.observed.rows_without_pair += 1;
            return;
        };
        let same = self
            .pair
            .as_ref()
            .is_some_and(|p| p.run == run && p.agent == agent);
        if !same {
            self.finish_pair();
            self.pair = Some(Pair {
                run: run.to_owned(),
                agent: agent.to_owned(),
                topology: None,
                calls: Vec::new(),
            });
        }
        let pair = self.pair.as_mut().expect("just set");
        if pair.topology.is_none() {
            pair.topology = row.topology_id.as_deref().map(str::to_owned);
        }
        if row.event_type.as_deref() != Some("skill.executed") {
            return;
        }
        let Some(skill) = row.skill_id.as_deref() else {
            return;
        };
        pair.calls.push(Call {
            event: row.event_id.as_deref().unwrap_or("").to_owned(),
            skill: skill.to_owned(),
            outcome: classify(
                row.policy_decision.as_deref(),
                row.policy_reason.as_deref(),
                row.result.as_deref(),
            ),
        });
    }

    /// The counts, once every row is in.
    pub fn finish(mut self) -> Observed {
        self.finish_pair();
        self.observed.unmatched = self
            .unmatched
            .into_iter()
            .map(|((topology, agent, skill), refused)| Unmatched {
                topology,
                agent,
                skill,
                refused,
            })
            .collect();
        self.observed
    }

    fn finish_pair(&mut self) {
        let Some(pair) = self.pair.take() else {
            return;
        };
        let topology = pair.topology.as_deref().unwrap_or("");
        let agents = self
            .agents
            .get(&(topology, pair.agent.as_str()))
            .cloned()
            .unwrap_or_default();
        if agents.is_empty() {
            // No rule of this agent is written now: its prerequisite refusals are unmatched.
            for call in &pair.calls {
                if let Outcome::Prerequisite { skill, .. } = &call.outcome {
                    *self
                        .unmatched
                        .entry((topology.to_owned(), pair.agent.clone(), skill.clone()))
                        .or_default() += 1;
                }
            }
            return;
        }
        // Two topology files of one name (different versions) both claim the pair; the
        // unmatched refusals are taken from the first.
        for (n, agent) in agents.into_iter().enumerate() {
            self.count_pair(agent, &pair, n == 0);
        }
    }

    fn count_pair(&mut self, agent: usize, pair: &Pair, report_unmatched: bool) {
        let all: &'r WorkspaceRules = self.rules;
        let rules = &all.agents[agent];
        let counts = &mut self.observed.counts[agent];
        let graph = &rules.graph;
        let n = rules.rules.len();
        let mut called = vec![false; n];
        let mut refused = vec![false; n];
        // Refused, and no allowed call of the guarded skill since.
        let mut pending = vec![false; n];
        let mut would_refuse = vec![false; n];
        // What the calls returned without error: the skills the runtime would have recorded,
        // had it recorded every type.
        let mut succeeded: HashSet<&str> = HashSet::new();
        // The replay's ledger: graph nodes the runtime records a successful call of.
        let mut ledger = vec![false; graph.skills.len()];
        for call in &pair.calls {
            let skill = match &call.outcome {
                Outcome::Prerequisite { skill, .. } => skill.as_str(),
                _ => rules.skill_of(&call.skill),
            };
            let rule = rules.rule_of(skill);
            if let Some(i) = rule {
                called[i] = true;
                counts[i].calls += 1;
            }
            match &call.outcome {
                Outcome::Prerequisite { missing, .. } => match rule {
                    Some(i) => {
                        counts[i].refused += 1;
                        refused[i] = true;
                        pending[i] = true;
                        if missing.iter().all(|m| succeeded.contains(m.as_str())) {
                            counts[i].refused_after_prerequisites += 1;
                        }
                    }
                    None if report_unmatched => {
                        *self
                            .unmatched
                            .entry((
                                rules.topology.clone(),
                                rules.agent.clone(),
                                skill.to_owned(),
                            ))
                            .or_default() += 1;
                    }
                    None => {}
                },
                Outcome::Other => {}
                Outcome::Allowed { error } => {
                    if let Some(i) = rule {
                        pending[i] = false;
                    }
                    let node = graph.index_of(skill);
                    let mut refused_now = false;
                    if let (Some(i), Some(node)) = (rule, node) {
                        // The runtime checks a rule only where its gate is (`is_gated`).
                        let gated = graph.types[node].is_none_or(|t| t.is_gated());
                        let missing: Vec<String> = graph.graph.edges[node]
                            .iter()
                            .filter(|&&p| !ledger[p])
                            .map(|&p| graph.skills[p].clone())
                            .collect();
                        if gated && !missing.is_empty() {
                            refused_now = true;
                            if !would_refuse[i] {
                                would_refuse[i] = true;
                                counts[i].replay.would_refuse += 1;
                                keep_example(
                                    &mut counts[i].replay.examples,
                                    Example {
                                        run: pair.run.clone(),
                                        event: call.event.clone(),
                                        skill: skill.to_owned(),
                                        missing,
                                    },
                                );
                            }
                        }
                    }
                    if !error {
                        succeeded.insert(skill);
                        // Only what the runtime records enters its ledger
                        // (`ImplementationType::records_calls`).
                        if let Some(node) = node.filter(|_| !refused_now) {
                            if graph.types[node].is_some_and(|t| t.records_calls()) {
                                ledger[node] = true;
                            }
                        }
                    }
                }
            }
        }
        for (i, c) in counts.iter_mut().enumerate() {
            c.agent_runs += 1;
            c.replay.runs += 1;
            c.runs += u64::from(called[i]);
            if refused[i] {
                if pending[i] {
                    c.gave_up += 1;
                } else {
                    c.recovered += 1;
                }
            }
        }
    }
}

/// Keeps the first [`MAX_EXAMPLES`] examples by (run, event), whatever order pairs come in.
fn keep_example(examples: &mut Vec<Example>, example: Example) {
    if examples.len() == MAX_EXAMPLES && examples.last().is_some_and(|last| *last <= example) {
        return;
    }
    let at = examples.partition_point(|e| *e <= example);
    examples.insert(at, example);
    examples.truncate(MAX_EXAMPLES);
}
