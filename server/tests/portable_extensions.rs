//! The extensions every host can load: `skillmd.extension-host` for each host the skill's
//! folder (or `[skill-md] hosts`) names, and the portable form (strings under `metadata`), which
//! reads exactly as the nested one: converting every fixture's extensions keeps what is read
//! and what is reported.

#[path = "support/found.rs"]
mod found;

use std::path::{Path, PathBuf};

use found::{check_changes_found as check, Found};
use skillgraph::diagnostic::Severity;
use skillgraph::fix::apply_edits;
use skillgraph::index::Change;
use skillgraph::model::skill_md::extensions::{Extensions, Predicate, Value};
use skillgraph::model::skill_md::SkillMd;

fn set(path: &str, text: &str) -> Change {
    Change::Set {
        path: PathBuf::from(path),
        text: text.into(),
    }
}

fn host_diagnostics(found: &[Found]) -> Vec<&Found> {
    found
        .iter()
        .filter(|f| f.code == "skillmd.extension-host")
        .collect()
}

const NESTED: &str = "---
name: refund
description: Refunds an order.
dependencies:
  tools:
    all: [get_order, issue_refund]
    any: [notify_email, notify_sms]
metadata:
  chain:
    - verify
    - notify
  async: true
  parallel_limit: 2
  precondition:
    - get_order(order_id=<id>)
    - {tool: get_refund_policy}
    - {state: {path: order.status, op: in, value: [open, '3', 4]}}
    - {state: {path: order.paid, op: eq, value: true}}
---
Refund the order.
";

const PORTABLE: &str = "---
name: refund
description: Refunds an order.
metadata:
  chain: \"verify, notify\"
  async: \"true\"
  parallel_limit: \"2\"
  precondition: \"get_order(order_id=<id>); tool: get_refund_policy; state: order.status in [open, '3', 4]; state: order.paid eq true\"
  dependencies: \"tools.all: get_order issue_refund; tools.any: notify_email notify_sms\"
---
Refund the order.
";

#[test]
fn each_host_that_refuses_or_warns_is_named_with_what_it_does() {
    // `.agents/skills`: Codex (refuses a top-level field) and Copilot (warns).
    let found = check(vec![set("/p/.agents/skills/refund/SKILL.md", NESTED)]);
    let host = host_diagnostics(&found);
    assert_eq!(host.len(), 1, "{found:#?}");
    assert_eq!(host[0].code, "skillmd.extension-host");
    assert_eq!(host[0].text, "dependencies");
    assert_eq!(host[0].severity, Severity::Warning);
    let message = &host[0].message;
    assert!(
        message.contains("Codex does not load the skill")
            && message.contains("mattpocock/skills/issues/360")
            && message.contains("VS Code/Copilot loads it with a warning")
            && message.contains("microsoft/vscode/issues/294520"),
        "{message}"
    );
    // The fix writes the portable form exactly.
    assert_eq!(host[0].fix.as_deref(), Some(PORTABLE));

    // `.github/skills`: only Copilot, which warns: information.
    let found = check(vec![set("/p/.github/skills/refund/SKILL.md", NESTED)]);
    let host = host_diagnostics(&found);
    assert_eq!(host.len(), 1, "{found:#?}");
    assert_eq!(host[0].severity, Severity::Info);
    assert!(!host[0].message.contains("Codex"));

    // Crush, named in `[skill-md] hosts`, drops a skill with a list under `metadata`.
    let found = check(vec![
        set("/p/skillgraph.toml", "[skill-md]\nhosts = [\"crush\"]\n"),
        set("/p/skills/refund/SKILL.md", NESTED),
    ]);
    let host = host_diagnostics(&found);
    assert_eq!(host.len(), 1, "{found:#?}");
    assert_eq!(host[0].text, "chain");
    assert!(
        host[0].message.contains("Crush does not load the skill")
            && host[0].message.contains("crush/issues/3331"),
        "{}",
        host[0].message
    );
}

