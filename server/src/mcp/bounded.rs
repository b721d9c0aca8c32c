//! The bound on a tool's result: about 1 MB, however large the workspace. An agent reads the
//! result into its context, where a 100 MB answer is worse than none; past the bound it gets
//! what fits, a count of the rest and how to narrow the question.

use std::io::{self, Write};

/// Most bytes of a tool result's text.
pub const MAX_RESULT_BYTES: usize = 1_000_000;

/// A writer that keeps at most `limit` bytes and fails past them, so a renderer stops there
/// instead of producing the whole document.
pub struct Capped {
    pub bytes: Vec<u8>,
    limit: usize,
}

impl Capped {
    pub fn new(limit: usize) -> Capped {
        Capped {
            bytes: Vec::new(),
            limit,
        }
    }
}

impl Write for Capped {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.bytes.len() + buf.len() > self.limit {
            return Err(io::Error::other("over the result bound"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `text` when it fits; else its first lines that fit, then a line saying how much was left
/// out and what to do (`hint`).
pub fn cut_text(text: String, hint: &str) -> String {
    if text.len() <= MAX_RESULT_BYTES {
        return text;
    }
    // Room for the closing note.
    let room = MAX_RESULT_BYTES - 1_000;
    let mut end = room;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let end = text[..end].rfind('\n').map_or(end, |newline| newline + 1);
    let total_lines = text.lines().count();
    let shown_lines = text[..end].lines().count();
    let mut cut = text[..end].to_owned();
    cut.push_str(&format!(
        "\n… cut here: {shown_lines} of {total_lines} lines shown ({} of {} bytes); {hint}\n",
        end,
        text.len()
    ));
    cut
}

/// The largest `n` in `0..=total` for which `fits(n)` holds, given that it holds for 0 and that
/// a smaller `n` fits whenever a larger one does: a binary search, each probe bounded by the
/// writer it renders into.
pub fn most_that_fit(total: usize, mut fits: impl FnMut(usize) -> bool) -> usize {
    let (mut low, mut high) = (0, total);
    while low < high {
        let mid = low + (high - low).div_ceil(2);
        if fits(mid) {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    low
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_under_the_bound_is_untouched_and_over_it_is_cut_at_a_line() {
        assert_eq!(cut_text("a\nb\n".to_owned(), "narrow it"), "a\nb\n");
        let line = "é".repeat(49) + "\n";
        let text = line.repeat(30_000);
        let cut = cut_text(text.clone(), "narrow it");
        assert!(cut.len() <= MAX_RESULT_BYTES, "{}", cut.len());
        assert!(
            cut.contains("of 30000 lines shown"),
            "{}",
            &cut[cut.len() - 200..]
        );
        assert!(cut.ends_with("narrow it\n"));
        let body = &cut[..cut.rfind("\n…").unwrap()];
        assert!(body.lines().all(|l| l == line.trim_end()));
    }

    #[test]
    fn the_search_finds_the_largest_count_that_fits() {
        for total in [0, 1, 2, 7, 100] {
            for limit in 0..=total {
                let mut probes = 0;
                let found = most_that_fit(total, |n| {
                    probes += 1;
                    n <= limit
                });
                assert_eq!(found, limit);
                assert!(probes <= 8);
            }
        }
    }

    #[test]
    fn the_capped_writer_refuses_past_its_limit() {
        let mut out = Capped::new(4);
        assert!(out.write_all(b"abc").is_ok());
        assert!(out.write_all(b"de").is_err());
        assert_eq!(out.bytes, b"abc");
    }
}
