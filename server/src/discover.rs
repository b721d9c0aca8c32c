//! Finding and reading the files to check, at the edge: the core never touches the disk. It
//! knows which files may be ours by their names, never what they mean.
//!
//! Walks each root with the `ignore` crate (honouring `.gitignore`), reads the files whose names
//! say they may be ours (`index::classify::OUR_FILES`: YAML files, `SKILL.md`, `skillgraph.toml`
//! and `.json` files), skips `index::classify::SKIPPED_DIRECTORIES` but not other
//! dot-directories (`.claude/skills` is where skills live), follows no symlink (so no loop and
//! nothing outside the root), and reads files in parallel. Every other file of a skill's folder
//! is handed in by name only (`Change::SkillFiles`), for the skill's links to resolve against.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::index::classify::{
    may_be_ours, CONFIG_FILE, MANIFEST_NAMES, SKILL_MD, SKIPPED_DIRECTORIES,
};
use crate::index::Change;
use crate::model::plugin_manifest::{layout_of_manifest, plugin_component, PluginLayout};

/// A file that could not be read.
#[derive(Debug)]
pub struct ReadError {
    pub path: PathBuf,
    pub error: std::io::Error,
}

/// Files under `roots` that may be ours, as index changes, sorted by path.
pub fn discover(roots: &[PathBuf]) -> (Vec<Change>, Vec<ReadError>) {
    let mut paths = walk(roots);
    // Every file walked, read or not, may be one a skill links to.
    let listings = skill_files_among(&paths, roots);
    let mut markdown = Vec::new();
    paths.retain(|path| {
        let ours = may_be_ours(path);
        if !ours && path.extension().is_some_and(|e| e == "md") {
            markdown.push(path.clone());
        }
        ours
    });
    let (mut changes, mut errors) = read_all(paths);
    // The Markdown a plugin's manifest claims: its subagents and commands.
    let layouts: std::collections::HashMap<PathBuf, PluginLayout> = changes
        .iter()
        .filter_map(|change| match change {
            Change::Set { path, text } | Change::SetDecoded { path, text, .. } => {
                layout_of_manifest(path, text)
            }
            _ => None,
        })
        .collect();
    if !layouts.is_empty() {
        markdown.retain(|path| plugin_component(path, |dir| layouts.get(dir)).is_some());
        let (more, failed) = read_all(markdown);
        changes.extend(more);
        errors.extend(failed);
    }
    let bundled: Vec<Change> = listings.iter().filter_map(bundled_of_listing).collect();
    changes.extend(listings);
    changes.extend(bundled);
    (changes, errors)
}

/// Every file under `roots`, sorted: the walk rules of the module's documentation.
fn walk(roots: &[PathBuf]) -> Vec<PathBuf> {
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
                    if entry.file_type().is_some_and(|t| t.is_file()) {
                        paths.lock().expect("no poisoning").push(entry.into_path());
                    }
                }
                ignore::WalkState::Continue
            })
        });
    }
    let mut paths = paths.into_inner().expect("no poisoning");
    {
        use rayon::slice::ParallelSliceMut;
        paths.par_sort_unstable_by(|a, b| path_order(a, b));
    }
    paths.dedup();
    paths
}

/// The order of `Path::cmp` (component by component) for the paths a walk yields, which are
/// normalised: no `.`, `..` or doubled separator inside. Such paths compare as their bytes with
/// the separator ranked below every other byte, which is several times cheaper than splitting
/// both paths into components on every comparison, as `Path::cmp` does. Other paths keep an
/// order that is total and deterministic, which is all their reports need.
pub fn path_order(a: &Path, b: &Path) -> std::cmp::Ordering {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let (a, b) = (a.as_os_str().as_bytes(), b.as_os_str().as_bytes());
        // A path holds no NUL byte on Unix, so 0 ranks the separator below everything else.
        let rank = |byte: u8| if byte == b'/' { 0 } else { byte };
        match a.iter().zip(b).position(|(x, y)| x != y) {
            Some(at) => rank(a[at]).cmp(&rank(b[at])),
            None => a.len().cmp(&b.len()),
        }
    }
    #[cfg(not(unix))]
    {
        a.cmp(b)
    }
}