#[test]
fn silent_for_the_portable_form_unknown_hosts_and_hosts_that_read_it() {
    for (path, text) in [
        ("/p/.agents/skills/refund/SKILL.md", PORTABLE),
        // No host is known for a skill outside the hosts' folders.
        ("/p/skills/refund/SKILL.md", NESTED),
        // Gemini CLI and OpenCode document no strict reading.
        ("/p/.gemini/skills/refund/SKILL.md", NESTED),
    ] {
        let found = check(vec![set(path, text)]);
        assert!(host_diagnostics(&found).is_empty(), "{path}: {found:#?}");
    }
}

#[test]
fn no_fix_where_the_rewrite_would_change_the_meaning() {
    // A chain entry that is a number reads as a string in the portable form.
    let text = NESTED.replace("    - notify\n", "    - 3\n");
    let found = check(vec![set("/p/.agents/skills/refund/SKILL.md", &text)]);
    let host = host_diagnostics(&found);
    assert_eq!(host.len(), 1);
    assert!(host[0].fix.is_none());
    // A quoted number as an option reads as a number beside a portable chain.
    let text = NESTED.replace("parallel_limit: 2", "parallel_limit: \"2\"");
    let found = check(vec![set("/p/.agents/skills/refund/SKILL.md", &text)]);
    assert!(host_diagnostics(&found)[0].fix.is_none());
}

// ---- Both readings agree ----

fn lower(text: &str) -> SkillMd {
    let frontmatter = skillgraph::syntax::split_frontmatter(text, 0);
    let yaml = skillgraph::syntax::frontmatter_yaml(text, &frontmatter);
    SkillMd::lower(text, frontmatter, yaml.as_ref())
}

fn value(v: &Value) -> String {
    format!("{:?}={:?}", v.shape, v.text)
}

fn values(vs: &[Value]) -> Vec<String> {
    vs.iter().map(value).collect()
}

fn predicate(p: &Predicate) -> String {
    match p {
        Predicate::Scalar(v) => value(v),
        Predicate::List { items, .. } => format!(
            "[{}]",
            items.iter().map(predicate).collect::<Vec<_>>().join("; ")
        ),
        Predicate::Mapping(map) => {
            let mut out = format!("keys={:?}", values(&map.keys));
            if let Some((_, tool)) = &map.tool {
                out.push_str(&format!(" tool={}", value(tool)));
            }
            if let Some((_, state)) = &map.state {
                out.push_str(&format!(
                    " state({:?} path={:?} op={:?} value={:?} items={:?})",
                    values(&state.keys),
                    state.path.as_ref().map(value),
                    state.op.as_ref().map(value),
                    state.compared.as_ref().map(|(_, v)| value(v)),
                    values(&state.compared_items)
                ));
            }
            out
        }
    }
}

/// What the analysis reads from the extensions, without where it is written. A precondition
/// list of one predicate and the predicate alone mean the same to the gate.
fn reading(extensions: &Extensions) -> String {
    let mut out = String::new();
    if let Some(chain) = &extensions.chain {
        let options: Vec<String> = chain
            .options
            .iter()
            .map(|o| format!("{}={}", o.option.key, value(&o.value)))
            .collect();
        let entries: Vec<&str> = chain.entries.iter().map(|e| e.value.as_str()).collect();
        out.push_str(&format!(
            "chain {:?} items={:?} entries={entries:?} options={options:?}\n",
            chain.value.shape,
            values(&chain.items)
        ));
    }
    if let Some(dependencies) = &extensions.dependencies {
        for kind in &dependencies.types {
            let lists: Vec<(String, Vec<String>)> = kind
                .lists()
                .into_iter()
                .map(|(group, items)| (group.to_owned(), values(items)))
                .collect();
            out.push_str(&format!(
                "dependency {} {:?} {lists:?}\n",
                value(&kind.key),
                kind.value.shape
            ));
        }
    }
    if let Some(precondition) = &extensions.precondition {
        let precondition = match precondition {
            Predicate::List { items, .. } if items.len() == 1 => &items[0],
            other => other,
        };
        out.push_str(&format!("precondition {}\n", predicate(precondition)));
    }
    if let Some(tool) = &extensions.action_tool {
        out.push_str(&format!("action_tool {}\n", value(tool)));
    }
    out
}

