//! `--format human`: rustc/ruff-style reports for a terminal.
//!
//! ```text
//! error[yaml.duplicate-key]: `alpha` appears twice
//!  --> skills/a.yaml:2:18
//!   |
//! 2 | skills: ["😀 技能", alpha]
//!   |                     ^^^^^
//!   |
//!   = related: skills/b.yaml:4:5: first granted here
//! ```
//!
//! Line and column are 1-based, the column counted in characters (what editors' "go to line:col"
//! expects). The caret is placed by display width, so it stays under its text after wide (CJK,
//! emoji) characters; a tab is shown as four spaces, control characters as their visible symbols
//! (a file, or a file's name, cannot send escape sequences to the terminal), and a very long line is cut to a window
//! around the range. A range spanning lines is underlined to the end of its first line.

use std::borrow::Cow;
use std::io;

use unicode_width::UnicodeWidthChar;

use super::{Counts, Report, ReportFile, UNKNOWN_PATH};
use crate::diagnostic::{Diagnostic, Severity};
use crate::syntax::{PositionEncoding, TextRange};

/// Columns of source text shown before a long line is cut.
const MAX_SOURCE_WIDTH: usize = 120;
/// Columns kept before the range when a long line is cut.
const LEFT_CONTEXT: usize = 40;
const TAB: &str = "    ";
const ELLIPSIS: &str = "...";

pub(super) fn render(report: &Report, out: &mut dyn io::Write, color: bool) -> io::Result<()> {
    let paint = Paint(color);
    for diagnostic in &report.diagnostics {
        render_diagnostic(report, diagnostic, out, paint)?;
    }
    render_summary(report.counts(), report.files_checked, out, paint)
}

fn render_diagnostic(
    report: &Report,
    diagnostic: &Diagnostic,
    out: &mut dyn io::Write,
    paint: Paint,
) -> io::Result<()> {
    let style = severity_style(diagnostic.severity);
    writeln!(
        out,
        "{}{}",
        paint.apply(
            style,
            &format!("{}[{}]", diagnostic.severity.as_str(), diagnostic.code)
        ),
        paint.apply(BOLD, &format!(": {}", sanitize(&diagnostic.message))),
    )?;

    let snippet = report
        .file(diagnostic.file)
        .map(|file| (&file.display_path, Snippet::new(file, diagnostic.range)));
    let gutter = snippet
        .as_ref()
        .map_or(1, |(_, snippet)| snippet.line.to_string().len());
    let pad = " ".repeat(gutter);
    let bar = paint.apply(GUTTER, "|");
    let location = match &snippet {
        Some((path, snippet)) => format!("{}:{}:{}", sanitize(path), snippet.line, snippet.column),
        None => UNKNOWN_PATH.to_owned(),
    };
    writeln!(out, "{pad}{} {location}", paint.apply(GUTTER, "-->"))?;

    if let Some((_, snippet)) = &snippet {
        writeln!(out, "{pad} {bar}")?;
        let line_number = snippet.line.to_string();
        let line_number = paint.apply(GUTTER, &line_number);
        if snippet.source.is_empty() {
            writeln!(out, "{line_number} {bar}")?;
        } else {
            writeln!(out, "{line_number} {bar} {}", snippet.source)?;
        }
        writeln!(
            out,
            "{pad} {bar} {}{}",
            " ".repeat(snippet.caret_column),
            paint.apply(style, &"^".repeat(snippet.caret_width)),
        )?;
    }

    if !diagnostic.related.is_empty() {
        writeln!(out, "{pad} {bar}")?;
    }
    for related in &diagnostic.related {
        let location = match report.file(related.file) {
            Some(file) => {
                let (line, column) = char_position(file, related.range.start);
                format!("{}:{line}:{column}", sanitize(&file.display_path))
            }
            None => UNKNOWN_PATH.to_owned(),
        };
        writeln!(
            out,
            "{pad} {} {} {location}: {}",
            paint.apply(GUTTER, "="),
            paint.apply(BOLD, "related:"),
            sanitize(&related.message),
        )?;
    }
    writeln!(out)
}

