//! The log as the editor keeps it: the calls of the most recent (run, agent) pairs, in memory
//! and bounded, so that every rule's counts and replay can be computed again from them (as the
//! rules are edited, before they are saved) without reading the log again.
//!
//! Bounds: a pair keeps its first [`MAX_PAIR_CALLS`] calls (the replay needs a pair's calls from
//! its start); all pairs together keep at most [`MAX_KEPT`] calls and pairs (each pair counts
//! one, plus its calls), the pairs that ended last winning. What was left out is counted, so
//! the editor can say the figures cover the last runs only.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::sync::{Arc, Mutex};

use super::tally::Call;
use super::{AgentRules, AuditRow, Counts, Observed, Tally, WorkspaceRules};
use crate::diagnostic::FileId;

/// Most calls kept of one (run, agent) pair.
pub const MAX_PAIR_CALLS: usize = 2_000;
/// Most pairs and calls kept in all (about 200 bytes each: some 20 MB at most).
pub const MAX_KEPT: usize = 100_000;

/// One (run, agent) pair kept.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pair {
    run: String,
    agent: String,
    /// The first `topology_id` a row of the pair names.
    topology: Option<String>,
    /// The first and last timestamps of its rows.
    first: Option<String>,
    last: Option<String>,
    calls: Vec<Call>,
}

impl Pair {
    /// A pair with no row kept yet.
    fn new(run: &str, agent: &str) -> Self {
        Pair {
            run: run.to_owned(),
            agent: agent.to_owned(),
            topology: None,
            first: None,
            last: None,
            calls: Vec::new(),
        }
    }

    fn is(&self, run: &str, agent: &str) -> bool {
        self.run == run && self.agent == agent
    }

    fn cost(&self) -> usize {
        1 + self.calls.len()
    }
}

/// The recent pairs of one log, ready to be counted against any version of the rules.
#[derive(Debug, Default)]
pub struct Recording {
    pairs: Vec<Pair>,
    /// Pairs by (topology, agent), so that one agent's rules replay its pairs alone.
    by_agent: HashMap<(String, String), Vec<usize>>,
    /// Rows read (kept or not).
    pub rows: u64,
    /// Distinct runs among the pairs kept.
    pub runs: u64,
    /// The period of the pairs kept: their first and last timestamps.
    pub from: Option<String>,
    pub to: Option<String>,
    /// Pairs left out to stay within [`MAX_KEPT`], the ones that ended first.
    pub dropped_pairs: u64,
    /// Pairs whose calls past [`MAX_PAIR_CALLS`] were left out.
    pub cut_pairs: u64,
    /// The last agents' counts, by what their replay depends on ([`replay_key`]): a hover or
    /// a lens after an edit that left an agent's rules as they were replays nothing.
    replays: Mutex<Vec<Remembered>>,
}

/// One agent's counts, under the key of what its replay read.
type Remembered = (String, Arc<Vec<Counts>>);

/// Most agents whose counts are remembered.
const REMEMBERED: usize = 64;

impl Recording {
    /// The counts of `rules`, from the pairs kept: what `skillgraph audit` says of the same
    /// rows when nothing was left out (the unmatched refusals aside). Each agent replays its
    /// own pairs alone, so the cost is that of their calls.
    pub fn observe(&self, rules: &WorkspaceRules) -> Vec<Arc<Vec<Counts>>> {
        rules
            .agents
            .iter()
            .map(|agent| self.observe_agent(rules.workspace, agent))
            .collect()
    }

