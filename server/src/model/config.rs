//! `skillgraph.toml`: strictness of SKILL.md checks, the tool inventory, severity overrides.
//! A malformed file is reported on itself and the defaults apply to whatever could not be read.

use serde::Deserialize;

use crate::diagnostic::{Diagnostic, FileId, Severity};
use crate::rules::catalogue::RuleDoc;
use crate::syntax::TextRange;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Config {
    pub strict: bool,
    pub extra_fields: Vec<String>,
    pub tools_available: Vec<String>,
    pub mcp_tool_lists: Vec<String>,
    pub presets: Vec<String>,
    /// Code -> severity; `None` is `off`.
    pub rules: Vec<(String, Option<Severity>)>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(rename = "skill-md", default)]
    skill_md: RawSkillMd,
    #[serde(default)]
    tools: RawTools,
    #[serde(default)]
    rules: toml::Table,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawSkillMd {
    #[serde(default)]
    strict: bool,
    #[serde(rename = "extra-fields", default)]
    extra_fields: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawTools {
    #[serde(default)]
    available: Vec<String>,
    #[serde(rename = "mcp-tool-lists", default)]
    mcp_tool_lists: Vec<String>,
    #[serde(default)]
    presets: Vec<String>,
}

impl Config {
    /// Parses a config file's text. Never fails: problems become `config.invalid` diagnostics.
    pub fn parse(file: FileId, text: &str) -> (Config, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let raw: RawConfig = match toml::from_str(text) {
            Ok(raw) => raw,
            Err(error) => {
                let range = error.span().map_or(TextRange::empty(0), |s| {
                    TextRange::new(s.start as u32, s.end as u32)
                });
                diagnostics.push(Diagnostic::new(
                    "config.invalid",
                    file,
                    range,
                    format!(
                        "skillgraph.toml could not be read, so the defaults apply: {}",
                        error.message()
                    ),
                ));
                return (Config::default(), diagnostics);
            }
        };
        let mut rules = Vec::new();
        for (code, value) in &raw.rules {
            let range = find_key(text, code);
            let Some(level) = value.as_str() else {
                diagnostics.push(Diagnostic::new(
                    "config.invalid",
                    file,
                    range,
                    format!(
                        "the level of `{code}` must be a string: off, error, warning, info or hint"
                    ),
                ));
                continue;
            };
            let severity = if level == "off" {
                None
            } else if let Some(severity) = Severity::parse(level) {
                Some(severity)
            } else {
                diagnostics.push(Diagnostic::new(
                    "config.invalid",
                    file,
                    range,
                    format!("`{level}` is not a level; use off, error, warning, info or hint"),
                ));
                continue;
            };
            if crate::rules::catalogue::lookup(code).is_none() {
                diagnostics.push(Diagnostic::new(
                    "config.unknown-rule",
                    file,
                    range,
                    format!("no rule has the code `{code}`, so this line has no effect; `skillgraph check --format json` lists the codes it reports"),
                ));
            }
            rules.push((code.clone(), severity));
        }
        (
            Config {
                strict: raw.skill_md.strict,
                extra_fields: raw.skill_md.extra_fields,
                tools_available: raw.tools.available,
                mcp_tool_lists: raw.tools.mcp_tool_lists,
                presets: raw.tools.presets,
                rules,
            },
            diagnostics,
        )
    }
}

/// The range of a `[rules]` key as written (quoted or bare); the start of the file if not found.
fn find_key(text: &str, key: &str) -> TextRange {
    for candidate in [format!("\"{key}\""), format!("'{key}'"), key.to_owned()] {
        if let Some(at) = text.find(&candidate) {
            return TextRange::new(at as u32, (at + candidate.len()) as u32);
        }
    }
    TextRange::empty(0)
}

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: "config.invalid",
        severity: Severity::Error,
        summary: "`skillgraph.toml` is malformed.",
        explanation: "The file is not valid TOML, has a key of the wrong type, an unknown section or key, or a \
`[rules]` level that is not one of off, error, warning, info, hint. What could not be read falls back to the \
defaults, so checks still run. Fix the line shown.",
    },
    RuleDoc {
        code: "config.unknown-rule",
        severity: Severity::Warning,
        summary: "A `[rules]` entry names a code that no rule has.",
        explanation: "The override has no effect, usually because of a typo in the code. `docs/rules.md` lists \
every code.",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_section() {
        let text = "[skill-md]\nstrict = true\nextra-fields = [\"x-owner\"]\n[tools]\navailable = [\"Read\"]\npresets = [\"claude-code\"]\n[rules]\n\"agent.duplicate-grant\" = \"off\"\n\"yaml.duplicate-key\" = \"warning\"\n";
        let (config, diagnostics) = Config::parse(FileId(0), text);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert!(config.strict);
        assert_eq!(config.extra_fields, ["x-owner"]);
        assert_eq!(config.rules.len(), 2);
    }

    #[test]
    fn malformed_file_is_a_diagnostic_with_defaults() {
        let text = "[tools]\navailable = \"Read\"\n";
        let (config, diagnostics) = Config::parse(FileId(0), text);
        assert_eq!(config, Config::default());
        assert_eq!(diagnostics[0].code, "config.invalid");
        let range = diagnostics[0].range;
        assert_eq!(&text[range.start as usize..range.end as usize], "\"Read\"");
    }

    #[test]
    fn bad_levels_and_unknown_codes() {
        let text = "[rules]\n\"agent.duplicate-grant\" = \"loud\"\n\"no.such-rule\" = \"off\"\n";
        let (_, diagnostics) = Config::parse(FileId(0), text);
        let codes: Vec<_> = diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["config.invalid", "config.unknown-rule"]);
        let range = diagnostics[1].range;
        assert_eq!(
            &text[range.start as usize..range.end as usize],
            "\"no.such-rule\""
        );
    }
}
