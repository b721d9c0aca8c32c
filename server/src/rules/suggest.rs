//! "Did you mean" suggestions: the closest known id within a small edit distance.

/// The candidate closest to `word`, if it is close enough to be a plausible typo (at most two
/// edits, and fewer than a third of the word).
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word_len = word.chars().count();
    let limit = 2.min(word_len / 3 + 1);
    candidates
        .into_iter()
        .filter(|c| *c != word)
        // Lengths that differ by more than the limit cannot be within it: skip the table. This
        // keeps a suggestion over ten thousand ids cheap enough for every keystroke.
        .filter(|c| {
            let len = if c.is_ascii() {
                c.len()
            } else {
                c.chars().count()
            };
            len.abs_diff(word_len) <= limit
        })
        // The bag distance (characters in one and not the other) is a lower bound of the edit
        // distance and costs one pass; only the few ids it lets through get the full table.
        .filter(|c| bag_distance(word, c).is_none_or(|d| d <= limit))
        .filter_map(|c| bounded_edit_distance(word, c, limit).map(|d| (d, c)))
        .min()
        .map(|(_, c)| c)
}

/// For ASCII words: the larger of the number of characters of `a` missing from `b` and of `b`
/// missing from `a` (as multisets). `None` for other text.
fn bag_distance(a: &str, b: &str) -> Option<usize> {
    if !a.is_ascii() || !b.is_ascii() {
        return None;
    }
    let mut counts = [0i32; 128];
    for byte in a.bytes() {
        counts[byte as usize] += 1;
    }
    for byte in b.bytes() {
        counts[byte as usize] -= 1;
    }
    // Visit only the characters present, each once (its count is cleared when read).
    let (mut only_a, mut only_b) = (0usize, 0usize);
    for byte in a.bytes().chain(b.bytes()) {
        let count = std::mem::take(&mut counts[byte as usize]);
        if count > 0 {
            only_a += count as usize;
        } else {
            only_b += (-count) as usize;
        }
    }
    Some(only_a.max(only_b))
}

/// [`edit_distance`] when it is at most `limit`; gives up as soon as a whole row of the table
/// exceeds it.
fn bounded_edit_distance(a: &str, b: &str, limit: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut previous2 = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut current = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            current[j] = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                current[j] = current[j].min(previous2[j - 2] + 1);
            }
        }
        if current.iter().min().is_some_and(|&m| m > limit) {
            return None;
        }
        previous2 = std::mem::replace(&mut previous, current);
    }
    Some(previous[b.len()]).filter(|&d| d <= limit)
}

/// Levenshtein distance over characters, with adjacent transpositions counted as one edit.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut previous2 = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut current = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            current[j] = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                current[j] = current[j].min(previous2[j - 2] + 1);
            }
        }
        previous2 = std::mem::replace(&mut previous, current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_are_found_and_strangers_are_not() {
        let ids = ["greeter", "say-hello", "search-code"];
        assert_eq!(closest("greter", ids), Some("greeter"));
        assert_eq!(closest("serach-code", ids), Some("search-code"));
        assert_eq!(closest("deploy", ids), None);
        assert_eq!(closest("say-helo", ids), Some("say-hello"));
    }
}
