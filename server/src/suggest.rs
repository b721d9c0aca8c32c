//! "Did you mean" suggestions: the closest known id within a small edit distance. It knows
//! strings only, never where the ids come from.
//!
//! The distance is Levenshtein's over characters with an adjacent transposition counted as one
//! edit (optimal string alignment). A plausible typo is at most two edits away, and fewer than a
//! third of the word.
//!
//! The search walks the candidates in sorted order as if they were a trie: the table rows of a
//! shared prefix are computed once, and when a prefix is already too far from the word, every id
//! starting with it is skipped with one seek in the sorted set. So an unknown skill in a
//! workspace of ten thousand ids visits the few ids near it, not all of them, on every keystroke.

use std::ops::Bound;

/// Candidates in ascending order, iterated from a bound (a seek, then steps).
pub trait SortedIds<'a> {
    type Iter: Iterator<Item = &'a str>;
    fn iter_from(&self, bound: Bound<&str>) -> Self::Iter;
}

/// A sorted, deduplicated slice.
impl<'s, 'a> SortedIds<'a> for &'s [&'a str] {
    type Iter = std::iter::Copied<std::slice::Iter<'s, &'a str>>;
    fn iter_from(&self, bound: Bound<&str>) -> Self::Iter {
        let at = match bound {
            Bound::Included(b) => self.partition_point(|c| *c < b),
            Bound::Excluded(b) => self.partition_point(|c| *c <= b),
            Bound::Unbounded => 0,
        };
        self[at..].iter().copied()
    }
}

/// A sorted, deduplicated list of owned names.
impl<'a> SortedIds<'a> for &'a [String] {
    type Iter = std::iter::Map<std::slice::Iter<'a, String>, fn(&'a String) -> &'a str>;
    fn iter_from(&self, bound: Bound<&str>) -> Self::Iter {
        let at = match bound {
            Bound::Included(b) => self.partition_point(|c| c.as_str() < b),
            Bound::Excluded(b) => self.partition_point(|c| c.as_str() <= b),
            Bound::Unbounded => 0,
        };
        self[at..]
            .iter()
            .map(String::as_str as fn(&'a String) -> &'a str)
    }
}

/// An id set of the index.
impl<'a> SortedIds<'a> for &'a imbl::OrdSet<String> {
    type Iter = std::iter::Map<
        imbl::ordset::RangedIter<'a, String, imbl::shared_ptr::DefaultSharedPtr>,
        fn(&'a String) -> &'a str,
    >;
    fn iter_from(&self, bound: Bound<&str>) -> Self::Iter {
        self.range::<_, str>((bound, Bound::Unbounded))
            .map(String::as_str as fn(&'a String) -> &'a str)
    }
}

/// The candidate closest to `word`, if it is close enough to be a plausible typo. For one
/// question about a short list in any order; a rule that may ask about many words of one file
/// sorts its candidates once ([`Nearest`]), and large id sets of the index go through
/// [`closest_in`].
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    Nearest::new(candidates).closest(word)
}

/// Candidates sorted once and asked about many words: a file of twenty thousand unknown ids
/// sorts the candidates once, not twenty thousand times.
pub struct Nearest<'a> {
    sorted: Vec<&'a str>,
}

impl<'a> Nearest<'a> {
    pub fn new(candidates: impl IntoIterator<Item = &'a str>) -> Self {
        let mut sorted: Vec<&'a str> = candidates.into_iter().collect();
        sorted.sort_unstable();
        sorted.dedup();
        Nearest { sorted }
    }

    /// [`closest_in`] over the candidates.
    pub fn closest(&self, word: &str) -> Option<&'a str> {
        closest_in(word, self.sorted.as_slice())
    }
}

/// The candidate of a sorted set closest to `word` (ties: the first in order), if it is close
/// enough to be a plausible typo. `word` itself is never suggested.
pub fn closest_in<'a>(word: &str, candidates: impl SortedIds<'a>) -> Option<&'a str> {
    closest_in_scored(word, candidates).map(|(_, candidate)| candidate)
}

