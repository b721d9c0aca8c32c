//! The proposed `metadata.chain` of a SKILL.md (seeds/skill-chaining-proposal.txt): an ordered
//! list of skills to load, with options beside it under `metadata`. File-local: the shape of the
//! list and options, entries that are paths going up or absolute, options that need `async`.
//! Cross-file: resolving entries (same parent folder first, then folders at the same level or
//! deeper), names that resolve only outside the chain's parent folder, cycles of chains calling
//! chains, and nesting deeper than `max_depth`.
//!
//! Reporting choices: a cycle is reported once per tangle of chains calling each other, on the
//! chain entry of the member whose SKILL.md path sorts first, naming the shortest loop through
//! it (elided in the middle when long), with a related location on its other edges. A chain that is not on a cycle but reaches one nests without end: that is reported as
//! `skillmd.chain-depth` on the entry leading to it.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Component, Path};

use super::catalogue::RuleDoc;
use super::skill_md::skill_root;
use crate::diagnostic::{Diagnostic, FileId, Severity};
use crate::graph::cycles::{Components, Digraph};
use crate::graph::path;
use crate::index::{Content, FileEntry, Index, Key, Lookup};
use crate::model::skill_md::normalize_name;
use crate::syntax::{Node, ScalarValue, TextRange, YamlDocument};

pub const DEFAULT_MAX_DEPTH: i64 = 10;

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: "skillmd.chain-shape",
        severity: Severity::Error,
        summary: "`metadata.chain` or one of its options has the wrong type or value.",
        explanation: "`chain` is a non-empty list of skill names (or relative paths to skill folders). Its \
options sit beside it under `metadata`: `async`, `continue_on_error`, `validate_on_load`, `cleanup_after`, \
`continue_on_success`, `pass_state`, `race_mode` are booleans; `timeout` and `retry_count` whole numbers of at \
least 0, `max_depth` and `parallel_limit` at least 1; `early_exit_on` one of `none`, `failure`, `success`, \
`critical`; `retry_until` one of `none`, `stable`, `success`. A runtime reading a wrong type falls back to a \
default silently (`timeout: \"30s\"` becomes no timeout). Write the value in the listed type; quoting a number \
makes it a string.",
    },
    RuleDoc {
        code: "skillmd.chain-unknown-skill",
        severity: Severity::Error,
        summary: "A chain entry names no skill the chain can reach.",
        explanation: "Entries resolve as the proposal describes: a skill of that name in the same parent folder \
as the chain's own skill folder first, then in folders at the same level or deeper. When nothing matches, a \
runtime that validates on load refuses the chain, and one that does not fails part-way through. An error by \
default; a warning when the chain sets `validate_on_load: false`. Fix the name (a suggestion is given when one \
is close), or create the skill.",
    },
    RuleDoc {
        code: "skillmd.chain-escape",
        severity: Severity::Error,
        summary: "A chain entry reaches above the chain's parent folder.",
        explanation: "A chain at one level may call skills at the same level or deeper, never above: this keeps \
a chain's reach inside its own subtree. Reported for an entry that is a path going up (`../audit`), an \
absolute path, and a name that resolves only to a skill outside the chain's parent folder (the related \
location shows it). Move the skill into the chain's subtree, or move the chain up.",
    },
    RuleDoc {
        code: "skillmd.chain-cycle",
        severity: Severity::Error,
        summary: "Chains call each other in a loop.",
        explanation: "A chain that, through the chains it calls, calls itself again never finishes (or is cut \
off at `max_depth` with a half-run state). Each tangle of chains calling each other is reported once, on the entry \
of the member whose SKILL.md path sorts first, with the shortest loop through it in the message (its first and last \
hops and a count of the rest when long) and a related location on its other edges. Remove one of \
the entries on the path.",
    },
    RuleDoc {
        code: "skillmd.chain-depth",
        severity: Severity::Error,
        summary: "Chains nest deeper than the chain's `max_depth` (default 10).",
        explanation: "A chain that calls only plain skills has depth 1; each chain it calls adds its own depth. \
The runtime stops at `max_depth`, so the skills beyond it never run. Also reported when the chain reaches a \
cycle of other chains: the nesting never ends. The message walks the deepest path (or the path to the loop), eliding \
the middle of a long one. Flatten the chains, or raise \
`max_depth` if the nesting is intended.",
    },
    RuleDoc {
        code: "skillmd.chain-option-conflict",
        severity: Severity::Warning,
        summary: "`parallel_limit` or `race_mode` is set on a chain that does not run in parallel.",
        explanation: "Both options only mean something when the chain's skills run in parallel, which takes \
`async: true`; chains are sequential by default, so the option is ignored and the chain does not behave as the \
file suggests. Add `async: true`, or remove the option.",
    },
];

