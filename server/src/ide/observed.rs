//! SwarmKit's audit log on the `requires:` rules in the editor: the observed counts added to the
//! hover on a rule, and a one-line summary on each rule (a code lens). Both replay the recording
//! the edge keeps in memory ([`Recording`]) through the rules as the buffer has them now, so an
//! edit to a rule changes its replay figures at once, and nothing here reads the log.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::lens::{Lens, LensAction};
use crate::audit::{
    topology_root, topology_rules, AgentRules, Counts, Observed, Recording, WrittenRule,
};
use crate::diagnostic::FileId;
use crate::index::{Content, FileRole, Index};
use crate::model::config::AuditConfig;

/// One workspace's log as last read: how it is named (a path, or a URL without its password)
/// and the recording, or why it could not be read.
#[derive(Debug)]
pub struct ObservedLog {
    pub shown: String,
    pub read: Result<Recording, String>,
}

/// The logs last read, by workspace folder (the folder holding `workspace.yaml`).
pub type Logs = HashMap<PathBuf, Arc<ObservedLog>>;

/// What `[audit]` says for a workspace, every key decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditSettings {
    pub enabled: bool,
    /// The log named by a setting, and the folder a relative path in it is read from.
    pub log: Option<(String, PathBuf)>,
    pub lens: bool,
}

/// The `[audit]` settings of the workspace whose manifest is `workspace`: each key from the
/// `skillgraph.toml` nearest above the manifest when it sets it, else from the editor's
/// settings, else the default.
pub fn audit_settings(index: &Index, workspace: FileId) -> AuditSettings {
    let manifest = index.file(workspace);
    let root = manifest
        .and_then(|m| m.path.parent())
        .map(Path::to_owned)
        .unwrap_or_default();
    let file = manifest
        .and_then(|m| index.nearest_config_file(&m.path))
        .and_then(|entry| match &entry.parsed.content {
            Content::Config(config) => Some((
                &config.audit,
                entry.path.parent().map(Path::to_owned).unwrap_or_default(),
            )),
            _ => None,
        });
    let editor = index
        .settings
        .config
        .as_ref()
        .map(|c| (&c.audit, root.clone()));
    let layers: Vec<&(&AuditConfig, PathBuf)> = file.iter().chain(editor.iter()).collect();
    let pick = |get: &dyn Fn(&AuditConfig) -> Option<bool>| {
        layers.iter().find_map(|(c, _)| get(c)).unwrap_or(true)
    };
    AuditSettings {
        enabled: pick(&|c| c.enabled),
        log: layers
            .iter()
            .find_map(|(c, dir)| Some((c.log.clone()?, dir.clone()))),
        lens: pick(&|c| c.lens),
    }
}

/// The workspaces of the index (their manifests and folders), whose logs the editor reads.
pub fn workspaces(index: &Index) -> Vec<(FileId, PathBuf)> {
    let mut out: Vec<(FileId, PathBuf)> = index
        .files()
        .filter(|f| matches!(f.role, FileRole::WorkspaceManifest))
        .filter_map(|f| Some((f.id, f.path.parent()?.to_owned())))
        .collect();
    out.sort_by(|a, b| a.1.cmp(&b.1));
    out
}

/// The rule whose guarded skill's key is at `offset` in a topology, with its agent's rules and
/// its counts replayed from the workspace's log; then the text the hover adds.
pub fn hover(index: &Index, file: FileId, offset: u32, logs: &Logs) -> Option<String> {
    // Only a workspace whose log was read has anything to add; its rules are worked out then.
    let log = logs.get(&topology_root(index, file)?)?;
    let rules = topology_rules(index, file)?;
    let (a, r) = rules.agents.iter().enumerate().find_map(|(a, agent)| {
        let r = agent
            .rules
            .iter()
            .position(|rule| rule.range.contains_inclusive(offset))?;
        Some((a, r))
    })?;
    let agent = &rules.agents[a];
    let rule = &agent.rules[r];
    Some(match &log.read {
        Err(why) => format!("**Audit log**: {why}"),
        Ok(recording) => {
            // The runtime reads a repeated key's last value: the counts are that rule's.
            let counted = agent.rule_of(&rule.guarded).unwrap_or(r);
            let counts = recording.observe_agent(rules.workspace, agent);
            hover_text(agent, rule, &counts[counted], &log.shown, recording)
        }
    })
}