/// The listing of every skill folder among `paths` (sorted; every file walked): for each
/// SKILL.md, the files in its folder and below, relative to it, up to the skill folders nested
/// in it, which have listings of their own: of a nested skill folder, the parent lists only its
/// `SKILL.md`. A path sorts right after its folder's, so each folder's files are one run, found
/// by binary search, and the runs of nested folders sit inside their parent's: a pass over the
/// runs in order hands each file to one listing, so the listings hold as many paths as were
/// walked however deep skills nest. A SKILL.md handed in as a root of its own has its folder
/// walked for it.
fn skill_files_among(paths: &[PathBuf], roots: &[PathBuf]) -> Vec<Change> {
    let mut out = Vec::new();
    // Each skill folder's run of `paths`: [start, end).
    let mut runs: Vec<(usize, usize, &Path)> = Vec::new();
    for path in paths {
        if path.file_name().is_none_or(|n| n != SKILL_MD) {
            continue;
        }
        let Some(dir) = path.parent() else { continue };
        if roots.contains(path) {
            out.push(skill_listing(dir));
            continue;
        }
        let start = paths.partition_point(|p| p.as_path() < dir);
        let end = start + paths[start..].partition_point(|p| p.starts_with(dir));
        runs.push((start, end, dir));
    }
    runs.sort_by_key(|&(start, end, _)| (start, std::cmp::Reverse(end)));
    // The runs nested right inside each run, found with a stack of the runs still open.
    let mut inner: Vec<Vec<usize>> = vec![Vec::new(); runs.len()];
    let mut open: Vec<usize> = Vec::new();
    for (i, &(start, end, _)) in runs.iter().enumerate() {
        while open.last().is_some_and(|&o| runs[o].1 <= start) {
            open.pop();
        }
        if let Some(&parent) = open.last() {
            if end <= runs[parent].1 {
                inner[parent].push(i);
            }
        }
        open.push(i);
    }
    for (i, &(start, end, dir)) in runs.iter().enumerate() {
        let relative = |p: &PathBuf| p.strip_prefix(dir).ok().map(Path::to_owned);
        let mut files = Vec::new();
        let mut at = start;
        for &nested in &inner[i] {
            let (nested_start, nested_end, nested_dir) = runs[nested];
            files.extend(paths[at..nested_start].iter().filter_map(relative));
            // The nested skill stands for its folder here.
            files.extend(relative(&nested_dir.join(SKILL_MD)));
            at = nested_end;
        }
        files.extend(paths[at..end].iter().filter_map(relative));
        out.push(Change::SkillFiles {
            dir: dir.to_owned(),
            files,
        });
    }
    out
}

/// What the files of a listed skill folder say (`Change::Bundled`): each file's size, and what
/// each Markdown file other than a `SKILL.md` holds (`model::bundled::scan_markdown`), read up to
/// the size cap; a file that cannot be read, or is over the cap, has no Markdown facts. Files are
/// stat'ed and read in parallel; symlinks are not in a listing (the walk follows none).
fn bundled_of_listing(listing: &Change) -> Option<Change> {
    use crate::model::bundled::{is_markdown, scan_markdown, Bundled, BundledFile};
    use rayon::prelude::*;
    let Change::SkillFiles { dir, files } = listing else {
        return None;
    };
    let mut bundled: Vec<BundledFile> = files
        .par_iter()
        .map(|relative| {
            let path = dir.join(relative);
            let bytes = std::fs::symlink_metadata(&path).map_or(0, |m| m.len());
            let host_read = crate::model::hosts::HOST_READ_FILES
                .iter()
                .any(|f| relative == Path::new(f.path));
            let readable = bytes <= crate::index::MAX_FILE_BYTES as u64
                && (host_read || is_markdown(relative))
                && relative.file_name().is_some_and(|n| n != SKILL_MD);
            let markdown = readable
                .then(|| read_regular(&path).ok())
                .flatten()
                .and_then(|change| match change {
                    Change::Set { text, .. } | Change::SetDecoded { text, .. } => {
                        Some(scan_markdown(&text))
                    }
                    _ => None,
                });
            BundledFile {
                path: relative.clone(),
                bytes,
                markdown,
            }
        })
        .collect();
    bundled.sort_by(|a, b| a.path.cmp(&b.path));
    Some(Change::Bundled {
        dir: dir.clone(),
        bundled: std::sync::Arc::new(Bundled { files: bundled }),
    })
}