#[derive(Clone, Copy)]
enum OptionType {
    Bool,
    Int { min: i64 },
    Enum(&'static [&'static str]),
}

const OPTIONS: &[(&str, OptionType)] = &[
    ("async", OptionType::Bool),
    ("continue_on_error", OptionType::Bool),
    ("timeout", OptionType::Int { min: 0 }),
    ("max_depth", OptionType::Int { min: 1 }),
    ("parallel_limit", OptionType::Int { min: 1 }),
    ("validate_on_load", OptionType::Bool),
    ("cleanup_after", OptionType::Bool),
    (
        "early_exit_on",
        OptionType::Enum(&["none", "failure", "success", "critical"]),
    ),
    ("continue_on_success", OptionType::Bool),
    ("pass_state", OptionType::Bool),
    ("retry_count", OptionType::Int { min: 0 }),
    (
        "retry_until",
        OptionType::Enum(&["none", "stable", "success"]),
    ),
    ("race_mode", OptionType::Bool),
];

/// The chain options (the keys beside `chain` under `metadata`).
pub fn is_option(key: &str) -> bool {
    OPTIONS.iter().any(|(name, _)| *name == key)
}

/// A readable `metadata.chain`.
pub struct Chain<'a> {
    pub metadata: Node<'a>,
    /// The string entries, in order.
    pub entries: Vec<Node<'a>>,
}

impl<'a> Chain<'a> {
    /// The chain of a frontmatter root, when `metadata.chain` is a list.
    pub fn of(root: Node<'a>) -> Option<Chain<'a>> {
        let metadata = root.get("metadata").filter(|m| m.is_mapping())?;
        let list = metadata.get("chain").filter(|c| c.is_sequence())?;
        let entries = list
            .items()
            .filter(|item| item.as_str().is_some_and(|s| !s.trim().is_empty()))
            .collect();
        Some(Chain { metadata, entries })
    }

    /// `async: true`: the chain's skills run in parallel rather than in order.
    pub fn runs_async(&self) -> bool {
        self.bool_option("async").unwrap_or(false)
    }

    fn bool_option(&self, key: &str) -> Option<bool> {
        match self.metadata.get(key)?.value() {
            ScalarValue::Bool(b) => Some(b),
            _ => None,
        }
    }

    fn max_depth(&self) -> i64 {
        match self.metadata.get("max_depth").map(|n| n.value()) {
            Some(ScalarValue::Int(i)) if i >= 1 => i,
            _ => DEFAULT_MAX_DEPTH,
        }
    }
}

/// What other files read of a SKILL.md's chain (its entries and where they are), for the index's
/// fingerprints.
pub(crate) fn fingerprint(yaml: Option<&YamlDocument>) -> u64 {
    fingerprint_of(yaml, true)
}

/// The chain's entries without where they are: what the chain graph is built from. A keystroke
/// that only moves the entries (typing in the description above them) leaves it alone, so it
/// does not rebuild the graph nor re-check every chain of the file set; the few diagnostics that
/// show another skill's entry read that skill's ranges themselves ([`live_range`]).
pub(crate) fn structure_fingerprint(yaml: Option<&YamlDocument>) -> u64 {
    fingerprint_of(yaml, false)
}

fn fingerprint_of(yaml: Option<&YamlDocument>, with_ranges: bool) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    if let Some(chain) = yaml.and_then(YamlDocument::root).and_then(Chain::of) {
        for entry in &chain.entries {
            entry.as_str().hash(&mut hasher);
            if with_ranges {
                entry.range().hash(&mut hasher);
            }
        }
    }
    hasher.finish()
}

fn is_path(entry: &str) -> bool {
    entry.contains('/') || entry.contains('\\') || entry.starts_with('~')
}

/// Why a path entry leaves the chain's parent folder, if it does.
fn path_escape(entry: &str) -> Option<&'static str> {
    let absolute = entry.starts_with('/')
        || entry.starts_with('\\')
        || entry.starts_with('~')
        || entry.as_bytes().get(1) == Some(&b':');
    if absolute {
        return Some("an absolute path");
    }
    Path::new(&entry.replace('\\', "/"))
        .components()
        .any(|c| c == Component::ParentDir)
        .then_some("a path going up (`..`)")
}