/// The one-line summary lens on each rule of a topology whose workspace's log was read (none
/// when `[audit] lens` is off).
pub fn lenses(index: &Index, file: FileId, logs: &Logs) -> Vec<Lens> {
    let Some(root) = topology_root(index, file) else {
        return Vec::new();
    };
    let Some(Ok(recording)) = logs.get(&root).map(|log| &log.read) else {
        return Vec::new();
    };
    let Some(rules) = topology_rules(index, file) else {
        return Vec::new();
    };
    if !audit_settings(index, rules.workspace).lens {
        return Vec::new();
    }
    let observed = recording.observe(&rules);
    let mut out = Vec::new();
    for (a, agent) in rules.agents.iter().enumerate() {
        for (r, rule) in agent.rules.iter().enumerate() {
            let counted = agent.rule_of(&rule.guarded).unwrap_or(r);
            out.push(Lens {
                range: rule.range,
                title: summary(&observed[a][counted]),
                action: LensAction::None,
            });
        }
    }
    out.sort_by_key(|l| l.range.start);
    out
}

/// The one-line summary of a rule: `refused 7 · recovered 4 · gave up 1`, `never reached in 12
/// runs`, and what the replay of the rule as written now says when it would refuse.
pub fn summary(counts: &Counts) -> String {
    Observed::summary(counts)
}