/// The subagents and commands a plugin manifest's layout claims, read from disk (the language
/// server, when a `plugin.json` appears or changes): each place of the layout walked, as
/// discovery walks, keeping the Markdown files the layout claims that no row of
/// `index::classify::OUR_FILES` reads already.
pub fn plugin_components(manifest: &Path, text: &str) -> Vec<Change> {
    let Some((root, layout)) = layout_of_manifest(manifest, text) else {
        return Vec::new();
    };
    let places: Vec<PathBuf> = layout
        .agents
        .iter()
        .chain(&layout.commands)
        .filter(|place| place.exists())
        .cloned()
        .collect();
    let mut paths = walk(&places);
    paths.retain(|path| {
        !may_be_ours(path)
            && plugin_component(path, |dir| (dir == root).then_some(&layout)).is_some()
    });
    read_all(paths).0
}

/// Lists one skill folder afresh (the language server, when files appear, change or go in it),
/// as `skill_files_among` lists it, with what its files say.
pub fn skill_files(dir: &Path) -> Vec<Change> {
    let listing = skill_listing(dir);
    let bundled = bundled_of_listing(&listing);
    std::iter::once(listing).chain(bundled).collect()
}

fn skill_listing(dir: &Path) -> Change {
    let walked = walk(&[dir.to_owned()]);
    let listing = skill_files_among(&walked, &[])
        .into_iter()
        .find(|change| change.path() == dir);
    match listing {
        Some(listing) => listing,
        // No SKILL.md in it (any more): every file walked.
        None => Change::SkillFiles {
            dir: dir.to_owned(),
            files: walked
                .iter()
                .filter_map(|p| p.strip_prefix(dir).ok().map(Path::to_owned))
                .collect(),
        },
    }
}

/// Reads files in parallel on the available cores (rayon), keeping the input order.
fn read_all(paths: Vec<PathBuf>) -> (Vec<Change>, Vec<ReadError>) {
    use rayon::prelude::*;
    let results: Vec<Result<Change, ReadError>> = paths.par_iter().map(|p| read_one(p)).collect();
    let mut changes = Vec::with_capacity(paths.len());
    let mut errors = Vec::new();
    for result in results {
        match result {
            Ok(change) => changes.push(change),
            Err(error) => errors.push(error),
        }
    }
    (changes, errors)
}

/// What a file read starts with: most SwarmKit and SKILL.md files are a few KiB.
const READ_BUFFER_BYTES: usize = 16 * 1024;

/// Reads one file. Files over the cap are not read whole: the index only needs to know they
/// are too large.
pub fn read_one(path: &Path) -> Result<Change, ReadError> {
    let file = open_without_waiting(path).map_err(|error| ReadError {
        path: path.to_owned(),
        error,
    })?;
    read_opened(path, file)
}

/// Reads a file opened for it, up to one byte past the size cap.
fn read_opened(path: &Path, file: std::fs::File) -> Result<Change, ReadError> {
    use std::io::Read;
    let fail = |error| ReadError {
        path: path.to_owned(),
        error,
    };
    let cap = crate::index::MAX_FILE_BYTES as u64 + 1;
    // Room for a typical file up front, so it takes one read and one that sees the end: no
    // `statx` for its length (a tenth of the system calls of a large check), and no probing
    // reads that grow a small buffer (six reads for a 300-byte file). Larger files grow it.
    let mut bytes = Vec::with_capacity(READ_BUFFER_BYTES);
    // Past the cap, one byte more than it is all `from_bytes` needs to say so.
    file.take(cap).read_to_end(&mut bytes).map_err(fail)?;
    Ok(Change::from_bytes(path.to_owned(), &bytes))
}