/// File-local checks of `metadata.chain` and its options.
pub(crate) fn check_local(file: FileId, root: Node<'_>, out: &mut Vec<Diagnostic>) {
    let Some(metadata) = root.get("metadata").filter(|m| m.is_mapping()) else {
        return;
    };
    let Some((_, list)) = metadata.entry("chain") else {
        // Without `chain`, the option names are ordinary metadata (checked as such).
        return;
    };
    let shape = |range: TextRange, message: String| {
        Diagnostic::new("skillmd.chain-shape", file, range, message)
    };
    if !list.is_sequence() {
        let hint = list
            .as_str()
            .map_or_else(String::new, |s| format!("; write `chain: [{s}]`"));
        out.push(shape(
            list.range(),
            format!(
                "`metadata.chain` must be a list of skill names, found {}{hint}",
                super::tools::article(list.type_name())
            ),
        ));
    } else if list.items().next().is_none() {
        out.push(shape(
            list.range(),
            "`metadata.chain` is empty, so the chain loads nothing; list the skills to run in order"
                .to_owned(),
        ));
    }
    for item in list.items() {
        match item.as_str() {
            Some(entry) if !entry.trim().is_empty() => {
                if let Some(why) = is_path(entry).then(|| path_escape(entry)).flatten() {
                    out.push(Diagnostic::new(
                        "skillmd.chain-escape",
                        file,
                        item.range(),
                        format!("`{entry}` is {why}; a chain may only call skills in its own parent folder or below it"),
                    ));
                }
            }
            Some(_) => out.push(shape(
                item.range(),
                "a chain entry is empty; write a skill name".to_owned(),
            )),
            None => out.push(shape(
                item.range(),
                format!(
                    "chain entries must be skill names (strings), found {}",
                    super::tools::article(item.type_name())
                ),
            )),
        }
    }
    for (key, value) in metadata.entries() {
        let Some((name, kind)) = OPTIONS.iter().find(|(name, _)| key.scalar() == Some(*name))
        else {
            continue;
        };
        let problem = match (*kind, value.value()) {
            (OptionType::Bool, ScalarValue::Bool(_)) => continue,
            (OptionType::Bool, _) => format!(
                "`{name}` must be `true` or `false`, found {}",
                super::tools::article(value.type_name())
            ),
            (OptionType::Int { min }, ScalarValue::Int(i)) if i >= min => continue,
            (OptionType::Int { min }, ScalarValue::Int(i)) => {
                format!("`{name}` must be at least {min}, found {i}")
            }
            (OptionType::Int { min }, _) => format!(
                "`{name}` must be a whole number of at least {min}, found {}{}",
                super::tools::article(value.type_name()),
                if value.as_str().is_some_and(|s| s.parse::<i64>().is_ok()) {
                    "; remove the quotes"
                } else {
                    ""
                }
            ),
            (OptionType::Enum(allowed), ScalarValue::Str(s)) if allowed.contains(&s) => continue,
            (OptionType::Enum(allowed), _) => format!(
                "`{name}` must be one of {}, found `{}`",
                allowed
                    .iter()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                value.scalar().unwrap_or(value.type_name())
            ),
        };
        out.push(shape(value.range(), problem));
    }
    let is_async = matches!(
        metadata.get("async").map(|n| n.value()),
        Some(ScalarValue::Bool(true))
    );
    if !is_async {
        for (key, value) in metadata.entries() {
            let option = key.scalar().unwrap_or_default();
            let set = match option {
                "parallel_limit" => !value.is_null(),
                "race_mode" => matches!(value.value(), ScalarValue::Bool(true)),
                _ => false,
            };
            if set {
                out.push(Diagnostic::new(
                    "skillmd.chain-option-conflict",
                    file,
                    key.range(),
                    format!("`{option}` only applies when the chain runs in parallel, and this chain is sequential (no `async: true`), so it is ignored; add `async: true` or remove `{option}`"),
                ));
            }
        }
    }
}

