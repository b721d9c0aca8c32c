//! Mentions of skills and commands in Markdown prose: `/name` and `/plugin:name` (how Claude
//! Code, Copilot and the other hosts invoke a skill or command) and `$name` (Codex's explicit
//! skill mention). One left-to-right pass over the text, no backtracking, no allocation but the
//! output: a 5 MB AGENTS.md costs one pass, and a mention of any length is one entry holding its
//! range (its text is read from the file when needed).
//!
//! What is not a mention, and why:
//! - text in fenced code blocks (```` ``` ```` or `~~~`, CommonMark's rule: the closing fence uses
//!   the same character, at least as long): code is shell, paths and examples, not invocations.
//!   Inline code is read, since "run `/release-notes`" is how prose names a command;
//! - a `/` or `$` glued to what precedes it (`and/or`, `src/app`, `a$b`), or preceded by a
//!   character that makes it part of a path or URL (`./x`, `~/x`, `https://x/y`);
//! - a name followed by `/` or by `.` and a letter (`/usr/bin`, `/etc/hosts.conf`): a path;
//! - a `/` right after an HTTP method (`GET /health`): a route;
//! - `$` followed by an upper-case letter, a digit or `{` (`$HOME`, `$ARGUMENTS`, `$1`,
//!   `${VAR}`): shell variables and the hosts' argument substitutions; and a `$name` followed by
//!   `(`, `=`, `[` or `.` and a letter (code: `$fn(`, `$x = 1`, `$obj.prop`);
//! - names the hosts reserve are still scanned: whether `/help` is the host's command or a
//!   skill depends on the skills a host loading the file sees, which is resolution's question.

use crate::syntax::TextRange;

/// How a mention is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sigil {
    /// `/name` or `/plugin:name`.
    Slash,
    /// `$name`.
    Dollar,
}

/// One mention: where it is, and where its name (and plugin namespace, for `/x:name`) is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mention {
    pub sigil: Sigil,
    /// The whole mention, sigil included.
    pub range: TextRange,
    /// `x` of `/x:name`.
    pub plugin: Option<TextRange>,
    /// The skill or command name.
    pub name: TextRange,
}

impl Mention {
    pub fn name<'t>(&self, text: &'t str) -> &'t str {
        &text[self.name.start as usize..self.name.end as usize]
    }

    pub fn plugin<'t>(&self, text: &'t str) -> Option<&'t str> {
        self.plugin
            .map(|range| &text[range.start as usize..range.end as usize])
    }
}

/// HTTP methods: a `/` after one of these, and a space, is a route.
const HTTP_METHODS: &[&[u8]] = &[
    b"GET", b"POST", b"PUT", b"PATCH", b"DELETE", b"HEAD", b"OPTIONS",
];

/// Top-level folders of a Unix file system: `/tmp` alone is a path.
const UNIX_FOLDERS: &[&[u8]] = &[
    b"bin",
    b"boot",
    b"dev",
    b"etc",
    b"home",
    b"lib",
    b"mnt",
    b"opt",
    b"proc",
    b"root",
    b"run",
    b"sbin",
    b"srv",
    b"sys",
    b"tmp",
    b"usr",
    b"var",
    b"workspace",
];

/// The mentions of `text[start..]` (a body after its frontmatter), with ranges in the whole of
/// `text`.
pub fn scan_from(text: &str, start: usize) -> Vec<Mention> {
    let shift =
        |range: TextRange| TextRange::new(range.start + start as u32, range.end + start as u32);
    scan(&text[start..])
        .into_iter()
        .map(|m| Mention {
            range: shift(m.range),
            plugin: m.plugin.map(shift),
            name: shift(m.name),
            sigil: m.sigil,
        })
        .collect()
}

