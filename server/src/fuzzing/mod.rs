//! What each fuzz target does with its input and which property it holds the engine to, as
//! plain functions of bytes: the libFuzzer targets under `fuzz/` and the replay test
//! (`server/tests/fuzz_replay.rs`, on stable) call the same function, so a crash found by the
//! fuzzer replays in `cargo test`. A function returns normally or panics; a panic is a finding.
//!
//! Not part of the API. It sits above every layer, since a target may drive any of them.
//!
//! The targets that build several files read their input in the project's fixture format
//! (`testing`), leniently: a line `//- /path` starts a file, whatever the path (it is
//! normalised to an absolute path of at most [`MAX_DEPTH`] plain components), text before the
//! first such line is ignored, and at most [`MAX_FILES`] files are kept. The fixtures of the
//! test suite are thus seeds as they are.

mod check;
mod edits;
mod skill_md;
mod transport;
mod yaml;

use std::path::PathBuf;

pub use check::check;
pub use edits::edits;
pub use skill_md::skill_md;
pub use transport::transport;
pub use yaml::yaml;

use crate::diagnostic::Diagnostic;
use crate::index::Index;
use crate::syntax::TextRange;

/// A fuzz target: takes any bytes, and panics only on a defect.
pub type Target = fn(&[u8]);

/// The fuzz targets by name (the names of `fuzz/fuzz_targets/*.rs` and of their corpus folders).
pub const TARGETS: &[(&str, Target)] = &[
    ("yaml", yaml),
    ("skill_md", skill_md),
    ("check", check),
    ("transport", transport),
    ("edits", edits),
];

/// Inputs longer than this are cut: a target explores shapes, not sizes (the worst cases of
/// size have tests and benchmarks of their own).
pub const MAX_INPUT: usize = 64 << 10;
/// Most files a generated tree holds.
pub const MAX_FILES: usize = 24;
/// Most components of a generated path.
pub const MAX_DEPTH: usize = 6;

/// The input as text: cut to [`MAX_INPUT`], bytes that are not UTF-8 replaced.
pub(crate) fn text_of(data: &[u8]) -> String {
    let data = &data[..data.len().min(MAX_INPUT)];
    String::from_utf8_lossy(data).into_owned()
}

/// A path of a generated tree: absolute, of plain components only, at most [`MAX_DEPTH`] of
/// them, each at most 64 bytes. `None` when nothing is left.
pub(crate) fn tree_path(written: &str) -> Option<PathBuf> {
    let parts: Vec<&str> = written
        .trim()
        .split(['/', '\\'])
        .filter(|part| !part.is_empty() && *part != "." && *part != "..")
        .filter(|part| part.len() <= 64 && !part.contains('\0'))
        .take(MAX_DEPTH)
        .collect();
    (!parts.is_empty()).then(|| PathBuf::from(format!("/{}", parts.join("/"))))
}

/// Sections of `text` introduced by lines that start with one of `markers`: (marker, rest of the
/// marker's line, the text up to the next marker line). Text before the first marker is dropped.
pub(crate) fn sections<'t>(
    text: &'t str,
    markers: &[&'static str],
) -> Vec<(&'static str, &'t str, String)> {
    let mut out: Vec<(&'static str, &'t str, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if let Some((marker, rest)) = markers
            .iter()
            .find_map(|m| line.strip_prefix(m).map(|rest| (*m, rest)))
        {
            out.push((marker, rest.trim_end_matches(['\n', '\r']), String::new()));
        } else if let Some((_, _, body)) = out.last_mut() {
            body.push_str(line);
        }
    }
    out
}

/// The files of a lenient fixture, in order, a later file of the same path replacing an earlier
/// one.
pub(crate) fn tree_files(text: &str) -> Vec<(PathBuf, String)> {
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    for (_, path, body) in sections(text, &["//- "]) {
        let Some(path) = tree_path(path) else {
            continue;
        };
        files.retain(|(p, _)| *p != path);
        if files.len() < MAX_FILES {
            files.push((path, body));
        }
    }
    files
}

