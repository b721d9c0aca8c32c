//! "Did you mean" suggestions: the closest known id within a small edit distance.
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

/// The candidate closest to `word`, if it is close enough to be a plausible typo. For short lists
/// in any order; large id sets of the index go through [`closest_in`].
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut sorted: Vec<&'a str> = candidates.into_iter().collect();
    sorted.sort_unstable();
    sorted.dedup();
    closest_in(word, sorted.as_slice())
}

/// The candidate of a sorted set closest to `word` (ties: the first in order), if it is close
/// enough to be a plausible typo. `word` itself is never suggested.
pub fn closest_in<'a>(word: &str, candidates: impl SortedIds<'a>) -> Option<&'a str> {
    let word: Vec<char> = word.chars().collect();
    let limit = 2.min(word.len() / 3 + 1);
    let mut table = Table::new(&word);
    // The characters of the candidate prefix the table's rows (beyond the first) are for.
    let mut prefix: Vec<char> = Vec::new();
    let mut chars: Vec<char> = Vec::new();
    let mut best: Option<(usize, &'a str)> = None;
    let mut cursor = candidates.iter_from(Bound::Unbounded);
    let mut next = cursor.next();
    while let Some(candidate) = next {
        // An id holding a line break or another control character is refused wherever it is
        // defined (`*.model-construction`), so offering it would trade one error for another.
        // Skipping it leaves the table as it was, still matching `prefix`.
        if candidate.chars().any(char::is_control) {
            next = cursor.next();
            continue;
        }
        chars.clear();
        chars.extend(candidate.chars());
        let shared = prefix
            .iter()
            .zip(&chars)
            .take_while(|(a, b)| a == b)
            .count();
        table.truncate(shared);
        prefix.truncate(shared);
        let mut hopeless_at = None;
        for depth in shared + 1..=chars.len() {
            table.push_row(&chars[..depth]);
            prefix.push(chars[depth - 1]);
            if table.floor() > limit {
                hopeless_at = Some(depth);
                break;
            }
        }
        next = cursor.next();
        match hopeless_at {
            // No id with this prefix can come within the limit: skip all of them. A few are
            // stepped over (cheaper than a seek when the run is short), then one seek past the
            // rest.
            Some(depth) => {
                let hopeless: usize = chars[..depth].iter().map(|c| c.len_utf8()).sum();
                let hopeless = &candidate[..hopeless];
                let mut steps = 0;
                while next.is_some_and(|c| c.starts_with(hopeless)) {
                    steps += 1;
                    if steps == STEPS_BEFORE_SEEK {
                        next = successor_of_prefix(&chars[..depth]).and_then(|bound| {
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
                let is_word = chars.len() == word.len() && distance == 0;
                if distance <= limit && !is_word && best.is_none_or(|(d, _)| distance < d) {
                    best = Some((distance, candidate));
                }
            }
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// How many ids with a hopeless prefix are stepped over before seeking past the rest.
const STEPS_BEFORE_SEEK: usize = 16;

/// The distance table between a candidate's prefixes (rows) and the word's prefixes (columns),
/// one flat buffer reused from candidate to candidate.
struct Table<'w> {
    word: &'w [char],
    cells: Vec<usize>,
}

impl<'w> Table<'w> {
    fn new(word: &'w [char]) -> Self {
        Table {
            word,
            cells: (0..=word.len()).collect(),
        }
    }

    fn columns(&self) -> usize {
        self.word.len() + 1
    }

    fn rows(&self) -> usize {
        self.cells.len() / self.columns()
    }

    fn row(&self, i: usize) -> &[usize] {
        let columns = self.columns();
        &self.cells[i * columns..(i + 1) * columns]
    }

    /// Keeps the rows of the first `depth` characters.
    fn truncate(&mut self, depth: usize) {
        self.cells.truncate((depth + 1) * self.columns());
    }

    /// Adds the row of `candidate`'s last character; the rows of its shorter prefixes are there.
    fn push_row(&mut self, candidate: &[char]) {
        let i = candidate.len();
        debug_assert_eq!(self.rows(), i);
        let (word, columns) = (self.word, self.columns());
        let start = self.cells.len();
        self.cells.push(i);
        for j in 1..columns {
            let previous = &self.cells[(i - 1) * columns..i * columns];
            let cost = usize::from(candidate[i - 1] != word[j - 1]);
            let mut cell = (previous[j] + 1)
                .min(self.cells[start + j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && candidate[i - 1] == word[j - 2] && candidate[i - 2] == word[j - 1]
            {
                cell = cell.min(self.cells[(i - 2) * columns + j - 2] + 1);
            }
            self.cells.push(cell);
        }
    }

    /// A lower bound of every cell in the rows still to come: each is at least the minimum of the
    /// last row, or of the row before it plus one (a transposition reaches back two rows).
    fn floor(&self) -> usize {
        let last = self.rows() - 1;
        let here = self.row(last).iter().min().copied().unwrap_or(usize::MAX);
        let before = match last {
            0 => usize::MAX,
            _ => self
                .row(last - 1)
                .iter()
                .min()
                .map_or(usize::MAX, |m| m + 1),
        };
        here.min(before)
    }

    /// The distance between the whole candidate so far and the whole word.
    fn last_distance(&self) -> usize {
        *self.cells.last().expect("the table has a row")
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

    /// The distance by the plain table, as the oracle of the search.
    fn edit_distance(a: &str, b: &str) -> usize {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        let mut table = Table::new(&b);
        for i in 1..=a.len() {
            table.push_row(&a[..i]);
        }
        table.last_distance()
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