/// Every mention in `text`, in order. Linear in the text's length, and mostly vectorised
/// searches: one finds the fences (```` ``` ````, `~~~`), one the sigils, and only the lines
/// holding a sigil are looked at further. (Visiting every line, as the reading order suggests,
/// cost a call per line: half the scan of a large prose file.) `tests::scan_by_lines` is the
/// same scan written line by line, and the tests hold the two equal.
pub fn scan(text: &str) -> Vec<Mention> {
    let bytes = text.as_bytes();
    let fenced = fenced_code(bytes);
    let mut fenced = fenced.iter().peekable();
    let mut out = Vec::new();
    // The line of the last sigil looked at: where it starts, and the `\n` that ends it.
    let mut line: Option<(usize, usize)> = None;
    // No sigil stands inside a mention (names are letters, digits, `-` and `_`), so every sigil
    // found is tried.
    for at in memchr::memchr2_iter(b'/', b'$', bytes) {
        while fenced.next_if(|span| span.end <= at).is_some() {}
        if fenced.peek().is_some_and(|span| span.start <= at) {
            continue;
        }
        let (start, end) = match line {
            Some((start, end)) if at < end => (start, end),
            // Searching back only to the previous line's end keeps the searches disjoint.
            _ => {
                let from = line.map_or(0, |(_, end)| end);
                let start = memchr::memrchr(b'\n', &bytes[from..at]).map_or(from, |i| from + i + 1);
                let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
                (start, end)
            }
        };
        line = Some((start, end));
        out.extend(mention_at(bytes, start, at, end));
    }
    out
}

/// The byte spans of fenced code, in order: each from its opening fence line's start to its
/// closing fence line's end (or the text's end, when no fence closes it). The fence lines are
/// found by searching for three fence characters and keeping the hits that open a line.
fn fenced_code(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut fence_lines: Vec<usize> = [b"```", b"~~~"]
        .into_iter()
        .flat_map(|fence| memchr::memmem::find_iter(bytes, fence))
        .filter_map(|at| {
            // Up to three spaces may stand before the fence on its line.
            let mut start = at;
            while start > 0 && bytes[start - 1] == b' ' && at - start < 3 {
                start -= 1;
            }
            (start == 0 || bytes[start - 1] == b'\n').then_some(start)
        })
        .collect();
    fence_lines.sort_unstable();
    let line_end =
        |start: usize| memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
    let mut spans = Vec::new();
    let mut open: Option<(u8, usize, usize)> = None;
    for start in fence_lines {
        let Some((ch, len)) = fence_marker(&bytes[start..]) else {
            continue;
        };
        match open {
            None => open = Some((ch, len, start)),
            Some((open_ch, open_len, open_start)) if ch == open_ch && len >= open_len => {
                let end = line_end(start);
                if is_closing(&bytes[start..end]) {
                    spans.push(open_start..end);
                    open = None;
                }
            }
            Some(_) => {}
        }
    }
    if let Some((_, _, open_start)) = open {
        spans.push(open_start..bytes.len());
    }
    spans
}

/// A fence line: up to three spaces, then three or more backticks or tildes. `line` is the text
/// from the line's start on; only its first characters are read.
fn fence_marker(line: &[u8]) -> Option<(u8, usize)> {
    let indent = line.iter().take(4).take_while(|&&b| b == b' ').count();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let ch = *rest.first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = rest.iter().take_while(|&&b| b == ch).count();
    (len >= 3).then_some((ch, len))
}

/// A closing fence holds nothing but the fence and spaces.
fn is_closing(line: &[u8]) -> bool {
    let trimmed = line.iter().filter(|b| !b" \t\r`~".contains(b)).count();
    trimmed == 0
}

