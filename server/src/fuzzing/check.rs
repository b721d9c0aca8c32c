//! A whole `check` over a small generated tree: SwarmKit files, SKILL.md files and
//! `skillgraph.toml`s, as many as the input writes, checked in one batch as `skillgraph check`
//! checks them; then rendered in every output format, asked for its ordering graph, its files
//! asked about by the IDE features, and its safe fixes applied as `check --fix` applies them.
//!
//! Input: a lenient fixture (see the module above): `//- /ws/workspace.yaml` and so on.
//!
//! Properties: nothing panics; every range a diagnostic, a related location, a fix's edit or an
//! IDE answer names is a range of the file it names; `check --fix` ends, and what it leaves is
//! checked under the same properties.

use std::path::{Path, PathBuf};

use super::{assert_diagnostic_ranges, assert_ide_answers, probe_offsets, text_of, tree_files};
use crate::check::check_changes;
use crate::cli::{render, render_graph, Format, GraphFormat};
use crate::ide::ordering_graph::{build, Selection};
use crate::index::Change;

/// Files the IDE features are asked about (they cost more than the check).
const ASKED_FILES: usize = 6;

pub fn check(data: &[u8]) {
    let files = tree_files(&text_of(data));
    let paths: Vec<PathBuf> = files.iter().map(|(path, _)| path.clone()).collect();
    let changes = files
        .into_iter()
        .map(|(path, text)| Change::Set {
            path,
            text: text.into(),
        })
        .collect();
    let mut outcome = check_changes(changes, PathBuf::from("/"));
    for diagnostic in &outcome.diagnostics {
        assert_diagnostic_ranges(&outcome.index, diagnostic);
    }
    let report = outcome.report();
    for format in [Format::Human, Format::Json, Format::Sarif, Format::Github] {
        let mut out = Vec::new();
        render(format, &report, &mut out, true).expect("rendering into memory succeeds");
        if format == Format::Json {
            serde_json::from_slice::<serde_json::Value>(&out).expect("the JSON report is JSON");
        }
    }
    for path in paths.iter().take(ASKED_FILES) {
        let index = &outcome.index;
        if let Ok(graph) = build(index, &Selection::for_document(index, path, None)) {
            for format in [GraphFormat::Mermaid, GraphFormat::Dot, GraphFormat::Json] {
                render_graph(format, &graph);
            }
        }
        let Some(file) = index.file_id(Path::new(path)) else {
            continue;
        };
        let text = index.file(file).expect("the file is indexed").text.clone();
        assert_ide_answers(index, file, &probe_offsets(&text));
    }
    outcome.apply_safe_fixes();
    for file in outcome.index.files() {
        for diagnostic in outcome.index.diagnostics(file.id) {
            assert_diagnostic_ranges(&outcome.index, &diagnostic);
        }
    }
}