/// What a chain entry resolves to.
pub enum Target<'a> {
    /// A skill inside the chain's parent folder.
    Found(&'a FileEntry),
    /// A skill of that name, but only outside the chain's parent folder.
    Outside(&'a FileEntry),
    Unknown,
    /// A path entry going up or absolute (reported locally).
    Invalid,
}

/// Resolves one chain entry of the skill at `from` (its SKILL.md path).
pub fn resolve<'a>(lookup: &Lookup<'a>, from: &Path, entry: &str) -> Target<'a> {
    let Some(parent) = skill_root(from) else {
        return Target::Unknown;
    };
    if is_path(entry) {
        if path_escape(entry).is_some() {
            return Target::Invalid;
        }
        let relative = entry.replace('\\', "/");
        let relative = relative
            .trim_end_matches("SKILL.md")
            .trim_end_matches('/')
            .trim_start_matches("./");
        let folder = super::super::model::tools::tool_list_path(parent, relative);
        let skill = folder.join("SKILL.md");
        let Some(root) = folder.parent() else {
            return Target::Unknown;
        };
        return lookup
            .get(Key::SkillMdIn {
                parent: root.to_owned(),
            })
            .into_iter()
            .find(|e| e.path == skill)
            .map_or(Target::Unknown, Target::Found);
    }
    let candidates = lookup.get(Key::SkillMdNamed {
        name: normalize_name(entry),
    });
    if let Some(same) = candidates
        .iter()
        .find(|c| skill_root(&c.path) == Some(parent))
    {
        return Target::Found(same);
    }
    let deeper = candidates
        .iter()
        .filter(|c| skill_root(&c.path).is_some_and(|r| r.starts_with(parent)))
        .min_by_key(|c| (c.path.components().count(), &c.path));
    match (deeper, candidates.first()) {
        (Some(found), _) => Target::Found(found),
        (None, Some(outside)) => Target::Outside(outside),
        (None, None) => Target::Unknown,
    }
}

/// How a skill is called in messages: its name, else its folder.
fn display(entry: &FileEntry) -> String {
    if let Content::SkillMd(skill) = &entry.parsed.content {
        if let Some(name) = skill.normalized_name() {
            return name;
        }
    }
    entry
        .path
        .parent()
        .and_then(Path::file_name)
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

fn chain_of(entry: &FileEntry) -> Option<Chain<'_>> {
    entry.parsed.yaml.as_ref()?.root().and_then(Chain::of)
}

/// Cross-file checks of one skill's chain.
pub(crate) fn check(
    lookup: &Lookup<'_>,
    file: FileId,
    path: &Path,
    root: Node<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let Some(chain) = Chain::of(root) else {
        return;
    };
    let Some(me) = lookup.file(file) else {
        return;
    };
    let validate = chain.bool_option("validate_on_load").unwrap_or(true);
    let parent = skill_root(path).map(Path::to_path_buf).unwrap_or_default();
    for entry in &chain.entries {
        let name = entry.as_str().unwrap_or_default();
        match resolve(lookup, path, name) {
            Target::Found(_) | Target::Invalid => {}
            Target::Outside(target) => {
                let range = match &target.parsed.content {
                    Content::SkillMd(skill) => skill.name_range().unwrap_or_default(),
                    _ => TextRange::default(),
                };
                out.push(
                    Diagnostic::new(
                        "skillmd.chain-escape",
                        file,
                        entry.range(),
                        format!("`{name}` resolves only to a skill outside `{}`, this chain's parent folder; a chain may only call skills at its own level or below", folder_name(&parent)),
                    )
                    .with_related(target.id, range, format!("the only skill named `{name}`")),
                );
            }
            Target::Unknown => {
                let mut message = format!(
                    "no skill named `{name}` in `{}` or below it",
                    folder_name(&parent)
                );
                let known: Vec<String> = lookup
                    .get(Key::SkillMdIn {
                        parent: parent.clone(),
                    })
                    .iter()
                    .map(|e| display(e))
                    .collect();
                let best = super::suggest::closest(
                    &normalize_name(name),
                    known.iter().map(String::as_str),
                );
                if let Some(best) = best {
                    message.push_str(&format!("; did you mean `{best}`?"));
                }
                let mut diagnostic =
                    Diagnostic::new("skillmd.chain-unknown-skill", file, entry.range(), "");
                let fix = best.zip(lookup.file(file)).and_then(|(best, me)| {
                    super::fixes::replace_scalar(&me.text, file, entry.range(), name, best)
                });
                diagnostic
                    .fixes
                    .extend(fix.map(crate::diagnostic::Fix::preferred));
                if validate {
                    message.push_str("; with `validate_on_load` (the default) the chain is refused when it loads");
                } else {
                    message.push_str("; `validate_on_load: false`, so the chain would fail when it reaches this entry");
                    diagnostic = diagnostic.with_severity(Severity::Warning);
                }
                diagnostic.message = message;
                out.push(diagnostic);
            }
        }
    }
    check_graph(lookup, me, &chain, out);
}

