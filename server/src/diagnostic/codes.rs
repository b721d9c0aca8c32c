//! Every diagnostic code the engine emits, as a typed constant with its default severity. The
//! table sits at the bottom of the engine so that every layer can name a code without importing
//! the rules; each code's documentation stays beside its checks (`RULES` in each rule family,
//! gathered by `rules::catalogue`), and a test there fails when the two lists disagree.
//!
//! User text that names a code (a `[rules]` key in `skillgraph.toml`, a suppression comment, a
//! code an editor sends back) becomes a [`Code`] through [`lookup`]; nothing else spells a code.

use super::Severity;

/// A diagnostic code: its name (`agent.unknown-skill`) and its default severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code {
    name: &'static str,
    severity: Severity,
}

impl Code {
    /// Only the table below makes codes.
    const fn new(name: &'static str, severity: Severity) -> Code {
        Code { name, severity }
    }

    /// A code outside the table, for tests of the output formats that must not depend on what
    /// any real rule says.
    #[cfg(test)]
    pub(crate) const fn made_up(name: &'static str, severity: Severity) -> Code {
        Code::new(name, severity)
    }

    /// The code as users write it and every output format prints it.
    pub const fn name(self) -> &'static str {
        self.name
    }

    /// The severity a diagnostic with this code has unless `skillgraph.toml` says otherwise.
    pub const fn default_severity(self) -> Severity {
        self.severity
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// A code equals its name, so tests and tools outside the engine can compare with the text
/// they read (inside `server/src` a test forbids spelling a code as a string).
impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        self.name == other
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.name == *other
    }
}

impl PartialEq<String> for Code {
    fn eq(&self, other: &String) -> bool {
        self.name == other
    }
}

impl PartialEq<Code> for &str {
    fn eq(&self, other: &Code) -> bool {
        *self == other.name
    }
}

impl PartialEq<Code> for String {
    fn eq(&self, other: &Code) -> bool {
        self == other.name
    }
}

/// The code named `name`, if the engine has one.
pub fn lookup(name: &str) -> Option<Code> {
    ALL.binary_search_by(|code| code.name.cmp(name))
        .ok()
        .map(|index| ALL[index])
}

/// Each constant, and [`ALL`] in the same order, from one list, so no code can be left out of
/// either.
macro_rules! codes {
    ($($constant:ident = $name:literal, $severity:ident;)*) => {
        $(pub const $constant: Code = Code::new($name, Severity::$severity);)*

        /// Every code, sorted by name (so [`lookup`] can search it).
        pub const ALL: &[Code] = &[$($constant),*];
    };
}

