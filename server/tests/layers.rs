//! The layering of the engine, enforced: every `crate::…` and `super::…` path in `server/src`
//! (test modules included: a test reaching upward ties the layers together as surely as code
//! does) names a module at the same layer or below, and the files of every module import each
//! other without a circle. The layers are drawn in docs/architecture.md ("Layers"); the table
//! below is the same drawing. Above the model, `rules` and `ide` read lowered values, never the YAML tree:
//! only the places listed in `TREE_READERS` name it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use text::assert_contains;

#[path = "support/sources.rs"]
mod sources;
#[path = "support/text.rs"]
mod text;
#[path = "support/tree.rs"]
mod tree;

/// The engine's top-level modules by layer, from the bottom. A module may name modules of its
/// own layer and of the layers below.
const LAYERS: &[&[&str]] = &[
    &["syntax", "graph", "suggest"],
    &["diagnostic"],
    &["model"],
    &["index"],
    &["semantics"],
    &["rules", "testing", "audit"],
    &["ide"],
    &["fix", "discover", "audit_log"],
    &["check", "cli", "lsp", "mcp", "probe"],
    &["fuzzing"],
];

/// Files that still import upward, each with the one module it reaches and why it is allowed
/// for now. An entry that is no longer needed fails the test, so the list only shrinks.
const NOT_YET: &[(&str, &str)] = &[];

/// Circles among the files of one module that are still allowed for now, each as (module, the
/// files on it, sorted); the module's owner breaks them. An entry no longer needed fails the
/// test, so the list only shrinks.
const CIRCLES_NOT_YET: &[(&str, &[&str])] = &[];

/// `syntax`'s YAML tree: the document and its nodes.
const TREE_NAMES: &[&str] = &["YamlDocument", "Node", "NodeKind", "NodeId"];

