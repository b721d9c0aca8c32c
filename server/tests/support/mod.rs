//! Test support shared by the integration tests: rust-analyzer style fixtures, a one-call
//! `check`, and a minimal valid SwarmKit workspace that each test only amends.
//!
//! Fixtures are the crate's one format (`//- /path` starts a file, `$0` marks a cursor), parsed
//! by `skillgraph::testing`, which is re-exported here with its batch-versus-incremental
//! harness. Paths are virtual: the engine does no I/O.

// Each test binary uses a different subset of these helpers.
#![allow(dead_code, unused_imports)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use skillgraph::check::{check_changes, CheckOutcome};
use skillgraph::diagnostic::{Diagnostic, FileId};
use skillgraph::index::Index;
use skillgraph::syntax::TextRange;
pub use skillgraph::testing::{
    assert_any_order_equals_batch, batch_snapshot, changes, changes_of, index_of, parse,
    parse_fixture, render_fixture, shuffled, snapshot, trim_indent, FixtureFile, Found, Replay,
};

/// The root of the baseline workspace.
pub const WS: &str = "/ws";

/// Indexes a fixture in one batch.
pub fn run(fixture: &str) -> CheckOutcome {
    check_changes(changes(fixture), PathBuf::from("/"))
}

/// A path as shown in expectations: relative to the baseline root when under it.
pub fn show_path(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    match text.strip_prefix("/ws/") {
        Some(rest) => rest.to_owned(),
        None => text,
    }
}

/// The text a range covers, or a marker saying why it cannot be sliced (which is itself a bug).
pub fn slice(text: &str, start: u32, end: u32) -> String {
    let (start, end) = (start as usize, end as usize);
    if start > end || end > text.len() {
        return format!("<range {start}..{end} outside 0..{}>", text.len());
    }
    match text.get(start..end) {
        Some(s) => s.to_owned(),
        None => format!("<range {start}..{end} not on char boundaries>"),
    }
}

/// (path, ranged text) of a place in a file of `index`.
pub fn place(index: &Index, file: FileId, range: TextRange) -> (String, String) {
    let file = index.file(file).expect("a place in a known file");
    (
        show_path(&file.path),
        slice(&file.text, range.start, range.end),
    )
}

/// (path, code, ranged text) of one diagnostic.
pub fn describe(index: &Index, d: &Diagnostic) -> (String, &'static str, String) {
    let (path, text) = place(index, d.file, d.range);
    (path, d.code.name(), text)
}

/// Every diagnostic of a fixture as (path, code, ranged text), in path then position order.
pub fn check_all(fixture: &str) -> Vec<(String, &'static str, String)> {
    let outcome = run(fixture);
    outcome
        .diagnostics
        .iter()
        .map(|d| describe(&outcome.index, d))
        .collect()
}

/// Like [`check_all`], without the `schema.*` codes. The resolution tests build deliberately
/// odd artifacts (a number as a grant, a string as `requires:`); what the JSON Schemas say
/// about them is the schema module's business and is tested there.
pub fn check(fixture: &str) -> Vec<(String, &'static str, String)> {
    check_all(fixture)
        .into_iter()
        .filter(|(_, code, _)| !code.starts_with("schema."))
        .collect()
}

/// The full diagnostics (messages, related places) of one code, for tests that look beyond the
/// range.
pub fn diagnostics_of(fixture: &str, code: &str) -> (CheckOutcome, Vec<Diagnostic>) {
    let outcome = run(fixture);
    let found = outcome
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .cloned()
        .collect();
    (outcome, found)
}

/// The diagnostics of an outcome with the code `code`, in its order.
pub fn of_code<'a>(outcome: &'a CheckOutcome, code: &str) -> Vec<&'a Diagnostic> {
    outcome
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .collect()
}

/// The related places of a diagnostic as (path, ranged text, message).
pub fn related(index: &Index, d: &Diagnostic) -> Vec<(String, String, String)> {
    d.related
        .iter()
        .map(|r| {
            let (path, text) = place(index, r.file, r.range);
            (path, text, r.message.clone())
        })
        .collect()
}

/// Shorthand for building expectations.
pub fn d(path: &str, code: &'static str, text: &str) -> (String, &'static str, String) {
    (path.to_owned(), code, text.to_owned())
}