fn folder_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The graph of chain calls between all named SKILL.md files, built once per state of their
/// names and chains (`Key::SkillMdChains`) and shared by every chain's check: components, one
/// cycle per tangle, and for every skill not on a cycle either the way to the nearest loop it
/// reaches or its deepest nesting, each settled in dependency order (callees first).
#[derive(Debug, Default)]
pub struct ChainGraph {
    files: Vec<FileId>,
    names: Vec<String>,
    by_file: HashMap<FileId, usize>,
    /// Per skill: its chain entries that resolve, as (callee, entry range), in order. The ranges
    /// are those of the state the graph was built from; diagnostics take live ones through
    /// `call_entries` (the graph's key ignores where entries are).
    calls: Vec<Vec<(usize, TextRange)>>,
    /// Per skill, per call: the index of its entry in the skill's chain.
    call_entries: Vec<Vec<usize>>,
    components: Components,
    /// The cycle shown for each cyclic component, by component.
    cycle: HashMap<usize, Vec<usize>>,
    /// Per skill off every cycle: the path it follows, toward a loop when it reaches one, else
    /// along its deepest nesting.
    onward: Onward,
    reaches_loop: Vec<bool>,
}

/// Paths that follow one chosen call per skill: `next[n]` (a call index), `hops[n]` to the end,
/// and `anchor[n]`, the first skill on the path with at most [`ANCHOR_HOPS`] hops left, so the
/// tail of any path is read without walking it.
#[derive(Debug, Default)]
struct Onward {
    next: Vec<Option<usize>>,
    hops: Vec<usize>,
    anchor: Vec<usize>,
}

const ANCHOR_HOPS: usize = path::MAX_RELATED / 2 + 1;

/// The chain graph of the file set, built once per state of its names and chains.
pub fn chain_graph(lookup: &Lookup<'_>) -> std::sync::Arc<ChainGraph> {
    lookup.memo(Key::SkillMdChains, ChainGraph::build)
}

/// What the ordering graph reads: skills are numbered `0..len()` in path order.
impl ChainGraph {
    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn file(&self, node: usize) -> FileId {
        self.files[node]
    }

    /// How the skill is called in messages: its name, else its folder.
    pub fn name(&self, node: usize) -> &str {
        &self.names[node]
    }

    pub fn node_of(&self, file: FileId) -> Option<usize> {
        self.by_file.get(&file).copied()
    }

    /// The chain entries of `node` that resolve, in order, as (callee, index of the entry in
    /// the chain).
    pub fn calls(&self, node: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.calls[node]
            .iter()
            .zip(&self.call_entries[node])
            .map(|(&(to, _), &entry)| (to, entry))
    }

    pub fn on_cycle(&self, node: usize) -> bool {
        self.components.on_cycle(node)
    }

    /// Whether two skills lie in one loop of chains calling each other.
    pub fn same_loop(&self, a: usize, b: usize) -> bool {
        self.components.of[a] == self.components.of[b] && self.components.on_cycle(a)
    }

    /// Off every cycle, but reaching one: its nesting never ends (`skillmd.chain-depth`).
    pub fn reaches_loop(&self, node: usize) -> bool {
        self.reaches_loop[node]
    }
}

