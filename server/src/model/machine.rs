//! Facts about the machine a workspace would run on, which the core cannot find out itself (it
//! does no I/O): whether each binary a command pack requires is on `PATH`, and the version its
//! `--version` prints. The edge finds them (`probe`, for the CLI) and hands them in as data
//! (`index::Settings::executables`); with no fact about a binary, nothing is said about it.
//!
//! The version rules are SwarmKit's, from `commands/_config.py` (`check_requirements`,
//! `_probe_version`, `_satisfies`; swarmkit-runtime 1.265.0, checked 2026-12-01).

/// What the edge found of one required binary.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Executable {
    /// Not found on `PATH` (or, for a name with a path separator, not an executable file).
    Missing,
    Found(VersionProbe),
}

/// The version a found binary reported.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum VersionProbe {
    /// Not run (the edge was not asked to run binaries): a version constraint is not judged.
    NotAsked,
    /// Run, but no `N.N` appeared in its output (or it could not be run, or timed out).
    Unreadable,
    /// The first `N.N[.N]` of its output.
    Read(Vec<u64>),
}

/// The first `major.minor[.patch]` in `output`, as the runtime's `(\d+)\.(\d+)(?:\.(\d+))?`
/// search finds it.
pub fn parse_version(output: &str) -> Option<Vec<u64>> {
    let bytes = output.as_bytes();
    let digits_at = |from: usize| -> usize {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let number =
        |from: usize, len: usize| -> u64 { output[from..from + len].parse().unwrap_or(u64::MAX) };
    let mut at = 0;
    while at < bytes.len() {
        let run = digits_at(at);
        if run == 0 {
            at += 1;
            continue;
        }
        let dot = at + run;
        if bytes.get(dot) == Some(&b'.') {
            let minor = digits_at(dot + 1);
            if minor > 0 {
                let mut version = vec![number(at, run), number(dot + 1, minor)];
                let second_dot = dot + 1 + minor;
                if bytes.get(second_dot) == Some(&b'.') {
                    let patch = digits_at(second_dot + 1);
                    if patch > 0 {
                        version.push(number(second_dot + 1, patch));
                    }
                }
                return Some(version);
            }
        }
        at = dot;
    }
    None
}

/// Whether `found` meets `constraint` (`>=1.7`, `<2`, `==1.2.3`, a bare `1.7` meaning `>=`), as
/// the runtime judges it: missing parts count as 0, and a constraint without a number is never
/// met.
pub fn satisfies(found: &[u64], constraint: &str) -> bool {
    let text = constraint.trim();
    let op = [">=", "<=", "==", ">", "<"]
        .into_iter()
        .find(|op| text.starts_with(op));
    let raw = op.map_or(text, |op| text[op.len()..].trim());
    let want: Vec<u64> = raw
        .split(|c: char| !c.is_ascii_digit())
        .filter(|part| !part.is_empty())
        .map(|part| part.parse().unwrap_or(u64::MAX))
        .collect();
    if want.is_empty() {
        return false;
    }
    let width = found.len().max(want.len());
    let pad = |v: &[u64]| {
        let mut v = v.to_vec();
        v.resize(width, 0);
        v
    };
    let (a, b) = (pad(found), pad(&want));
    match op.unwrap_or(">=") {
        ">=" => a >= b,
        "<=" => a <= b,
        "==" => a == b,
        ">" => a > b,
        _ => a < b,
    }
}

/// True when a constraint has no number in it, so no version ever meets it.
pub fn constraint_has_no_number(constraint: &str) -> bool {
    !constraint.chars().any(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_found_as_the_runtime_searches_them() {
        assert_eq!(parse_version("git version 2.43.0\n"), Some(vec![2, 43, 0]));
        assert_eq!(parse_version("jq-1.7.1"), Some(vec![1, 7, 1]));
        assert_eq!(parse_version("tool v12.3"), Some(vec![12, 3]));
        assert_eq!(
            parse_version("build 7, version 1.x then 3.4"),
            Some(vec![3, 4])
        );
        assert_eq!(parse_version("1.2.3.4"), Some(vec![1, 2, 3]));
        assert_eq!(parse_version("1..2"), None);
        assert_eq!(parse_version("no version here 42"), None);
    }

    #[test]
    fn constraints_are_judged_as_the_runtime_judges_them() {
        assert!(satisfies(&[2, 43, 0], ">=2.40"));
        assert!(!satisfies(&[2, 39], ">=2.40"));
        assert!(satisfies(&[1, 7], "1.7"), "a bare version means >=");
        assert!(satisfies(&[1, 7], "==1.7.0"), "missing parts are 0");
        assert!(satisfies(&[1, 9], "<2"));
        assert!(!satisfies(&[2, 0], "<2"));
        assert!(satisfies(&[3], "> 2.9"));
        assert!(!satisfies(&[3], "latest"), "no number is never met");
        assert!(constraint_has_no_number("latest"));
        assert!(!constraint_has_no_number(">=1"));
    }
}