/// Reads one path that nothing has vouched for (the language server's watched-file events,
/// documents closed in the editor): only a regular file is read. Anything else (a FIFO, a
/// socket, a device, a directory) is an error, as if the file were not there: the walker never
/// lists them either.
pub fn read_regular(path: &Path) -> Result<Change, ReadError> {
    let fail = |error| ReadError {
        path: path.to_owned(),
        error,
    };
    // Asked of the file opened, so what is read is what was looked at.
    let file = open_without_waiting(path).map_err(fail)?;
    if !file.metadata().map_err(fail)?.is_file() {
        return Err(fail(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        )));
    }
    read_opened(path, file)
}

/// Opens for reading without ever waiting: a FIFO put in a file's place between listing and
/// reading would otherwise block the open until a writer comes (forever). For a regular file
/// the flag changes nothing.
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// What the root rule needs to know about one directory.
#[derive(Clone, Copy, Debug, Default)]
pub struct DirFacts {
    /// Holds `workspace.yaml` (or `.yml`): a SwarmKit workspace root.
    pub workspace: bool,
    /// Holds `skillgraph.toml`.
    pub config: bool,
    /// Holds `.git`: a repository root.
    pub repository: bool,
    /// Holds a `SKILL.md`: a skill's own folder.
    pub skill: bool,
}

/// Host folders that hold skills, one skill per sub-folder: `.claude/skills`, `.agents/skills`,
/// `.github/skills`.
pub const HOST_SKILL_FOLDERS: [&str; 3] = [".claude", ".agents", ".github"];

fn is_host_skill_folder(dir: &Path) -> bool {
    dir.file_name().is_some_and(|n| n == "skills")
        && dir
            .parent()
            .and_then(Path::file_name)
            .and_then(|n| n.to_str())
            .is_some_and(|n| HOST_SKILL_FOLDERS.contains(&n))
}

/// The root to index for `path` (a file or a directory), so that what it says is checked with
/// the context it lives in; `None` when nothing encloses it. The rule, in order:
/// 1. the nearest directory at or above it holding `workspace.yaml` (a SwarmKit workspace);
/// 2. for skills (a `SKILL.md`, or a path at or below a folder holding one, or below a skill
///    root), the nearest skill root at or above it: a folder holding `skillgraph.toml`, a host
///    skills folder (`.claude/skills`, `.agents/skills`, `.github/skills`), else the repository
///    root (the nearest folder holding `.git`).
///
/// `facts` tells what a directory holds; the rule itself touches no disk. `is_dir` says whether
/// `path` names a directory.
pub fn enclosing_root(
    path: &Path,
    is_dir: bool,
    facts: &mut dyn FnMut(&Path) -> DirFacts,
) -> Option<PathBuf> {
    let start = if is_dir { Some(path) } else { path.parent() }?;
    let mut in_skill = !is_dir && path.file_name().is_some_and(|n| n == SKILL_MD);
    let mut repository = None;
    for dir in start.ancestors() {
        let here = facts(dir);
        if here.workspace {
            return Some(dir.to_owned());
        }
        in_skill |= here.skill;
        if here.config || is_host_skill_folder(dir) {
            // A skill root: the tree below it is checked together, skill or not.
            return Some(dir.to_owned());
        }
        if here.repository && repository.is_none() {
            repository = Some(dir.to_owned());
            if in_skill {
                break;
            }
        }
    }
    // Past the repository only a workspace or a skill root counts: a repository is the root of
    // a skill inside it, never of an unrelated folder.
    repository.filter(|_| in_skill)
}