fn render_summary(
    counts: Counts,
    files: usize,
    out: &mut dyn io::Write,
    paint: Paint,
) -> io::Result<()> {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let parts: Vec<String> = [
        (counts.errors, "error", "errors"),
        (counts.warnings, "warning", "warnings"),
        (counts.infos, "info", "info"),
        (counts.hints, "hint", "hints"),
    ]
    .into_iter()
    .filter(|&(n, _, _)| n > 0)
    .map(|(n, one, many)| plural(n, one, many))
    .collect();
    let (mark, style) = if counts.errors > 0 {
        ("✗", ERROR)
    } else if counts.warnings > 0 {
        ("⚠", WARNING)
    } else {
        ("✓", SUCCESS)
    };
    let found = if parts.is_empty() {
        "no problems".to_owned()
    } else {
        parts.join(", ")
    };
    writeln!(
        out,
        "{} {found} in {}",
        paint.apply(style, mark),
        plural(files, "file", "files"),
    )
}

/// The source line of a range's start, laid out for the terminal.
struct Snippet {
    /// 1-based.
    line: u32,
    /// 1-based, in characters.
    column: usize,
    /// The line as displayed (tabs expanded, control characters made visible, maybe cut).
    source: String,
    /// Display columns before the caret.
    caret_column: usize,
    caret_width: usize,
}

impl Snippet {
    fn new(file: &ReportFile, range: TextRange) -> Snippet {
        let text = file.text;
        let index = file.line_index;
        // Byte columns: `line_col` clamps past-the-end offsets and rounds down to a char boundary.
        let start = index.line_col(text, range.start, PositionEncoding::Utf8);
        let end = index.line_col(text, range.end.max(range.start), PositionEncoding::Utf8);
        let (line_start, line_end) = index
            .line_range(text, start.line)
            .unwrap_or((text.len() as u32, text.len() as u32));
        let line_text = &text[line_start as usize..line_end as usize];
        let start_col = (start.col as usize).min(line_text.len());
        let end_col = if end.line > start.line {
            line_text.len()
        } else {
            (end.col as usize).clamp(start_col, line_text.len())
        };
        let layout = Layout::new(line_text, start_col, end_col);
        Snippet {
            line: start.line + 1,
            column: line_text[..start_col].chars().count() + 1,
            source: layout.source,
            caret_column: layout.caret_start,
            caret_width: (layout.caret_end - layout.caret_start).max(1),
        }
    }
}

/// 1-based line and character column of an offset.
fn char_position(file: &ReportFile, offset: u32) -> (u32, usize) {
    let at = file
        .line_index
        .line_col(file.text, offset, PositionEncoding::Utf8);
    let line_start = file
        .line_index
        .line_range(file.text, at.line)
        .map_or(0, |(start, _)| start as usize);
    let prefix = &file.text[line_start..line_start + at.col as usize];
    (at.line + 1, prefix.chars().count() + 1)
}

struct Layout {
    source: String,
    caret_start: usize,
    caret_end: usize,
}

