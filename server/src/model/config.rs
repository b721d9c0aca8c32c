//! `skillgraph.toml`: strictness of SKILL.md checks, the tool inventory, severity overrides.
//! A malformed file is reported on itself and the defaults apply to whatever could not be read.

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use serde::de::DeserializeOwned;
use serde::de::IntoDeserializer as _;
use serde::Deserialize;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::diagnostic::{codes, Code, Diagnostic, FileId, Severity};
use crate::syntax::TextRange;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Config {
    pub strict: bool,
    /// `[skill-md] extra-fields`, sorted and deduplicated ([`Config::accepts_extra_field`]).
    pub extra_fields: Vec<String>,
    /// `[skill-md] hosts`: the hosts that load every SKILL.md below, instead of the ones its
    /// folder implies (ids of `model::hosts::Host`; unknown ids are reported and dropped).
    pub hosts: Option<Vec<String>>,
    /// `[tools] available`, sorted and deduplicated ([`Config::has_available_tool`]).
    pub tools_available: Vec<String>,
    pub mcp_tool_lists: Vec<String>,
    pub presets: Vec<String>,
    /// Code -> severity; `None` is `off`.
    pub rules: Vec<(String, Option<Severity>)>,
    /// `rules` by code (see [`LevelTable`]).
    pub rule_table: LevelTable,
    /// `[[overrides]]`, in the order written: later ones win where several match a file.
    pub overrides: Vec<Override>,
    /// The overrides' patterns, compiled (see [`OverrideMatcher`]).
    pub override_matcher: OverrideMatcher,
    /// `[audit]`: SwarmKit's audit log in the editor.
    pub audit: AuditConfig,
}

/// `[audit]`: where the editor reads SwarmKit's audit log, and what it shows. `None` is "not
/// set": a key of the nearest `skillgraph.toml` wins over the editor's setting, which wins over
/// the default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct AuditConfig {
    /// Read the log at all (default `true`).
    pub enabled: Option<bool>,
    /// The log to read instead of where the runtime writes it: a SQLite file (relative to the
    /// folder of the `skillgraph.toml` that says it; from the editor's settings, to the
    /// workspace's folder), `sqlite:///…`, or a `postgres://` URL, with `${VAR}` expanded.
    pub log: Option<String>,
    /// The one-line summary on each rule (default `true`).
    pub lens: Option<bool>,
}

/// The patterns of the overrides, compiled once when the config is read, in glob sets of up to
/// `PATTERNS_PER_SET` patterns of consecutive overrides: one match per set finds every
/// override of it that applies, instead of one match per override (twenty thousand overrides
/// and two thousand files were forty million matches, 17 s). Where a set's patterns together
/// pass the matcher's size limit, its overrides get a matcher each. Made from the overrides it
/// sits beside, it adds nothing to comparing or hashing a config.
#[derive(Clone, Debug, Default)]
pub struct OverrideMatcher(Vec<OverrideSet>);

/// The patterns of some overrides in one glob set, each pattern with the override it belongs to.
#[derive(Clone, Debug)]
struct OverrideSet {
    set: globset::GlobSet,
    owner: Vec<usize>,
}

/// Patterns per glob set: large enough that a set's one pass replaces many, small enough that
/// its automaton stays within the matcher's size limit for ordinary patterns.
const PATTERNS_PER_SET: usize = 64;

