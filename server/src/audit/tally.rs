//! The streaming count: rows go in grouped by (run, agent), in timestamp order; each call is
//! counted against the agent's rules and replayed through them as it comes. Memory holds one
//! pair's state (a flag per rule, the skills it called successfully), the counts and the
//! unmatched refusals, whatever the number of rows.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::rows::{classify, Outcome};
use super::{
    AgentRules, AuditRow, Counts, Example, Observed, Unmatched, WorkspaceRules, MAX_EXAMPLES,
};

/// The counts of one workspace's rules, filled row by row.
pub struct Tally<'r> {
    rules: &'r WorkspaceRules,
    agents: HashMap<(&'r str, &'r str), Vec<usize>>,
    observed: Observed,
    unmatched: BTreeMap<(String, String, String), u64>,
    pair: Option<Pair<'r>>,
}

/// The (run, agent) pair being read.
struct Pair<'r> {
    run: String,
    agent: String,
    topology: Option<String>,
    /// Calls seen before the pair's topology was known (the runtime writes `topology_id` on
    /// every row, so normally none).
    waiting: Vec<Call>,
    /// Once the topology is known: the counting of each agent of that name's rules.
    counting: Vec<Counting<'r>>,
}

impl Pair<'_> {
    /// A pair with no row counted yet.
    fn new(run: &str, agent: &str) -> Self {
        Pair {
            run: run.to_owned(),
            agent: agent.to_owned(),
            topology: None,
            waiting: Vec::new(),
            counting: Vec::new(),
        }
    }

    fn is(&self, run: &str, agent: &str) -> bool {
        self.run == run && self.agent == agent
    }
}

/// One `skill.executed` row, classified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Call {
    pub(super) event: String,
    pub(super) skill: String,
    pub(super) outcome: Outcome,
}

impl Call {
    /// The call a row records, if it records one.
    pub(super) fn of_row(row: &AuditRow<'_>) -> Option<Call> {
        if row.event_type.as_deref() != Some("skill.executed") {
            return None;
        }
        Some(Call {
            event: row.event_id.as_deref().unwrap_or("").to_owned(),
            skill: row.skill_id.as_deref()?.to_owned(),
            outcome: classify(
                row.policy_decision.as_deref(),
                row.policy_reason.as_deref(),
                row.result.as_deref(),
            ),
        })
    }
}

/// One pair counted against one agent's rules, call by call.
struct Counting<'r> {
    agent: usize,
    rules: &'r AgentRules,
    /// The first agent of the name reports the pair's unmatched refusals.
    reports_unmatched: bool,
    called: Vec<bool>,
    refused: Vec<bool>,
    /// Refused, and no allowed call of the guarded skill since.
    pending: Vec<bool>,
    would_refuse: Vec<bool>,
    /// Skills whose calls returned without error: what the runtime would have recorded, had it
    /// recorded every type.
    succeeded: HashSet<String>,
    /// The replay's ledger: graph nodes the runtime records a successful call of.
    ledger: Vec<bool>,
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

    /// One row. Rows of a pair must come together, in timestamp order. A pair's calls are
    /// counted as they come; only calls before its topology is known wait.
    pub fn push(&mut self, row: &AuditRow<'_>) {
        let (Some(run), Some(agent)) = (row.run_id.as_deref(), row.agent_id.as_deref()) else {
            self.observed.rows_without_pair += 1;
            return;
        };
        if !self.pair.as_ref().is_some_and(|p| p.is(run, agent)) {
            self.finish_pair();
            self.pair = Some(Pair::new(run, agent));
        }
        if self.pair.as_ref().is_some_and(|p| p.topology.is_none()) {
            if let Some(topology) = row.topology_id.as_deref() {
                self.start_counting(topology);
            }
        }
        let Some(call) = Call::of_row(row) else {
            return;
        };
        let pair = self.pair.as_mut().expect("set above");
        if pair.topology.is_none() {
            pair.waiting.push(call);
        } else {
            self.count_call(&call);
        }
    }

    /// One whole (run, agent) pair, as the editor's recording kept it: its topology (the first
    /// a row of it named) and its calls in timestamp order.
    pub(super) fn push_pair(
        &mut self,
        run: &str,
        agent: &str,
        topology: Option<&str>,
        calls: &[Call],
    ) {
        self.finish_pair();
        self.pair = Some(Pair::new(run, agent));
        // As `finish_pair` does for a pair no row named the topology of.
        self.start_counting(topology.unwrap_or(""));
        for call in calls {
            self.count_call(call);
        }
        self.finish_pair();
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

    /// The pair's topology is known: its agents' rules are looked up, and the calls that
    /// waited are counted.
    fn start_counting(&mut self, topology: &str) {
        let all: &'r WorkspaceRules = self.rules;
        let pair = self.pair.as_mut().expect("a pair is open");
        pair.topology = Some(topology.to_owned());
        let agents = self
            .agents
            .get(&(topology, pair.agent.as_str()))
            .map_or(&[][..], Vec::as_slice);
        // Two topology files of one name (different versions) both claim the pair.
        pair.counting = agents
            .iter()
            .enumerate()
            .map(|(n, &agent)| {
                let rules = &all.agents[agent];
                let n_rules = rules.rules.len();
                Counting {
                    agent,
                    rules,
                    reports_unmatched: n == 0,
                    called: vec![false; n_rules],
                    refused: vec![false; n_rules],
                    pending: vec![false; n_rules],
                    would_refuse: vec![false; n_rules],
                    succeeded: HashSet::new(),
                    ledger: vec![false; rules.graph.skills.len()],
                }
            })
            .collect();
        for call in std::mem::take(&mut pair.waiting) {
            self.count_call(&call);
        }
    }

    fn count_call(&mut self, call: &Call) {
        let pair = self.pair.as_mut().expect("a pair is open");
        if pair.counting.is_empty() {
            // No rule of this agent is written now: its prerequisite refusals are unmatched.
            if let Outcome::Prerequisite { skill, .. } = &call.outcome {
                let topology = pair.topology.clone().unwrap_or_default();
                *self
                    .unmatched
                    .entry((topology, pair.agent.clone(), skill.clone()))
                    .or_default() += 1;
            }
            return;
        }
        for counting in &mut pair.counting {
            counting.call(
                call,
                &pair.run,
                &mut self.observed.counts[counting.agent],
                &mut self.unmatched,
            );
        }
    }

    fn finish_pair(&mut self) {
        let Some(mut pair) = self.pair.take() else {
            return;
        };
        if pair.topology.is_none() {
            // No row of the pair named its topology: it belongs to no rule's agent.
            pair.topology = Some(String::new());
            self.pair = Some(pair);
            let waiting = std::mem::take(&mut self.pair.as_mut().expect("just set").waiting);
            for call in &waiting {
                self.count_call(call);
            }
            pair = self.pair.take().expect("just set");
        }
        for counting in &pair.counting {
            counting.end(&mut self.observed.counts[counting.agent]);
        }
    }
}