impl Layout {
    /// Lays out `line` with the byte range `start..end` (char boundaries, in order, inside the
    /// line) to underline, cutting a line wider than [`MAX_SOURCE_WIDTH`] to a window around
    /// `start`.
    fn new(line: &str, start: usize, end: usize) -> Layout {
        let mut width = 0;
        let fits = line.chars().all(|c| {
            width += display_width(c);
            width <= MAX_SOURCE_WIDTH
        });
        let mut from = 0;
        if !fits {
            let mut left = 0;
            from = start;
            for (i, c) in line[..start].char_indices().rev() {
                left += display_width(c);
                if left > LEFT_CONTEXT {
                    break;
                }
                from = i;
            }
        }

        let mut source = String::new();
        let mut column = 0;
        if from > 0 {
            source.push_str(ELLIPSIS);
            column += ELLIPSIS.len();
        }
        let limit = column + MAX_SOURCE_WIDTH;
        let (mut caret_start, mut caret_end) = (None, None);
        for (i, c) in line[from..].char_indices() {
            let i = from + i;
            if i == start {
                caret_start = Some(column);
            }
            if i == end {
                caret_end = Some(column);
            }
            let c_width = display_width(c);
            if !fits && column + c_width > limit {
                source.push_str(ELLIPSIS);
                break;
            }
            push_display(&mut source, c);
            column += c_width;
        }
        let caret_start = caret_start.unwrap_or(column);
        Layout {
            source,
            caret_start,
            caret_end: caret_end.unwrap_or(column).max(caret_start),
        }
    }
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn display_width(c: char) -> usize {
    match c {
        '\t' => TAB.len(),
        c if c.is_control() => 1,
        c if is_bidi_control(c) => format!("<U+{:04X}>", c as u32).len(),
        c => c.width().unwrap_or(0),
    }
}

fn push_display(out: &mut String, c: char) {
    match c {
        '\t' => out.push_str(TAB),
        c if c.is_control() => out.push(control_picture(c)),
        c if is_bidi_control(c) => out.push_str(&format!("<U+{:04X}>", c as u32)),
        c => out.push(c),
    }
}

/// The visible stand-in for a control character (U+2400 block), so that text from a file cannot
/// move the cursor or change colours.
fn control_picture(c: char) -> char {
    match c as u32 {
        code @ 0..=0x1f => char::from_u32(0x2400 + code).unwrap_or('\u{fffd}'),
        0x7f => '\u{2421}',
        _ => '\u{fffd}',
    }
}

/// A message with control characters (other than line breaks) and bidi overrides made visible.
fn sanitize(message: &str) -> Cow<'_, str> {
    let needs = |c: char| (c.is_control() && c != '\n') || is_bidi_control(c);
    if !message.chars().any(needs) {
        return Cow::Borrowed(message);
    }
    let mut out = String::with_capacity(message.len());
    for c in message.chars() {
        if needs(c) {
            push_display(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

const BOLD: &str = "1";
const ERROR: &str = "1;31";
const WARNING: &str = "1;33";
const INFO: &str = "1;36";
const HINT: &str = "1;32";
const SUCCESS: &str = "1;32";
const GUTTER: &str = "1;34";

fn severity_style(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => ERROR,
        Severity::Warning => WARNING,
        Severity::Info => INFO,
        Severity::Hint => HINT,
    }
}

/// ANSI styling, or none.
#[derive(Clone, Copy)]
struct Paint(bool);

impl Paint {
    fn apply<'t>(self, style: &str, text: &'t str) -> Cow<'t, str> {
        if self.0 {
            Cow::Owned(format!("\x1b[{style}m{text}\x1b[0m"))
        } else {
            Cow::Borrowed(text)
        }
    }
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::cli::fixture::{self, Fixture};
    use crate::diagnostic::Code;
    use crate::diagnostic::FileId;

    fn render_to_string(report: &Report, color: bool) -> String {
        fixture::rendered(|out| render(report, out, color))
    }

    #[test]
    fn standard_report() {
        let fixture = fixture::standard();
        expect![[r#"
            hint[test.sort-list]: sort this list
             --> skills/crlf.yaml:2:1
              |
            2 | skills:
              | ^^^^^^^

            warning[test.duplicate-grant]: `alpha` is granted twice
             --> skills/crlf.yaml:4:5
              |
            4 |   - alpha
              |     ^^^^^
              |
              = related: skills/crlf.yaml:3:5: first granted here
              = related: skills/emoji.yaml:2:18: also granted here, with a comma, 100%: see

            info[test.emoji]: an emoji in a skill name
            second line
             --> skills/emoji.yaml:2:11
              |
            2 | skills: ["😀 技能", alpha]
              |           ^

            error[yaml.duplicate-key]: `alpha` appears twice
             --> skills/emoji.yaml:2:18
              |
            2 | skills: ["😀 技能", alpha]
              |                     ^^^^^

            ✗ 1 error, 1 warning, 1 info, 1 hint in 3 files
        "#]]
        .assert_eq(&render_to_string(&fixture.report(), false));
    }

    #[test]
    fn colour_only_when_asked() {
        let fixture = fixture::standard();
        assert!(!render_to_string(&fixture.report(), false).contains('\x1b'));
        let coloured = render_to_string(&fixture.report(), true);
        assert!(
            coloured.starts_with("\x1b[1;32mhint[test.sort-list]\x1b[0m\x1b[1m: sort this list")
        );
        assert!(coloured.contains("\x1b[1;31m✗\x1b[0m 1 error"));
    }

    #[test]
    fn summaries() {
        let summary = |counts: Counts, files| {
            let mut out = Vec::new();
            render_summary(counts, files, &mut out, Paint(false)).unwrap();
            String::from_utf8(out).unwrap()
        };
        let none = Counts::default();
        assert_eq!(summary(none, 12), "✓ no problems in 12 files\n");
        assert_eq!(summary(none, 1), "✓ no problems in 1 file\n");
        let some = Counts {
            errors: 3,
            warnings: 1,
            ..none
        };
        assert_eq!(summary(some, 12), "✗ 3 errors, 1 warning in 12 files\n");
        let warnings = Counts {
            warnings: 2,
            infos: 2,
            ..none
        };
        assert_eq!(summary(warnings, 2), "⚠ 2 warnings, 2 info in 2 files\n");
        let hints = Counts { hints: 1, ..none };
        assert_eq!(summary(hints, 0), "✓ 1 hint in 0 files\n");
    }

    #[test]
    fn tabs_controls_and_bidi_are_made_visible_in_text_and_paths() {
        let text = "\tkey:\t\u{1b}[31m\u{202e}x: 1\n";
        let mut fixture = Fixture::new(&[(FileId(0), "tabs\u{1b}[31m.yaml", text)]);
        let x = fixture::find(text, "x", 0);
        fixture.diagnostics = vec![Diagnostic {
            file: FileId(0),
            range: x,
            severity: Severity::Warning,
            code: Code::made_up("test.controls", Severity::Error),
            message: "escape \u{1b}[2J here".into(),
            related: vec![],
            fixes: Vec::new(),
        }];
        expect![[r#"
            warning[test.controls]: escape ␛[2J here
             --> tabs␛[31m.yaml:1:13
              |
            1 |     key:    ␛[31m<U+202E>x: 1
              |                          ^

            ⚠ 1 warning in 1 file
        "#]]
        .assert_eq(&render_to_string(&fixture.report(), false));
    }

    #[test]
    fn long_lines_are_cut_around_the_range() {
        let text: &'static str =
            format!("key: {}target{}\n", "a".repeat(200), "b".repeat(200)).leak();
        let mut fixture = Fixture::new(&[(FileId(0), "long.yaml", text)]);
        let range = fixture::find(text, "target", 0);
        fixture.diagnostics = vec![Diagnostic {
            file: FileId(0),
            range,
            severity: Severity::Error,
            code: Code::made_up("test.long", Severity::Error),
            message: "long".into(),
            related: vec![],
            fixes: Vec::new(),
        }];
        let output = render_to_string(&fixture.report(), false);
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines[1], " --> long.yaml:1:206");
        let source = lines[3].strip_prefix("1 | ").unwrap();
        assert_eq!(
            source,
            format!("...{}target{}...", "a".repeat(40), "b".repeat(74))
        );
        assert_eq!(lines[4], format!("  | {}^^^^^^", " ".repeat(43)));
    }

    #[test]
    fn empty_lines_and_ranges_past_the_end() {
        let text = "a: 1\n\n";
        let mut fixture = Fixture::new(&[(FileId(0), "e.yaml", text)]);
        fixture.diagnostics = vec![
            Diagnostic {
                file: FileId(0),
                range: TextRange::new(5, 5),
                severity: Severity::Error,
                code: Code::made_up("test.empty-line", Severity::Error),
                message: "on an empty line".into(),
                related: vec![],
                fixes: Vec::new(),
            },
            Diagnostic {
                file: FileId(0),
                range: TextRange::new(2, 500),
                severity: Severity::Error,
                code: Code::made_up("test.past-end", Severity::Error),
                message: "runs past the end".into(),
                related: vec![],
                fixes: Vec::new(),
            },
        ];
        expect![[r#"
            error[test.empty-line]: on an empty line
             --> e.yaml:2:1
              |
            2 |
              | ^

            error[test.past-end]: runs past the end
             --> e.yaml:1:3
              |
            1 | a: 1
              |   ^^

            ✗ 2 errors in 1 file
        "#]]
        .assert_eq(&render_to_string(&fixture.report(), false));
    }

    #[test]
    fn hostile_ranges_do_not_panic() {
        let fixture = fixture::hostile();
        for color in [false, true] {
            let output = render_to_string(&fixture.report(), color);
            assert_eq!(
                output.matches("[test.hostile]").count(),
                fixture.diagnostics.len()
            );
        }
    }
}