/// The places in `rules/` and `ide/` that name the YAML tree, as (file, item, why); `*` stands
/// for every item of the file. The index drops every file's tree once the file is analysed, so
/// only a check it runs during analysis (handed the tree while it exists) or code that parses a
/// text again on purpose may hold one. An entry no longer needed fails the test.
const TREE_READERS: &[(&str, &str, &str)] = &[
    (
        "rules/schema.rs",
        "*",
        "the JSON Schema check: file-local, run during analysis",
    ),
    ("rules/schema/locate.rs", "*", "part of the JSON Schema check"),
    ("rules/schema/report.rs", "*", "part of the JSON Schema check"),
    (
        "rules/swarmkit_file.rs",
        "*",
        "the SwarmKit files' file-local checks (syntax, duplicate keys, `kind:`), run during analysis",
    ),
    (
        "rules/skill_md.rs",
        "check_local",
        "SKILL.md's file-local checks, run during analysis",
    ),
    (
        "rules/skill_md/frontmatter_errors.rs",
        "syntax_diagnostics",
        "the frontmatter's YAML errors, from check_local",
    ),
    (
        "rules/skill_md.rs",
        "check_metadata",
        "`metadata`'s value shapes, from check_local",
    ),
    (
        "rules/mod.rs",
        "CHECKS",
        "its `disable_fix` parses the file again: a code action is rare, keeping trees is not",
    ),
    (
        "rules/suppress.rs",
        "disable_fix",
        "the disable-comment code action, handed the file parsed again",
    ),
    (
        "rules/suppress.rs",
        "comment_would_be_text",
        "from disable_fix",
    ),
    (
        "rules/suppress.rs",
        "disable_at",
        "a test of disable_fix, parsing its own text",
    ),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// One path found in a file: the line it is on and the module path it names, from the root.
#[derive(Debug, PartialEq, Eq)]
struct Reference {
    line: usize,
    target: Vec<String>,
}

/// The file's text with comments, strings and character literals blanked out (newlines kept),
/// so that paths written in docs or messages are not read as imports.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_before(&chars, i) {
            // A raw string: r"…", r#"…"#, …
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                match chars.get(j) {
                    None => break,
                    Some('"') if (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) => {
                        j += 1 + hashes;
                        break;
                    }
                    _ => j += 1,
                }
            }
            for &skipped in &chars[i..j.min(chars.len())] {
                out.push(blank(skipped));
            }
            i = j;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{1F600}'), or else a lifetime.
            let end = if next == Some('\\') {
                (i + 2..chars.len()).find(|&j| chars[j] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(end) => {
                    for _ in i..=end {
                        out.push(' ');
                    }
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_before(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// The module path of a file below `src` (`ide/hover.rs` is `ide::hover`, `ide/mod.rs` is
/// `ide`, `lib.rs` the root).
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_owned());
    }
    parts
}

/// Every `crate::…` and `super::…` path of a file, resolved to a path from the root. Inline
/// modules (`mod tests { … }`) count for `super`. A `use` group (`crate::{a, b::c}`) yields
/// one path per member.
fn references(module: &[String], text: &str) -> Vec<Reference> {
    let code = code_only(text);
    let tokens = tokenize(&code);
    let mut out = Vec::new();
    // The module each open brace belongs to: an inline module's brace pushes its name.
    let mut scopes: Vec<Option<String>> = Vec::new();
    let mut pending_mod: Option<String> = None;
    let mut i = 0;
    while i < tokens.len() {
        let (_, token) = &tokens[i];
        match token.as_str() {
            "mod" => {
                if let Some((_, name)) = tokens.get(i + 1) {
                    if tokens.get(i + 2).map(|t| t.1.as_str()) == Some("{") {
                        pending_mod = Some(name.clone());
                    }
                }
            }
            "{" => scopes.push(pending_mod.take()),
            "}" => {
                scopes.pop();
            }
            "crate" | "super"
                if tokens.get(i + 1).map(|t| t.1.as_str()) == Some("::")
                    && !(i > 0 && tokens[i - 1].1 == "::") =>
            {
                let mut current: Vec<String> = module.to_vec();
                current.extend(scopes.iter().flatten().cloned());
                let mut base = if token == "crate" {
                    Vec::new()
                } else {
                    current
                };
                let mut j = i;
                if token == "super" {
                    while tokens.get(j).map(|t| t.1.as_str()) == Some("super")
                        && tokens.get(j + 1).map(|t| t.1.as_str()) == Some("::")
                    {
                        base.pop();
                        j += 2;
                    }
                } else {
                    j += 2;
                }
                let mut prefixes = vec![base];
                for (target, at) in path_from(&tokens, j, &mut prefixes) {
                    out.push(Reference {
                        line: tokens[at].0,
                        target,
                    });
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The paths starting at token `j` (after `crate::` or the last `super::`), with each `{…}`
/// group expanded one member at a time; returns (path, token index).
fn path_from(
    tokens: &[(usize, String)],
    j: usize,
    prefixes: &mut Vec<Vec<String>>,
) -> Vec<(Vec<String>, usize)> {
    let mut out = Vec::new();
    let mut path = prefixes.last().cloned().unwrap_or_default();
    let mut k = j;
    while let Some((_, token)) = tokens.get(k) {
        if token == "{" {
            // A group: each member continues the path so far.
            let mut depth = 0;
            let mut member_start = k + 1;
            let mut m = k;
            while let Some((_, t)) = tokens.get(m) {
                match t.as_str() {
                    "{" => depth += 1,
                    "}" => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    "," if depth == 1 => {
                        prefixes.push(path.clone());
                        out.extend(path_from(tokens, member_start, prefixes));
                        prefixes.pop();
                        member_start = m + 1;
                    }
                    _ => {}
                }
                m += 1;
            }
            if member_start < m {
                prefixes.push(path.clone());
                out.extend(path_from(tokens, member_start, prefixes));
                prefixes.pop();
            }
            return out;
        }
        if !is_ident(token) || token == "self" {
            break;
        }
        path.push(token.clone());
        if tokens.get(k + 1).map(|t| t.1.as_str()) != Some("::") {
            break;
        }
        k += 2;
    }
    if !path.is_empty() {
        out.push((path, j.min(tokens.len().saturating_sub(1))));
    }
    out
}

fn is_ident(token: &str) -> bool {
    token
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// Identifiers, `::`, braces and commas, each with its line (1-based); other characters are
/// dropped.
fn tokenize(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_alphanumeric() || c == '_' {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                out.push((n + 1, chars[start..i].iter().collect()));
                continue;
            }
            if c == ':' && chars.get(i + 1) == Some(&':') {
                out.push((n + 1, "::".to_owned()));
                i += 2;
                continue;
            }
            if matches!(c, '{' | '}' | ',' | ';') {
                out.push((n + 1, c.to_string()));
            }
            i += 1;
        }
    }
    out
}

/// Where a file's code names the YAML tree (outside `use` items): (item, line, name), the item
/// being the outermost `fn`, `static`, `const`, `struct`, `enum`, `type` or `trait` around the
/// name (looking inside `mod` and `impl` blocks). A name counts when the file reaches it in
/// `syntax` (`use crate::syntax::{Node, …}`, `crate::syntax::YamlDocument::parse`).
fn tree_mentions(module: &[String], text: &str) -> Vec<(String, usize, String)> {
    let names: BTreeSet<String> = references(module, text)
        .into_iter()
        .filter(|r| r.target.first().map(String::as_str) == Some("syntax"))
        .filter_map(|r| {
            r.target
                .iter()
                .find(|part| TREE_NAMES.contains(&part.as_str()))
                .cloned()
        })
        .collect();
    let mut out = Vec::new();
    if names.is_empty() {
        return out;
    }
    let tokens = tokenize(&code_only(text));
    // The item each open brace belongs to (`None` for `mod`, `impl`, blocks inside items).
    let mut scopes: Vec<Option<String>> = Vec::new();
    let mut pending: Option<String> = None;
    let mut in_use = false;
    for (i, (line, token)) in tokens.iter().enumerate() {
        let outermost = scopes.iter().all(Option::is_none);
        let next = tokens.get(i + 1).map(|t| t.1.as_str());
        match token.as_str() {
            "use" => in_use = true,
            ";" => {
                in_use = false;
                if outermost {
                    pending = None;
                }
            }
            // Only outside every item, and only the first keyword: `'static` in a signature
            // reads as `static` once the quote is dropped.
            "fn" | "static" | "const" | "struct" | "enum" | "type" | "trait"
                if outermost && pending.is_none() && next.is_some_and(|n| n != "fn") =>
            {
                pending = next.map(str::to_owned);
            }
            "{" => scopes.push(pending.take()),
            "}" => {
                scopes.pop();
            }
            name if !in_use && names.contains(name) => {
                let owner = scopes
                    .iter()
                    .flatten()
                    .next()
                    .or(pending.as_ref())
                    .cloned()
                    .unwrap_or_default();
                out.push((owner, *line, name.to_owned()));
            }
            _ => {}
        }
    }
    out
}

/// Every place of `rules/` and `ide/` naming the YAML tree that `allowed` does not list, and
/// every allowance no longer needed.
fn tree_readers(files: &BTreeMap<PathBuf, String>, allowed: &[(&str, &str, &str)]) -> Vec<String> {
    let mut out = Vec::new();
    let mut used = BTreeSet::new();
    for (path, text) in files {
        let module = module_of(path);
        if !matches!(module.first().map(String::as_str), Some("rules" | "ide")) {
            continue;
        }
        let file = path.to_string_lossy().replace('\\', "/");
        for (item, line, name) in tree_mentions(&module, text) {
            let allowance = allowed
                .iter()
                .position(|(f, i, _)| *f == file && (*i == "*" || *i == item));
            match allowance {
                Some(at) => {
                    used.insert(at);
                }
                None => out.push(format!(
                    "{file}:{line}: `{item}` names the YAML tree (`{name}`); read the lowered model instead, or list it in TREE_READERS with why"
                )),
            }
        }
    }
    for (at, (file, item, _)) in allowed.iter().enumerate() {
        if !used.contains(&at) {
            out.push(format!(
                "{file}: `{item}` no longer names the YAML tree; remove it from TREE_READERS"
            ));
        }
    }
    out
}

/// What is wrong with a set of files (path below `src` -> text): one line per upward import
/// (`file:line: …`), and a circle among the top-level modules.
fn problems(files: &BTreeMap<PathBuf, String>, allowed: &[(&str, &str)]) -> Vec<String> {
    let mut out = Vec::new();
    let mut used_allowances = BTreeSet::new();
    let mut module_edges: Edges = BTreeMap::new();
    for (path, text) in files {
        let module = module_of(path);
        let Some(top) = module.first() else { continue };
        let Some(layer) = layer_of(top) else {
            out.push(format!(
                "{}: the module `{top}` has no layer; add it to LAYERS (and to docs/architecture.md)",
                path.display()
            ));
            continue;
        };
        for reference in references(&module, text) {
            let Some(target_top) = reference.target.first() else {
                continue;
            };
            let Some(target_layer) = layer_of(target_top) else {
                continue; // a name defined in lib.rs, or a macro's `$crate`
            };
            if target_layer > layer {
                let file = path.to_string_lossy().replace('\\', "/");
                if allowed.contains(&(file.as_str(), target_top.as_str())) {
                    used_allowances.insert((file, target_top.clone()));
                    continue;
                }
                out.push(format!(
                    "{}:{}: `{top}` (layer {}) imports `{}` (layer {}), which is above it",
                    path.display(),
                    reference.line,
                    layer + 1,
                    reference.target.join("::"),
                    target_layer + 1
                ));
            }
            if target_top != top {
                module_edges
                    .entry(top.clone())
                    .or_default()
                    .entry(target_top.clone())
                    .or_insert((path.clone(), reference.line));
            }
        }
    }
    for (file, module) in allowed {
        if !used_allowances.contains(&(file.to_string(), module.to_string())) {
            out.push(format!(
                "{file}: no longer imports `{module}`; remove it from NOT_YET"
            ));
        }
    }
    out.extend(circle("the top-level modules", &module_edges));
    out
}

/// Importer -> imported -> the first place (file, line) the import is written.
type Edges = BTreeMap<String, BTreeMap<String, (PathBuf, usize)>>;

/// A circle among `units` importing each other, if there is one, found by repeatedly peeling the
/// units that import nothing left (Kahn's algorithm, iterative); what cannot be peeled is on or
/// behind a circle, and one circle through it is walked and printed.
fn circle(units: &str, edges: &Edges) -> Option<String> {
    let mut nodes: BTreeSet<&String> = edges.keys().collect();
    for targets in edges.values() {
        nodes.extend(targets.keys());
    }
    let mut out_degree: BTreeMap<&String, usize> = nodes
        .iter()
        .map(|n| (*n, edges.get(*n).map_or(0, |t| t.len())))
        .collect();
    let mut importers: BTreeMap<&String, Vec<&String>> = BTreeMap::new();
    for (from, targets) in edges {
        for to in targets.keys() {
            importers.entry(to).or_default().push(from);
        }
    }
    // Peel units that import nothing left: they cannot be on a circle.
    let mut ready: Vec<&String> = out_degree
        .iter()
        .filter(|(_, d)| **d == 0)
        .map(|(n, _)| *n)
        .collect();
    let mut removed = BTreeSet::new();
    while let Some(node) = ready.pop() {
        removed.insert(node);
        for importer in importers.get(node).into_iter().flatten() {
            let degree = out_degree.get_mut(importer).expect("known unit");
            *degree -= 1;
            if *degree == 0 {
                ready.push(importer);
            }
        }
    }
    let start = nodes.iter().find(|n| !removed.contains(*n))?;
    // Every remaining unit imports another remaining one: follow such edges until one repeats.
    let mut walk: Vec<&String> = vec![start];
    loop {
        let current = walk[walk.len() - 1];
        let next = edges[current]
            .keys()
            .find(|t| !removed.contains(t))
            .expect("a remaining unit imports a remaining unit");
        if let Some(at) = walk.iter().position(|n| *n == next) {
            let circle = &walk[at..];
            let mut text = format!("a circle among {units}: ");
            for (i, from) in circle.iter().enumerate() {
                let to = circle[(i + 1) % circle.len()];
                let (file, line) = &edges[*from][to];
                text.push_str(&format!("{from} -> {to} ({}:{line}); ", file.display()));
            }
            return Some(text.trim_end_matches("; ").to_owned());
        }
        walk.push(next);
    }
}

/// The names a module's front door (`m/mod.rs`, or `m.rs` beside a folder `m/`) brings in from
/// its files with `use` (`pub use c::{thing, other};`): name -> the file it comes from.
fn front_door_names(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for statement in code_only(text).split(';') {
        let Some(rest) = statement
            .lines()
            .find_map(|line| sources::without_visibility(line).strip_prefix("use "))
        else {
            continue;
        };
        let start = statement.find(rest).unwrap_or(0);
        let rest: String = statement[start..]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let Some((unit, names)) = rest.split_once("::") else {
            continue;
        };
        for name in names.replace(['{', '}'], " ").split(',') {
            let name = name.trim();
            let name = match name.split_once(" as ") {
                Some((_, alias)) => alias.trim(),
                None => name.rsplit("::").next().unwrap_or(name).trim(),
            };
            if !name.is_empty() && name != "*" && name != "self" {
                out.insert(name.to_owned(), unit.trim().to_owned());
            }
        }
    }
    out
}

/// One line per circle among the files of a module (the files and folders directly inside it):
/// a file of `m/` that names another file of `m/`, through a path or a name `m`'s front door
/// brings in from it, imports it. The front door itself declares its files and is no edge, so
/// its files may use what it defines. Each strongly connected tangle of files is one line
/// showing its shortest circle through its first file, unless `allowed` lists exactly it.
fn module_circles(files: &BTreeMap<PathBuf, String>, allowed: &[(&str, &[&str])]) -> Vec<String> {
    // Each module's files: the first component below it of every file deeper than it.
    let mut units: BTreeMap<Vec<String>, BTreeSet<String>> = BTreeMap::new();
    for path in files.keys() {
        let module = module_of(path);
        for depth in 1..module.len() {
            units
                .entry(module[..depth].to_vec())
                .or_default()
                .insert(module[depth].clone());
        }
    }
    let mut brought_in: BTreeMap<Vec<String>, BTreeMap<String, String>> = BTreeMap::new();
    for (path, text) in files {
        let module = module_of(path);
        if let Some(own) = units.get(&module) {
            let names = front_door_names(text)
                .into_iter()
                .filter(|(_, unit)| own.contains(unit))
                .collect();
            brought_in.insert(module, names);
        }
    }
    let mut edges: BTreeMap<Vec<String>, Edges> = BTreeMap::new();
    for (path, text) in files {
        let module = module_of(path);
        for reference in references(&module, text) {
            let target = &reference.target;
            for depth in 1..module.len() {
                let outer = &module[..depth];
                if target.len() <= depth || target[..depth] != *outer {
                    continue;
                }
                let from = &module[depth];
                let name = &target[depth];
                let to = brought_in
                    .get(outer)
                    .and_then(|names| names.get(name))
                    .unwrap_or(name);
                if to == from || !units[outer].contains(to) {
                    continue; // its own file, or an item the front door defines
                }
                edges
                    .entry(outer.to_vec())
                    .or_default()
                    .entry(from.clone())
                    .or_default()
                    .entry(to.clone())
                    .or_insert((path.clone(), reference.line));
            }
        }
    }
    let mut out = Vec::new();
    let mut used = BTreeSet::new();
    for (module, edges) in &edges {
        let name = module.join("::");
        for tangle in tangles(edges) {
            let members: Vec<&str> = tangle.iter().map(|m| m.as_str()).collect();
            if let Some(entry) = allowed
                .iter()
                .position(|(m, files)| *m == name && *files == members.as_slice())
            {
                used.insert(entry);
                continue;
            }
            let mut line = format!("a circle among the files of `{name}`: ");
            let walk = shortest_circle(edges, &tangle);
            for (i, from) in walk.iter().enumerate() {
                let to = &walk[(i + 1) % walk.len()];
                let (file, at) = &edges[from][to];
                line.push_str(&format!("{from} -> {to} ({}:{at}); ", file.display()));
            }
            let mut line = line.trim_end_matches("; ").to_owned();
            if walk.len() < tangle.len() {
                line.push_str(&format!(" (tangled with it: {})", members.join(", ")));
            }
            out.push(line);
        }
    }
    for (i, (module, files)) in allowed.iter().enumerate() {
        if !used.contains(&i) {
            out.push(format!(
                "`{module}`: {} no longer form a circle; remove them from CIRCLES_NOT_YET",
                files.join(", ")
            ));
        }
    }
    out
}

/// The files of a module reached from `start` through `edges`.
fn reached(edges: &Edges, start: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![start.to_owned()];
    while let Some(node) = stack.pop() {
        for next in edges.get(&node).into_iter().flat_map(|t| t.keys()) {
            if seen.insert(next.clone()) {
                stack.push(next.clone());
            }
        }
    }
    seen
}

/// The strongly connected tangles of more than one file, each sorted (a module holds a few
/// dozen files, so one search from each is cheap enough).
fn tangles(edges: &Edges) -> BTreeSet<Vec<String>> {
    let reach: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|n| (n, reached(edges, n))).collect();
    let mut out = BTreeSet::new();
    for (node, from_node) in &reach {
        let tangle: Vec<String> = from_node
            .iter()
            .filter(|other| *other != *node && reach.get(other).is_some_and(|r| r.contains(*node)))
            .cloned()
            .chain(std::iter::once((*node).clone()))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if tangle.len() > 1 {
            out.insert(tangle);
        }
    }
    out
}

/// The shortest circle through the first file of `tangle`, by a breadth-first search inside it.
fn shortest_circle(edges: &Edges, tangle: &[String]) -> Vec<String> {
    let start = &tangle[0];
    let mut parent: BTreeMap<&String, &String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for next in edges.get(node).into_iter().flat_map(|t| t.keys()) {
            if !tangle.contains(next) {
                continue;
            }
            if next == start {
                let mut walk = vec![node.clone()];
                let mut at = node;
                while at != start {
                    at = parent[at];
                    walk.push(at.clone());
                }
                walk.reverse();
                return walk;
            }
            if next != start && !parent.contains_key(next) {
                parent.insert(next, node);
                queue.push_back(next);
            }
        }
    }
    tangle.to_vec()
}

/// The library's files: the binary is a crate of its own, reaching the library as
/// `skillgraph::`, and `lib.rs` only declares the modules.
fn source_files(src: &Path) -> BTreeMap<PathBuf, String> {
    let mut files = sources::source_files(src);
    files.remove(Path::new("main.rs"));
    files.remove(Path::new("lib.rs"));
    files
}

#[test]
fn imports_run_down_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = source_files(&src);
    assert!(files.len() > 50, "found only {} source files", files.len());
    let problems = problems(&files, NOT_YET);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_module_has_a_circle_among_its_files() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let problems = module_circles(&source_files(&src), CIRCLES_NOT_YET);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn rules_and_ide_read_no_yaml_tree_outside_the_listed_places() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let problems = tree_readers(&source_files(&src), TREE_READERS);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_tree_named_by_a_later_reader_is_reported_with_its_item() {
    let files = example(&[
        (
            "rules/skill_hosts.rs",
            "use crate::syntax::{Node, TextRange};\nfn label() -> &'static str { \"x\" }\npub fn check(root: Node<'_>) {\n    let _ = root;\n}\nstatic TABLE: &[fn(Node<'_>)] = &[];\n",
        ),
        (
            "rules/local.rs",
            "fn check_local(text: &str) {\n    let doc = crate::syntax::YamlDocument::parse(text, 0);\n}\nmod tests {\n    fn t() { let _ = crate::syntax::NodeKind::BadAlias; }\n}\n",
        ),
        // Not the tree: a type of the same name defined elsewhere.
        ("ide/graph.rs", "struct Node;\nfn f(n: Node) {}\n"),
        ("model/x.rs", "use crate::syntax::Node;\nfn f(n: Node<'_>) {}\n"),
    ]);
    let found = tree_readers(&files, &[("rules/local.rs", "check_local", "")]);
    assert_eq!(
        found,
        vec![
            "rules/local.rs:5: `t` names the YAML tree (`NodeKind`); read the lowered model instead, or list it in TREE_READERS with why",
            "rules/skill_hosts.rs:3: `check` names the YAML tree (`Node`); read the lowered model instead, or list it in TREE_READERS with why",
            "rules/skill_hosts.rs:6: `TABLE` names the YAML tree (`Node`); read the lowered model instead, or list it in TREE_READERS with why",
        ]
    );
    let stale = tree_readers(&files, &[("rules/skill_hosts.rs", "label", "")]);
    assert!(
        stale.contains(
            &"rules/skill_hosts.rs: `label` no longer names the YAML tree; remove it from TREE_READERS"
                .to_owned()
        ),
        "{stale:#?}"
    );
}

fn example(files: &[(&str, &str)]) -> BTreeMap<PathBuf, String> {
    files
        .iter()
        .map(|(path, text)| (PathBuf::from(path), text.to_string()))
        .collect()
}

#[test]
fn an_upward_import_is_reported_with_its_place() {
    let files = example(&[
        ("model/config.rs", "//! uses `crate::rules::x` in a comment\nuse crate::syntax::TextRange;\nfn f() { let s = \"crate::lsp::x\"; crate::rules::catalogue::all(); }\n"),
        ("index/mod.rs", "use crate::{diagnostic::FileId, rules::check_file};\n"),
        ("rules/mod.rs", "mod tests {\n    use super::super::ide::hover;\n}\n"),
    ]);
    let found = problems(&files, &[]);
    assert_eq!(found.len(), 3, "{found:#?}");
    let starts = [
        "index/mod.rs:1: `index` (layer 4) imports `rules::check_file`",
        "model/config.rs:3: `model` (layer 3) imports `rules::catalogue::all`",
        "rules/mod.rs:2: `rules` (layer 6) imports `ide::hover`",
    ];
    for (problem, start) in found.iter().zip(starts) {
        assert!(problem.starts_with(start), "{problem}");
    }
}

#[test]
fn a_circle_among_ide_files_is_reported_and_a_line_is_not() {
    let circle = example(&[
        (
            "ide/mod.rs",
            "mod a;\nmod b;\nmod c;\npub use c::{thing, other};\n",
        ),
        ("ide/a.rs", "use super::b::f;\n"),
        ("ide/b.rs", "use super::thing;\n"),
        ("ide/c.rs", "use crate::ide::a::g;\n"),
    ]);
    assert_one_naming(
        &module_circles(&circle, &[]),
        "a -> b (ide/a.rs:1); b -> c (ide/b.rs:1); c -> a (ide/c.rs:1)",
    );
    let line = example(&[
        ("ide/a.rs", "use super::b::f;\n"),
        ("ide/b.rs", "use super::c::g;\n"),
        ("ide/c.rs", "use crate::model::x;\n"),
    ]);
    assert!(module_circles(&line, &[]).is_empty());
}

#[test]
fn a_circle_in_a_nested_module_is_reported_unless_allowed_and_a_stale_allowance_is() {
    let files = example(&[
        (
            "rules/mod.rs",
            "pub mod catalogue;\npub mod agents;\npub const RULES: u8 = 0;\n",
        ),
        (
            "rules/catalogue.rs",
            "use super::RULES;\nfn f() { super::agents::RULES; }\n",
        ),
        ("rules/agents.rs", "use super::catalogue::RuleDoc;\n"),
        ("rules/schema.rs", "mod report;\npub use report::Report;\n"),
        ("rules/schema/report.rs", "use super::super::agents::x;\n"),
        ("rules/schema/locate.rs", "use super::Report;\n"),
        ("lsp/state.rs", "use super::settings::Settings;\n"),
        ("lsp/settings.rs", "use crate::lsp::state::State;\n"),
    ]);
    let found = module_circles(&files, &[]);
    assert_eq!(
        found,
        vec![
            "a circle among the files of `lsp`: settings -> state (lsp/settings.rs:1); state -> settings (lsp/state.rs:1)",
            "a circle among the files of `rules`: agents -> catalogue (rules/agents.rs:1); catalogue -> agents (rules/catalogue.rs:2)",
        ]
    );
    let allowed: &[(&str, &[&str])] = &[
        ("lsp", &["settings", "state"]),
        ("rules::schema", &["locate", "report"]),
    ];
    assert_eq!(
        module_circles(&files, allowed),
        vec![
            "a circle among the files of `rules`: agents -> catalogue (rules/agents.rs:1); catalogue -> agents (rules/catalogue.rs:2)",
            "`rules::schema`: locate, report no longer form a circle; remove them from CIRCLES_NOT_YET",
        ]
    );
}

#[test]
fn an_allowance_no_longer_needed_is_reported() {
    let files = example(&[("index/keys.rs", "use crate::model::x;\n")]);
    let found = problems(&files, &[("index/keys.rs", "rules")]);
    assert_eq!(
        found,
        vec!["index/keys.rs: no longer imports `rules`; remove it from NOT_YET"]
    );
}

#[test]
fn a_circle_between_modules_of_one_layer_is_reported() {
    let files = example(&[
        ("cli/mod.rs", "use crate::check::run;\n"),
        ("check.rs", "fn f() { crate::cli::human::render(); }\n"),
    ]);
    assert_one_naming(
        &problems(&files, &[]),
        "check -> cli (check.rs:1); cli -> check (cli/mod.rs:1)",
    );
}

/// Fails unless `found` is one problem, and it names `part`.
#[track_caller]
fn assert_one_naming(found: &[String], part: &str) {
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_contains(&found[0], part);
}