impl ChainGraph {
    fn build(index: &Index) -> ChainGraph {
        let mut entries: Vec<&FileEntry> = index
            .contributors(&Key::SkillMdChains)
            .filter_map(|id| index.file(id))
            .collect();
        // Numbered by path, so a tangle's earliest member is the one whose path sorts first.
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        let mut g = ChainGraph {
            files: entries.iter().map(|e| e.id).collect(),
            names: entries.iter().map(|e| display(e)).collect(),
            ..ChainGraph::default()
        };
        g.by_file = g.files.iter().enumerate().map(|(i, f)| (*f, i)).collect();
        // Resolution reads are the memo key's business, not any one checker's.
        let resolver = Lookup::new(index);
        let resolved: Vec<Vec<(usize, TextRange, usize)>> = entries
            .iter()
            .map(|entry| {
                chain_of(entry).map_or_else(Vec::new, |chain| {
                    chain
                        .entries
                        .iter()
                        .enumerate()
                        .filter_map(|(k, e)| {
                            match resolve(&resolver, &entry.path, e.as_str().unwrap_or_default()) {
                                Target::Found(target) => {
                                    g.by_file.get(&target.id).map(|&to| (to, e.range(), k))
                                }
                                _ => None,
                            }
                        })
                        .collect()
                })
            })
            .collect();
        g.call_entries = resolved
            .iter()
            .map(|calls| calls.iter().map(|c| c.2).collect())
            .collect();
        g.calls = resolved
            .into_iter()
            .map(|calls| {
                calls
                    .into_iter()
                    .map(|(to, range, _)| (to, range))
                    .collect()
            })
            .collect();
        let mut graph = Digraph::new(g.files.len());
        for (from, calls) in g.calls.iter().enumerate() {
            for &(to, _) in calls {
                graph.add_edge(from, to);
            }
        }
        g.components = graph.components();
        for cycle in graph.cycles_of(&g.components) {
            g.cycle.insert(g.components.of[cycle[0]], cycle);
        }
        let n = g.files.len();
        g.reaches_loop = vec![false; n];
        g.onward = Onward {
            next: vec![None; n],
            hops: vec![0; n],
            anchor: (0..n).collect(),
        };
        for (component, members) in g.components.members.iter().enumerate() {
            if g.components.cyclic[component] {
                continue;
            }
            let node = members[0];
            let (reaches, next, hops) = g.settle(&g.calls[node]);
            g.reaches_loop[node] = reaches;
            g.onward.next[node] = next;
            g.onward.hops[node] = hops;
            if let Some(call) = next {
                let to = g.calls[node][call].0;
                if hops > ANCHOR_HOPS && !g.components.on_cycle(to) {
                    g.onward.anchor[node] = g.onward.anchor[to];
                }
            }
        }
        g
    }

    /// For a skill off every cycle with these calls (callees already settled): whether it
    /// reaches a loop, the call its path follows, and the hops of that path. The path toward a
    /// loop takes the first call that reaches one; the deepest nesting the first deepest call.
    fn settle(&self, calls: &[(usize, TextRange)]) -> (bool, Option<usize>, usize) {
        let looping = calls
            .iter()
            .position(|&(to, _)| self.components.on_cycle(to) || self.reaches_loop[to]);
        if let Some(call) = looping {
            let to = calls[call].0;
            let rest = if self.components.on_cycle(to) {
                0
            } else {
                self.onward.hops[to]
            };
            return (true, Some(call), 1 + rest);
        }
        let mut best: (usize, Option<usize>) = (0, None);
        for (call, &(to, _)) in calls.iter().enumerate() {
            let depth = 1 + self.onward.hops[to];
            if depth > best.0 {
                best = (depth, Some(call));
            }
        }
        (false, best.1, best.0)
    }

    /// The `i`-th skill (`i >= 1`) of the path that starts with call `first` of `calls` and
    /// then follows each skill's chosen call; O(1) near either end of the path.
    fn onward_at_calls(&self, calls: &[(usize, TextRange)], first: usize, i: usize) -> usize {
        let mut at = calls[first].0;
        let mut index = 1;
        let anchor = self.onward.anchor[at];
        let anchor_index = 1 + (self.onward.hops[at] - self.onward.hops[anchor]);
        if i >= anchor_index {
            at = anchor;
            index = anchor_index;
        }
        while index < i {
            let Some(call) = self.onward.next[at] else {
                break;
            };
            at = self.calls[at][call].0;
            index += 1;
        }
        at
    }

    /// Where `from`'s chain calls `to`, as the file reads now: the graph's own ranges may be
    /// stale (see `calls`). Records the read of `from`'s entry, so the caller is re-checked when
    /// that file's entries move.
    fn live_range(&self, lookup: &Lookup<'_>, from: usize, to: usize) -> Option<TextRange> {
        let call = self.calls[from].iter().position(|(t, _)| *t == to)?;
        let entry = lookup.index().file(self.files[from])?;
        if let Content::SkillMd(skill) = &entry.parsed.content {
            if let Some(name) = skill.normalized_name() {
                lookup.get(Key::SkillMdNamed { name });
            }
        }
        let chain = chain_of(entry)?;
        Some(chain.entries.get(self.call_entries[from][call])?.range())
    }
}