    /// The counts of one agent's rules (parallel to `agent.rules`).
    pub fn observe_agent(&self, workspace: FileId, agent: &AgentRules) -> Arc<Vec<Counts>> {
        let key = replay_key(agent);
        let remembered = |replays: &Mutex<Vec<Remembered>>| {
            let replays = replays.lock().unwrap_or_else(|p| p.into_inner());
            replays
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, counts)| counts.clone())
        };
        if let Some(counts) = remembered(&self.replays) {
            return counts;
        }
        let alone = WorkspaceRules {
            workspace,
            root: Default::default(),
            agents: vec![agent.clone()],
        };
        let mut tally = Tally::new(&alone);
        let pairs = self
            .by_agent
            .get(&(agent.topology.clone(), agent.agent.clone()))
            .map_or(&[][..], Vec::as_slice);
        for &p in pairs {
            let pair = &self.pairs[p];
            tally.push_pair(
                &pair.run,
                &pair.agent,
                pair.topology.as_deref(),
                &pair.calls,
            );
        }
        let mut observed: Observed = tally.finish();
        let counts = Arc::new(observed.counts.pop().unwrap_or_default());
        let mut replays = self.replays.lock().unwrap_or_else(|p| p.into_inner());
        if replays.len() >= REMEMBERED {
            replays.remove(0);
        }
        replays.push((key, counts.clone()));
        counts
    }

    /// Pairs kept.
    pub fn pairs(&self) -> usize {
        self.pairs.len()
    }

    /// Whether some rows of the log are not in the recording.
    pub fn is_partial(&self) -> bool {
        self.dropped_pairs > 0 || self.cut_pairs > 0
    }
}

/// Everything an agent's replay depends on, and nothing else (not where its rules are written,
/// which moves as text is typed above them): its names, its rules, the analysis of them and its
/// gateway names.
fn replay_key(agent: &AgentRules) -> String {
    let rules: Vec<(&str, &[String])> = agent
        .rules
        .iter()
        .map(|r| (r.guarded.as_str(), r.prerequisites.as_slice()))
        .collect();
    let mut gateway: Vec<(&String, &String)> = agent.gateway.iter().collect();
    gateway.sort();
    let graph = &agent.graph;
    format!(
        "{:?}",
        (
            &agent.topology,
            &agent.agent,
            rules,
            &graph.skills,
            &graph.graph.edges,
            &graph.types,
            gateway
        )
    )
}

/// Builds a [`Recording`] from rows grouped by (run, agent), in timestamp order.
#[derive(Default)]
pub struct Recorder {
    current: Option<Pair>,
    /// Pairs finished; `None` where one was dropped.
    kept: Vec<Option<Pair>>,
    /// The pairs kept by when they ended, the earliest on top.
    ends: BinaryHeap<Reverse<(Option<String>, usize)>>,
    cost: usize,
    rows: u64,
    dropped_pairs: u64,
    cut_pairs: u64,
    current_cut: bool,
}

impl Recorder {
    pub fn new() -> Recorder {
        Recorder::default()
    }

    /// One row. Rows without a run or an agent belong to no pair and are not kept.
    pub fn push(&mut self, row: &AuditRow<'_>) {
        self.rows += 1;
        let (Some(run), Some(agent)) = (row.run_id.as_deref(), row.agent_id.as_deref()) else {
            return;
        };
        if !self.current.as_ref().is_some_and(|p| p.is(run, agent)) {
            self.finish_pair();
            self.current = Some(Pair::new(run, agent));
            self.current_cut = false;
        }
        let pair = self.current.as_mut().expect("set above");
        if pair.topology.is_none() {
            pair.topology = row.topology_id.as_deref().map(str::to_owned);
        }
        if let Some(timestamp) = row.timestamp.as_deref() {
            if pair.first.is_none() {
                pair.first = Some(timestamp.to_owned());
            }
            match &mut pair.last {
                Some(last) if last.as_str() == timestamp => {}
                Some(last) => timestamp.clone_into(last),
                None => pair.last = Some(timestamp.to_owned()),
            }
        }
        let Some(call) = Call::of_row(row) else {
            return;
        };
        if pair.calls.len() < MAX_PAIR_CALLS {
            pair.calls.push(call);
        } else if !self.current_cut {
            self.current_cut = true;
            self.cut_pairs += 1;
        }
    }

    /// The recording, once every row is in.
    pub fn finish(mut self) -> Recording {
        self.finish_pair();
        let pairs: Vec<Pair> = self.kept.into_iter().flatten().collect();
        let mut by_agent: HashMap<(String, String), Vec<usize>> = HashMap::new();
        let mut runs: HashSet<&str> = HashSet::new();
        let (mut from, mut to): (Option<&str>, Option<&str>) = (None, None);
        for (i, pair) in pairs.iter().enumerate() {
            by_agent
                .entry((
                    pair.topology.clone().unwrap_or_default(),
                    pair.agent.clone(),
                ))
                .or_default()
                .push(i);
            runs.insert(&pair.run);
            if let Some(first) = pair.first.as_deref() {
                from = Some(from.map_or(first, |f| f.min(first)));
            }
            if let Some(last) = pair.last.as_deref() {
                to = Some(to.map_or(last, |t| t.max(last)));
            }
        }
        let runs = runs.len() as u64;
        let (from, to) = (from.map(str::to_owned), to.map(str::to_owned));
        Recording {
            pairs,
            by_agent,
            rows: self.rows,
            runs,
            from,
            to,
            dropped_pairs: self.dropped_pairs,
            cut_pairs: self.cut_pairs,
            replays: Mutex::new(Vec::new()),
        }
    }

