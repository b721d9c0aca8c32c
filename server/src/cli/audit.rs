//! `skillgraph audit`: each workspace's audit log read against its `requires:` rules, written as
//! JSON (a contract: add fields, never rename or remove one) or as a table per topology.

use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::json::{Position, Range};
use crate::audit::{written_rules, Counts, Observed, Tally, Unmatched, WorkspaceRules};
use crate::audit_log::{self, Location, SourceStats};
use crate::index::Index;
use crate::syntax::PositionEncoding;

/// Bumped only on a breaking change to the document's shape.
const VERSION: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AuditFormat {
    Human,
    Json,
}

/// One log read (or not).
pub struct Source {
    pub location: Location,
    /// `env`, `storage.audit`, `storage.runtime`, `default`, `[audit] log` or `--db`.
    pub decided_by: &'static str,
    pub read: Result<SourceStats, String>,
}

/// What `audit` found: per workspace, its rules, its log and the counts.
pub struct AuditRun {
    pub workspaces: Vec<(WorkspaceRules, Option<Source>, Observed)>,
    /// Workspaces whose log's place could not be decided.
    pub errors: Vec<String>,
}

impl AuditRun {
    /// Whether any log was read.
    pub fn any_read(&self) -> bool {
        self.workspaces
            .iter()
            .any(|(_, s, _)| s.as_ref().is_some_and(|s| s.read.is_ok()))
    }
}

/// Reads the log of every workspace with a topology under `roots` (or the log `db`), with the
/// environment `env` deciding where each is as it does for the runtime.
pub fn run(
    index: &Index,
    roots: &[PathBuf],
    db: Option<&Location>,
    since: Option<&str>,
    env: &dyn Fn(&str) -> Option<String>,
) -> AuditRun {
    let mut run = AuditRun {
        workspaces: Vec::new(),
        errors: Vec::new(),
    };
    for rules in written_rules(index, roots) {
        let manifest = index.file(rules.workspace).map(|f| &*f.text);
        let configured = crate::ide::observed::audit_settings(index, rules.workspace).log;
        let place = match (db, configured) {
            (Some(location), _) => Ok((location.clone(), "--db")),
            (None, Some((log, dir))) => {
                audit_log::location::configured(&log, &dir, env).map(|l| (l, "[audit] log"))
            }
            (None, None) => audit_log::resolve(&rules.root, manifest, env),
        };
        let (location, decided_by) = match place {
            Ok(place) => place,
            Err(error) => {
                run.errors
                    .push(format!("{}: {error}", rules.root.display()));
                let observed = Tally::new(&rules).finish();
                run.workspaces.push((rules, None, observed));
                continue;
            }
        };
        let mut tally = Tally::new(&rules);
        let read = audit_log::read(&location, since, &mut tally);
        // A log that failed half way counts nothing: its rows would give half the truth.
        let observed = match &read {
            Ok(_) => tally.finish(),
            Err(_) => Tally::new(&rules).finish(),
        };
        run.workspaces.push((
            rules,
            Some(Source {
                location,
                decided_by,
                read,
            }),
            observed,
        ));
    }
    run
}

/// Each rule's counts by (topology, agent, guarded skill), for the ordering graph's
/// `--observed` (the first rule of a name wins when two topology files share it).
pub fn observed_rules(
    run: &AuditRun,
) -> std::collections::HashMap<(String, String, String), crate::ide::ordering_graph::ObservedRule> {
    let mut out = std::collections::HashMap::new();
    for (rules, _, observed) in &run.workspaces {
        for (a, agent) in rules.agents.iter().enumerate() {
            for (r, rule) in agent.rules.iter().enumerate() {
                let c = &observed.counts[a][r];
                out.entry((
                    agent.topology.clone(),
                    agent.agent.clone(),
                    rule.guarded.clone(),
                ))
                .or_insert(crate::ide::ordering_graph::ObservedRule {
                    agent_runs: c.agent_runs,
                    runs: c.runs,
                    refused: c.refused,
                    recovered: c.recovered,
                    gave_up: c.gave_up,
                    would_refuse: c.replay.would_refuse,
                });
            }
        }
    }
    out
}

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    sources: Vec<JsonSource>,
    rules: Vec<JsonRule<'a>>,
    unmatched: Vec<&'a Unmatched>,
}