fn is_name_start(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// What may stand right before a sigil: the line's start, white space, or opening punctuation
/// and emphasis (`(`, `[`, `"`, `'`, `` ` ``, `*`, `_`, `>`, `,`, `;`).
fn may_precede(b: Option<u8>) -> bool {
    match b {
        None => true,
        Some(b) => b.is_ascii_whitespace() || b"([{\"'`*_>,;|".contains(&b),
    }
}

/// The mention whose sigil is at `at`, on the line `start..end`, if it is one.
fn mention_at(bytes: &[u8], start: usize, at: usize, end: usize) -> Option<Mention> {
    let sigil = bytes[at];
    let before = (at > start).then(|| bytes[at - 1]);
    // `"$var"` is shell quoting; a skill mention is not quoted that way.
    if !may_precede(before) || (sigil == b'$' && before == Some(b'"')) {
        return None;
    }
    if sigil == b'/' {
        slash_mention(bytes, start, at, end)
    } else {
        dollar_mention(bytes, at, end)
    }
}

/// The end of a name starting at `from` (exclusive). A trailing `_` or `-` is emphasis or a
/// dash (`_/name_`, `/name--`), not part of the name.
fn name_end(bytes: &[u8], from: usize, end: usize) -> usize {
    let mut j = from;
    while j < end && is_name_byte(bytes[j]) {
        j += 1;
    }
    while j > from + 1 && (bytes[j - 1] == b'_' || bytes[j - 1] == b'-') {
        j -= 1;
    }
    j
}

/// `$x = 1`, `$x += 1`: an assignment, so code.
fn assigned(bytes: &[u8], at: usize, end: usize) -> bool {
    let mut j = at;
    while j < end && bytes[j] == b' ' {
        j += 1;
    }
    j < end
        && (bytes[j] == b'='
            || (j + 1 < end && bytes[j + 1] == b'=' && b"+-*/.".contains(&bytes[j])))
}

/// True when what follows a name makes it part of a path, file name or code.
fn continues_as_path(bytes: &[u8], at: usize, end: usize) -> bool {
    if at >= end {
        return false;
    }
    match bytes[at] {
        b'/' | b'\\' | b'@' | b'=' | b'(' | b'[' | b'{' | b'<' | b'$' | b'%' | b'+' | b'#' => true,
        // `/hosts.conf`, `/index.html` (a sentence's full stop is followed by a space or ends
        // the line).
        b'.' | b':' => at + 1 < end && is_name_byte(bytes[at + 1]),
        _ => false,
    }
}

fn slash_mention(bytes: &[u8], line_start: usize, at: usize, end: usize) -> Option<Mention> {
    if after_http_method(bytes, line_start, at) {
        return None;
    }
    let first = at + 1;
    if first >= end || !is_name_start(bytes[first]) {
        return None;
    }
    let first_end = name_end(bytes, first, end);
    // `/plugin:name`: a second name after one colon.
    let (plugin, name_start, name_stop) =
        if first_end + 1 < end && bytes[first_end] == b':' && is_name_start(bytes[first_end + 1]) {
            let second_end = name_end(bytes, first_end + 1, end);
            (
                Some(TextRange::new(first as u32, first_end as u32)),
                first_end + 1,
                second_end,
            )
        } else {
            (None, first, first_end)
        };
    let name = &bytes[name_start..name_stop];
    // `/c` (a Windows switch) and `/tmp` (a folder every Unix has) are no invocations.
    if continues_as_path(bytes, name_stop, end)
        || !has_letter(name)
        || (plugin.is_none() && (name.len() < 2 || UNIX_FOLDERS.contains(&name)))
    {
        return None;
    }
    Some(Mention {
        sigil: Sigil::Slash,
        range: TextRange::new(at as u32, name_stop as u32),
        plugin,
        name: TextRange::new(name_start as u32, name_stop as u32),
    })
}

fn has_letter(name: &[u8]) -> bool {
    name.iter().any(|b| b.is_ascii_alphabetic())
}

/// `GET /health`: the word before the space is an HTTP method.
fn after_http_method(bytes: &[u8], line_start: usize, at: usize) -> bool {
    let mut j = at;
    let mut spaces = 0;
    while j > line_start && bytes[j - 1] == b' ' {
        j -= 1;
        spaces += 1;
    }
    if spaces == 0 {
        return false;
    }
    let word_end = j;
    while j > line_start && bytes[j - 1].is_ascii_uppercase() {
        j -= 1;
    }
    let word = &bytes[j..word_end];
    HTTP_METHODS.contains(&word)
}

fn dollar_mention(bytes: &[u8], at: usize, end: usize) -> Option<Mention> {
    let first = at + 1;
    // Upper case, digits, `{`: shell variables and argument substitutions.
    if first >= end || !bytes[first].is_ascii_lowercase() {
        return None;
    }
    let stop = name_end(bytes, first, end);
    let name = &bytes[first..stop];
    // `$camelCase`, `$snake_case` and `$ALL_CAPS` are code; skill names are lower-case words
    // joined by hyphens.
    if name.iter().any(|b| b.is_ascii_uppercase() || *b == b'_') {
        return None;
    }
    // `$client->call()`: code.
    let arrow = stop < end && (bytes[stop] == b'-' || bytes[stop] == b'>');
    if arrow || continues_as_path(bytes, stop, end) || assigned(bytes, stop, end) {
        return None;
    }
    Some(Mention {
        sigil: Sigil::Dollar,
        range: TextRange::new(at as u32, stop as u32),
        plugin: None,
        name: TextRange::new(first as u32, stop as u32),
    })
}

/// The skill an unresolved mention is a near miss of, when it is one we would defend: the
/// same words joined as skill names join them. `/conductor:setup` names no plugin of the
/// workspace, but `conductor-setup` is a skill: the mention was written for a host that
/// namespaces with `:` and the skills were installed flat. `/pdf_tools` where `pdf-tools` is a
/// skill is the same slip. Nothing else is guessed: edit distance finds `docx` for `/docs`,
/// `codeql` for `/model`, `firebase` for `/rebase` and `pdf` for `$ref`, ordinary words all,
/// and on the collections we measured it found no real typo that this rule misses.
/// `is_skill` answers whether a skill of that name is in scope.
pub fn near_miss(
    plugin: Option<&str>,
    name: &str,
    is_skill: impl Fn(&str) -> bool,
) -> Option<String> {
    let joined = match plugin {
        Some(plugin) => format!("{plugin}-{name}"),
        None if name.contains('_') => name.to_owned(),
        None => return None,
    };
    let candidate = joined.replace('_', "-");
    is_skill(&candidate).then_some(candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan as the reading order describes it: line by line, fence lines and what they
    /// enclose skipped, every sigil of the other lines tried. [`scan`] must find the same.
    fn scan_by_lines(text: &str) -> Vec<Mention> {
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        let mut fence: Option<(u8, usize)> = None;
        let mut start = 0;
        while start <= bytes.len() {
            let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
            let line = &bytes[start..end];
            match (fence, fence_marker(line)) {
                (None, Some(opened)) => fence = Some(opened),
                (Some((ch, len)), Some((close_ch, close_len)))
                    if close_ch == ch && close_len >= len && is_closing(line) =>
                {
                    fence = None
                }
                (Some(_), _) => {}
                (None, None) => {
                    let mut at = start;
                    while at < end {
                        match (b"/$".contains(&bytes[at]))
                            .then(|| mention_at(bytes, start, at, end))
                            .flatten()
                        {
                            Some(mention) => {
                                at = mention.range.end as usize;
                                out.push(mention);
                            }
                            None => at += 1,
                        }
                    }
                }
            }
            start = end + 1;
        }
        out
    }

    #[test]
    fn the_scan_finds_what_the_line_by_line_reading_finds() {
        // Texts drawn from the characters that decide a mention, fences and lines included.
        let alphabet: &[&str] = &[
            "/", "$", "\n", " ", "```", "~~~", "`", "~", "a", "-", ":", ".", "GET ", "\"", "\r",
            "tmp", "x1", "_", "    ", "\u{e9}",
        ];
        let mut seed = 0x2545_f491_u64;
        for case in 0..20_000 {
            let mut text = String::new();
            for _ in 0..(case % 60) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                text.push_str(alphabet[(seed % alphabet.len() as u64) as usize]);
            }
            assert_eq!(scan(&text), scan_by_lines(&text), "{text:?}");
        }
        for text in [
            "```\n/a-b\n```\n/c-d\n",
            "~~~~\n/x\n~~~\n/y\n~~~~~ \n/z-z\n",
            "   ```\n/in\n    ```\n/still\n```\n/out\n",
            "a\n```x /no\n/no\n",
        ] {
            assert_eq!(scan(text), scan_by_lines(text), "{text:?}");
        }
    }

    fn names(text: &str) -> Vec<String> {
        scan(text)
            .iter()
            .map(|m| {
                let sigil = match m.sigil {
                    Sigil::Slash => "/",
                    Sigil::Dollar => "$",
                };
                match m.plugin(text) {
                    Some(plugin) => format!("{sigil}{plugin}:{}", m.name(text)),
                    None => format!("{sigil}{}", m.name(text)),
                }
            })
            .collect()
    }

    #[test]
    fn the_three_forms_with_ranges() {
        let text = "Then run `/release-notes`, use $pdf-tools and /my-plugin:deploy.";
        let found = scan(text);
        assert_eq!(
            names(text),
            ["/release-notes", "$pdf-tools", "/my-plugin:deploy"]
        );
        assert_eq!(
            &text[found[0].range.start as usize..found[0].range.end as usize],
            "/release-notes"
        );
        assert_eq!(found[2].plugin(text), Some("my-plugin"));
        assert_eq!(found[2].name(text), "deploy");
    }

    #[test]
    fn what_is_not_a_mention() {
        for text in [
            "Look in /usr/bin and src/app for it.",
            "See https://example.com/docs and http://x.io/a.",
            "Use and/or either.",
            "GET /health returns 200; POST /users creates one.",
            "Set $HOME, $ARGUMENTS, $ARGUMENTS[0], $1 and ${VAR}.",
            "It costs $5.",
            "Run ./scripts/x.sh or ~/bin/y.",
            "Edit /etc/hosts.conf now.",
            "Call $fn(x) or $x = 1 or $obj.prop or $snake_case.",
            "A/B testing, 1/2 cup, w/o sugar.",
            "```\n/deploy now\n$pdf here\n```\n",
            "~~~~\n/deploy\n```\n/still-code\n~~~~\n",
            "/123 is a number.",
            "Quote `\"$var\"` and call `$client->beta()`.",
            "Run `cmd /c dir` in `/tmp`.",
        ] {
            assert_eq!(names(text), Vec::<String>::new(), "{text}");
        }
    }

    #[test]
    fn fences_close_and_prose_resumes() {
        let text = "```bash\n/in-code\n```\nthen /after and `/inline`\n";
        assert_eq!(names(text), ["/after", "/inline"]);
        // An unclosed fence runs to the end (CommonMark).
        assert_eq!(names("```\n/a\n/b\n"), Vec::<String>::new());
        // A line of more backticks inside a fence of three closes it; fewer do not.
        assert_eq!(names("````\n```\n/aa\n````\n/bb"), ["/bb"]);
    }

    #[test]
    fn punctuation_around_mentions() {
        assert_eq!(
            names("(/aa) [/bb] \"/cc\" **/dd** /ee. /ff, /gg: /hh! _/ii_ > /jj"),
            ["/aa", "/bb", "/cc", "/dd", "/ee", "/ff", "/gg", "/hh", "/ii", "/jj"]
        );
        assert_eq!(names("/review-pr; /x:y."), ["/review-pr", "/x:y"]);
        // A sentence ending right after a colon is still a mention; `/a:b` is the plugin form.
        assert_eq!(names("run /deploy: it ships"), ["/deploy"]);
    }

    #[test]
    fn near_misses_are_separator_slips_only() {
        let skills = [
            "conductor-setup",
            "pdf-tools",
            "docx",
            "codeql",
            "firebase",
            "pdf",
        ];
        let is_skill = |n: &str| skills.contains(&n);
        assert_eq!(
            near_miss(Some("conductor"), "setup", is_skill).as_deref(),
            Some("conductor-setup")
        );
        assert_eq!(
            near_miss(None, "pdf_tools", is_skill).as_deref(),
            Some("pdf-tools")
        );
        for word in ["docs", "model", "rebase", "ref", "pdf-tool"] {
            assert_eq!(near_miss(None, word, is_skill), None, "{word}");
        }
        assert_eq!(near_miss(Some("other"), "setup", is_skill), None);
    }

    #[test]
    fn hostile_inputs_are_linear_and_bounded() {
        // A mention of 100,000 characters is one mention.
        let long = format!("run /{} now", "a".repeat(100_000));
        let found = scan(&long);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].name.end - found[0].name.start, 100_000);
        // Five megabytes of slashes, dollars and fences: one pass.
        let hostile = "/ $ /a/ $A ``` ~~~ GET /x\n".repeat(200_000);
        assert!(hostile.len() > 5_000_000);
        let started = std::time::Instant::now();
        let found = scan(&hostile);
        assert!(found.len() <= hostile.len());
        // Generous: a linear pass takes milliseconds; a quadratic one would take hours.
        assert!(started.elapsed().as_secs() < 20);
        // One long line of mentions.
        let line = " /ab".repeat(2_000_000);
        assert_eq!(scan(&line).len(), 2_000_000);
    }
}