    fn finish_pair(&mut self) {
        let Some(pair) = self.current.take() else {
            return;
        };
        self.cost += pair.cost();
        self.ends
            .push(Reverse((pair.last.clone(), self.kept.len())));
        self.kept.push(Some(pair));
        // The pairs that ended first make room (possibly the one just kept).
        while self.cost > MAX_KEPT {
            let Some(Reverse((_, oldest))) = self.ends.pop() else {
                break;
            };
            if let Some(dropped) = self.kept[oldest].take() {
                self.cost -= dropped.cost();
                self.dropped_pairs += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::super::notes_rows::{call, REFUSAL};
    use super::*;

    fn row<'a>(
        run: &'a str,
        timestamp: &'a str,
        skill: &'a str,
        decision: &'a str,
        reason: Option<&'a str>,
    ) -> AuditRow<'a> {
        let event_id = format!("{run}-{timestamp}");
        call(
            run,
            event_id,
            Cow::Borrowed(timestamp),
            skill,
            decision,
            reason,
            None,
        )
    }

    #[test]
    fn keeps_each_pair_with_its_period() {
        let mut recorder = Recorder::new();
        recorder.push(&row(
            "r1",
            "2026-12-01T10:00:00",
            "get-note",
            "deny",
            Some(REFUSAL),
        ));
        recorder.push(&row(
            "r1",
            "2026-12-01T10:00:01",
            "list-notes",
            "allow",
            None,
        ));
        recorder.push(&row("r2", "2026-12-02T09:00:00", "get-note", "allow", None));
        recorder.push(&AuditRow::default());
        let recording = recorder.finish();
        assert_eq!(recording.rows, 4);
        assert_eq!(recording.runs, 2);
        assert_eq!(recording.pairs(), 2);
        assert_eq!(recording.from.as_deref(), Some("2026-12-01T10:00:00"));
        assert_eq!(recording.to.as_deref(), Some("2026-12-02T09:00:00"));
        assert!(!recording.is_partial());
    }

    #[test]
    fn stays_within_its_bounds_keeping_the_pairs_that_ended_last() {
        let mut recorder = Recorder::new();
        // One pair far past the per-pair cap.
        for i in 0..MAX_PAIR_CALLS + 10 {
            recorder.push(&row(
                "big",
                &format!("2026-12-01T00:{i:06}"),
                "list-notes",
                "allow",
                None,
            ));
        }
        // Then more pairs than fit, newest last; sorted by run, not by time, as the log is read.
        let pairs = MAX_KEPT / 4;
        for p in 0..pairs {
            let run = format!("run-{p:06}");
            let day = if p % 2 == 0 {
                "2026-12-03"
            } else {
                "2026-12-02"
            };
            for c in 0..3 {
                recorder.push(&row(
                    &run,
                    &format!("{day}T00:{p:06}:{c}"),
                    "list-notes",
                    "allow",
                    None,
                ));
            }
        }
        let recording = recorder.finish();
        assert_eq!(recording.cut_pairs, 1);
        let kept: usize = recording.pairs.iter().map(Pair::cost).sum();
        assert!(kept <= MAX_KEPT, "{kept}");
        assert!(recording.dropped_pairs > 0);
        // The pairs of the earlier day went first, and the big pair before them.
        let days: HashSet<&str> = recording
            .pairs
            .iter()
            .map(|p| &p.last.as_deref().unwrap()[..10])
            .collect();
        assert!(!recording.pairs.iter().any(|p| p.run == "big"));
        assert!(days.contains("2026-12-03"));
        assert!(recording
            .pairs
            .iter()
            .all(|p| p.calls.len() <= MAX_PAIR_CALLS));
        assert!(recording.is_partial());
    }
}