#[derive(Serialize)]
struct JsonSource {
    kind: &'static str,
    location: String,
    rows: u64,
    runs: u64,
    from: Option<String>,
    to: Option<String>,
}

#[derive(Serialize)]
struct JsonRule<'a> {
    /// Where the rule is and what it says; its counts follow.
    #[serde(flatten)]
    rule: Located<'a>,
    agent_runs: u64,
    runs: u64,
    calls: u64,
    refused: u64,
    recovered: u64,
    gave_up: u64,
    refused_after_prerequisites: u64,
    replay: JsonReplay<'a>,
}

#[derive(Serialize)]
struct JsonReplay<'a> {
    runs: u64,
    would_refuse: u64,
    examples: Vec<JsonExample<'a>>,
}

#[derive(Serialize)]
struct JsonExample<'a> {
    run: &'a str,
    event: &'a str,
    skill: &'a str,
    missing: &'a [String],
}

/// One rule with what was observed, located in its file.
#[derive(Serialize)]
struct Located<'a> {
    path: String,
    range: Range,
    topology: &'a str,
    agent: &'a str,
    skill: &'a str,
    prerequisites: &'a [String],
    #[serde(skip)]
    counts: &'a Counts,
}

fn located<'a>(
    index: &Index,
    run: &'a AuditRun,
    display_path: &dyn Fn(&Path) -> String,
) -> Vec<Located<'a>> {
    let mut out = Vec::new();
    for (rules, _, observed) in &run.workspaces {
        for (a, agent) in rules.agents.iter().enumerate() {
            let file = index.file(agent.file);
            for (r, rule) in agent.rules.iter().enumerate() {
                let (path, range) = match file {
                    Some(file) => {
                        let at = |offset| {
                            let lc = file.line_index().line_col(
                                &file.text,
                                offset,
                                PositionEncoding::Utf16,
                            );
                            Position {
                                line: lc.line,
                                character: lc.col,
                            }
                        };
                        (
                            display_path(&file.path),
                            Range {
                                start: at(rule.range.start),
                                end: at(rule.range.end),
                            },
                        )
                    }
                    None => (
                        String::new(),
                        Range {
                            start: Position {
                                line: 0,
                                character: 0,
                            },
                            end: Position {
                                line: 0,
                                character: 0,
                            },
                        },
                    ),
                };
                out.push(Located {
                    path,
                    range,
                    topology: &agent.topology,
                    agent: &agent.agent,
                    skill: &rule.guarded,
                    prerequisites: &rule.prerequisites,
                    counts: &observed.counts[a][r],
                });
            }
        }
    }
    out
}

fn sources(run: &AuditRun) -> Vec<(&Source, &SourceStats)> {
    run.workspaces
        .iter()
        .filter_map(|(_, s, _)| s.as_ref())
        .filter_map(|s| s.read.as_ref().ok().map(|stats| (s, stats)))
        .collect()
}

pub fn render_json(
    index: &Index,
    run: &AuditRun,
    display_path: &dyn Fn(&Path) -> String,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    let rules = located(index, run, display_path)
        .into_iter()
        .map(|rule| {
            let c = rule.counts;
            JsonRule {
                rule,
                agent_runs: c.agent_runs,
                runs: c.runs,
                calls: c.calls,
                refused: c.refused,
                recovered: c.recovered,
                gave_up: c.gave_up,
                refused_after_prerequisites: c.refused_after_prerequisites,
                replay: JsonReplay {
                    runs: c.replay.runs,
                    would_refuse: c.replay.would_refuse,
                    examples: c
                        .replay
                        .examples
                        .iter()
                        .map(|e| JsonExample {
                            run: &e.run,
                            event: &e.event,
                            skill: &e.skill,
                            missing: &e.missing,
                        })
                        .collect(),
                },
            }
        })
        .collect();
    let document = Document {
        version: VERSION,
        sources: sources(run)
            .into_iter()
            .map(|(s, stats)| JsonSource {
                kind: s.location.kind(),
                location: s.location.display(),
                rows: stats.rows,
                runs: stats.runs,
                from: stats.from.clone(),
                to: stats.to.clone(),
            })
            .collect(),
        rules,
        unmatched: run
            .workspaces
            .iter()
            .flat_map(|(_, _, o)| &o.unmatched)
            .collect(),
    };
    serde_json::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)
}