/// [`closest_in`] with the candidate's distance, for a search over several sorted sets: the
/// least of their answers by (distance, candidate) is the answer over their union.
pub fn closest_in_scored<'a>(
    word: &str,
    candidates: impl SortedIds<'a>,
) -> Option<(usize, &'a str)> {
    let word: Vec<char> = word.chars().collect();
    let limit = 2.min(word.len() / 3 + 1);
    let mut table = Table::new(&word, limit);
    // The characters of the candidate prefix the table's rows (beyond the first) are for.
    let mut prefix: Vec<char> = Vec::new();
    let mut best: Option<(usize, &'a str)> = None;
    let mut cursor = candidates.iter_from(Bound::Unbounded);
    let mut next = cursor.next();
    while let Some(candidate) = next {
        // The rows of the prefix this candidate shares with the last one are kept; its own
        // characters are read only as far as rows are computed, so a candidate of megabytes
        // costs a few characters when its start is already too far from the word.
        let mut rest = candidate.chars();
        let mut shared = 0;
        let mut unshared = None;
        for c in rest.by_ref() {
            if prefix.get(shared) == Some(&c) {
                shared += 1;
            } else {
                unshared = Some(c);
                break;
            }
        }
        table.truncate(shared);
        prefix.truncate(shared);
        let mut hopeless_at = None;
        let mut following = unshared;
        while let Some(c) = following {
            prefix.push(c);
            table.push_row(&prefix);
            if table.floor() > limit {
                hopeless_at = Some(prefix.len());
                break;
            }
            following = rest.next();
        }
        next = cursor.next();
        match hopeless_at {
            // No id with this prefix can come within the limit: skip all of them. A few are
            // stepped over (cheaper than a seek when the run is short), then one seek past the
            // rest.
            Some(depth) => {
                let hopeless: usize = prefix[..depth].iter().map(|c| c.len_utf8()).sum();
                let hopeless = &candidate[..hopeless];
                let mut steps = 0;
                while next.is_some_and(|c| c.starts_with(hopeless)) {
                    steps += 1;
                    if steps == STEPS_BEFORE_SEEK {
                        next = successor_of_prefix(&prefix[..depth]).and_then(|bound| {
                            cursor = candidates.iter_from(Bound::Included(&bound));
                            cursor.next()
                        });
                        break;
                    }
                    next = cursor.next();
                }
            }
            None => {
                let distance = table.last_distance();
                let is_word = prefix.len() == word.len() && distance == 0;
                // An id holding a line break or another control character is refused wherever
                // it is defined (`*.model-construction`), so offering it would trade one error
                // for another.
                if distance <= limit
                    && !is_word
                    && best.is_none_or(|(d, _)| distance < d)
                    && !candidate.chars().any(char::is_control)
                {
                    best = Some((distance, candidate));
                }
            }
        }
    }
    best
}

/// How many ids with a hopeless prefix are stepped over before seeking past the rest.
const STEPS_BEFORE_SEEK: usize = 16;

/// A cell known to be beyond the limit.
const FAR: usize = usize::MAX / 4;

/// The distance table between a candidate's prefixes (rows) and the word's prefixes (columns),
/// one flat buffer reused from candidate to candidate. Only the band of cells within `limit` of
/// the diagonal is kept: a cell's distance is at least how far it is from the diagonal, and the
/// cells on the way to a distance within the limit are all within it, so the band decides every
/// answer exactly. A row then costs `2 × limit + 1` cells however long the word is (an unknown
/// id of four megabytes costs no more per candidate than a short one).
struct Table<'w> {
    word: &'w [char],
    limit: usize,
    /// Row `i` holds the cells of columns `i - limit ..= i + limit`; those outside the word are
    /// [`FAR`].
    cells: Vec<usize>,
}

impl<'w> Table<'w> {
    fn new(word: &'w [char], limit: usize) -> Self {
        let mut table = Table {
            word,
            limit,
            cells: Vec::new(),
        };
        for k in 0..table.width() {
            let j = k as isize - limit as isize;
            let inside = j >= 0 && j as usize <= word.len();
            table.cells.push(if inside { j as usize } else { FAR });
        }
        table
    }

    fn width(&self) -> usize {
        2 * self.limit + 1
    }