/// Fails unless `range` is a range of `text` whose ends fall between characters.
#[track_caller]
pub(crate) fn assert_range_in(text: &str, range: TextRange, what: &dyn std::fmt::Display) {
    let (start, end) = (range.start as usize, range.end as usize);
    assert!(
        start <= end && end <= text.len(),
        "{what}: range {start}..{end} is not within the text of {} bytes",
        text.len()
    );
    assert!(
        text.is_char_boundary(start) && text.is_char_boundary(end),
        "{what}: range {start}..{end} cuts a character"
    );
}

/// Fails unless every range a diagnostic names (its own, its related locations', its fixes'
/// edits') is a range of the file it names, in `index`.
#[track_caller]
pub(crate) fn assert_diagnostic_ranges(index: &Index, diagnostic: &Diagnostic) {
    let text_of = |file| {
        index
            .file(file)
            .map(|entry| entry.text.clone())
            .unwrap_or_else(|| {
                panic!(
                    "{}: names a file the index does not hold",
                    diagnostic.code.name()
                )
            })
    };
    let code = diagnostic.code.name();
    assert_range_in(&text_of(diagnostic.file), diagnostic.range, &code);
    for related in &diagnostic.related {
        assert_range_in(
            &text_of(related.file),
            related.range,
            &format_args!("{code}, related"),
        );
    }
    for fix in &diagnostic.fixes {
        for edit in &fix.edits {
            assert_range_in(
                &text_of(edit.file),
                edit.range,
                &format_args!("{code}, fix `{}`", fix.title),
            );
        }
    }
}

/// Asks the IDE features about `file`, the whole file and a few `offsets` in it, and fails
/// unless every range an answer names is a range of the file it names. What the answers say is
/// not judged: each feature has tests of its own.
#[track_caller]
pub(crate) fn assert_ide_answers(index: &Index, file: crate::diagnostic::FileId, offsets: &[u32]) {
    let text = index.file(file).expect("the file is indexed").text.clone();
    let in_file = |other, range, what: &str| {
        let other = index
            .file(other)
            .unwrap_or_else(|| panic!("{what}: an unknown file"));
        assert_range_in(&other.text, range, &what);
    };
    let mut symbols = crate::ide::document_symbols(index, file);
    while let Some(symbol) = symbols.pop() {
        assert_range_in(&text, symbol.range, &"a symbol");
        assert_range_in(&text, symbol.selection_range, &"a symbol's name");
        symbols.extend(symbol.children);
    }
    for link in crate::ide::document_links(index, file) {
        assert_range_in(&text, link.range, &"a document link");
    }
    for lens in crate::ide::code_lenses(index, file) {
        assert_range_in(&text, lens.range, &"a code lens");
    }
    for hint in crate::ide::inlay_hints(index, file, TextRange::new(0, text.len() as u32)) {
        assert_range_in(&text, TextRange::empty(hint.offset), &"an inlay hint");
    }
    for &offset in offsets {
        let offset = offset.min(text.len() as u32);
        if let Some(hover) = crate::ide::hover(index, file, offset) {
            assert_range_in(&text, hover.range, &"a hover");
        }
        if let Some(completions) = crate::ide::completion(index, file, offset) {
            assert_range_in(&text, completions.range, &"a completion");
        }
        for (other, range) in crate::ide::definition(index, file, offset) {
            in_file(other, range, "a definition");
        }
        for (other, range) in crate::ide::references(index, file, offset, true) {
            in_file(other, range, "a reference");
        }
    }
}

/// A few offsets of `text` to ask about: spread over it, and after each of its first newlines
/// (where completion on an empty line is asked).
pub(crate) fn probe_offsets(text: &str) -> Vec<u32> {
    let mut offsets: Vec<u32> = (1..4).map(|n| (text.len() * n / 4) as u32).collect();
    offsets.extend(
        text.match_indices('\n')
            .take(3)
            .map(|(at, _)| at as u32 + 1),
    );
    offsets.push(text.len() as u32);
    // The server asks at positions, which fall between characters.
    for offset in &mut offsets {
        while !text.is_char_boundary(*offset as usize) {
            *offset -= 1;
        }
    }
    offsets.sort_unstable();
    offsets.dedup();
    offsets
}
