//! The proposed `metadata.chain` of a SKILL.md (seeds/skill-chaining-proposal.txt): an ordered
//! list of skills to load, with options beside it under `metadata`. File-local: the shape of the
//! list and options, entries that are paths going up or absolute, options that need `async`.
//! Cross-file: resolving entries (same parent folder first, then folders at the same level or
//! deeper), names that resolve only outside the chain's parent folder, cycles of chains calling
//! chains, and nesting deeper than `max_depth`.
//!
//! Reporting choices: a cycle is reported once, on the chain entry of the cycle's member whose
//! SKILL.md path sorts first, naming the whole path, with a related location on every other
//! edge. A chain that is not on a cycle but reaches one nests without end: that is reported as
//! `skillmd.chain-depth` on the entry leading to it.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Component, Path};

use super::catalogue::RuleDoc;
use super::skill_md::skill_root;
use crate::diagnostic::{Diagnostic, FileId, Severity};
use crate::graph::cycles::Digraph;
use crate::index::{Content, FileEntry, Key, Lookup};
use crate::model::skill_md::normalize_name;
use crate::syntax::{Node, ScalarValue, TextRange, YamlDocument};

pub const DEFAULT_MAX_DEPTH: i64 = 10;
/// The chain graph explored from one skill is capped, so a pathological tree costs bounded time.
const MAX_NODES: usize = 2_000;

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
off at `max_depth` with a half-run state). The cycle is reported once, on the entry of the member whose SKILL.md \
path sorts first, with the whole path in the message and a related location on every other edge. Remove one of \
the entries on the path.",
    },
    RuleDoc {
        code: "skillmd.chain-depth",
        severity: Severity::Error,
        summary: "Chains nest deeper than the chain's `max_depth` (default 10).",
        explanation: "A chain that calls only plain skills has depth 1; each chain it calls adds its own depth. \
The runtime stops at `max_depth`, so the skills beyond it never run. Also reported when the chain reaches a \
cycle of other chains: the nesting never ends. The message walks the deepest path. Flatten the chains, or raise \
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
    let mut hasher = std::hash::DefaultHasher::new();
    if let Some(chain) = yaml.and_then(YamlDocument::root).and_then(Chain::of) {
        for entry in &chain.entries {
            entry.as_str().hash(&mut hasher);
            entry.range().hash(&mut hasher);
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

/// A chain call: the entry in `from`'s chain that resolves to `to`.
struct Edge {
    from: usize,
    to: usize,
    range: TextRange,
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
                if let Some(best) =
                    super::suggest::closest(&normalize_name(name), known.iter().map(String::as_str))
                {
                    message.push_str(&format!("; did you mean `{best}`?"));
                }
                let mut diagnostic =
                    Diagnostic::new("skillmd.chain-unknown-skill", file, entry.range(), "");
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

/// Cycles through this skill, and nesting depth.
fn check_graph(lookup: &Lookup<'_>, me: &FileEntry, chain: &Chain<'_>, out: &mut Vec<Diagnostic>) {
    // Explore the chains reachable from this one.
    let mut nodes: Vec<&FileEntry> = vec![me];
    let mut index: HashMap<FileId, usize> = HashMap::from([(me.id, 0)]);
    let mut edges: Vec<Edge> = Vec::new();
    let mut next = 0;
    while next < nodes.len() && nodes.len() < MAX_NODES {
        let node = nodes[next];
        let owned;
        let node_chain = if next == 0 {
            chain
        } else {
            match chain_of(node) {
                Some(c) => {
                    owned = c;
                    &owned
                }
                None => {
                    next += 1;
                    continue;
                }
            }
        };
        for entry in &node_chain.entries {
            if let Target::Found(target) =
                resolve(lookup, &node.path, entry.as_str().unwrap_or_default())
            {
                let to = *index.entry(target.id).or_insert_with(|| {
                    nodes.push(target);
                    nodes.len() - 1
                });
                edges.push(Edge {
                    from: next,
                    to,
                    range: entry.range(),
                });
            }
        }
        next += 1;
    }
    // Number the nodes by path, so each cycle starts at the member whose path sorts first.
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    order.sort_by(|a, b| nodes[*a].path.cmp(&nodes[*b].path));
    let mut rank = vec![0; nodes.len()];
    for (r, &n) in order.iter().enumerate() {
        rank[n] = r;
    }
    let mut graph = Digraph::new(nodes.len());
    for edge in &edges {
        graph.add_edge(rank[edge.from], rank[edge.to]);
    }
    let first_edge = |from: usize, to: usize| {
        edges
            .iter()
            .find(|e| e.from == order[from] && e.to == order[to])
    };
    let cycles = graph.cycles();
    let mine = rank[0];
    let in_cycle = cycles.iter().any(|c| c.contains(&mine));
    for cycle in cycles.iter().filter(|c| c[0] == mine) {
        let mut names: Vec<String> = cycle.iter().map(|&r| display(nodes[order[r]])).collect();
        names.push(names[0].clone());
        let Some(first) = first_edge(cycle[0], *cycle.get(1).unwrap_or(&cycle[0])) else {
            continue;
        };
        let mut diagnostic = Diagnostic::new(
            "skillmd.chain-cycle",
            me.id,
            first.range,
            format!("chains call each other in a loop: {}; the chain never finishes, so remove one of these entries", names.join(" → ")),
        );
        for i in 1..cycle.len() {
            let (from, to) = (cycle[i], cycle[(i + 1) % cycle.len()]);
            if let Some(edge) = first_edge(from, to) {
                diagnostic = diagnostic.with_related(
                    nodes[edge.from].id,
                    edge.range,
                    format!(
                        "`{}` calls `{}` here",
                        display(nodes[edge.from]),
                        display(nodes[edge.to])
                    ),
                );
            }
        }
        out.push(diagnostic);
    }
    if in_cycle {
        return;
    }
    let max_depth = chain.max_depth();
    let on_cycle: Vec<bool> = (0..nodes.len())
        .map(|n| cycles.iter().any(|c| c.contains(&rank[n])))
        .collect();
    if on_cycle.iter().any(|&b| b) {
        // Not on a cycle, but perhaps reaching one: the nesting never ends.
        for edge in edges.iter().filter(|e| e.from == 0) {
            if let Some(path) = path_to_cycle(&edges, &on_cycle, edge.to) {
                let names: Vec<String> = std::iter::once(0)
                    .chain(path.iter().copied())
                    .map(|n| display(nodes[n]))
                    .collect();
                out.push(Diagnostic::new(
                    "skillmd.chain-depth",
                    me.id,
                    edge.range,
                    format!("the nesting of chains never ends: {} reaches a loop of chains, so the runtime stops at `max_depth` ({max_depth})", names.join(" → ")),
                ));
                return;
            }
        }
        return;
    }
    // A directed acyclic graph: the longest path of chain calls from here.
    let mut depth: Vec<Option<(usize, Option<usize>)>> = vec![None; nodes.len()];
    fn longest(n: usize, edges: &[Edge], depth: &mut Vec<Option<(usize, Option<usize>)>>) -> usize {
        if let Some((d, _)) = depth[n] {
            return d;
        }
        depth[n] = Some((0, None)); // guards against revisits; the graph is acyclic here
        let mut best = (0, None);
        for (i, edge) in edges.iter().enumerate().filter(|(_, e)| e.from == n) {
            let d = 1 + longest(edge.to, edges, depth);
            if d > best.0 {
                best = (d, Some(i));
            }
        }
        depth[n] = Some(best);
        best.0
    }
    let deepest = longest(0, &edges, &mut depth);
    if (deepest as i64) <= max_depth {
        return;
    }
    let mut path = vec![0];
    let mut steps = Vec::new();
    while let Some(Some((_, Some(i)))) = depth.get(*path.last().unwrap_or(&0)) {
        steps.push(*i);
        path.push(edges[*i].to);
    }
    let names: Vec<String> = path.iter().map(|&n| display(nodes[n])).collect();
    let Some(&first) = steps.first() else {
        return;
    };
    let mut diagnostic = Diagnostic::new(
        "skillmd.chain-depth",
        me.id,
        edges[first].range,
        format!(
            "chains nest {deepest} levels deep ({}), deeper than `max_depth` ({max_depth}); the runtime stops there, so the innermost skills never run",
            names.join(" → ")
        ),
    );
    for &i in steps.iter().skip(1).take(20) {
        let edge = &edges[i];
        diagnostic = diagnostic.with_related(
            nodes[edge.from].id,
            edge.range,
            format!(
                "`{}` calls `{}` here",
                display(nodes[edge.from]),
                display(nodes[edge.to])
            ),
        );
    }
    out.push(diagnostic);
}

/// A path of nodes from `start` to a node on a cycle, if there is one.
fn path_to_cycle(edges: &[Edge], on_cycle: &[bool], start: usize) -> Option<Vec<usize>> {
    let mut previous: HashMap<usize, usize> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    let mut seen = vec![false; on_cycle.len()];
    seen[start] = true;
    while let Some(n) = queue.pop_front() {
        if on_cycle[n] {
            let mut path = vec![n];
            let mut at = n;
            while let Some(&p) = previous.get(&at) {
                path.push(p);
                at = p;
            }
            path.reverse();
            return Some(path);
        }
        for edge in edges.iter().filter(|e| e.from == n) {
            if !seen[edge.to] {
                seen[edge.to] = true;
                previous.insert(edge.to, n);
                queue.push_back(edge.to);
            }
        }
    }
    None
}