fn files_below(root: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_below(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Every file of a fixture tree, as the check reads it.
fn tree(root: &Path) -> Vec<(PathBuf, String)> {
    let mut paths = Vec::new();
    files_below(root, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| Some((p.clone(), std::fs::read_to_string(&p).ok()?)))
        .collect()
}

/// The diagnostics of `path` as (code, message), sorted, host diagnostics aside.
fn reported(files: &[(PathBuf, String)], path: &Path) -> Vec<(String, String)> {
    let changes = files
        .iter()
        .map(|(p, t)| Change::Set {
            path: p.clone(),
            text: t.clone().into(),
        })
        .collect();
    let mut out: Vec<(String, String)> = check(changes)
        .into_iter()
        .filter(|f| Path::new(&f.path) == path && f.code != "skillmd.extension-host")
        .map(|f| (f.code.to_owned(), f.message))
        .collect();
    out.sort();
    out
}

#[test]
fn every_fixture_converted_reads_and_reports_the_same() {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut converted = 0;
    for root in [
        repository.join("examples"),
        repository.join("server/tests/fixtures"),
    ] {
        let files = tree(&root);
        for (at, (path, text)) in files.iter().enumerate() {
            if path.file_name().and_then(|n| n.to_str()) != Some("SKILL.md") {
                continue;
            }
            let skill = lower(text);
            let Some(fix) = skillgraph::rules::portable::conversion(
                text,
                skillgraph::diagnostic::FileId(0),
                &skill,
            ) else {
                continue;
            };
            let portable = apply_edits(text, &fix.edits).unwrap();
            let again = lower(&portable);
            assert_eq!(
                reading(&skill.extensions),
                reading(&again.extensions),
                "{}:\n{portable}",
                path.display()
            );
            // Nothing nested is left to convert.
            assert!(
                skillgraph::rules::portable::conversion(
                    &portable,
                    skillgraph::diagnostic::FileId(0),
                    &again
                )
                .is_none(),
                "{}",
                path.display()
            );
            let mut rewritten = files.clone();
            rewritten[at].1 = portable.clone();
            assert_eq!(
                reported(&files, path),
                reported(&rewritten, path),
                "{}:\n{portable}",
                path.display()
            );
            converted += 1;
        }
    }
    assert!(converted >= 5, "only {converted} fixtures converted");
}

#[test]
fn the_example_round_trips() {
    let nested = lower(NESTED);
    let portable = lower(PORTABLE);
    assert_eq!(reading(&nested.extensions), reading(&portable.extensions));
    assert!(portable.extensions.chain.as_ref().unwrap().portable);
    assert!(portable.extensions.dependencies.as_ref().unwrap().portable);
}

#[test]
fn the_content_is_indexed_alike() {
    // The graph and definitions read the same entries: a chain to an unknown skill is reported
    // on the entry in both forms.
    for text in [NESTED, PORTABLE] {
        let found = check(vec![
            set("/p/skills/refund/SKILL.md", text),
            set(
                "/p/skills/verify/SKILL.md",
                "---\nname: verify\ndescription: V.\n---\nV.\n",
            ),
        ]);
        let unknown: Vec<&str> = found
            .iter()
            .filter(|f| f.code == "skillmd.chain-unknown-skill")
            .map(|f| f.text.as_str())
            .collect();
        assert_eq!(unknown, ["notify"], "{found:#?}");
    }
}

#[test]
fn check_fix_unsafe_fixes_writes_the_portable_form() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = dir.path().join(".agents/skills/refund");
    std::fs::create_dir_all(&skill_dir).unwrap();
    let file = skill_dir.join("SKILL.md");
    std::fs::write(&file, NESTED).unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_skillgraph"))
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    // A guess is not applied by `--fix` alone.
    run(&["check", "--fix", "."]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), NESTED);
    run(&["check", "--fix", "--unsafe-fixes", "."]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), PORTABLE);
    let output = run(&["check", "--format", "json", "."]);
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(!report.contains("skillmd.extension-host"), "{report}");
}
