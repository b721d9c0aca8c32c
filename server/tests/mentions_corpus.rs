//! The mention scanner and the near-miss rule over real skill collections: the public SKILL.md
//! files of `../shared/corpus`, and any folders listed in `SKILLGRAPH_COLLECTIONS` (a whole
//! repository each: `anthropics/skills`, `obra/superpowers`, `wshobson/agents`, ...). The
//! near-miss rule must report nothing on the corpus; on the collections the test prints what it
//! would report, with the line, so each report can be judged by eye.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use skillgraph::model::mentions::{near_miss, scan};

/// Every Markdown file below `root`, in path order.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            if path
                .file_name()
                .is_some_and(|n| n == ".git" || n == "node_modules")
            {
                continue;
            }
            for entry in std::fs::read_dir(&path).into_iter().flatten().flatten() {
                stack.push(entry.path());
            }
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The names a collection defines: each SKILL.md's folder, and each command and agent file's
/// stem (what `/name` may invoke).
fn defined_names(files: &[PathBuf]) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for path in files {
        let folder = path.parent().and_then(Path::file_name);
        if path.file_name().is_some_and(|n| n == "SKILL.md") {
            if let Some(folder) = folder {
                names.insert(folder.to_string_lossy().into_owned());
            }
        } else if folder.is_some_and(|f| f == "commands" || f == "agents") {
            if let Some(stem) = path.file_stem() {
                names.insert(stem.to_string_lossy().into_owned());
            }
        }
    }
    names
}

struct Measured {
    files: usize,
    mentions: usize,
    resolved: usize,
    reports: Vec<String>,
}

fn measure(root: &Path) -> Measured {
    let files = markdown_files(root);
    let names = defined_names(&files);
    let mut measured = Measured {
        files: files.len(),
        mentions: 0,
        resolved: 0,
        reports: Vec::new(),
    };
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        for mention in scan(&text) {
            measured.mentions += 1;
            let name = mention.name(&text);
            if names.contains(name) {
                measured.resolved += 1;
                continue;
            }
            if let Some(plugin) = mention.plugin(&text) {
                // The plugin form resolves when the plugin is in the collection.
                if root.join("plugins").join(plugin).is_dir() || root.join(plugin).is_dir() {
                    continue;
                }
            }
            if let Some(skill) = near_miss(mention.plugin(&text), name, |n| names.contains(n)) {
                let line = text[..mention.range.start as usize].matches('\n').count() + 1;
                measured.reports.push(format!(
                    "{}:{line}: `{}` -> `{skill}`",
                    path.display(),
                    &text[mention.range.start as usize..mention.range.end as usize]
                ));
            }
        }
    }
    measured
}

#[test]
fn no_near_miss_is_reported_on_the_corpus() {
    // Where the shared corpus is not at hand, there is nothing to measure.
    if let Some(corpus) = skillgraph::testing::shared_path("corpus") {
        let measured = measure(&corpus);
        assert!(measured.files >= 190, "{} files", measured.files);
        assert!(measured.mentions > 0);
        assert_eq!(measured.reports, Vec::<String>::new());
    }
}

#[test]
fn collections_named_in_the_environment() {
    let Some(list) = std::env::var_os("SKILLGRAPH_COLLECTIONS") else {
        return;
    };
    for root in std::env::split_paths(&list) {
        let measured = measure(&root);
        println!(
            "{}: {} Markdown files, {} mentions, {} resolved by name, {} near misses",
            root.display(),
            measured.files,
            measured.mentions,
            measured.resolved,
            measured.reports.len()
        );
        for report in &measured.reports {
            println!("  {report}");
        }
    }
}
