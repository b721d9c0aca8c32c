//! Rooms of a readable size: no source file of `server/src` holds more than [`MAX_LOGIC_LINES`]
//! lines of logic. A line of logic is a line holding code (a string's lines included) outside
//! comments and outside the test modules written inline (`#[cfg(test)] mod tests { … }`); a file
//! that is itself a test module (`#[cfg(test)] mod tests;` in its parent) does not count. A file
//! over the limit is split along a seam a reader would name, or its tests moved beside it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

#[path = "support/sources.rs"]
mod sources;
#[path = "support/tree.rs"]
mod tree;

/// The most lines of logic one source file may hold.
const MAX_LOGIC_LINES: usize = 800;

/// Per line of `text`: whether it holds code, and the depth of `{` nesting at its end. Strings,
/// characters and comments are read as the compiler reads them, so a brace in a message or a
/// comment is no brace.
fn scan(text: &str) -> Vec<(bool, usize)> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Code,
        LineComment,
        BlockComment(usize),
        Str,
        RawStr(usize),
    }
    let chars: Vec<char> = text.chars().collect();
    let mut lines = Vec::new();
    let mut state = State::Code;
    let mut depth = 0usize;
    let mut code = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            lines.push((code, depth));
            code = false;
            if state == State::LineComment {
                state = State::Code;
            }
            i += 1;
            continue;
        }
        match state {
            State::LineComment => {}
            State::BlockComment(level) => {
                if c == '*' && next == Some('/') {
                    state = if level == 1 {
                        State::Code
                    } else {
                        State::BlockComment(level - 1)
                    };
                    i += 1;
                } else if c == '/' && next == Some('*') {
                    state = State::BlockComment(level + 1);
                    i += 1;
                }
            }
            State::Str => {
                code |= !c.is_whitespace();
                if c == '\\' && next != Some('\n') {
                    i += 1;
                } else if c == '"' {
                    state = State::Code;
                }
            }
            State::RawStr(hashes) => {
                code |= !c.is_whitespace();
                if c == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
                    state = State::Code;
                    i += hashes;
                }
            }
            State::Code => {
                if c == '/' && next == Some('/') {
                    state = State::LineComment;
                    i += 1;
                } else if c == '/' && next == Some('*') {
                    state = State::BlockComment(1);
                    i += 1;
                } else {
                    code |= !c.is_whitespace();
                    let word = |at: usize| chars[at].is_alphanumeric() || chars[at] == '_';
                    // `r"…"`, `r#"…"#` and `br"…"` open raw strings; `for"` is no prefix.
                    let prefix = match i {
                        0 => true,
                        1 => !word(0) || chars[0] == 'b',
                        _ => !word(i - 1) || (chars[i - 1] == 'b' && !word(i - 2)),
                    };
                    match c {
                        '"' => state = State::Str,
                        'r' if prefix && matches!(next, Some('"' | '#')) => {
                            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
                            if chars.get(i + 1 + hashes) == Some(&'"') {
                                state = State::RawStr(hashes);
                                i += 1 + hashes;
                            }
                        }
                        '\'' => {
                            // A character (`'{'`, `'\''`), not a lifetime (`'a`).
                            if next == Some('\\') {
                                // `'\n'`, `'\''`, `'\u{1F600}'`: the closing quote is near.
                                let close = chars[i + 2..]
                                    .iter()
                                    .take(10)
                                    .skip(1)
                                    .position(|&q| q == '\'' || q == '\n');
                                if let Some(at) = close.filter(|&at| chars[i + 3 + at] == '\'') {
                                    i += at + 3;
                                }
                            } else if chars.get(i + 2) == Some(&'\'') {
                                i += 2;
                            }
                        }
                        '{' => depth += 1,
                        '}' => depth = depth.saturating_sub(1),
                        _ => {}
                    }
                }
            }
        }
        i += 1;
    }
    lines.push((code, depth));
    lines
}

/// Whether `line` opens a module written inline (`mod tests {`, `pub(crate) mod x {`).
fn opens_inline_module(line: &str) -> bool {
    sources::without_visibility(line.trim())
        .strip_prefix("mod ")
        .is_some_and(|rest| rest.trim_end().ends_with('{'))
}