/// What the hover on a rule adds: the period and runs of the log, the rule's counts, and the
/// replay of the rule as written now.
pub fn hover_text(
    agent: &AgentRules,
    rule: &WrittenRule,
    counts: &Counts,
    shown: &str,
    recording: &Recording,
) -> String {
    let mut text = String::from("**Observed** in the audit log");
    let _ = write!(text, " (`{shown}`");
    match (&recording.from, &recording.to) {
        (Some(from), Some(to)) => {
            let _ = write!(text, ", {} to {}", short_time(from), short_time(to));
        }
        _ => text.push_str(", no rows"),
    }
    text.push_str("):\n\n");
    if counts.agent_runs == 0 {
        let _ = writeln!(
            text,
            "- no run of `{}` of `{}` is recorded: nothing to count or replay yet",
            agent.agent, agent.topology
        );
        return text;
    }
    let _ = writeln!(
        text,
        "- `{}` of `{}` ran in {}; it called `{}` in {} ({} {})",
        agent.agent,
        agent.topology,
        runs(counts.agent_runs),
        rule.guarded,
        runs(counts.runs),
        counts.calls,
        if counts.calls == 1 { "call" } else { "calls" },
    );
    if counts.agent_runs > 0 && counts.runs == 0 {
        text.push_str("- **never reached**: the gate was never tried\n");
    }
    let _ = writeln!(
        text,
        "- refused {} · recovered {} · gave up {}",
        counts.refused, counts.recovered, counts.gave_up
    );
    if counts.refused_after_prerequisites > 0 {
        let _ = writeln!(
            text,
            "- {} of the refusals came after every prerequisite had run: the runtime did not record it (see `agent.requires-unsatisfiable`)",
            counts.refused_after_prerequisites
        );
    }
    let _ = write!(
        text,
        "- replay of the rules as written now: would refuse in {} of {}",
        counts.replay.would_refuse,
        runs(counts.replay.runs)
    );
    if let Some(first) = counts.replay.examples.first() {
        let _ = write!(
            text,
            " (first: run `{}`, event `{}`, missing {})",
            first.run,
            first.event,
            first
                .missing
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    text.push('\n');
    if recording.is_partial() {
        let _ = write!(
            text,
            "\n_The last {} kept in memory: {} older (run, agent) pairs left out._\n",
            runs(recording.runs),
            recording.dropped_pairs + recording.cut_pairs
        );
    }
    text
}

/// `2026-12-04T20:31:07.774562+00:00` as `2026-12-04 20:31`.
fn short_time(timestamp: &str) -> String {
    match (timestamp.get(..10), timestamp.get(11..16)) {
        (Some(day), Some(time)) if timestamp.as_bytes().get(10) == Some(&b'T') => {
            format!("{day} {time}")
        }
        _ => timestamp.to_owned(),
    }
}

fn runs(n: u64) -> String {
    format!("{n} {}", if n == 1 { "run" } else { "runs" })
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;
    use crate::audit::notes_rows::{call, REFUSAL};
    use crate::audit::{Recorder, Replay};
    use crate::testing::index_of;

    /// The `recover` fixture's workspace (tests/fixtures/audit/recover), its topology's rules
    /// given.
    fn workspace(rules: &str) -> String {
        let skill = |id: &str, tool: &str, kind: &str| {
            let implementation = if kind == "mcp_tool" {
                format!("{{type: mcp_tool, server: notes, tool: {tool}}}")
            } else {
                "{type: llm_prompt, prompt: Summarise.}".to_owned()
            };
            format!(
                "//- /ws/skills/{id}.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata: {{id: {id}, name: {id}, description: A note tool.}}\ncategory: capability\nimplementation: {implementation}\nprovenance: {{authored_by: human, version: 1.0.0}}\n"
            )
        };
        format!(
            "//- /ws/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata: {{id: notes, name: Notes}}\nmcp_servers:\n  - id: notes\n    transport: stdio\n    command: [notes-mcp-server]\n\
             //- /ws/topologies/notes.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata: {{name: notes, version: 0.1.0}}\nagents:\n  root:\n    id: reader\n    role: root\n    model: {{provider: llama-server, name: reader}}\n    prompt: {{system: You read notes.}}\n    skills: [list-notes, get-note, note-stats, search-notes]\n    requires:\n{rules}\
             {}{}{}{}",
            skill("list-notes", "list_notes", "mcp_tool"),
            skill("get-note", "get_note", "mcp_tool"),
            skill("note-stats", "note_stats", "mcp_tool"),
            skill("search-notes", "search_notes", "mcp_tool"),
        )
    }

    /// The calls of the `recover` scenario's two runs, as the runtime logged them.
    fn recording() -> Recording {
        // (skill, policy_decision, policy_reason, result) per call, by run.
        type Row<'a> = (&'a str, &'a str, Option<&'a str>, Option<&'a str>);
        // Each run starts refused, and recovers once the listing succeeds.
        const REFUSED_GET: Row<'static> = ("get-note", "deny", Some(REFUSAL), None);
        const LISTED: Row<'static> = (
            "list-notes",
            "allow",
            None,
            Some("Available notes: N-1, N-2"),
        );
        let calls: &[(&str, &[Row<'_>])] = &[
            (
                "run-1",
                &[
                    REFUSED_GET,
                    LISTED,
                    ("get-note", "allow", None, Some("N-1: use the RF pattern")),
                ],
            ),
            (
                "run-2",
                &[
                    REFUSED_GET,
                    (
                        "list-notes",
                        "allow",
                        None,
                        Some("Error executing tool list_notes: listing notes failed"),
                    ),
                    REFUSED_GET,
                    LISTED,
                    ("get-note", "allow", None, Some("N-2: tag releases")),
                    ("note-stats", "allow", None, Some("4 words")),
                ],
            ),
        ];
        let mut recorder = Recorder::new();
        for (run, calls) in calls {
            for (i, &(skill, decision, reason, result)) in calls.iter().enumerate() {
                let timestamp = Cow::Owned(format!("2026-12-04T20:31:{i:02}.0+00:00"));
                let event_id = format!("{run}-e{i}");
                recorder.push(&call(
                    run, event_id, timestamp, skill, decision, reason, result,
                ));
            }
        }
        recorder.finish()
    }

    fn logs_of(recording: Recording) -> Logs {
        let mut logs = Logs::new();
        logs.insert(
            PathBuf::from("/ws"),
            Arc::new(ObservedLog {
                shown: "/ws/.swarmkit/audit.sqlite".to_owned(),
                read: Ok(recording),
            }),
        );
        logs
    }

    fn offset_of(index: &Index, needle: &str) -> (FileId, u32) {
        let file = index
            .file_id(Path::new("/ws/topologies/notes.yaml"))
            .unwrap();
        let text = &index.file(file).unwrap().text;
        (file, text.find(needle).unwrap() as u32 + 1)
    }

    const AS_RUN: &str = "      get-note: [list-notes]\n      note-stats: [get-note]\n";

    #[test]
    fn hover_on_a_rule_shows_the_counts_and_the_replay() {
        let index = index_of(&workspace(AS_RUN));
        let logs = logs_of(recording());
        let (file, at) = offset_of(&index, "get-note: [");
        let text = hover(&index, file, at, &logs).expect("a hover on the rule");
        expect_test::expect![[r#"
            **Observed** in the audit log (`/ws/.swarmkit/audit.sqlite`, 2026-12-04 20:31 to 2026-12-04 20:31):

            - `reader` of `notes` ran in 2 runs; it called `get-note` in 2 runs (5 calls)
            - refused 3 · recovered 2 · gave up 0
            - replay of the rules as written now: would refuse in 0 of 2 runs
        "#]]
        .assert_eq(&text);
        // Not on a rule: nothing added.
        let (file, at) = offset_of(&index, "skills: [");
        assert_eq!(hover(&index, file, at, &logs), None);
    }

    #[test]
    fn the_replay_follows_the_rules_as_edited() {
        // `note-stats` now needs `search-notes`, never called: the allowed call of run-2 would be
        // refused. `get-note` now needs `search-notes` too: both runs' allowed calls.
        let edited = "      get-note: [search-notes]\n      note-stats: [search-notes]\n";
        let logs = logs_of(recording());
        // The same recording answers for the rules as run first (its replays remembered), then
        // for the edited ones.
        let before = index_of(&workspace(AS_RUN));
        let (file, at) = offset_of(&before, "note-stats: [");
        let text = hover(&before, file, at, &logs).unwrap();
        assert!(text.contains("would refuse in 0 of 2 runs"), "{text}");
        let index = index_of(&workspace(edited));
        let (file, at) = offset_of(&index, "note-stats: [");
        let text = hover(&index, file, at, &logs).unwrap();
        assert!(
            text.contains("would refuse in 1 of 2 runs (first: run `run-2`, event `run-2-e5`, missing `search-notes`)"),
            "{text}"
        );
        let lenses = lenses(&index, file, &logs);
        let titles: Vec<&str> = lenses.iter().map(|l| l.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "called in 2 of 2 runs · refused 3 · recovered 2 · gave up 0 · as written now would refuse 2 runs",
                "called in 1 of 2 runs · refused 0 · as written now would refuse 1 run",
            ]
        );
    }

    #[test]
    fn the_summary_says_never_reached_and_the_lens_setting_turns_it_off() {
        let rules = "      get-note: [list-notes]\n      search-notes: [list-notes]\n";
        let index = index_of(&workspace(rules));
        let logs = logs_of(recording());
        let (file, _) = offset_of(&index, "search-notes: [");
        let titles: Vec<String> = lenses(&index, file, &logs)
            .into_iter()
            .map(|l| l.title)
            .collect();
        assert_eq!(
            titles,
            [
                "called in 2 of 2 runs · refused 3 · recovered 2 · gave up 0",
                "never reached in 2 runs",
            ]
        );
        let mut off = workspace(rules);
        off.push_str("//- /ws/skillgraph.toml\n[audit]\nlens = false\n");
        let index = index_of(&off);
        let (file, at) = offset_of(&index, "search-notes: [");
        assert!(lenses(&index, file, &logs).is_empty());
        // The hover stays.
        assert!(hover(&index, file, at, &logs)
            .unwrap()
            .contains("**never reached**"));
    }

    #[test]
    fn a_log_that_could_not_be_read_says_why_on_hover_and_shows_no_lens() {
        let index = index_of(&workspace(AS_RUN));
        let mut logs = Logs::new();
        logs.insert(
            PathBuf::from("/ws"),
            Arc::new(ObservedLog {
                shown: "/ws/.swarmkit/audit.sqlite".to_owned(),
                read: Err(
                    "/ws/.swarmkit/audit.sqlite: no audit log here (no runs recorded yet?)"
                        .to_owned(),
                ),
            }),
        );
        let (file, at) = offset_of(&index, "get-note: [");
        assert_eq!(
            hover(&index, file, at, &logs).as_deref(),
            Some("**Audit log**: /ws/.swarmkit/audit.sqlite: no audit log here (no runs recorded yet?)")
        );
        assert!(lenses(&index, file, &logs).is_empty());
        // A log with no run of the agent.
        let empty = logs_of(Recorder::new().finish());
        let text = hover(&index, file, at, &empty).unwrap();
        assert!(
            text.ends_with(", no rows):\n\n- no run of `reader` of `notes` is recorded: nothing to count or replay yet\n"),
            "{text}"
        );
        // No log for the workspace (the feature off): nothing at all.
        assert_eq!(hover(&index, file, at, &Logs::new()), None);
    }

    #[test]
    fn settings_come_from_the_file_then_the_editor() {
        let mut text = workspace(AS_RUN);
        text.push_str("//- /skillgraph.toml\n[audit]\nlog = \"logs/audit.sqlite\"\n");
        let mut index = index_of(&text);
        let manifest = index.file_id(Path::new("/ws/workspace.yaml")).unwrap();
        // The log stays the file's, relative to the file's folder; the editor may turn it off.
        let with_the_files_log = |enabled| AuditSettings {
            enabled,
            log: Some(("logs/audit.sqlite".to_owned(), PathBuf::from("/"))),
            lens: true,
        };
        assert_eq!(audit_settings(&index, manifest), with_the_files_log(true));
        let (editor, _) = crate::model::config::Config::parse(
            FileId(u32::MAX),
            "[audit]\nenabled = false\nlog = \"other.sqlite\"\n",
        );
        let mut settings = index.settings.clone();
        settings.config = Some(editor);
        index.set_settings(settings);
        assert_eq!(audit_settings(&index, manifest), with_the_files_log(false));
    }

    #[test]
    fn summary_and_hover_text_read_well() {
        let counts = Counts {
            agent_runs: 12,
            runs: 9,
            calls: 20,
            refused: 7,
            recovered: 4,
            gave_up: 1,
            refused_after_prerequisites: 0,
            replay: Replay {
                runs: 12,
                would_refuse: 0,
                examples: Vec::new(),
            },
        };
        assert_eq!(
            summary(&counts),
            "called in 9 of 12 runs · refused 7 · recovered 4 · gave up 1"
        );
        let never = Counts {
            agent_runs: 3,
            replay: Replay {
                runs: 3,
                ..Replay::default()
            },
            ..Counts::default()
        };
        assert_eq!(summary(&never), "never reached in 3 runs");
        assert_eq!(summary(&Counts::default()), "no runs recorded");
        assert_eq!(
            short_time("2026-12-04T20:31:07.77+00:00"),
            "2026-12-04 20:31"
        );
        assert_eq!(short_time("yesterday"), "yesterday");
    }
}