    fn rows(&self) -> usize {
        self.cells.len() / self.width()
    }

    fn row(&self, i: usize) -> &[usize] {
        let width = self.width();
        &self.cells[i * width..(i + 1) * width]
    }

    /// The cell of row `i` (present) and column `j`: [`FAR`] outside the band or the word.
    fn cell(&self, i: usize, j: isize) -> usize {
        let k = j - i as isize + self.limit as isize;
        if j < 0 || j as usize > self.word.len() || k < 0 || k as usize >= self.width() {
            return FAR;
        }
        self.cells[i * self.width() + k as usize]
    }

    /// Keeps the rows of the first `depth` characters.
    fn truncate(&mut self, depth: usize) {
        self.cells.truncate((depth + 1) * self.width());
    }

    /// Adds the row of `candidate`'s last character; the rows of its shorter prefixes are there.
    fn push_row(&mut self, candidate: &[char]) {
        let i = candidate.len();
        debug_assert_eq!(self.rows(), i);
        let word = self.word;
        let start = self.cells.len();
        for k in 0..self.width() {
            let j = i as isize - self.limit as isize + k as isize;
            let cell = if j < 0 || j as usize > word.len() {
                FAR
            } else if j == 0 {
                i
            } else {
                let column = j as usize;
                let cost = usize::from(candidate[i - 1] != word[column - 1]);
                let left = if k == 0 {
                    FAR
                } else {
                    self.cells[start + k - 1]
                };
                let mut cell = (self.cell(i - 1, j) + 1)
                    .min(left + 1)
                    .min(self.cell(i - 1, j - 1) + cost);
                if i > 1
                    && column > 1
                    && candidate[i - 1] == word[column - 2]
                    && candidate[i - 2] == word[column - 1]
                {
                    cell = cell.min(self.cell(i - 2, j - 2) + 1);
                }
                cell
            };
            self.cells.push(cell);
        }
    }

    /// A lower bound of every cell in the rows still to come: each is at least the minimum of the
    /// last row, or of the row before it plus one (a transposition reaches back two rows).
    fn floor(&self) -> usize {
        let last = self.rows() - 1;
        let here = self.row(last).iter().min().copied().unwrap_or(FAR);
        let before = match last {
            0 => FAR,
            _ => self.row(last - 1).iter().min().map_or(FAR, |m| m + 1),
        };
        here.min(before)
    }

    /// The distance between the whole candidate so far and the whole word ([`FAR`] or more
    /// when it is beyond the limit).
    fn last_distance(&self) -> usize {
        self.cell(self.rows() - 1, self.word.len() as isize)
    }
}