impl Counting<'_> {
    fn call(
        &mut self,
        call: &Call,
        run: &str,
        counts: &mut [Counts],
        unmatched: &mut BTreeMap<(String, String, String), u64>,
    ) {
        let rules = self.rules;
        let graph = &rules.graph;
        let skill = match &call.outcome {
            Outcome::Prerequisite { skill, .. } => skill.as_str(),
            _ => rules.skill_of(&call.skill),
        };
        let rule = rules.rule_of(skill);
        if let Some(i) = rule {
            self.called[i] = true;
            counts[i].calls += 1;
        }
        match &call.outcome {
            Outcome::Prerequisite { missing, .. } => match rule {
                Some(i) => {
                    counts[i].refused += 1;
                    self.refused[i] = true;
                    self.pending[i] = true;
                    if missing.iter().all(|m| self.succeeded.contains(m)) {
                        counts[i].refused_after_prerequisites += 1;
                    }
                }
                None if self.reports_unmatched => {
                    *unmatched
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
                    self.pending[i] = false;
                }
                let node = graph.index_of(skill);
                let mut refused_now = false;
                if let (Some(i), Some(node)) = (rule, node) {
                    // The runtime checks a rule only where its gate is (`is_gated`).
                    let gated = graph.types[node].is_none_or(|t| t.is_gated());
                    let missing: Vec<String> = graph.graph.edges[node]
                        .iter()
                        .filter(|&&p| !self.ledger[p])
                        .map(|&p| graph.skills[p].clone())
                        .collect();
                    if gated && !missing.is_empty() {
                        refused_now = true;
                        if !self.would_refuse[i] {
                            self.would_refuse[i] = true;
                            counts[i].replay.would_refuse += 1;
                            keep_example(
                                &mut counts[i].replay.examples,
                                Example {
                                    run: run.to_owned(),
                                    event: call.event.clone(),
                                    skill: skill.to_owned(),
                                    missing,
                                },
                            );
                        }
                    }
                }
                if !error {
                    if !self.succeeded.contains(skill) {
                        self.succeeded.insert(skill.to_owned());
                    }
                    // Only what the runtime records enters its ledger
                    // (`ImplementationType::records_calls`).
                    if let Some(node) = node.filter(|_| !refused_now) {
                        if graph.types[node].is_some_and(|t| t.records_calls()) {
                            self.ledger[node] = true;
                        }
                    }
                }
            }
        }
    }

    fn end(&self, counts: &mut [Counts]) {
        for (i, c) in counts.iter_mut().enumerate() {
            c.agent_runs += 1;
            c.replay.runs += 1;
            c.runs += u64::from(self.called[i]);
            if self.refused[i] {
                if self.pending[i] {
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
