//! The book's module map (docs/module-map.md) is generated from the modules themselves: one
//! line per source file of `server/src`, saying what it owns in the first sentence of its own
//! module documentation (`//!`), grouped by top-level module in the order of the layers. So the
//! map is as true as the code: a new file appears in it, a removed one leaves it, and a file
//! without module documentation fails the test. `UPDATE_DOCS=1 cargo test -p skillgraph --test
//! module_map` rewrites it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the server crate sits in the repository")
        .to_path_buf()
}

/// The top-level modules from the faces down, as the layers are drawn (server/tests/layers.rs
/// holds the rule; this is only the order the map reads in). A module not listed here is put
/// last, so a new one is still mapped.
const ORDER: &[&str] = &[
    "main",
    "lib",
    "check",
    "cli",
    "lsp",
    "mcp",
    "probe",
    "fuzzing",
    "fix",
    "discover",
    "audit_log",
    "ide",
    "rules",
    "testing",
    "audit",
    "semantics",
    "index",
    "model",
    "diagnostic",
    "syntax",
    "graph",
    "suggest",
];

/// Files that hold only tests or test helpers: they are not rooms a reader looks for.
fn is_test_file(relative: &str) -> bool {
    relative.ends_with("/tests.rs") || relative.ends_with("/test_support.rs")
}

/// The first sentence of the file's module documentation, on one line.
fn first_sentence(source: &str) -> Option<String> {
    let mut text = String::new();
    for line in source.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            if text.is_empty() && line.trim().is_empty() {
                continue;
            }
            break;
        };
        let doc = doc.trim();
        if doc.is_empty() {
            if text.is_empty() {
                continue;
            }
            break;
        }
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(doc);
    }
    if text.is_empty() {
        return None;
    }
    // A sentence ends at a full stop followed by a space and a capital, or at the end.
    let bytes = text.as_bytes();
    for (i, window) in bytes.windows(3).enumerate() {
        if window[0] == b'.' && window[1] == b' ' && window[2].is_ascii_uppercase() {
            return Some(text[..=i].to_owned());
        }
    }
    Some(text)
}

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut pending = vec![dir.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
}

/// The map's Markdown, and the files that have no module documentation.
fn render() -> (String, Vec<String>) {
    let src = root().join("server/src");
    let mut files = Vec::new();
    source_files(&src, &mut files);
    let mut by_module: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    let mut undocumented = Vec::new();
    for path in files {
        let relative = path
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if is_test_file(&relative) {
            continue;
        }
        let top = relative
            .split('/')
            .next()
            .unwrap()
            .trim_end_matches(".rs")
            .to_owned();
        let source = std::fs::read_to_string(&path).unwrap();
        match first_sentence(&source) {
            Some(sentence) => by_module.entry(top).or_default().push((relative, sentence)),
            None => undocumented.push(relative),
        }
    }
    let rank = |module: &str| {
        ORDER
            .iter()
            .position(|m| *m == module)
            .unwrap_or(ORDER.len())
    };
    let mut modules: Vec<(&String, &mut Vec<(String, String)>)> = by_module.iter_mut().collect();
    modules.sort_by_key(|(module, _)| (rank(module), (*module).clone()));
    let mut out = String::from(
        "# Module map\n\nEvery source file of the `skillgraph` crate (`server/src`), one line each, by top-level \
module from the faces (the commands and servers) down to the text layer, in the order of the \
[layers](architecture.md#layers). Each line is the first sentence of the file's own module \
documentation: the page is generated from the code (`server/tests/module_map.rs`), so it is as \
true as the code is.\n",
    );
    for (module, files) in modules {
        files.sort();
        let _ = write!(out, "\n## `{module}`\n\n");
        for (file, sentence) in files.iter() {
            let _ = writeln!(out, "- `{file}`: {sentence}");
        }
    }
    (out, undocumented)
}

#[test]
fn every_source_file_says_what_it_owns() {
    let (_, undocumented) = render();
    assert!(
        undocumented.is_empty(),
        "these files have no module documentation (`//!` at the top saying what the file owns): {undocumented:?}"
    );
}

#[test]
fn the_module_map_is_up_to_date() {
    let path = root().join("docs/module-map.md");
    let (expected, _) = render();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &expected).unwrap();
        return;
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/module-map.md is stale; run `UPDATE_DOCS=1 cargo test -p skillgraph --test module_map`"
    );
}