/// The smallest string greater than every string starting with `prefix` (`None` when there is
/// none: the prefix is all `char::MAX`).
fn successor_of_prefix(prefix: &[char]) -> Option<String> {
    let mut chars = prefix.to_vec();
    while let Some(last) = chars.pop() {
        let next = match last as u32 + 1 {
            0xD800 => Some('\u{E000}'),
            code => char::from_u32(code),
        };
        if let Some(next) = next {
            chars.push(next);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_with_a_line_break_is_never_suggested() {
        assert_eq!(
            closest("summarize", ["summarize\n", "summarise"]),
            Some("summarise")
        );
        assert_eq!(closest("summarize", ["summarize\n"]), None);
        assert_eq!(
            closest("sumarize", ["a\tb", "summarize"]),
            Some("summarize")
        );
    }

    /// The distance by the whole table (optimal string alignment), as the oracle of the
    /// banded search.
    fn edit_distance(a: &str, b: &str) -> usize {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                d[i][j] = (d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1)
                    .min(d[i - 1][j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
                }
            }
        }
        d[a.len()][b.len()]
    }

    /// What `closest` must answer: the nearest within the limit by a full scan.
    fn closest_by_scan<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
        let limit = 2.min(word.chars().count() / 3 + 1);
        candidates
            .iter()
            .filter(|c| **c != word && !c.chars().any(char::is_control))
            .map(|c| (edit_distance(word, c), *c))
            .filter(|(d, _)| *d <= limit)
            .min()
            .map(|(_, c)| c)
    }

    #[test]
    fn typos_are_found_and_strangers_are_not() {
        let ids = ["greeter", "say-hello", "search-code"];
        assert_eq!(closest("greter", ids), Some("greeter"));
        assert_eq!(closest("serach-code", ids), Some("search-code"));
        assert_eq!(closest("deploy", ids), None);
        assert_eq!(closest("say-helo", ids), Some("say-hello"));
        assert_eq!(
            closest("greeter", ids),
            None,
            "a known id is not its own typo"
        );
    }

    #[test]
    fn a_transposition_at_the_end_of_a_prefix_is_not_pruned() {
        // "ab" → "ba": the row of "b" alone is already at the limit; the swap comes one row later.
        assert_eq!(closest("abcd", ["bacd"]), Some("bacd"));
        assert_eq!(closest("xyab", ["xyba", "zzzz"]), Some("xyba"));
    }

    #[test]
    fn the_search_agrees_with_a_full_scan() {
        let mut ids: Vec<String> = (0..3000).map(|n| format!("skill-{n}")).collect();
        ids.extend(
            ["review", "reveiw-code", "résumé", "résume", "a", "ab", "ba"].map(String::from),
        );
        ids.extend((0..50).map(|n| format!("{}-{n}", "\u{10FFFF}")));
        let mut sorted: Vec<&str> = ids.iter().map(String::as_str).collect();
        sorted.sort_unstable();
        let set: imbl::OrdSet<String> = ids.iter().cloned().collect();
        for word in [
            "skill-7x",
            "skil-12",
            "skill-299",
            "sklil-5",
            "reveiw",
            "review-code",
            "résumé",
            "resume",
            "a",
            "b",
            "zzz",
            "",
            "\u{10FFFF}-1x",
            "skill-30000",
        ] {
            let expected = closest_by_scan(word, &sorted);
            assert_eq!(closest_in(word, sorted.as_slice()), expected, "{word}");
            assert_eq!(closest_in(word, &set), expected, "{word}");
        }
    }

    #[test]
    fn the_band_agrees_with_the_whole_table_on_lengths_near_and_far() {
        let ids = [
            "abc", "abcd", "abcde", "abcdef", "xabc", "bac", "acb", "ab", "a", "", "abdc", "cabd",
        ];
        let mut sorted = ids.to_vec();
        sorted.sort_unstable();
        for word in [
            "abc",
            "abcd",
            "bacd",
            "ab",
            "abcdefgh",
            "abcdefghijkl",
            "x",
            "acbd",
            "ba",
        ] {
            assert_eq!(
                closest_in(word, sorted.as_slice()),
                closest_by_scan(word, &sorted),
                "{word}"
            );
        }
    }

    #[test]
    fn a_word_of_a_million_characters_costs_a_band_per_row() {
        // Each candidate's rows cost five cells, not a million: this returns at once.
        let word = "q".repeat(1_000_000);
        let ids: Vec<String> = (0..2_000).map(|n| format!("{n:x}-id")).collect();
        let mut sorted: Vec<&str> = ids.iter().map(String::as_str).collect();
        sorted.sort_unstable();
        assert_eq!(closest_in(&word, sorted.as_slice()), None);
        let near = format!("{}x", "q".repeat(999_999));
        assert_eq!(closest(&near, [word.as_str()]), Some(word.as_str()));
        // A candidate of a million characters is read only as far as its rows go.
        let mut with_giant = sorted.clone();
        with_giant.push(word.as_str());
        with_giant.push("qqqx");
        with_giant.sort_unstable();
        for _ in 0..1_000 {
            assert_eq!(closest_in("qqqq", with_giant.as_slice()), Some("qqqx"));
        }
    }

    #[test]
    fn prefixes_are_skipped_past_their_last_id() {
        assert_eq!(successor_of_prefix(&['a', 'b']).as_deref(), Some("ac"));
        assert_eq!(successor_of_prefix(&['a', char::MAX]).as_deref(), Some("b"));
        assert_eq!(
            successor_of_prefix(&['\u{D7FF}']).as_deref(),
            Some("\u{E000}")
        );
        assert_eq!(successor_of_prefix(&[char::MAX]), None);
    }
}