codes! {
    AGENT_ABSTRACT_AMBIGUOUS = "agent.abstract-ambiguous", Error;
    AGENT_ABSTRACT_NO_MATCH = "agent.abstract-no-match", Error;
    AGENT_BAD_REQUIRES = "agent.bad-requires", Error;
    AGENT_BAD_ROLE = "agent.bad-role", Error;
    AGENT_BAD_SKILL_ENTRY = "agent.bad-skill-entry", Error;
    AGENT_DEPENDS_ON_CYCLE = "agent.depends-on-cycle", Error;
    AGENT_DEPENDS_ON_SELF = "agent.depends-on-self", Error;
    AGENT_DEPENDS_ON_UNKNOWN = "agent.depends-on-unknown", Error;
    AGENT_DUPLICATE_GRANT = "agent.duplicate-grant", Warning;
    AGENT_DUPLICATE_ID = "agent.duplicate-id", Error;
    AGENT_OUTPUT_SCHEMA = "agent.output-schema", Error;
    AGENT_REQUIRES_CYCLE = "agent.requires-cycle", Error;
    AGENT_REQUIRES_DUPLICATE = "agent.requires-duplicate", Warning;
    AGENT_REQUIRES_NOT_ENFORCED = "agent.requires-not-enforced", Warning;
    AGENT_REQUIRES_PARAMETERISED = "agent.requires-parameterised", Error;
    AGENT_REQUIRES_UNKNOWN_SKILL = "agent.requires-unknown-skill", Error;
    AGENT_REQUIRES_UNSATISFIABLE = "agent.requires-unsatisfiable", Error;
    AGENT_UNKNOWN_ARCHETYPE = "agent.unknown-archetype", Error;
    AGENT_UNKNOWN_BULK_GRANT = "agent.unknown-bulk-grant", Error;
    AGENT_UNKNOWN_FUNNEL = "agent.unknown-funnel", Error;
    AGENT_UNKNOWN_SKILL = "agent.unknown-skill", Error;
    ARCHETYPE_DUPLICATE_ID = "archetype.duplicate-id", Error;
    ARCHETYPE_EXECUTOR_INVALID = "archetype.executor-invalid", Error;
    ARCHETYPE_MODEL_CONSTRUCTION = "archetype.model-construction", Error;
    ARCHETYPE_UNKNOWN_SKILL = "archetype.unknown-skill", Error;
    COMMAND_PACK_BINARY_VERSION = "command-pack.binary-version", Error;
    COMMAND_PACK_ID_COLLISION = "command-pack.id-collision", Error;
    COMMAND_PACK_MISSING_BINARY = "command-pack.missing-binary", Error;
    COMMAND_PACK_RESERVED_ID = "command-pack.reserved-id", Error;
    COMMAND_SHADOWED_BY_SKILL = "command.shadowed-by-skill", Warning;
    CONFIG_INVALID = "config.invalid", Error;
    CONFIG_UNKNOWN_PRESET = "config.unknown-preset", Error;
    CONFIG_UNKNOWN_RULE = "config.unknown-rule", Warning;
    CONTRACT_DUPLICATE_ID = "contract.duplicate-id", Error;
    CONTRACT_MODEL_CONSTRUCTION = "contract.model-construction", Error;
    FILE_ENCODING = "file.encoding", Error;
    FILE_TOO_LARGE = "file.too-large", Error;
    FILE_TOO_MANY_DIAGNOSTICS = "file.too-many-diagnostics", Warning;
    FUNNEL_DUPLICATE_ID = "funnel.duplicate-id", Error;
    FUNNEL_MODEL_CONSTRUCTION = "funnel.model-construction", Error;
    GOVERNANCE_NOT_A_DECISION_SKILL = "governance.not-a-decision-skill", Error;
    GOVERNANCE_UNKNOWN_DECISION_SKILL = "governance.unknown-decision-skill", Error;
    MEMORY_DISABLED_BUT_BOUND = "memory.disabled-but-bound", Error;
    PLUGIN_JSON_PARSE = "plugin.json-parse", Error;
    PLUGIN_MISSING_PATH = "plugin.missing-path", Error;
    PLUGIN_MISSING_SOURCE = "plugin.missing-source", Error;
    PLUGIN_UNKNOWN_SKILL = "plugin.unknown-skill", Warning;
    ROLE_DUPLICATE_ID = "role.duplicate-id", Error;
    SCHEMA_ARRAY_SIZE = "schema.array-size", Error;
    SCHEMA_CONST_MISMATCH = "schema.const-mismatch", Error;
    SCHEMA_ENUM_MISMATCH = "schema.enum-mismatch", Error;
    SCHEMA_FORMAT = "schema.format", Error;
    SCHEMA_LENGTH = "schema.length", Error;
    SCHEMA_OBJECT_SIZE = "schema.object-size", Error;
    SCHEMA_OTHER = "schema.other", Error;
    SCHEMA_PATTERN_MISMATCH = "schema.pattern-mismatch", Error;
    SCHEMA_RANGE = "schema.range", Error;
    SCHEMA_REQUIRED_FIELD = "schema.required-field", Error;
    SCHEMA_TYPE_MISMATCH = "schema.type-mismatch", Error;
    SCHEMA_UNKNOWN_FIELD = "schema.unknown-field", Error;
    SCHEMA_VARIANT_MISMATCH = "schema.variant-mismatch", Error;
    SKILL_COMPOSED_CYCLE = "skill.composed-cycle", Error;
    SKILL_COMPOSED_UNKNOWN = "skill.composed-unknown", Error;
    SKILL_DUPLICATE_ID = "skill.duplicate-id", Error;
    SKILL_MODEL_CONSTRUCTION = "skill.model-construction", Error;
    SKILL_RUNTIME_TOO_OLD = "skill.runtime-too-old", Error;
    SKILL_UNKNOWN_AGENT_TOPOLOGY = "skill.unknown-agent-topology", Error;
    SKILL_UNKNOWN_COMMAND = "skill.unknown-command", Error;
    SKILL_UNKNOWN_MCP_SERVER = "skill.unknown-mcp-server", Error;
    SKILLMD_ACTION_TOOL_UNKNOWN = "skillmd.action-tool-unknown", Warning;
    SKILLMD_AGENT_NEEDS_FORK = "skillmd.agent-needs-fork", Warning;
    SKILLMD_ARGUMENT_HINT_MISSING = "skillmd.argument-hint-missing", Info;
    SKILLMD_ARGUMENT_IN_CODE = "skillmd.argument-in-code", Warning;
    SKILLMD_ARGUMENT_UNDECLARED = "skillmd.argument-undeclared", Warning;
    SKILLMD_ARGUMENT_UNUSED = "skillmd.argument-unused", Warning;
    SKILLMD_BODY_BUDGET = "skillmd.body-budget", Warning;
    SKILLMD_BROKEN_LINK = "skillmd.broken-link", Warning;
    SKILLMD_CHAIN_CYCLE = "skillmd.chain-cycle", Error;
    SKILLMD_CHAIN_DEPTH = "skillmd.chain-depth", Error;
    SKILLMD_CHAIN_ESCAPE = "skillmd.chain-escape", Error;
    SKILLMD_CHAIN_OPTION_CONFLICT = "skillmd.chain-option-conflict", Warning;
    SKILLMD_CHAIN_SHAPE = "skillmd.chain-shape", Error;
    SKILLMD_CHAIN_UNKNOWN_SKILL = "skillmd.chain-unknown-skill", Error;
    SKILLMD_COMPATIBILITY_LENGTH = "skillmd.compatibility-length", Error;
    SKILLMD_DEPENDENCIES_SHAPE = "skillmd.dependencies-shape", Error;
    SKILLMD_DEPENDENCIES_UNSATISFIED = "skillmd.dependencies-unsatisfied", Warning;
    SKILLMD_DESCRIPTION_LENGTH = "skillmd.description-length", Error;
    SKILLMD_DESCRIPTION_XML = "skillmd.description-xml", Error;
    SKILLMD_DUPLICATE_NAME = "skillmd.duplicate-name", Error;
    SKILLMD_EXTENSION_HOST = "skillmd.extension-host", Warning;
    SKILLMD_FIELD_VALUE = "skillmd.field-value", Warning;
    SKILLMD_LINK_OUTSIDE = "skillmd.link-outside", Warning;
    SKILLMD_LISTING_BUDGET = "skillmd.listing-budget", Warning;
    SKILLMD_MENTION_NEAR_MISS = "skillmd.mention-near-miss", Warning;
    SKILLMD_METADATA_SHAPE = "skillmd.metadata-shape", Warning;
    SKILLMD_MISSING_FIELD = "skillmd.missing-field", Error;
    SKILLMD_NAME_FORMAT = "skillmd.name-format", Error;
    SKILLMD_NAME_MISMATCH = "skillmd.name-mismatch", Warning;
    SKILLMD_NO_FRONTMATTER = "skillmd.no-frontmatter", Error;
    SKILLMD_NOT_A_MAPPING = "skillmd.not-a-mapping", Error;
    SKILLMD_ORPHAN_FILES = "skillmd.orphan-files", Info;
    SKILLMD_PRECONDITION_ADVISORY = "skillmd.precondition-advisory", Info;
    SKILLMD_PRECONDITION_MALFORMED = "skillmd.precondition-malformed", Error;
    SKILLMD_PRECONDITION_UNSATISFIED = "skillmd.precondition-unsatisfied", Warning;
    SKILLMD_REFERENCE_DEPTH = "skillmd.reference-depth", Warning;
    SKILLMD_REFERENCE_TOC = "skillmd.reference-toc", Info;
    SKILLMD_RESERVED_WORD = "skillmd.reserved-word", Error;
    SKILLMD_SHADOWED = "skillmd.shadowed", Error;
    SKILLMD_UNCLOSED_FRONTMATTER = "skillmd.unclosed-frontmatter", Error;
    SKILLMD_UNKNOWN_AGENT = "skillmd.unknown-agent", Warning;
    SKILLMD_UNKNOWN_FIELD = "skillmd.unknown-field", Warning;
    SKILLMD_YAML_PARSE = "skillmd.yaml-parse", Error;
    SUBAGENT_MISSING_FIELD = "subagent.missing-field", Error;
    SUBAGENT_UNKNOWN_FIELD = "subagent.unknown-field", Warning;
    SUBAGENT_UNKNOWN_SKILL = "subagent.unknown-skill", Warning;
    SUPPRESSION_UNKNOWN_CODE = "suppression.unknown-code", Warning;
    SUPPRESSION_UNUSED = "suppression.unused", Warning;
    TOOLS_INVALID_LIST = "tools.invalid-list", Error;
    TOOLS_MISSING_LIST = "tools.missing-list", Warning;
    TOPOLOGY_DUPLICATE_ID = "topology.duplicate-id", Error;
    TOPOLOGY_MODEL_CONSTRUCTION = "topology.model-construction", Error;
    TRIGGER_DUPLICATE_ID = "trigger.duplicate-id", Error;
    TRIGGER_MODEL_CONSTRUCTION = "trigger.model-construction", Error;
    TRIGGER_UNKNOWN_TARGET = "trigger.unknown-target", Error;
    WORKSPACE_PACK_ID_COLLISION = "workspace-pack.id-collision", Error;
    WORKSPACE_DEEP_NESTING = "workspace.deep-nesting", Error;
    WORKSPACE_ENV_UNREADABLE = "workspace.env-unreadable", Warning;
    WORKSPACE_KIND_MISMATCH = "workspace.kind-mismatch", Error;
    WORKSPACE_MALFORMED = "workspace.malformed", Error;
    WORKSPACE_MISSING_WORKSPACE_YAML = "workspace.missing-workspace-yaml", Error;
    WORKSPACE_YAML_PARSE = "workspace.yaml-parse", Error;
    YAML_ALIAS_DEPTH = "yaml.alias-depth", Error;
    YAML_ALIAS_EXPANSION = "yaml.alias-expansion", Error;
    YAML_DUPLICATE_KEY = "yaml.duplicate-key", Error;
    YAML_INTERPOLATION_TOO_LARGE = "yaml.interpolation-too-large", Error;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_is_sorted_by_name_without_repeats() {
        for pair in ALL.windows(2) {
            assert!(
                pair[0].name < pair[1].name,
                "{} must come after {}",
                pair[0].name,
                pair[1].name
            );
        }
    }

    #[test]
    fn lookup_finds_every_code_and_nothing_else() {
        for code in ALL {
            assert_eq!(lookup(code.name()), Some(*code));
        }
        assert_eq!(lookup("agent.unknown"), None);
        assert_eq!(lookup(""), None);
        assert_eq!(lookup("AGENT.UNKNOWN-SKILL"), None);
    }
}