/// The lines of logic of one file: its lines of code, less those of its inline test modules
/// (from their `#[cfg(test)]` to their closing brace).
fn logic_lines(text: &str) -> usize {
    let source: Vec<&str> = text.split('\n').collect();
    let scanned = scan(text);
    let mut count = 0;
    let mut at = 0;
    while at < source.len() {
        if source[at].trim() == "#[cfg(test)]" {
            let mut open = at + 1;
            while open < source.len() && source[open].trim_start().starts_with("#[") {
                open += 1;
            }
            if open < source.len() && opens_inline_module(source[open]) {
                let outside = if at == 0 { 0 } else { scanned[at - 1].1 };
                let mut end = open;
                while end + 1 < scanned.len() && scanned[end].1 > outside {
                    end += 1;
                }
                at = end + 1;
                continue;
            }
        }
        count += usize::from(scanned[at].0);
        at += 1;
    }
    count
}

/// The files its parent declares as a test module (`#[cfg(test)]` then `mod name;`).
fn test_files(files: &[(PathBuf, String)]) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    for (path, text) in files {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for pair in lines.windows(2) {
            let Some(name) = (pair[0] == "#[cfg(test)]")
                .then(|| pair[1].strip_prefix("mod ")?.strip_suffix(';'))
                .flatten()
            else {
                continue;
            };
            let folder = match path.file_stem().and_then(|s| s.to_str()) {
                Some("mod" | "lib" | "main") => path.parent().unwrap_or(Path::new("")).to_owned(),
                _ => path.with_extension(""),
            };
            out.insert(folder.join(format!("{name}.rs")));
            out.insert(folder.join(name).join("mod.rs"));
        }
    }
    out
}

/// Each file over the limit, with its count.
fn oversized(files: &[(PathBuf, String)], limit: usize) -> Vec<String> {
    let tests = test_files(files);
    files
        .iter()
        .filter(|(path, _)| !tests.contains(path))
        .filter_map(|(path, text)| {
            let lines = logic_lines(text);
            (lines > limit).then(|| {
                format!(
                    "{} holds {lines} lines of logic, over {limit}: split it along a seam a reader would name, or move its tests into a file beside it",
                    path.display()
                )
            })
        })
        .collect()
}

#[test]
fn no_source_file_is_over_the_limit() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files: Vec<(PathBuf, String)> = sources::source_files(&src).into_iter().collect();
    assert!(files.len() > 50, "found only {} source files", files.len());
    let problems = oversized(&files, MAX_LOGIC_LINES);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn comments_blank_lines_and_inline_tests_are_not_logic() {
    let text = r#"//! A module.

/* a block comment
   over two lines { */
fn f() -> char {
    let s = "a { brace in a string
      and its second line";
    let t = "continued \
      on the next line";
    // a comment }
    '{'
}

#[cfg(test)]
mod tests {
    fn g() -> &'static str {
        "}"
    }
}
fn h<'a>(x: &'a str) -> &'a str { x }
"#;
    // f's seven lines of code (the strings' second lines included), and h.
    assert_eq!(logic_lines(text), 8);
    assert_eq!(logic_lines("#[cfg(test)]\nmod tests;\n"), 2);
}

#[test]
fn a_file_over_the_limit_is_named_and_a_test_module_file_is_not() {
    let long = "fn f() {}\n".repeat(5);
    let files = vec![
        (PathBuf::from("a.rs"), long.clone()),
        (
            PathBuf::from("b.rs"),
            format!("fn f() {{}}\n#[cfg(test)]\nmod tests {{\n{long}}}\n"),
        ),
        (
            PathBuf::from("c/mod.rs"),
            "#[cfg(test)]\nmod tests;\n".to_owned(),
        ),
        (PathBuf::from("c/tests.rs"), long.clone()),
        (
            PathBuf::from("d.rs"),
            "#[cfg(test)]\nmod tests;\n".to_owned(),
        ),
        (PathBuf::from("d/tests.rs"), long),
    ];
    let found = oversized(&files, 4);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("a.rs holds 5 lines of logic, over 4"),
        "{}",
        found[0]
    );
}
