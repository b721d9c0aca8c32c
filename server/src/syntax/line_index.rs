//! Byte offsets <-> (line, column). Columns are counted in the unit the client negotiated:
//! UTF-8 bytes or UTF-16 code units (the LSP default). Lines end at `\n`, `\r\n` or a lone `\r`,
//! as LSP defines them.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionEncoding {
    Utf8,
    Utf16,
}

/// A 0-based line and a column in some [`PositionEncoding`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset where each line starts; always begins with 0.
    line_starts: Vec<u32>,
    len: u32,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => line_starts.push(i as u32 + 1),
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                    line_starts.push(i as u32 + 2);
                    i += 1;
                }
                b'\r' => line_starts.push(i as u32 + 1),
                _ => {}
            }
            i += 1;
        }
        LineIndex {
            line_starts,
            len: text.len() as u32,
        }
    }

    pub fn line_count(&self) -> u32 {
        self.line_starts.len() as u32
    }

    /// Byte range of a line's content, without its line ending.
    pub fn line_range(&self, text: &str, line: u32) -> Option<(u32, u32)> {
        let start = *self.line_starts.get(line as usize)?;
        let mut end = self
            .line_starts
            .get(line as usize + 1)
            .copied()
            .unwrap_or(self.len);
        let bytes = text.as_bytes();
        while end > start && matches!(bytes.get(end as usize - 1), Some(b'\n' | b'\r')) {
            end -= 1;
        }
        Some((start, end))
    }

    /// The line and column of a byte offset. Offsets past the end clamp to the end; an offset
    /// inside a multi-byte character counts as that character's start.
    pub fn line_col(&self, text: &str, offset: u32, encoding: PositionEncoding) -> LineCol {
        let offset = offset.min(self.len);
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let (start, end) = self
            .line_range(text, line as u32)
            .unwrap_or((offset, offset));
        let upto = offset.min(end);
        let slice = &text[start as usize..floor_char_boundary(text, upto as usize)];
        let col = match encoding {
            PositionEncoding::Utf8 => slice.len(),
            PositionEncoding::Utf16 => slice.chars().map(char::len_utf16).sum(),
        };
        LineCol {
            line: line as u32,
            col: col as u32,
        }
    }

    /// The byte offset of a line and column. A column past the line's end clamps to the end of
    /// the line, a line past the end clamps to the end of the text (as LSP asks), and a column
    /// inside a character (half a surrogate pair) rounds down to its start.
    pub fn offset(&self, text: &str, position: LineCol, encoding: PositionEncoding) -> u32 {
        let Some((start, end)) = self.line_range(text, position.line) else {
            return self.len;
        };
        let line = &text[start as usize..end as usize];
        let mut units = 0u32;
        for (i, c) in line.char_indices() {
            let width = match encoding {
                PositionEncoding::Utf8 => c.len_utf8() as u32,
                PositionEncoding::Utf16 => c.len_utf16() as u32,
            };
            if units + width > position.col {
                return start + i as u32;
            }
            units += width;
        }
        end
    }
}

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    while index > 0 && !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use PositionEncoding::*;

    fn roundtrip(text: &str) {
        let index = LineIndex::new(text);
        for (offset, _) in text.char_indices() {
            if matches!(text.as_bytes()[offset], b'\n')
                && offset > 0
                && text.as_bytes()[offset - 1] == b'\r'
            {
                continue; // the middle of a CRLF is not a position
            }
            for encoding in [Utf8, Utf16] {
                let lc = index.line_col(text, offset as u32, encoding);
                assert_eq!(
                    index.offset(text, lc, encoding),
                    offset as u32,
                    "{text:?} at {offset} in {encoding:?}"
                );
            }
        }
    }

    #[test]
    fn emoji_counts_two_utf16_units_and_four_bytes() {
        let text = "a: \"😀\" b\n";
        let index = LineIndex::new(text);
        let b = text.find('b').unwrap() as u32;
        assert_eq!(index.line_col(text, b, Utf16), LineCol { line: 0, col: 8 });
        assert_eq!(index.line_col(text, b, Utf8), LineCol { line: 0, col: 10 });
        roundtrip(text);
    }

    #[test]
    fn cjk_counts_one_utf16_unit_and_three_bytes() {
        let text = "name: 技能\nnext: x";
        let index = LineIndex::new(text);
        let end_of_first = text.find('\n').unwrap() as u32;
        assert_eq!(
            index.line_col(text, end_of_first, Utf16),
            LineCol { line: 0, col: 8 }
        );
        assert_eq!(
            index.line_col(text, end_of_first, Utf8),
            LineCol { line: 0, col: 12 }
        );
        let x = text.rfind('x').unwrap() as u32;
        assert_eq!(index.line_col(text, x, Utf16), LineCol { line: 1, col: 6 });
        roundtrip(text);
    }

    #[test]
    fn crlf_and_lone_cr_end_lines() {
        let text = "a: 1\r\nb: 2\rc: 3\n";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 4);
        let c = text.find('c').unwrap() as u32;
        assert_eq!(index.line_col(text, c, Utf16), LineCol { line: 2, col: 0 });
        // A column past the end of a CRLF line clamps before the line ending.
        assert_eq!(index.offset(text, LineCol { line: 0, col: 99 }, Utf16), 4);
        roundtrip(text);
    }

    #[test]
    fn past_the_end_clamps() {
        let text = "a\nb";
        let index = LineIndex::new(text);
        assert_eq!(index.offset(text, LineCol { line: 9, col: 0 }, Utf16), 3);
        assert_eq!(index.line_col(text, 99, Utf16), LineCol { line: 1, col: 1 });
    }

    #[test]
    fn half_a_surrogate_pair_rounds_down() {
        let text = "😀x";
        let index = LineIndex::new(text);
        assert_eq!(index.offset(text, LineCol { line: 0, col: 1 }, Utf16), 0);
        assert_eq!(index.offset(text, LineCol { line: 0, col: 2 }, Utf16), 4);
    }
}
