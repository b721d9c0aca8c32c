//! Conversions at the protocol edge: byte offsets <-> LSP positions in the negotiated encoding,
//! paths <-> URIs, engine diagnostics -> LSP diagnostics.

use std::path::{Path, PathBuf};

use ropey::Rope;
use tower_lsp_server::ls_types::{
    self as lsp, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Position, Uri,
};

use crate::diagnostic::{Diagnostic, FileId, Severity};
use crate::index::Index;
use crate::syntax::{LineCol, PositionEncoding, TextRange};

pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    if uri.scheme().as_str() != "file" {
        return None;
    }
    uri.to_file_path().map(|p| p.into_owned())
}

pub fn uri_of(path: &Path) -> Option<Uri> {
    Uri::from_file_path(path)
}

/// The LSP range of a byte range in an indexed file.
pub fn range(index: &Index, file: FileId, range: TextRange, enc: PositionEncoding) -> lsp::Range {
    let Some(entry) = index.file(file) else {
        return lsp::Range::default();
    };
    let convert = |offset| {
        let lc = entry.line_index().line_col(&entry.text, offset, enc);
        Position::new(lc.line, lc.col)
    };
    lsp::Range::new(convert(range.start), convert(range.end))
}

/// The byte offset of an LSP position in an indexed file; `None` past the last line.
pub fn offset(
    index: &Index,
    file: FileId,
    position: Position,
    enc: PositionEncoding,
) -> Option<u32> {
    let entry = index.file(file)?;
    if position.line >= entry.line_index().line_count() {
        return None;
    }
    Some(entry.line_index().offset(
        &entry.text,
        LineCol {
            line: position.line,
            col: position.character,
        },
        enc,
    ))
}

pub fn location(
    index: &Index,
    file: FileId,
    r: TextRange,
    enc: PositionEncoding,
) -> Option<Location> {
    let entry = index.file(file)?;
    Some(Location::new(
        uri_of(&entry.path)?,
        range(index, file, r, enc),
    ))
}

pub fn diagnostic(index: &Index, d: &Diagnostic, enc: PositionEncoding) -> lsp::Diagnostic {
    let related: Vec<DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter_map(|r| {
            Some(DiagnosticRelatedInformation {
                location: location(index, r.file, r.range, enc)?,
                message: r.message.clone(),
            })
        })
        .collect();
    lsp::Diagnostic {
        range: range(index, d.file, d.range, enc),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
            Severity::Hint => DiagnosticSeverity::HINT,
        }),
        code: Some(NumberOrString::String(d.code.name().to_owned())),
        source: Some("skillgraph".to_owned()),
        message: d.message.clone(),
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}

/// The char index in a rope of an LSP position. Lines end at `\n`, `\r\n` or `\r` (the rope is
/// built with only those line breaks, as LSP defines lines); a column past the end of its line
/// clamps to the line end, a line past the end to the end of the text, and a column inside a
/// character (half a surrogate pair) to that character's start.
pub fn rope_char(rope: &Rope, position: Position, enc: PositionEncoding) -> usize {
    let line = position.line as usize;
    if line >= rope.len_lines() {
        return rope.len_chars();
    }
    let mut index = rope.line_to_char(line);
    let mut units = 0u32;
    for c in rope.line(line).chars() {
        if c == '\n' || c == '\r' {
            break;
        }
        let width = match enc {
            PositionEncoding::Utf8 => c.len_utf8() as u32,
            PositionEncoding::Utf16 => c.len_utf16() as u32,
        };
        if units + width > position.character {
            break;
        }
        units += width;
        index += 1;
    }
    index
}

/// Applies one `didChange` content change to a rope.
pub fn apply_change(
    rope: &mut Rope,
    change: &lsp::TextDocumentContentChangeEvent,
    enc: PositionEncoding,
) {
    match change.range {
        None => *rope = Rope::from_str(&change.text),
        Some(r) => {
            let a = rope_char(rope, r.start, enc);
            let b = rope_char(rope, r.end, enc);
            let (start, end) = if a <= b { (a, b) } else { (b, a) };
            rope.remove(start..end);
            rope.insert(start, &change.text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PositionEncoding::{Utf16, Utf8};

    fn change(
        text: &str,
        (l1, c1): (u32, u32),
        (l2, c2): (u32, u32),
        new: &str,
        enc: PositionEncoding,
    ) -> String {
        let mut rope = Rope::from_str(text);
        apply_change(
            &mut rope,
            &lsp::TextDocumentContentChangeEvent {
                range: Some(lsp::Range::new(
                    Position::new(l1, c1),
                    Position::new(l2, c2),
                )),
                range_length: None,
                text: new.to_owned(),
            },
            enc,
        );
        rope.to_string()
    }

    /// One edit of a test: from, to, the new text, the encoding, and the whole text after it.
    type Edit = (
        (u32, u32),
        (u32, u32),
        &'static str,
        PositionEncoding,
        &'static str,
    );

    /// Applies each edit to `text` on its own.
    fn check_changes(text: &str, edits: &[Edit]) {
        for &(from, to, new, enc, expected) in edits {
            assert_eq!(
                change(text, from, to, new, enc),
                expected,
                "{from:?}..{to:?}"
            );
        }
    }

    #[test]
    fn edits_after_emoji_in_both_encodings() {
        // `x` sits at UTF-16 column 9 and UTF-8 column 11.
        check_changes(
            "a: \"😀\" bx\r\nnext\n",
            &[
                ((0, 9), (0, 10), "y", Utf16, "a: \"😀\" by\r\nnext\n"),
                ((0, 11), (0, 12), "y", Utf8, "a: \"😀\" by\r\nnext\n"),
            ],
        );
    }

    #[test]
    fn crlf_lines_and_clamping() {
        check_changes(
            "ab\r\ncd\rde\u{2028}f",
            &[
                ((1, 0), (1, 1), "X", Utf16, "ab\r\nXd\rde\u{2028}f"),
                // U+2028 is not a line end for LSP.
                ((2, 3), (2, 4), "Y", Utf16, "ab\r\ncd\rde\u{2028}Y"),
                ((0, 99), (0, 99), "!", Utf16, "ab!\r\ncd\rde\u{2028}f"),
                ((9, 0), (9, 0), "!", Utf16, "ab\r\ncd\rde\u{2028}f!"),
            ],
        );
    }
}
