//! Finding and reading the files to check, at the edge: the core never touches the disk.
//!
//! Walks each root with the `ignore` crate (honouring `.gitignore`), keeps SwarmKit YAML files,
//! `SKILL.md` files, `skillgraph.toml` and `.json` files (tool lists), skips `.git`, `node_modules` and `target` but not other
//! dot-directories (`.claude/skills` is where skills live), follows no symlink (so no loop and
//! nothing outside the root), and reads files in parallel.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::index::classify::{is_json, is_yaml, SKIPPED_DIRECTORIES};
use crate::index::Change;

/// A file that could not be read.
#[derive(Debug)]
pub struct ReadError {
    pub path: PathBuf,
    pub error: std::io::Error,
}

/// Files under `roots` that may be ours, as index changes, sorted by path.
pub fn discover(roots: &[PathBuf]) -> (Vec<Change>, Vec<ReadError>) {
    let paths = Mutex::new(Vec::new());
    for root in roots {
        if root.is_file() {
            paths.lock().expect("no poisoning").push(root.clone());
            continue;
        }
        let walker = ignore::WalkBuilder::new(root)
            .hidden(false)
            .follow_links(false)
            .git_ignore(true)
            .git_global(false)
            .git_exclude(false)
            .require_git(false)
            .parents(true)
            .filter_entry(|entry| {
                let name = entry.file_name().to_string_lossy();
                !(entry.file_type().is_some_and(|t| t.is_dir())
                    && SKIPPED_DIRECTORIES.contains(&name.as_ref()))
            })
            .build_parallel();
        walker.run(|| {
            Box::new(|entry| {
                if let Ok(entry) = entry {
                    if entry.file_type().is_some_and(|t| t.is_file()) && may_be_ours(entry.path()) {
                        paths.lock().expect("no poisoning").push(entry.into_path());
                    }
                }
                ignore::WalkState::Continue
            })
        });
    }
    let mut paths = paths.into_inner().expect("no poisoning");
    paths.sort();
    paths.dedup();
    read_all(paths)
}

fn may_be_ours(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    // `.json` files may be saved MCP `tools/list` results a config names; which ones is only
    // known once the configs are read, so all are handed in and the index sorts them out.
    name == "SKILL.md" || name == "skillgraph.toml" || is_yaml(path) || is_json(path)
}

/// Reads files in parallel on the available cores, keeping the input order.
fn read_all(paths: Vec<PathBuf>) -> (Vec<Change>, Vec<ReadError>) {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8);
    let chunk = paths.len().div_ceil(threads).max(1);
    let results: Vec<Vec<Result<Change, ReadError>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = paths
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(|p| read_one(p)).collect()))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("reader thread"))
            .collect()
    });
    let mut changes = Vec::with_capacity(paths.len());
    let mut errors = Vec::new();
    for result in results.into_iter().flatten() {
        match result {
            Ok(change) => changes.push(change),
            Err(error) => errors.push(error),
        }
    }
    (changes, errors)
}

/// Reads one file. Files over the cap are not read whole: the index only needs to know they
/// are too large.
pub fn read_one(path: &Path) -> Result<Change, ReadError> {
    use std::io::Read;
    let fail = |error| ReadError {
        path: path.to_owned(),
        error,
    };
    let file = std::fs::File::open(path).map_err(fail)?;
    let mut bytes = Vec::new();
    let cap = crate::index::MAX_FILE_BYTES as u64 + 1;
    file.take(cap).read_to_end(&mut bytes).map_err(fail)?;
    let text = if bytes.len() as u64 >= cap {
        // Too large: hand in a placeholder of the right size class so the index reports it.
        " ".repeat(crate::index::MAX_FILE_BYTES + 1)
    } else {
        crate::syntax::decode(&bytes).text
    };
    Ok(Change::Set {
        path: path.to_owned(),
        text,
    })
}