impl OverrideMatcher {
    /// Compiles the patterns of `overrides` (`spans`: where each one's `paths` is written). An
    /// override whose patterns, alone, still pass the size limit is reported and matches
    /// nothing.
    fn build(
        overrides: &[Override],
        spans: &[std::ops::Range<usize>],
        file: FileId,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> OverrideMatcher {
        let set_of = |range: std::ops::Range<usize>| {
            let mut builder = globset::GlobSetBuilder::new();
            let mut owner = Vec::new();
            for at in range {
                for pattern in &overrides[at].paths {
                    // Checked in `readable_overrides`: only patterns that compile are left.
                    if let Ok(glob) = glob_of(pattern) {
                        builder.add(glob);
                        owner.push(at);
                    }
                }
            }
            builder.build().map(|set| OverrideSet { set, owner })
        };
        let mut sets = Vec::new();
        let mut first = 0;
        while first < overrides.len() {
            // Whole overrides per set, up to the pattern budget (at least one override).
            let mut last = first;
            let mut patterns = 0;
            while last < overrides.len()
                && (last == first || patterns + overrides[last].paths.len() <= PATTERNS_PER_SET)
            {
                patterns += overrides[last].paths.len();
                last += 1;
            }
            match set_of(first..last) {
                Ok(set) => sets.push(set),
                Err(_) => {
                    for (at, span) in spans.iter().enumerate().take(last).skip(first) {
                        match set_of(at..at + 1) {
                            Ok(set) => sets.push(set),
                            // Each pattern compiles alone, yet together they may pass the
                            // matcher's size limit (thousands of `*`): said, not dropped in
                            // silence.
                            Err(error) => diagnostics.push(invalid(
                                file,
                                span.clone(),
                                format!(
                                    "these patterns together are too large to match with ({error}), so this override applies nowhere; use fewer or simpler patterns"
                                ),
                            )),
                        }
                    }
                }
            }
            first = last;
        }
        OverrideMatcher(sets)
    }

    /// The overrides whose patterns match `relative` (a path below the config's folder),
    /// ascending.
    fn matching(&self, relative: &std::path::Path) -> Vec<usize> {
        let candidate = globset::Candidate::new(relative);
        let mut found: Vec<usize> = self
            .0
            .iter()
            .flat_map(|set| {
                set.set
                    .matches_candidate(&candidate)
                    .into_iter()
                    .map(|pattern| set.owner[pattern])
            })
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }
}

impl PartialEq for OverrideMatcher {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for OverrideMatcher {}

impl std::hash::Hash for OverrideMatcher {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// A list of levels (`[rules]`, an override's `rules`) as a table by code, made from the list
/// the first time a level is asked of it: a list may hold any number of keys, and a level is
/// asked for every diagnostic. Only codes the engine has are in it, since only they can match a
/// diagnostic. Made from the list it sits beside, it adds nothing to comparing or hashing one.
#[derive(Clone, Debug, Default)]
pub struct LevelTable(OnceLock<HashMap<Code, Option<Severity>>>);

impl LevelTable {
    /// The table of `rules`, the list this table sits beside.
    fn of(&self, rules: &[(String, Option<Severity>)]) -> &HashMap<Code, Option<Severity>> {
        self.0.get_or_init(|| {
            let mut table = HashMap::new();
            for (name, level) in rules {
                if let Some(code) = codes::lookup(name) {
                    // The first listing, as a search of the list finds it.
                    table.entry(code).or_insert(*level);
                }
            }
            table
        })
    }
}

impl PartialEq for LevelTable {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for LevelTable {}

impl std::hash::Hash for LevelTable {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// `[[overrides]]`: levels for the files whose path (relative to the config's folder) matches
/// one of `paths`.
#[derive(Clone, Debug)]
pub struct Override {
    pub paths: Vec<String>,
    pub rules: Vec<(String, Option<Severity>)>,
    rule_table: LevelTable,
}

// The matchers are compiled from the patterns, so they say all there is to compare.
impl PartialEq for Override {
    fn eq(&self, other: &Self) -> bool {
        self.paths == other.paths && self.rules == other.rules
    }
}

impl Eq for Override {}

impl std::hash::Hash for Override {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.paths.hash(state);
        self.rules.hash(state);
    }
}

impl Config {
    /// Is `key` in `[skill-md] extra-fields`? A binary search: each field of every SKILL.md
    /// below asks.
    pub fn accepts_extra_field(&self, key: &str) -> bool {
        self.extra_fields
            .binary_search_by(|e| e.as_str().cmp(key))
            .is_ok()
    }

    /// Is `tool` in `[tools] available`? A binary search: a skill asks about each of its tools,
    /// and the list may hold a hundred thousand.
    pub fn has_available_tool(&self, tool: &str) -> bool {
        self.tools_available
            .binary_search_by(|t| t.as_str().cmp(tool))
            .is_ok()
    }