/// A table per topology, rules sorted by refusals (most first), never-reached rules marked.
pub fn render_human(
    index: &Index,
    run: &AuditRun,
    display_path: &dyn Fn(&Path) -> String,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    for (source, stats) in sources(run) {
        let period = match (&stats.from, &stats.to) {
            (Some(from), Some(to)) => format!(", {from} to {to}"),
            _ => String::new(),
        };
        writeln!(
            out,
            "log {} ({}): {} rows, {} runs{period}",
            source.location.display(),
            source.decided_by,
            stats.rows,
            stats.runs
        )?;
    }
    let rules = located(index, run, display_path);
    // Topologies in the order their rules come (path order), each a table.
    let mut topologies: Vec<(&str, &str)> = Vec::new();
    for l in &rules {
        if !topologies.contains(&(l.topology, l.path.as_str())) {
            topologies.push((l.topology, l.path.as_str()));
        }
    }
    const HEAD: [&str; 10] = [
        "agent",
        "rule",
        "runs",
        "calls",
        "refused",
        "recovered",
        "gave up",
        "after prereqs",
        "replay",
        "",
    ];
    for (topology, path) in topologies {
        let mut rows: Vec<&Located> = rules
            .iter()
            .filter(|l| l.topology == topology && l.path == path)
            .collect();
        rows.sort_by_key(|l| std::cmp::Reverse(l.counts.refused));
        writeln!(out, "\ntopology {topology} ({path})")?;
        let table: Vec<[String; 10]> = rows
            .iter()
            .map(|l| {
                let c = l.counts;
                let mark = if c.agent_runs == 0 {
                    "no runs of this agent".to_owned()
                } else if c.runs == 0 {
                    "never reached".to_owned()
                } else {
                    String::new()
                };
                [
                    l.agent.to_owned(),
                    format!("{} ← {}", l.skill, l.prerequisites.join(", ")),
                    format!("{}/{}", c.runs, c.agent_runs),
                    c.calls.to_string(),
                    c.refused.to_string(),
                    c.recovered.to_string(),
                    c.gave_up.to_string(),
                    c.refused_after_prerequisites.to_string(),
                    format!("{}/{} would refuse", c.replay.would_refuse, c.replay.runs),
                    mark,
                ]
            })
            .collect();
        let width = |i: usize| {
            table
                .iter()
                .map(|r| r[i].chars().count())
                .chain([HEAD[i].chars().count()])
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..10).map(width).collect();
        let line = |cells: &[String]| {
            let mut text = String::from(" ");
            for (i, cell) in cells.iter().enumerate() {
                text.push(' ');
                text.push_str(cell);
                if i + 1 < cells.len() {
                    let pad = widths[i].saturating_sub(cell.chars().count());
                    text.push_str(&" ".repeat(pad + 1));
                }
            }
            text.trim_end().to_owned()
        };
        let head: Vec<String> = HEAD.iter().map(|h| (*h).to_owned()).collect();
        writeln!(out, "{}", line(&head))?;
        for row in &table {
            writeln!(out, "{}", line(row))?;
        }
    }
    let unmatched: Vec<&Unmatched> = run
        .workspaces
        .iter()
        .flat_map(|(_, _, o)| &o.unmatched)
        .collect();
    if !unmatched.is_empty() {
        writeln!(out, "\nrefusals of rules no longer written:")?;
        for u in unmatched {
            writeln!(
                out,
                "  topology {}, agent {}, {}: refused {}",
                u.topology, u.agent, u.skill, u.refused
            )?;
        }
    }
    Ok(())
}
