//! Byte offsets <-> (line, column). Columns are counted in the unit the client negotiated:
//! UTF-8 bytes or UTF-16 code units (the LSP default). Lines end at `\n`, `\r\n` or a lone `\r`,
//! as LSP defines them.
//!
//! Every conversion costs O(1), however long the line: the line of an offset is looked up from
//! the block of text it falls in (a block holds at most [`BLOCK`] line starts, searched by
//! bisection), a line of ASCII text has columns equal to byte distances, and a line holding other
//! characters carries checkpoints (byte offset, UTF-16 column) at least every [`CHECKPOINT`]
//! bytes, so counting resumes from the nearest one. A flow list of 200,000 items on one line
//! converts each position without rescanning the line.

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

/// Bytes per block of the offset -> line table.
const BLOCK: u32 = 256;
/// Most bytes between checkpoints inside a line holding non-ASCII characters.
const CHECKPOINT: u32 = 128;

/// A place inside a non-ASCII line where column counting can resume.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Checkpoint {
    offset: u32,
    /// UTF-16 code units from the line's start to `offset`.
    utf16: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset where each line starts; always begins with 0.
    line_starts: Vec<u32>,
    /// For each [`BLOCK`] bytes of text, the line its first byte is on.
    block_lines: Vec<u32>,
    /// One bit per line, set when the line holds a character outside ASCII.
    non_ascii: Vec<u64>,
    /// Checkpoints of every non-ASCII line (one at its start, then at least every
    /// [`CHECKPOINT`] bytes), in text order.
    checkpoints: Vec<Checkpoint>,
    len: u32,
}

