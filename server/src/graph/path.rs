//! How graph diagnostics show a path: at most about ten hops, the middle elided with a count
//! (`a → b → … 4,990 more … → y → z`), and at most twenty related locations. A diagnostic about a
//! 5,000-node chain is then as long as one about a 12-node chain, so output grows with the number
//! of problems, not with the product of problems and path lengths.

/// Paths longer than this many hops are shown as a head, a count, and a tail.
pub const MAX_HOPS: usize = 10;
/// Hops shown before the elision.
pub const HEAD_HOPS: usize = 5;
/// Hops shown after the elision.
pub const TAIL_HOPS: usize = 4;
/// Related locations a graph diagnostic carries at most.
pub const MAX_RELATED: usize = 20;

/// Which nodes of a path of `nodes` nodes are shown: the first `head`, then `omitted` left out,
/// then the last `tail` (`head + omitted + tail == nodes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    pub head: usize,
    pub omitted: usize,
    pub tail: usize,
}

/// The split for a path of `nodes` nodes (`nodes - 1` hops), keeping `head_hops` hops in front and
/// `tail_hops` behind when the path has more than [`MAX_HOPS`] hops.
pub fn split(nodes: usize, head_hops: usize, tail_hops: usize) -> Shown {
    if nodes <= MAX_HOPS + 1 || nodes <= head_hops + tail_hops + 2 {
        return Shown {
            head: nodes,
            omitted: 0,
            tail: 0,
        };
    }
    let head = head_hops + 1;
    let tail = tail_hops + 1;
    Shown {
        head,
        omitted: nodes - head - tail,
        tail,
    }
}

/// `… 4,990 more …`
pub fn omission(omitted: usize) -> String {
    format!("… {} more …", thousands(omitted))
}

/// `a → b → c`, with the middle elided when the path is long. `names` is the whole path (a cycle
/// repeats its first node at the end).
pub fn render<S: AsRef<str>>(names: &[S]) -> String {
    let shown = split(names.len(), HEAD_HOPS, TAIL_HOPS);
    let mut parts: Vec<String> = names[..shown.head]
        .iter()
        .map(|n| n.as_ref().to_owned())
        .collect();
    if shown.omitted > 0 {
        parts.push(omission(shown.omitted));
        parts.extend(
            names[names.len() - shown.tail..]
                .iter()
                .map(|n| n.as_ref().to_owned()),
        );
    }
    parts.join(" → ")
}

/// `a, b, c`, or the first ten and a count (`a, b, …, j and 4,990 more`).
pub fn render_set<S: AsRef<str>>(names: &[S]) -> String {
    render_counted(&names[..names.len().min(MAX_HOPS)], names.len())
}

/// [`render_set`] of a set of `total` names of which only the first are at hand (`shown`, at
/// least the first ten when there are that many): a caller with thousands of names formats ten.
pub fn render_counted<S: AsRef<str>>(shown: &[S], total: usize) -> String {
    let shown: Vec<&str> = shown.iter().take(MAX_HOPS).map(AsRef::as_ref).collect();
    let mut text = shown.join(", ");
    if total > shown.len() {
        text.push_str(&format!(" and {} more", thousands(total - shown.len())));
    }
    text
}

/// How the advice ending a loop's message names a graph's nodes and what breaks its loops.
pub struct LoopWords {
    /// The nodes, in the plural (`agents`).
    pub nodes: &'static str,
    /// What to do to a tangle of loops (`remove entries`), said with "until none loops".
    pub untangle: &'static str,
    /// What to do to a loop that is all of its tangle (`remove one entry`).
    pub break_one: &'static str,
}

impl LoopWords {
    /// The advice for a loop of `loop_len` nodes in a strongly connected `tangle` of nodes
    /// (`name` gives a node's name): a loop that is one of several names the tangle, its first
    /// ten nodes and a count, however large it is.
    pub fn advice<'a>(
        &self,
        loop_len: usize,
        tangle: &[usize],
        name: impl Fn(usize) -> &'a str,
    ) -> String {
        if tangle.len() <= loop_len {
            return format!("; {}", self.break_one);
        }
        let shown: Vec<&str> = tangle.iter().take(MAX_HOPS).map(|&i| name(i)).collect();
        format!(
            "; this loop is one of several among {} {} ({}): {} until none loops",
            thousands(tangle.len()),
            self.nodes,
            render_counted(&shown, tangle.len()),
            self.untangle
        )
    }
}

/// The hops (edge `i` goes from node `i` to node `i + 1`) of a path with `hops` hops that get a
/// related location: all of them up to [`MAX_RELATED`], else the first and last ten.
pub fn related_hops(hops: usize) -> impl Iterator<Item = usize> {
    let half = MAX_RELATED / 2;
    let (front, back) = if hops <= MAX_RELATED {
        (hops, hops)
    } else {
        (half, hops - half)
    };
    (0..front).chain(back..hops)
}

/// `4990` → `4,990`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counted_set_names_the_first_ten_and_counts_the_rest() {
        let names: Vec<String> = (0..12).map(|i| format!("n{i}")).collect();
        assert_eq!(
            render_counted(&names[..10], 5_000),
            render_set(&(0..5_000).map(|i| format!("n{i}")).collect::<Vec<_>>())
        );
        assert_eq!(render_counted(&names[..3], 3), "n0, n1, n2");
        assert_eq!(render_counted(&names, 12), render_set(&names));
    }

    #[test]
    fn short_paths_are_shown_whole() {
        assert_eq!(render(&["a", "b", "a"]), "a → b → a");
        let eleven: Vec<String> = (0..11).map(|i| format!("n{i}")).collect();
        assert_eq!(render(&eleven).matches('→').count(), 10);
    }

    #[test]
    fn long_paths_keep_both_ends_and_count_the_rest() {
        let names: Vec<String> = (0..5_001).map(|i| format!("n{i}")).collect();
        assert_eq!(
            render(&names),
            "n0 → n1 → n2 → n3 → n4 → n5 → … 4,990 more … → n4996 → n4997 → n4998 → n4999 → n5000"
        );
    }

    #[test]
    fn sets_are_capped() {
        assert_eq!(render_set(&["a", "b"]), "a, b");
        let many: Vec<String> = (0..25).map(|i| format!("n{i}")).collect();
        assert!(render_set(&many).ends_with("n9 and 15 more"));
    }

    #[test]
    fn related_locations_are_capped() {
        assert_eq!(related_hops(3).collect::<Vec<_>>(), vec![0, 1, 2]);
        let many: Vec<usize> = related_hops(5_000).collect();
        assert_eq!(many.len(), MAX_RELATED);
        assert_eq!((many[0], many[19]), (0, 4_999));
    }

    #[test]
    fn numbers_get_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(7), "7");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