/// Cycles through this skill, and nesting depth.
fn check_graph(lookup: &Lookup<'_>, me: &FileEntry, chain: &Chain<'_>, out: &mut Vec<Diagnostic>) {
    let graph = chain_graph(lookup);
    let mine = graph.by_file.get(&me.id).copied();
    if let Some(node) = mine.filter(|&n| graph.components.on_cycle(n)) {
        let component = graph.components.of[node];
        if graph.components.members[component][0] != node {
            return; // reported once, on the member whose path sorts first
        }
        let cycle = &graph.cycle[&component];
        let at = |k: usize| cycle[k % cycle.len()];
        let names: Vec<&str> = (0..=cycle.len())
            .map(|k| graph.names[at(k)].as_str())
            .collect();
        let Some(first) = graph.live_range(lookup, at(0), at(1)) else {
            return;
        };
        let mut diagnostic = Diagnostic::new(
            "skillmd.chain-cycle",
            me.id,
            first,
            format!(
                "chains call each other in a loop: {}; the chain never finishes, so remove one of these entries",
                path::render(&names)
            ),
        );
        for k in path::related_hops(cycle.len()).filter(|&k| k > 0) {
            if let Some(range) = graph.live_range(lookup, at(k), at(k + 1)) {
                diagnostic = diagnostic.with_related(
                    graph.files[at(k)],
                    range,
                    format!(
                        "`{}` calls `{}` here",
                        graph.names[at(k)],
                        graph.names[at(k + 1)]
                    ),
                );
            }
        }
        out.push(diagnostic);
        return;
    }
    // This skill's own calls, resolved as the graph resolves them (an unnamed SKILL.md is in no
    // one's chain, so it is not a node of the graph).
    let calls: Vec<(usize, TextRange)> = match mine {
        // The graph's ranges may be stale; this file's own are at hand.
        Some(node) => graph.calls[node]
            .iter()
            .zip(&graph.call_entries[node])
            .filter_map(|(&(to, _), &k)| Some((to, chain.entries.get(k)?.range())))
            .collect(),
        None => chain
            .entries
            .iter()
            .filter_map(
                |e| match resolve(lookup, &me.path, e.as_str().unwrap_or_default()) {
                    Target::Found(target) => {
                        graph.by_file.get(&target.id).map(|&to| (to, e.range()))
                    }
                    _ => None,
                },
            )
            .collect(),
    };
    let (reaches_loop, first, hops) = graph.settle(&calls);
    let Some(first) = first else { return };
    let max_depth = chain.max_depth();
    if !reaches_loop && (hops as i64) <= max_depth {
        return;
    }
    let me_name = display(me);
    let at = |i: usize| {
        if i == 0 {
            None
        } else {
            Some(graph.onward_at_calls(&calls, first, i))
        }
    };
    let name = |i: usize| at(i).map_or(me_name.as_str(), |n| graph.names[n].as_str());
    let shown = path::split(hops + 1, path::HEAD_HOPS, path::TAIL_HOPS);
    let mut names: Vec<&str> = (0..shown.head).map(name).collect();
    let omission = path::omission(shown.omitted);
    if shown.omitted > 0 {
        names.push(&omission);
        names.extend((hops + 1 - shown.tail..=hops).map(name));
    }
    let range = calls[first].1;
    if reaches_loop {
        out.push(Diagnostic::new(
            "skillmd.chain-depth",
            me.id,
            range,
            format!(
                "the nesting of chains never ends: {} reaches a loop of chains, so the runtime stops at `max_depth` ({max_depth})",
                names.join(" → ")
            ),
        ));
        return;
    }
    let mut diagnostic = Diagnostic::new(
        "skillmd.chain-depth",
        me.id,
        range,
        format!(
            "chains nest {hops} levels deep ({}), deeper than `max_depth` ({max_depth}); the runtime stops there, so the innermost skills never run",
            names.join(" → ")
        ),
    );
    for i in path::related_hops(hops).filter(|&i| i > 0) {
        let (Some(from), Some(to)) = (at(i), at(i + 1)) else {
            continue;
        };
        if let Some(range) = graph.live_range(lookup, from, to) {
            diagnostic = diagnostic.with_related(
                graph.files[from],
                range,
                format!("`{}` calls `{}` here", graph.names[from], graph.names[to]),
            );
        }
    }
    out.push(diagnostic);
}