// ---------------------------------------------------------------------------------------------
// The baseline workspace and artifact builders.

/// A minimal valid workspace (also valid against the bundled JSON Schemas): one MCP server
/// `tools`; `mcp_tool` skills `fetch` and `store` on it; an `llm_prompt` skill `summarise`; an
/// archetype `worker` whose defaults are `[fetch, summarise]`; a topology `team` whose root
/// holds `store` and has one child `helper` built from `worker`.
pub const BASELINE: &str = include_str!("../fixtures/swarmkit/baseline.txt");

/// `//- /ws/workspace.yaml`: the baseline's manifest with `rest` (more top-level keys, written
/// at column 0) after its own.
pub fn manifest_with(rest: &str) -> String {
    let mut manifest = parse_fixture(BASELINE).remove(0);
    manifest.text.push_str(rest);
    render_fixture(&[manifest])
}

/// The baseline's file at `path` with its one `from` written as `to`, as a fixture file that
/// replaces it.
pub fn baseline_edited(path: &str, from: &str, to: &str) -> String {
    let mut file = parse_fixture(BASELINE)
        .into_iter()
        .find(|f| f.path == path)
        .unwrap_or_else(|| panic!("no {path} in the baseline"));
    assert_eq!(file.text.matches(from).count(), 1, "{from:?} in {path}");
    file.text = file.text.replace(from, to);
    render_fixture(&[file])
}

/// The baseline's manifest with a command pack `git` added (commands `log` and `push`), for the
/// skills `pack:git` grants.
pub fn manifest_with_git_log_and_push() -> String {
    manifest_with(
        "command_packs:\n  - id: git\n    commands:\n      - id: log\n        argv: [git, log]\n        effects: read\n      - id: push\n        argv: [git, push]\n",
    )
}

/// `//- /ws/funnels/review.yaml`: a funnel `review` approving `release:approve` for `lead`.
pub const FUNNEL_REVIEW: &str = r#"
//- /ws/funnels/review.yaml
apiVersion: swarmkit/v1
kind: Funnel
metadata:
  id: review
  name: Review
approve:
  rules:
    - scope: release:approve
      roles: [lead]
provenance:
  authored_by: human
  version: 1.0.0
"#;

/// `//- /ws/archetypes/finder.yaml`: an archetype `finder` whose one default skill is the
/// abstract grant of a capability skill named like `capability`.
pub fn abstract_archetype(capability: &str) -> String {
    archetype(
        "finder",
        &[&format!(
            "abstract: {{category: capability, capability: {capability}}}"
        )],
    )
}

/// The baseline with `overrides` applied: a file of `overrides` replaces the baseline file of
/// the same path, other files are added. Order: baseline files first, then new ones.
pub fn with_baseline(overrides: &str) -> String {
    amend(BASELINE, overrides, &[])
}

/// The baseline without the files at `removed` (full paths), then with `overrides`.
pub fn baseline_without(removed: &[&str], overrides: &str) -> String {
    amend(BASELINE, overrides, removed)
}

fn amend(base: &str, overrides: &str, removed: &[&str]) -> String {
    let mut files = parse_fixture(base);
    files.retain(|f| !removed.contains(&f.path.as_str()));
    let mut position: BTreeMap<String, usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.path.clone(), i))
        .collect();
    for file in parse_fixture(overrides) {
        match position.get(&file.path) {
            Some(&i) => files[i] = file,
            None => {
                position.insert(file.path.clone(), files.len());
                files.push(file);
            }
        }
    }
    render_fixture(&files)
}

/// `//- /ws/skills/<id>.yaml`: an `mcp_tool` skill on `server`.
pub fn mcp_skill(id: &str, server: &str) -> String {
    skill(
        id,
        "capability",
        &format!("  type: mcp_tool\n  server: {server}\n  tool: {id}\n"),
    )
}

/// `//- /ws/skills/<id>.yaml`: an `llm_prompt` skill.
pub fn llm_skill(id: &str) -> String {
    skill(
        id,
        "capability",
        "  type: llm_prompt\n  prompt: Do the thing.\n",
    )
}