/// Roots without duplicates and without roots inside other roots (they would be read twice).
pub fn outermost(mut roots: Vec<PathBuf>) -> Vec<PathBuf> {
    roots.sort();
    roots.dedup();
    let mut kept: Vec<PathBuf> = Vec::new();
    for root in roots {
        // Sorted: a root below a kept one comes after it.
        if !kept.iter().any(|k| root.starts_with(k)) {
            kept.push(root);
        }
    }
    kept
}

/// [`enclosing_root`] against the disk.
pub fn enclosing_root_on_disk(path: &Path) -> Option<PathBuf> {
    let is_dir = path.is_dir();
    enclosing_root(path, is_dir, &mut |dir| DirFacts {
        workspace: MANIFEST_NAMES.iter().any(|name| dir.join(name).is_file()),
        config: dir.join(CONFIG_FILE).is_file(),
        repository: dir.join(".git").exists(),
        skill: dir.join(SKILL_MD).is_file(),
    })
}

/// The manifest of the SwarmKit workspace around `path` by the root rule (`workspace.yaml`,
/// else `workspace.yml`, of the root [`enclosing_root_on_disk`] finds), if that root is one.
pub fn enclosing_manifest_on_disk(path: &Path) -> Option<PathBuf> {
    let root = enclosing_root_on_disk(path)?;
    MANIFEST_NAMES
        .into_iter()
        .map(|name| root.join(name))
        .find(|manifest| manifest.is_file())
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn root(tree: &[(&str, DirFacts)], path: &str, is_dir: bool) -> Option<String> {
        let tree: HashMap<PathBuf, DirFacts> =
            tree.iter().map(|(p, f)| (PathBuf::from(p), *f)).collect();
        enclosing_root(Path::new(path), is_dir, &mut |dir| {
            tree.get(dir).copied().unwrap_or_default()
        })
        .map(|p| p.display().to_string())
    }

    #[test]
    fn path_order_is_the_component_order_of_walked_paths() {
        let names = [
            "/w",
            "/w/a",
            "/w/a/b",
            "/w/a.b",
            "/w/a-b",
            "/w/a/b/c",
            "/w/ab",
            "/w/a b",
            "/w/A",
            "/w/a/",
            "/w/é",
            "/w/z",
            "/w/a\\b",
            "/w/skills/x.yaml",
            "/w/skills.yaml",
            "/w/skills-2/x",
            "rel/a",
            "rel",
            "rel/a/b",
        ];
        for a in names {
            for b in names {
                let (a, b) = (Path::new(a), Path::new(b));
                if a.to_string_lossy().ends_with('/') || b.to_string_lossy().ends_with('/') {
                    // Not normalised (a walk never yields one): only totality is promised.
                    assert_eq!(path_order(a, b), path_order(b, a).reverse());
                    continue;
                }
                assert_eq!(path_order(a, b), a.cmp(b), "{a:?} vs {b:?}");
            }
        }
    }

    const WS: DirFacts = DirFacts {
        workspace: true,
        config: false,
        repository: false,
        skill: false,
    };
    const GIT: DirFacts = DirFacts {
        repository: true,
        ..WS_NONE
    };
    const SKILL: DirFacts = DirFacts {
        skill: true,
        ..WS_NONE
    };
    const CONFIG: DirFacts = DirFacts {
        config: true,
        ..WS_NONE
    };
    const WS_NONE: DirFacts = DirFacts {
        workspace: false,
        config: false,
        repository: false,
        skill: false,
    };

    #[test]
    fn a_file_or_folder_inside_a_workspace_is_rooted_at_the_workspace() {
        let tree = [("/r", GIT), ("/r/ws", WS)];
        let root_of = |p, d| root(&tree, p, d);
        assert_eq!(
            root_of("/r/ws/topologies/a.yaml", false).as_deref(),
            Some("/r/ws")
        );
        assert_eq!(root_of("/r/ws/topologies", true).as_deref(), Some("/r/ws"));
        assert_eq!(root_of("/r/ws", true).as_deref(), Some("/r/ws"));
        // Outside every workspace and skill: nothing encloses it.
        assert_eq!(root_of("/r/other/a.yaml", false), None);
        assert_eq!(root_of("/r/other", true), None);
    }

    #[test]
    fn skills_are_rooted_at_their_skill_root() {
        let tree = [
            ("/r", GIT),
            ("/r/testing/test-unit", SKILL),
            ("/c", CONFIG),
            ("/c/x/y", SKILL),
        ];
        let root_of = |p, d| root(&tree, p, d);
        // No marker but the repository.
        assert_eq!(
            root_of("/r/testing/test-unit/SKILL.md", false).as_deref(),
            Some("/r")
        );
        assert_eq!(root_of("/r/testing/test-unit", true).as_deref(), Some("/r"));
        assert_eq!(
            root_of("/r/testing/test-unit/scripts", true).as_deref(),
            Some("/r")
        );
        // skillgraph.toml wins over the repository.
        assert_eq!(root_of("/c/x/y/SKILL.md", false).as_deref(), Some("/c"));
        assert_eq!(root_of("/c/x", true).as_deref(), Some("/c"));
        // A host skills folder.
        assert_eq!(
            root_of("/home/u/p/.claude/skills/a/SKILL.md", false).as_deref(),
            Some("/home/u/p/.claude/skills")
        );
        assert_eq!(
            root_of("/home/u/p/.agents/skills/a", true).as_deref(),
            Some("/home/u/p/.agents/skills")
        );
        // A skill outside any repository or marker: nothing to widen to.
        assert_eq!(root(&[], "/t/a/SKILL.md", false), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_a_files_place_is_never_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("x.yaml");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path and a mode.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
        // With no writer, a blocking open would wait forever; both return at once.
        assert!(read_regular(&fifo).is_err(), "not a regular file");
        let _ = read_one(&fifo);
        assert!(read_regular(dir.path()).is_err(), "a directory is not read");
        let file = dir.path().join("y.yaml");
        std::fs::write(&file, "a: 1\n").unwrap();
        assert!(matches!(read_regular(&file), Ok(Change::Set { text, .. }) if &*text == "a: 1\n"));
    }

    #[test]
    fn nested_skills_are_listed_once_each_by_their_own_folder() {
        let mut paths: Vec<PathBuf> = [
            "/r/a/SKILL.md",
            "/r/a/notes.md",
            "/r/a/b/SKILL.md",
            "/r/a/b/ref.md",
            "/r/a/b/c/SKILL.md",
            "/r/a/b/c/deep/x.md",
            "/r/a/plain/y.md",
            "/r/a/z.md",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        paths.sort_by(|a, b| path_order(a, b));
        let listings: HashMap<PathBuf, Vec<String>> = skill_files_among(&paths, &[])
            .into_iter()
            .map(|change| match change {
                Change::SkillFiles { dir, files } => {
                    let mut files: Vec<String> =
                        files.iter().map(|f| f.display().to_string()).collect();
                    files.sort();
                    (dir, files)
                }
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(
            listings[Path::new("/r/a")],
            ["SKILL.md", "b/SKILL.md", "notes.md", "plain/y.md", "z.md"]
        );
        assert_eq!(
            listings[Path::new("/r/a/b")],
            ["SKILL.md", "c/SKILL.md", "ref.md"]
        );
        assert_eq!(listings[Path::new("/r/a/b/c")], ["SKILL.md", "deep/x.md"]);
        // A chain of 1,000 skills, each in the last: every path is listed at most twice (once
        // by its folder, once as the SKILL.md standing for a nested folder), not once per
        // ancestor.
        let mut deep = Vec::new();
        let mut dir = PathBuf::from("/r");
        for _ in 0..1_000 {
            dir.push("s");
            deep.push(dir.join("SKILL.md"));
            deep.push(dir.join("f.md"));
        }
        deep.sort_by(|a, b| path_order(a, b));
        let listed: usize = skill_files_among(&deep, &[])
            .iter()
            .map(|change| match change {
                Change::SkillFiles { files, .. } => files.len(),
                _ => 0,
            })
            .sum();
        assert_eq!(listed, 2 * 1_000 + 999);
    }
}