    /// The levels for the diagnostics of the file at `relative` below the config's folder
    /// (`None`: no path, so no override applies): the `[[overrides]]` matching it are found
    /// here, once per file, and merged, so each diagnostic's level then costs O(1).
    pub fn levels_for(&self, relative: Option<&std::path::Path>) -> FileLevels<'_> {
        let mut from_overrides = HashMap::new();
        if let Some(relative) = relative {
            let matching = self.override_matcher.matching(relative);
            // Later overrides win, so they are taken first.
            for &at in matching.iter().rev() {
                let matched = &self.overrides[at];
                for (&code, &level) in matched.rule_table.of(&matched.rules) {
                    from_overrides.entry(code).or_insert(level);
                }
            }
        }
        FileLevels {
            config: self,
            from_overrides,
        }
    }
}

/// What a config says about the levels of one file's diagnostics ([`Config::levels_for`]).
pub struct FileLevels<'c> {
    config: &'c Config,
    /// The levels the overrides matching the file give, the latest override's for each code.
    from_overrides: HashMap<Code, Option<Severity>>,
}

impl FileLevels<'_> {
    /// The level of `code` in this file: `Some(None)` is `off`, `None` when neither an
    /// override nor `[rules]` mentions the code.
    pub fn level(&self, code: Code) -> Option<Option<Severity>> {
        self.from_overrides.get(&code).copied().or_else(|| {
            let config = self.config;
            config.rule_table.of(&config.rules).get(&code).copied()
        })
    }
}

// The file's shape. These types are the single description of it: the JSON Schema in
// `docs/skillgraph.toml.schema.json` is generated from them (see the tests), and
// `Config::parse` reads each section through them one key at a time, so a bad key costs only
// itself.

/// `skillgraph.toml`: how skillgraph checks the SwarmKit workspaces and SKILL.md skills below it.
#[derive(Deserialize, Default)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[cfg_attr(test, schemars(title = "skillgraph.toml"))]
#[serde(deny_unknown_fields)]
struct RawConfig {
    /// How SKILL.md frontmatter is checked.
    #[serde(rename = "skill-md", default)]
    skill_md: RawSkillMd,
    /// The tools an agent harness offers, checked against SKILL.md `dependencies`,
    /// `precondition` and `action_tool`.
    #[serde(default)]
    tools: RawTools,
    /// Severity per diagnostic code, e.g. `"agent.duplicate-grant" = "off"`. docs/rules.md
    /// lists the codes.
    #[serde(default)]
    rules: BTreeMap<String, RawLevel>,
    /// Levels for some files only, e.g. `[[overrides]]` `paths = ["legacy/**"]`
    /// `rules = { "skillmd.unknown-field" = "off" }`. Later entries win over earlier ones, and
    /// both over `[rules]`.
    #[serde(default)]
    overrides: Vec<RawOverride>,
    /// SwarmKit's audit log in the editor: the counts on each `requires:` rule
    /// (docs/audit.md).
    #[serde(default)]
    audit: RawAudit,
}

/// SwarmKit's audit log in the editor.
#[derive(Deserialize, Default)]
#[cfg_attr(test, derive(schemars::JsonSchema), schemars(rename = "Audit"))]
#[serde(deny_unknown_fields)]
struct RawAudit {
    /// Read the log and show its counts on the rules (default true).
    #[serde(default)]
    enabled: Option<bool>,
    /// The log to read instead of where the runtime writes it: a SQLite file (relative to this
    /// file's folder), `sqlite:///...`, or a `postgres://` URL; `${VAR}` is read from the
    /// environment, so a password need not be written here.
    #[serde(default)]
    log: Option<String>,
    /// The one-line summary on each rule (a code lens; default true).
    #[serde(default)]
    lens: Option<bool>,
}

/// Levels for the files matching `paths`.
#[derive(Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema), schemars(rename = "Override"))]
#[serde(deny_unknown_fields)]
struct RawOverride {
    /// Glob patterns, relative to this file's folder: `*` within a name, `**` across folders.
    #[serde(default = "no_paths")]
    #[cfg_attr(test, schemars(with = "Vec<String>"))]
    paths: Spanned<Vec<String>>,
    /// Severity per diagnostic code for the matching files, as in `[rules]`.
    #[serde(default)]
    rules: BTreeMap<String, RawLevel>,
}

impl Default for RawOverride {
    fn default() -> Self {
        RawOverride {
            paths: no_paths(),
            rules: BTreeMap::new(),
        }
    }
}

fn no_paths() -> Spanned<Vec<String>> {
    Spanned::new(0..0, Vec::new())
}

/// How SKILL.md frontmatter is checked.
#[derive(Deserialize, Default)]
#[cfg_attr(test, derive(schemars::JsonSchema), schemars(rename = "SkillMd"))]
#[serde(deny_unknown_fields)]
struct RawSkillMd {
    /// Report fields outside the Agent Skills spec as errors (as skills-ref does) instead of
    /// warnings.
    #[serde(default)]
    strict: bool,
    /// Frontmatter fields to accept silently, e.g. `x-owner`.
    #[serde(rename = "extra-fields", default)]
    extra_fields: Vec<String>,
    /// The hosts that load the skills below, instead of the ones their folders imply:
    /// claude-code, claude-api, copilot, codex, opencode, gemini-cli, cursor, crush.
    // Spanned, so an unknown host is reported where it is written.
    #[serde(default)]
    #[cfg_attr(test, schemars(with = "Option<Vec<String>>"))]
    hosts: Option<Vec<Spanned<String>>>,
}

/// The tools an agent harness offers.
#[derive(Deserialize, Default)]
#[cfg_attr(test, derive(schemars::JsonSchema), schemars(rename = "Tools"))]
#[serde(deny_unknown_fields)]
struct RawTools {
    /// Tool names the harness offers.
    #[serde(default)]
    available: Vec<String>,
    /// JSON files holding saved MCP `tools/list` results, relative to this file.
    #[serde(rename = "mcp-tool-lists", default)]
    mcp_tool_lists: Vec<String>,
    /// Built-in harness tool sets, e.g. `claude-code`.
    #[serde(default)]
    presets: Vec<String>,
}

/// A rule's level; `off` silences the code.
#[derive(Deserialize, Clone, Copy)]
#[cfg_attr(test, derive(schemars::JsonSchema), schemars(rename = "Level"))]
#[serde(rename_all = "lowercase")]
enum RawLevel {
    Off,
    Error,
    // The spellings `Severity::parse` has always accepted.
    #[serde(alias = "warn")]
    Warning,
    #[serde(alias = "information")]
    Info,
    Hint,
}

impl Config {
    /// Parses a config file's text. Never fails: problems become `config.invalid` diagnostics.
    /// A file that is not TOML gives the defaults; otherwise each key that cannot be read is
    /// reported and left at its default, and the rest of the file applies.
    pub fn parse(file: FileId, text: &str) -> (Config, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let root = match DeTable::parse(text) {
            Ok(root) => root.into_inner(),
            Err(error) => {
                let range = error.span().map_or(TextRange::empty(0), span_range);
                diagnostics.push(Diagnostic::new(
                    codes::CONFIG_INVALID,
                    file,
                    range,
                    format!(
                        "skillgraph.toml is not valid TOML, so the defaults apply: {}",
                        error.message()
                    ),
                ));
                return (Config::default(), diagnostics);
            }
        };
        // Drop what cannot be read, reporting each piece where it is; the rest then reads as a
        // whole.
        let mut readable = DeTable::new();
        for (key, value) in &root {
            let kept = match key.get_ref().as_ref() {
                "skill-md" => readable_section::<RawSkillMd>(file, key, value, &mut diagnostics),
                "tools" => readable_section::<RawTools>(file, key, value, &mut diagnostics),
                "rules" => readable_rules(file, value, &mut diagnostics),
                "overrides" => readable_overrides(file, value, &mut diagnostics),
                "audit" => readable_section::<RawAudit>(file, key, value, &mut diagnostics),
                _ => {
                    diagnostics.push(unknown_key(file, key, None, field_names::<RawConfig>()));
                    None
                }
            };
            if let Some(kept) = kept {
                readable.insert(key.clone(), kept);
            }
        }
        let raw: RawConfig = deserialize(readable, 0..text.len()).unwrap_or_default();
        let levels = |rules: BTreeMap<String, RawLevel>| {
            rules
                .into_iter()
                .map(|(code, level)| (code, level.severity()))
                .collect::<Vec<_>>()
        };
        let rules = levels(raw.rules);
        let mut spans = Vec::new();
        let overrides: Vec<Override> = raw
            .overrides
            .into_iter()
            .map(|o| {
                spans.push(o.paths.span());
                Override {
                    paths: o.paths.into_inner(),
                    rules: levels(o.rules),
                    rule_table: LevelTable::default(),
                }
            })
            .collect();
        let override_matcher = OverrideMatcher::build(&overrides, &spans, file, &mut diagnostics);
        let hosts = raw.skill_md.hosts.map(|hosts| {
            hosts
                .into_iter()
                .filter_map(|host| {
                    let known = crate::model::hosts::Host::from_id(host.get_ref()).is_some();
                    if !known {
                        let ids: Vec<&str> =
                            crate::model::hosts::Host::ALL.iter().map(|h| h.id()).collect();
                        diagnostics.push(invalid(
                            file,
                            host.span(),
                            format!(
                                "`{}` is not a host skillgraph knows, so it is ignored; use one of {}",
                                host.get_ref(),
                                ids.join(", ")
                            ),
                        ));
                    }
                    known.then(|| host.into_inner())
                })
                .collect()
        });
        // Tables iterate in key order; report in the order of the text.
        diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
        (
            Config {
                strict: raw.skill_md.strict,
                extra_fields: {
                    let mut extra = raw.skill_md.extra_fields;
                    extra.sort_unstable();
                    extra.dedup();
                    extra
                },
                hosts,
                tools_available: {
                    let mut available = raw.tools.available;
                    available.sort_unstable();
                    available.dedup();
                    available
                },
                mcp_tool_lists: raw.tools.mcp_tool_lists,
                presets: raw.tools.presets,
                rules,
                rule_table: LevelTable::default(),
                overrides,
                override_matcher,
                audit: AuditConfig {
                    enabled: raw.audit.enabled,
                    log: raw.audit.log,
                    lens: raw.audit.lens,
                },
            },
            diagnostics,
        )
    }
}

impl RawLevel {
    fn severity(self) -> Option<Severity> {
        match self {
            RawLevel::Off => None,
            RawLevel::Error => Some(Severity::Error),
            RawLevel::Warning => Some(Severity::Warning),
            RawLevel::Info => Some(Severity::Info),
            RawLevel::Hint => Some(Severity::Hint),
        }
    }
}

fn span_range(span: std::ops::Range<usize>) -> TextRange {
    TextRange::new(span.start as u32, span.end as u32)
}

/// A `config.invalid` diagnostic on `span`: a value that cannot be read.
fn invalid(file: FileId, span: std::ops::Range<usize>, message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(
        codes::CONFIG_INVALID,
        file,
        span_range(span),
        message.into(),
    )
}

/// The keys of a section that read: each key is deserialized on its own, so that an unknown
/// key or a value of the wrong type is reported where it is and only that key keeps its default.
fn readable_section<'i, T: DeserializeOwned>(
    file: FileId,
    section: &Spanned<toml::de::DeString<'i>>,
    value: &Spanned<DeValue<'i>>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Spanned<DeValue<'i>>> {
    let section: &str = section.get_ref();
    let DeValue::Table(table) = value.get_ref() else {
        diagnostics.push(invalid(
            file,
            value.span(),
            format!("`{section}` must be a table (`[{section}]`), so it is ignored"),
        ));
        return None;
    };
    let keys = field_names::<T>();
    let mut readable = DeTable::new();
    for (key, entry) in table {
        if !keys.contains(&key.get_ref().as_ref()) {
            diagnostics.push(unknown_key(file, key, Some(section), keys));
            continue;
        }
        let mut alone = DeTable::new();
        alone.insert(key.clone(), entry.clone());
        match deserialize::<T>(alone, value.span()) {
            Ok(_) => {
                readable.insert(key.clone(), entry.clone());
            }
            Err(error) => diagnostics.push(invalid(
                file,
                entry.span(),
                format!(
                    "`{}` in `[{section}]` cannot be read, so its default applies: {}",
                    key.get_ref(),
                    error.message().trim_end()
                ),
            )),
        }
    }
    Some(Spanned::new(value.span(), DeValue::Table(readable)))
}

fn deserialize<T: DeserializeOwned>(
    table: DeTable<'_>,
    span: std::ops::Range<usize>,
) -> Result<T, toml::de::Error> {
    T::deserialize(toml::de::ValueDeserializer::from(Spanned::new(
        span,
        DeValue::Table(table),
    )))
}

/// The `[rules]` entries whose level reads; unknown codes are kept (they are harmless) and
/// reported with the nearest code.
fn readable_rules<'i>(
    file: FileId,
    value: &Spanned<DeValue<'i>>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Spanned<DeValue<'i>>> {
    let DeValue::Table(table) = value.get_ref() else {
        diagnostics.push(invalid(
            file,
            value.span(),
            "`rules` must be a table (`[rules]`) of code = level, so it is ignored",
        ));
        return None;
    };
    let mut readable = DeTable::new();
    for (key, entry) in table {
        let code: &str = key.get_ref();
        let problem = match entry.get_ref() {
            DeValue::String(level)
                if RawLevel::deserialize(entry.clone().into_deserializer()).is_err() =>
            {
                Some(format!(
                    "`{level}` is not a level; use off, error, warning, info or hint"
                ))
            }
            DeValue::String(_) => None,
            _ => Some(format!(
                "the level of `{code}` must be a string: off, error, warning, info or hint"
            )),
        };
        if let Some(problem) = problem {
            diagnostics.push(invalid(file, entry.span(), problem));
            continue;
        }
        if codes::lookup(code).is_none() {
            let names = codes::ALL.iter().map(|code| code.name());
            let message = match crate::suggest::closest(code, names) {
                Some(nearest) => format!(
                    "no rule has the code `{code}`, so this line has no effect; did you mean `{nearest}`?"
                ),
                None => format!(
                    "no rule has the code `{code}`, so this line has no effect; docs/rules.md lists the codes"
                ),
            };
            diagnostics.push(Diagnostic::new(
                codes::CONFIG_UNKNOWN_RULE,
                file,
                span_range(key.span()),
                message,
            ));
        }
        readable.insert(key.clone(), entry.clone());
    }
    Some(Spanned::new(value.span(), DeValue::Table(readable)))
}

/// A pattern of `[[overrides]] paths`: `/` separates folders whatever the platform, and `*`
/// does not cross one.
fn glob_of(pattern: &str) -> Result<globset::Glob, globset::Error> {
    globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
}

/// The `[[overrides]]` entries as far as they read: each must be a table of `paths` (a list of
/// glob patterns that compile) and `rules` (read as `[rules]` is); what cannot be read is
/// reported and dropped.
fn readable_overrides<'i>(
    file: FileId,
    value: &Spanned<DeValue<'i>>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Spanned<DeValue<'i>>> {
    let DeValue::Array(entries) = value.get_ref() else {
        diagnostics.push(invalid(
            file,
            value.span(),
            "`overrides` must be a list of tables (`[[overrides]]`), so it is ignored",
        ));
        return None;
    };
    let mut readable = toml::de::DeArray::new();
    for entry in entries {
        let DeValue::Table(table) = entry.get_ref() else {
            diagnostics.push(invalid(
                file,
                entry.span(),
                "each `[[overrides]]` entry must be a table with `paths` and `rules`, so this one is ignored",
            ));
            continue;
        };
        let mut kept = DeTable::new();
        for (key, item) in table {
            match key.get_ref().as_ref() {
                "paths" => {
                    let patterns = match item.get_ref() {
                        DeValue::Array(patterns) => patterns,
                        _ => {
                            diagnostics.push(invalid(
                                file,
                                item.span(),
                                "`paths` must be a list of glob patterns, e.g. `[\"legacy/**\"]`, so this override applies nowhere",
                            ));
                            continue;
                        }
                    };
                    let mut good = toml::de::DeArray::new();
                    for pattern in patterns {
                        let problem = match pattern.get_ref() {
                            DeValue::String(text) => glob_of(text).err().map(|e| {
                                format!(
                                    "`{text}` is not a glob pattern ({}), so it matches nothing",
                                    e.kind()
                                )
                            }),
                            _ => Some("a path pattern must be a string".to_owned()),
                        };
                        match problem {
                            Some(problem) => {
                                diagnostics.push(invalid(file, pattern.span(), problem))
                            }
                            None => good.push(pattern.clone()),
                        }
                    }
                    kept.insert(key.clone(), Spanned::new(item.span(), DeValue::Array(good)));
                }
                "rules" => {
                    if let Some(rules) = readable_rules(file, item, diagnostics) {
                        kept.insert(key.clone(), rules);
                    }
                }
                _ => diagnostics.push(unknown_key(
                    file,
                    key,
                    Some("[overrides]"),
                    field_names::<RawOverride>(),
                )),
            }
        }
        readable.push(Spanned::new(entry.span(), DeValue::Table(kept)));
    }
    Some(Spanned::new(value.span(), DeValue::Array(readable)))
}

fn unknown_key(
    file: FileId,
    key: &Spanned<toml::de::DeString<'_>>,
    section: Option<&str>,
    known: &[&str],
) -> Diagnostic {
    let name: &str = key.get_ref();
    let place = match section {
        Some(section) => format!("`[{section}]` has no key `{name}`"),
        None => format!("skillgraph.toml has no section `{name}`"),
    };
    let hint = match crate::suggest::closest(name, known.iter().copied()) {
        Some(nearest) => format!("did you mean `{nearest}`?"),
        None => format!("the known ones are {}", known.join(", ")),
    };
    invalid(
        file,
        key.span(),
        format!("{place}, so it is ignored; {hint}"),
    )
}

/// The field names (as renamed for serde) of a struct deriving `Deserialize`: serde hands them
/// to `deserialize_struct`, which this deserializer records and then declines.
fn field_names<T: DeserializeOwned>() -> &'static [&'static str] {
    struct Capture<'a>(&'a mut &'static [&'static str]);
    impl<'de> serde::Deserializer<'de> for Capture<'_> {
        type Error = serde::de::value::Error;
        fn deserialize_any<V: serde::de::Visitor<'de>>(
            self,
            _: V,
        ) -> Result<V::Value, Self::Error> {
            Err(serde::de::Error::custom("not a struct"))
        }
        fn deserialize_struct<V: serde::de::Visitor<'de>>(
            self,
            _name: &'static str,
            fields: &'static [&'static str],
            _visitor: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = fields;
            Err(serde::de::Error::custom("fields recorded"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
            ignored_any
        }
    }
    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(Capture(&mut fields));
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_too_large_together_are_reported_not_dropped_in_silence() {
        let huge = format!("{}x", "*".repeat(100_000));
        let text = format!(
            "[[overrides]]\npaths = [\"**\", \"{huge}\"]\nrules = {{ \"agent.duplicate-grant\" = \"off\" }}\n"
        );
        let (config, diagnostics) = Config::parse(FileId(0), &text);
        assert_eq!(config.overrides.len(), 1);
        let found: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert!(
            found.iter().any(|m| m.contains("too large to match")),
            "{found:?}"
        );
        let range = diagnostics[0].range;
        assert!(text[range.start as usize..range.end as usize].starts_with("[\"**\""));
    }

    #[test]
    fn reads_every_section() {
        let text = "[skill-md]\nstrict = true\nextra-fields = [\"x-owner\"]\n[tools]\navailable = [\"Read\"]\npresets = [\"claude-code\"]\n[rules]\n\"agent.duplicate-grant\" = \"off\"\n\"yaml.duplicate-key\" = \"warning\"\n";
        let (config, diagnostics) = Config::parse(FileId(0), text);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert!(config.strict);
        assert_eq!(config.extra_fields, ["x-owner"]);
        assert_eq!(config.rules.len(), 2);
        assert_eq!(config.audit, AuditConfig::default());
    }

    #[test]
    fn reads_the_audit_section_key_by_key() {
        let text = "[audit]
enabled = false
log = \"postgres://sg@db/audit\"
lens = \"no\"
colour = 1
";
        let (config, diagnostics) = Config::parse(FileId(0), text);
        assert_eq!(
            config.audit,
            AuditConfig {
                enabled: Some(false),
                log: Some("postgres://sg@db/audit".to_owned()),
                lens: None,
            }
        );
        let found: Vec<&str> = diagnostics.iter().map(|d| slice(text, d.range)).collect();
        assert_eq!(found, ["\"no\"", "colour"], "{diagnostics:?}");
    }

    fn slice(text: &str, range: TextRange) -> &str {
        &text[range.start as usize..range.end as usize]
    }

    #[test]
    fn hosts_override() {
        let text = "[skill-md]\nhosts = [\"codex\", \"clippy\"]\n";
        let (config, diagnostics) = Config::parse(FileId(0), text);
        assert_eq!(config.hosts, Some(vec!["codex".to_owned()]));
        assert_eq!(diagnostics.len(), 1);
        let range = diagnostics[0].range;
        assert_eq!(
            &text[range.start as usize..range.end as usize],
            "\"clippy\""
        );
        assert_eq!(Config::parse(FileId(0), "").0.hosts, None);
    }

    #[test]
    fn each_of_thousands_of_unknown_hosts_is_reported_where_it_is_written() {
        let count = 20_000;
        let hosts: Vec<String> = (0..count)
            .map(|i| match i % 3 {
                0 => format!("\"h{i}\""),
                1 => format!("'h{i}'"),
                _ => "\"codex\"".to_owned(),
            })
            .collect();
        let text = format!("[skill-md]\nhosts = [{}]\n", hosts.join(", "));
        let (config, diagnostics) = Config::parse(FileId(0), &text);
        assert_eq!(config.hosts.unwrap().len(), count / 3);
        let unknown: Vec<&String> = hosts.iter().filter(|h| !h.contains("codex")).collect();
        assert_eq!(diagnostics.len(), unknown.len());
        for (d, written) in diagnostics.iter().zip(unknown) {
            assert_eq!(slice(&text, d.range), written);
            let name = &written[1..written.len() - 1];
            assert!(
                d.message.starts_with(&format!("`{name}` is not a host")),
                "{}",
                d.message
            );
        }
        // A repeat, and a name also written elsewhere in the file, are each reported in place.
        let text = "[skill-md]\nextra-fields = [\"zz\"]\nhosts = [\"zz\", 'zz']\n";
        let (_, diagnostics) = Config::parse(FileId(0), text);
        let at: Vec<usize> = diagnostics.iter().map(|d| d.range.start as usize).collect();
        assert_eq!(
            at,
            [text.rfind("\"zz\"").unwrap(), text.find("'zz'").unwrap()]
        );
    }

    #[test]
    fn text_that_is_not_toml_gives_the_defaults() {
        let text = "[tools\navailable = [\"Read\"]\n";
        let (config, diagnostics) = Config::parse(FileId(0), text);
        assert_eq!(config, Config::default());
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].code, codes::CONFIG_INVALID);
        assert!(diagnostics[0].message.contains("not valid TOML"));
    }

    #[test]
    fn a_value_of_the_wrong_type_costs_only_its_key() {
        let text = "[tools]\navailable = \"Read\"\npresets = [\"claude-code\"]\n[skill-md]\nstrict = true\n";
        let (config, diagnostics) = Config::parse(FileId(0), text);
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        assert_eq!(diagnostics[0].code, codes::CONFIG_INVALID);
        assert_eq!(slice(text, diagnostics[0].range), "\"Read\"");
        assert!(config.tools_available.is_empty());
        assert_eq!(config.presets, ["claude-code"]);
        assert!(config.strict);
    }

    #[test]
    fn one_unknown_key_is_reported_and_the_rest_applies() {
        let text = "[skill-md]\nstrict = true\nextra-field = [\"x-owner\"]\n[tools]\navailable = [\"Read\"]\n[rules]\n\"agent.duplicate-grant\" = \"off\"\n";
        let (config, diagnostics) = Config::parse(FileId(0), text);
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        assert_eq!(diagnostics[0].code, codes::CONFIG_INVALID);
        assert_eq!(slice(text, diagnostics[0].range), "extra-field");
        assert!(
            diagnostics[0]
                .message
                .contains("did you mean `extra-fields`?"),
            "{}",
            diagnostics[0].message
        );
        assert!(config.strict);
        assert_eq!(config.tools_available, ["Read"]);
        assert!(config.has_available_tool("Read") && !config.has_available_tool("Write"));
        assert_eq!(
            config.rules,
            [(codes::AGENT_DUPLICATE_GRANT.name().to_owned(), None)]
        );
    }

    #[test]
    fn an_unknown_section_is_reported_and_the_rest_applies() {
        let text = "[tool]\navailable = [\"Read\"]\n[skill-md]\nstrict = true\n[linting]\nx = 1\n";
        let (config, diagnostics) = Config::parse(FileId(0), text);
        let messages: Vec<_> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(diagnostics.len(), 2, "{messages:?}");
        assert_eq!(slice(text, diagnostics[0].range), "tool");
        assert!(
            messages[0].contains("did you mean `tools`?"),
            "{messages:?}"
        );
        assert_eq!(slice(text, diagnostics[1].range), "linting");
        assert!(
            messages[1].contains("skill-md, tools, rules"),
            "{messages:?}"
        );
        assert!(config.strict);
    }

    #[test]
    fn a_section_that_is_not_a_table_is_reported() {
        let text = "tools = 3\n[skill-md]\nstrict = true\n";
        let (config, diagnostics) = Config::parse(FileId(0), text);
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        assert_eq!(slice(text, diagnostics[0].range), "3");
        assert!(config.strict);
    }

    #[test]
    fn overrides_match_paths_and_later_ones_win() {
        let text = "[rules]\n\"agent.duplicate-grant\" = \"error\"\n[[overrides]]\npaths = [\"legacy/**\", \"*.yaml\"]\nrules = { \"agent.duplicate-grant\" = \"off\" }\n[[overrides]]\npaths = [\"legacy/keep/*\"]\nrules = { \"agent.duplicate-grant\" = \"warning\" }\n";
        let (config, diagnostics) = Config::parse(FileId(0), text);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let level = |path: &str| {
            config
                .levels_for(Some(std::path::Path::new(path)))
                .level(codes::AGENT_DUPLICATE_GRANT)
        };
        assert_eq!(level("legacy/a/b.yaml"), Some(None));
        assert_eq!(level("top.yaml"), Some(None));
        assert_eq!(level("legacy/keep/c.yaml"), Some(Some(Severity::Warning)));
        // `*` does not cross a folder; elsewhere `[rules]` decides.
        assert_eq!(level("skills/d.yaml"), Some(Some(Severity::Error)));
        assert_eq!(
            config
                .levels_for(Some(std::path::Path::new("top.yaml")))
                .level(codes::AGENT_BAD_ROLE),
            None
        );
    }

    #[test]
    fn levels_come_from_thousands_of_rules_and_overrides() {
        let (duplicate, role) = (codes::AGENT_DUPLICATE_GRANT, codes::AGENT_BAD_ROLE);
        let mut text = String::from("[rules]\n");
        for i in 0..5_000 {
            text.push_str(&format!("\"x.rule-{i}\" = \"off\"\n"));
        }
        text.push_str(&format!("\"{role}\" = \"info\"\n"));
        for i in 0..2_000 {
            let level = if i % 2 == 0 { "off" } else { "error" };
            text.push_str(&format!(
                "[[overrides]]\npaths = [\"a{i}/*.yaml\"]\nrules = {{ \"{duplicate}\" = \"{level}\" }}\n"
            ));
        }
        text.push_str(&format!(
            "[[overrides]]\npaths = [\"a1/*.yaml\", \"b/**\"]\nrules = {{ \"{role}\" = \"hint\" }}\n"
        ));
        let (config, _) = Config::parse(FileId(0), &text);
        assert_eq!(config.rules.len(), 5_001);
        assert_eq!(config.overrides.len(), 2_001);
        let levels = |path: Option<&str>| {
            let levels = config.levels_for(path.map(std::path::Path::new));
            (levels.level(duplicate), levels.level(role))
        };
        let (off, error) = (Some(None), Some(Some(Severity::Error)));
        let (info, hint) = (Some(Some(Severity::Info)), Some(Some(Severity::Hint)));
        assert_eq!(levels(Some("a1/t.yaml")), (error, hint));
        assert_eq!(levels(Some("a1998/t.yaml")), (off, info));
        assert_eq!(levels(Some("b/c/t.yaml")), (None, hint));
        // `*` does not cross a folder; without a path only `[rules]` applies.
        assert_eq!(levels(Some("a1/c/t.yaml")), (None, info));
        assert_eq!(levels(None), (None, info));
    }

    #[test]
    fn a_bad_override_costs_only_itself() {
        let text = "[[overrides]]\npaths = [\"a/[\", \"b/**\"]\nrule = {}\nrules = { \"agent.duplicat-grant\" = \"off\", \"agent.bad-role\" = \"loud\" }\n[[overrides]]\npaths = \"c\"\n";
        let (config, diagnostics) = Config::parse(FileId(0), text);
        let found: Vec<(&str, &str)> = diagnostics
            .iter()
            .map(|d| (d.code.name(), slice(text, d.range)))
            .collect();
        assert_eq!(
            found,
            [
                (codes::CONFIG_INVALID.name(), "\"a/[\""),
                (codes::CONFIG_INVALID.name(), "rule"),
                (
                    codes::CONFIG_UNKNOWN_RULE.name(),
                    "\"agent.duplicat-grant\""
                ),
                (codes::CONFIG_INVALID.name(), "\"loud\""),
                (codes::CONFIG_INVALID.name(), "\"c\""),
            ]
        );
        assert_eq!(config.overrides.len(), 2);
        assert_eq!(config.overrides[0].paths, ["b/**"]);
    }

    #[test]
    fn the_sections_read_are_the_fields_of_the_file_type() {
        // `Config::parse` matches these names; a new field needs a branch there.
        assert_eq!(
            field_names::<RawConfig>(),
            ["skill-md", "tools", "rules", "overrides", "audit"]
        );
        assert_eq!(field_names::<RawAudit>(), ["enabled", "log", "lens"]);
        assert_eq!(field_names::<RawOverride>(), ["paths", "rules"]);
        assert_eq!(
            field_names::<RawTools>(),
            ["available", "mcp-tool-lists", "presets"]
        );
    }

    #[test]
    fn bad_levels_and_unknown_codes() {
        let text = "[rules]\n\"agent.duplicate-grant\" = \"loud\"\n\"no.such-rule\" = \"off\"\n\"yaml.duplicate-key\" = \"warn\"\n\"schema.lenght\" = \"info\"\n";
        let (config, diagnostics) = Config::parse(FileId(0), text);
        let codes: Vec<_> = diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            [
                codes::CONFIG_INVALID,
                codes::CONFIG_UNKNOWN_RULE,
                codes::CONFIG_UNKNOWN_RULE
            ]
        );
        assert_eq!(slice(text, diagnostics[0].range), "\"loud\"");
        assert_eq!(slice(text, diagnostics[1].range), "\"no.such-rule\"");
        assert!(
            diagnostics[1].message.contains("docs/rules.md"),
            "{}",
            diagnostics[1].message
        );
        assert_eq!(slice(text, diagnostics[2].range), "\"schema.lenght\"");
        assert!(
            diagnostics[2]
                .message
                .contains("did you mean `schema.length`?"),
            "{}",
            diagnostics[2].message
        );
        assert!(config.rules.contains(&(
            codes::YAML_DUPLICATE_KEY.name().to_owned(),
            Some(Severity::Warning)
        )));
        assert_eq!(config.rules.len(), 3, "{:?}", config.rules);
    }

    /// The committed schema is the one the types generate. `UPDATE_SCHEMA=1 cargo test -p
    /// skillgraph --lib config` rewrites it.
    #[test]
    fn committed_schema_is_generated_from_the_types() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../docs/skillgraph.toml.schema.json"
        );
        // Draft 7: the newest draft every TOML language server in use reads.
        let generator = schemars::generate::SchemaSettings::draft07().into_generator();
        let mut schema =
            serde_json::to_value(generator.into_root_schema_for::<RawConfig>()).unwrap();
        schema["$id"] = SCHEMA_ID.into();
        let expected = serde_json::to_string_pretty(&schema).unwrap() + "\n";
        if std::env::var_os("UPDATE_SCHEMA").is_some() {
            std::fs::write(path, &expected).unwrap();
            return;
        }
        let actual = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            actual == expected,
            "docs/skillgraph.toml.schema.json is stale; run `UPDATE_SCHEMA=1 cargo test -p skillgraph --lib config`"
        );
    }

    /// Where editors fetch the schema from (the `#:schema` line in the docs).
    const SCHEMA_ID: &str =
        "https://raw.githubusercontent.com/skillgraph/skillgraph/main/docs/skillgraph.toml.schema.json";
}