/// `//- /ws/skills/<id>.yaml`: a `composed` skill running `parts`.
pub fn composed_skill(id: &str, parts: &[&str]) -> String {
    skill(
        id,
        "capability",
        &format!("  type: composed\n  composes: [{}]\n", parts.join(", ")),
    )
}

/// `//- /ws/skills/<id>.yaml` with the given category and `implementation:` body (indented by
/// two spaces, one field a line).
pub fn skill(id: &str, category: &str, implementation: &str) -> String {
    format!(
        "//- /ws/skills/{id}.yaml\n\
         apiVersion: swarmkit/v1\n\
         kind: Skill\n\
         metadata:\n  id: {id}\n  name: {id}\n  description: The {id} skill.\n\
         category: {category}\n\
         implementation:\n{implementation}\
         provenance:\n  authored_by: human\n  version: 1.0.0\n"
    )
}

/// `//- /ws/topologies/team.yaml` (replacing the baseline topology) whose `agents:` block is
/// `agents`, written at column 0 (it is indented here).
pub fn team(agents: &str) -> String {
    topology("team", agents)
}

/// `//- /ws/topologies/<name>.yaml` whose `agents:` block is `agents`, written at column 0.
pub fn topology(name: &str, agents: &str) -> String {
    let body = indented(agents, "  ");
    format!(
        "//- /ws/topologies/{name}.yaml\n\
         apiVersion: swarmkit/v1\n\
         kind: Topology\n\
         metadata:\n  name: {name}\n  version: 1.0.0\n\
         agents:\n{body}"
    )
}

/// `//- /ws/archetypes/<id>.yaml` whose `defaults.skills` lists `skills` (block style, one a line,
/// written verbatim after `- `).
pub fn archetype(id: &str, skills: &[&str]) -> String {
    let list: String = skills.iter().map(|s| format!("    - {s}\n")).collect();
    format!(
        "//- /ws/archetypes/{id}.yaml\n\
         apiVersion: swarmkit/v1\n\
         kind: Archetype\n\
         metadata:\n  id: {id}\n  name: {id}\n  description: The {id} archetype.\n\
         role: worker\n\
         defaults:\n  model:\n    provider: anthropic\n    name: claude-sonnet-4-6\n  prompt:\n    system: Work.\n  skills:\n{list}\
         provenance:\n  authored_by: human\n  version: 1.0.0\n"
    )
}

/// The root agent holding `store`, with `children` (a YAML list at column 0) below it. Most
/// agent tests need only the children to differ.
pub fn team_with_children(children: &str) -> String {
    let children = indented(children, "    ");
    team(&format!(
        "root:\n  id: root\n  role: root\n  skills: [store]\n  children:\n{children}"
    ))
}

/// The root agent holding `store`, with a worker child for each `(id, depends_on)`.
pub fn team_depending(children: &[(String, Vec<String>)]) -> String {
    let mut block =
        String::from("root:\n  id: root\n  role: root\n  skills: [store]\n  children:\n");
    for (id, depends_on) in children {
        block.push_str(&format!(
            "    - id: {id}\n      role: worker\n      depends_on: [{}]\n",
            depends_on.join(", ")
        ));
    }
    team(&block)
}

/// The MCP skills `s0` to `s{skills-1}` on the server `tools`, and `agents` worker children
/// `a0`, `a1`, … (a `children:` block for `team_with_children`): each is granted `grants` and
/// told that `s{i}` requires `s{i+1}`, with the further `requires:` lines `more(i)`.
pub fn chained_tools_skills(
    skills: usize,
    agents: usize,
    grants: &str,
    more: impl Fn(usize) -> String,
) -> (String, String) {
    let definitions = (0..skills)
        .map(|i| mcp_skill(&format!("s{i}"), "tools"))
        .collect();
    let mut children = String::new();
    for i in 0..agents {
        children.push_str(&format!(
            "- id: a{i}\n  role: worker\n  skills: [{grants}]\n  requires:\n    s{i}: [s{}]\n{}",
            i + 1,
            more(i)
        ));
    }
    (definitions, children)
}

/// `text` with its common indentation taken away, then `by` put before each line that is not
/// empty.
fn indented(text: &str, by: &str) -> String {
    let mut out = String::new();
    for line in trim_indent(text).lines() {
        if !line.is_empty() {
            out.push_str(by);
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}
