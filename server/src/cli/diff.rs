//! Unified diffs of fixed files, for `check --diff`: lines compared with Myers' algorithm
//! (O((N+M)·D) time, O(D²) memory for D changed lines), hunks with three lines of context.

use std::io::{self, Write};

const CONTEXT: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Equal,
    Delete,
    Insert,
}

/// Writes the unified diff of `old` to `new` for the file shown as `path` (after `a/` and `b/`);
/// nothing when they are equal.
pub fn write_unified(out: &mut dyn Write, path: &str, old: &str, new: &str) -> io::Result<()> {
    write_file_diff(out, path, path, old, new)
}

/// Writes the diff of a file shown as `from` before and `to` after: a moved file (its folder
/// renamed) gets git's `diff --git` header with `rename from` / `rename to`, which `git apply`
/// carries out, then the unified diff of its text, if that changed too.
pub fn write_file_diff(
    out: &mut dyn Write,
    from: &str,
    to: &str,
    old: &str,
    new: &str,
) -> io::Result<()> {
    if from != to {
        writeln!(out, "diff --git a/{from} b/{to}")?;
        writeln!(out, "rename from {from}")?;
        writeln!(out, "rename to {to}")?;
    }
    if old == new {
        return Ok(());
    }
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let script = edit_script(&a, &b);
    writeln!(out, "--- a/{from}")?;
    writeln!(out, "+++ b/{to}")?;
    // Each op with the line numbers it stands at in `a` and `b`.
    let mut at = Vec::with_capacity(script.len());
    let (mut i, mut j) = (0usize, 0usize);
    for &op in &script {
        at.push((op, i, j));
        match op {
            Op::Equal => {
                i += 1;
                j += 1;
            }
            Op::Delete => i += 1,
            Op::Insert => j += 1,
        }
    }
    let changed: Vec<usize> = (0..at.len()).filter(|&k| at[k].0 != Op::Equal).collect();
    let mut k = 0;
    while k < changed.len() {
        // A hunk runs from CONTEXT lines before a change to CONTEXT lines after the last change
        // closer than 2 * CONTEXT to the one before it.
        let first = changed[k];
        let mut last = first;
        while k + 1 < changed.len() && changed[k + 1] - last <= 2 * CONTEXT {
            k += 1;
            last = changed[k];
        }
        k += 1;
        let start = first.saturating_sub(CONTEXT);
        let end = (last + CONTEXT + 1).min(at.len());
        let ops = &at[start..end];
        let old_count = ops.iter().filter(|o| o.0 != Op::Insert).count();
        let new_count = ops.iter().filter(|o| o.0 != Op::Delete).count();
        let (_, old_at, new_at) = ops[0];
        // A range of no lines names the line before it, as `diff -u` does.
        let shown = |at: usize, count: usize| if count == 0 { at } else { at + 1 };
        writeln!(
            out,
            "@@ -{},{old_count} +{},{new_count} @@",
            shown(old_at, old_count),
            shown(new_at, new_count)
        )?;
        for &(op, i, j) in ops {
            let (sign, line) = match op {
                Op::Equal => (' ', a[i]),
                Op::Delete => ('-', a[i]),
                Op::Insert => ('+', b[j]),
            };
            write!(out, "{sign}{line}")?;
            if !line.ends_with('\n') {
                write!(out, "\n\\ No newline at end of file\n")?;
            }
        }
    }
    Ok(())
}

/// The shortest edit script from `a` to `b` (Myers, greedy, keeping the band of each round).
fn edit_script(a: &[&str], b: &[&str]) -> Vec<Op> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max = (n + m) as usize;
    let offset = max as isize + 1;
    let mut v = vec![0isize; 2 * max + 3];
    // trace[d] holds v[k] for k in -d..=d after round d.
    let mut trace: Vec<Vec<isize>> = Vec::new();
    'rounds: for d in 0..=max as isize {
        for k in (-d..=d).step_by(2) {
            let index = (k + offset) as usize;
            let mut x = if k == -d || (k != d && v[index - 1] < v[index + 1]) {
                v[index + 1]
            } else {
                v[index - 1] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[index] = x;
            if x >= n && y >= m {
                trace.push(v[(offset - d) as usize..=(offset + d) as usize].to_vec());
                break 'rounds;
            }
        }
        trace.push(v[(offset - d) as usize..=(offset + d) as usize].to_vec());
    }
    // Walk back from (n, m) round by round.
    let mut ops = Vec::new();
    let (mut x, mut y) = (n, m);
    for d in (1..trace.len() as isize).rev() {
        let previous = &trace[(d - 1) as usize];
        let get = |k: isize| previous[(k + d - 1) as usize];
        let k = x - y;
        let previous_k = if k == -d || (k != d && get(k - 1) < get(k + 1)) {
            k + 1
        } else {
            k - 1
        };
        let previous_x = get(previous_k);
        let previous_y = previous_x - previous_k;
        while x > previous_x && y > previous_y {
            ops.push(Op::Equal);
            x -= 1;
            y -= 1;
        }
        ops.push(if x == previous_x {
            Op::Insert
        } else {
            Op::Delete
        });
        x = previous_x;
        y = previous_y;
    }
    while x > 0 && y > 0 {
        ops.push(Op::Equal);
        x -= 1;
        y -= 1;
    }
    ops.reverse();
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(old: &str, new: &str) -> String {
        let mut out = Vec::new();
        write_unified(&mut out, "f.yaml", old, new).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn hunks_carry_three_lines_of_context_and_merge_when_close() {
        let old: String = (1..=20).map(|i| format!("line {i}\n")).collect();
        let new = old
            .replace("line 2\n", "")
            .replace("line 5\n", "line five\n")
            .replace("line 18\n", "line 18\nadded\n");
        expect_test::expect![[r#"
            --- a/f.yaml
            +++ b/f.yaml
            @@ -1,8 +1,7 @@
             line 1
            -line 2
             line 3
             line 4
            -line 5
            +line five
             line 6
             line 7
             line 8
            @@ -16,5 +15,6 @@
             line 16
             line 17
             line 18
            +added
             line 19
             line 20
        "#]]
        .assert_eq(&diff(&old, &new));
    }

    #[test]
    fn equal_texts_give_nothing_and_a_missing_last_newline_is_marked() {
        assert_eq!(diff("a\n", "a\n"), "");
        expect_test::expect![[r#"
            --- a/f.yaml
            +++ b/f.yaml
            @@ -1,2 +1,2 @@
             a
            -b
            \ No newline at end of file
            +c
            \ No newline at end of file
        "#]]
        .assert_eq(&diff("a\nb", "a\nc"));
        expect_test::expect![[r#"
            --- a/f.yaml
            +++ b/f.yaml
            @@ -0,0 +1,1 @@
            +new
        "#]]
        .assert_eq(&diff("", "new\n"));
    }
}