/// Where each line starts: after `\n`, `\r\n` or a lone `\r`. Most files end their lines
/// with `\n` alone, and then one vectorised search finds them all.
fn line_starts(text: &str) -> Vec<u32> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    if memchr::memchr(b'\r', bytes).is_none() {
        starts.extend(memchr::memchr_iter(b'\n', bytes).map(|at| at as u32 + 1));
        return starts;
    }
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => starts.push(i as u32 + 1),
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                starts.push(i as u32 + 2);
                i += 1;
            }
            b'\r' => starts.push(i as u32 + 1),
            _ => {}
        }
        i += 1;
    }
    starts
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let line_starts = line_starts(text);
        let len = text.len() as u32;
        let mut non_ascii = vec![0u64; line_starts.len().div_ceil(64)];
        let mut checkpoints = Vec::new();
        for (line, &start) in line_starts.iter().enumerate() {
            let end = line_starts.get(line + 1).copied().unwrap_or(len);
            let content = &text[start as usize..end as usize];
            if content.is_ascii() {
                continue;
            }
            non_ascii[line / 64] |= 1 << (line % 64);
            let mut last = Checkpoint {
                offset: start,
                utf16: 0,
            };
            checkpoints.push(last);
            let mut utf16 = 0;
            for (i, c) in content.char_indices() {
                let at = start + i as u32;
                if at - last.offset >= CHECKPOINT {
                    last = Checkpoint { offset: at, utf16 };
                    checkpoints.push(last);
                }
                utf16 += c.len_utf16() as u32;
            }
        }
        let mut block_lines = Vec::with_capacity((len / BLOCK) as usize + 1);
        let mut line = 0usize;
        for block in 0..=len / BLOCK {
            let at = block * BLOCK;
            while line_starts.get(line + 1).is_some_and(|&next| next <= at) {
                line += 1;
            }
            block_lines.push(line as u32);
        }
        LineIndex {
            line_starts,
            block_lines,
            non_ascii,
            checkpoints,
            len,
        }
    }

    pub fn line_count(&self) -> u32 {
        self.line_starts.len() as u32
    }

    /// Bytes held by the index, for measuring memory.
    pub fn heap_bytes(&self) -> usize {
        self.line_starts.capacity() * 4
            + self.block_lines.capacity() * 4
            + self.non_ascii.capacity() * 8
            + self.checkpoints.capacity() * std::mem::size_of::<Checkpoint>()
    }

    /// The line `offset` (at most the text's length) is on.
    fn line_of(&self, offset: u32) -> usize {
        let block = (offset / BLOCK) as usize;
        let first = self.block_lines[block] as usize;
        let last = self
            .block_lines
            .get(block + 1)
            .map_or(self.line_starts.len() - 1, |&l| l as usize);
        // At most one block's worth of line starts lie between the two.
        first + self.line_starts[first..=last].partition_point(|&start| start <= offset) - 1
    }

    fn is_ascii_line(&self, line: usize) -> bool {
        self.non_ascii[line / 64] & (1 << (line % 64)) == 0
    }

    /// The checkpoints of a non-ASCII line starting at `start` and ending before `end`.
    fn checkpoints_of(&self, start: u32, end: u32) -> &[Checkpoint] {
        let first = self.checkpoints.partition_point(|c| c.offset < start);
        let count = self.checkpoints[first..].partition_point(|c| c.offset < end.max(start + 1));
        &self.checkpoints[first..first + count]
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
        let line = self.line_of(offset);
        let (start, end) = self
            .line_range(text, line as u32)
            .unwrap_or((offset, offset));
        let upto = offset.min(end);
        let col = if self.is_ascii_line(line) {
            upto - start
        } else {
            let upto = floor_char_boundary(text, upto as usize) as u32;
            match encoding {
                PositionEncoding::Utf8 => upto - start,
                PositionEncoding::Utf16 => {
                    let marks = self.checkpoints_of(start, end);
                    let mark = marks[marks.partition_point(|c| c.offset <= upto) - 1];
                    let rest = &text[mark.offset as usize..upto as usize];
                    mark.utf16 + rest.chars().map(|c| c.len_utf16() as u32).sum::<u32>()
                }
            }
        };
        LineCol {
            line: line as u32,
            col,
        }
    }

    /// The byte offset of a line and column. A column past the line's end clamps to the end of
    /// the line, a line past the end clamps to the end of the text (as LSP asks), and a column
    /// inside a character (half a surrogate pair) rounds down to its start.
    pub fn offset(&self, text: &str, position: LineCol, encoding: PositionEncoding) -> u32 {
        let Some((start, end)) = self.line_range(text, position.line) else {
            return self.len;
        };
        if self.is_ascii_line(position.line as usize) {
            return start + position.col.min(end - start);
        }
        let (from, mut units) = match encoding {
            PositionEncoding::Utf8 => {
                let at = start.saturating_add(position.col).min(end);
                return floor_char_boundary(text, at as usize) as u32;
            }
            PositionEncoding::Utf16 => {
                let marks = self.checkpoints_of(start, end);
                let mark = marks[marks.partition_point(|c| c.utf16 <= position.col) - 1];
                (mark.offset, mark.utf16)
            }
        };
        for (i, c) in text[from as usize..end as usize].char_indices() {
            let width = c.len_utf16() as u32;
            if units + width > position.col {
                return from + i as u32;
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

    /// The definition, by rescanning: what the index must agree with everywhere.
    fn naive_line_col(
        index: &LineIndex,
        text: &str,
        offset: u32,
        encoding: PositionEncoding,
    ) -> LineCol {
        let offset = floor_char_boundary(text, (offset as usize).min(text.len()));
        let line = index.line_starts.partition_point(|&s| s as usize <= offset) - 1;
        let (start, end) = index.line_range(text, line as u32).unwrap();
        let slice = &text[start as usize..offset.min(end as usize)];
        let col = match encoding {
            Utf8 => slice.len(),
            Utf16 => slice.chars().map(char::len_utf16).sum(),
        };
        LineCol {
            line: line as u32,
            col: col as u32,
        }
    }

    fn agrees_with_the_definition(text: &str) {
        let index = LineIndex::new(text);
        for offset in 0..=text.len() as u32 + 2 {
            for encoding in [Utf8, Utf16] {
                assert_eq!(
                    index.line_col(text, offset, encoding),
                    naive_line_col(&index, text, offset, encoding),
                    "offset {offset} in {encoding:?}"
                );
            }
        }
        roundtrip(text);
    }

    #[test]
    fn long_non_ascii_lines_use_checkpoints() {
        // Several checkpoints per line, with multi-byte characters straddling them.
        let line: String = (0..300).map(|i| ["a", "é", "技", "😀"][i % 4]).collect();
        let text = format!("{line}\r\n{line}\nascii only\r{line}");
        let index = LineIndex::new(&text);
        assert!(
            index.checkpoints.len() >= 3 * 5,
            "{}",
            index.checkpoints.len()
        );
        agrees_with_the_definition(&text);
        // The last character of the first line, and the end of that line.
        let end = line.len() as u32;
        let utf16: u32 = line.chars().map(|c| c.len_utf16() as u32).sum();
        assert_eq!(
            index.line_col(&text, end, Utf16),
            LineCol {
                line: 0,
                col: utf16
            }
        );
        assert_eq!(
            index.line_col(&text, end - 4, Utf16),
            LineCol {
                line: 0,
                col: utf16 - 2
            }
        );
        assert_eq!(
            index.offset(
                &text,
                LineCol {
                    line: 0,
                    col: utf16 + 5
                },
                Utf16
            ),
            end
        );
        // Inside the emoji's surrogate pair: rounds down to its start.
        assert_eq!(
            index.offset(
                &text,
                LineCol {
                    line: 0,
                    col: utf16 - 1
                },
                Utf16
            ),
            end - 4
        );
    }

    #[test]
    fn positions_after_multibyte_characters_and_at_line_ends() {
        for text in [
            "é\n",
            "x😀\r\ny",
            "\r\r\n技\r",
            "😀",
            "",
            "\n\n",
            "a\u{300}b\nc",
        ] {
            agrees_with_the_definition(text);
        }
        let text = "é\n😀";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(text, 2, Utf16), LineCol { line: 0, col: 1 });
        assert_eq!(index.line_col(text, 2, Utf8), LineCol { line: 0, col: 2 });
        assert_eq!(index.line_col(text, 7, Utf16), LineCol { line: 1, col: 2 });
        assert_eq!(index.offset(text, LineCol { line: 1, col: 2 }, Utf16), 7);
        assert_eq!(index.offset(text, LineCol { line: 1, col: 3 }, Utf8), 3);
    }

    #[test]
    fn many_short_lines_and_one_long_ascii_line() {
        let mut text = "x\n".repeat(700);
        text.push_str(&"[a, b] ".repeat(200));
        text.push_str("\n\r\n");
        agrees_with_the_definition(&text);
        let index = LineIndex::new(&text);
        assert!(index.checkpoints.is_empty());
        assert_eq!(index.line_count(), 703);
    }
}
