//! The docs of `skillgraph.toml`'s own problems. They are found while the file is read
//! (`model::config::Config::parse`), since a key is judged as it is decoded; their docs live
//! here, with every other rule's.

use super::rule_doc::RuleDoc;
use crate::diagnostic::codes;

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::CONFIG_INVALID,
        summary: "`skillgraph.toml` is malformed.",
        explanation: "The file is not valid TOML, has a key of the wrong type, an unknown section or key, or a \
`[rules]` level that is not one of off, error, warning, info, hint. Only what is reported is ignored (a file \
that is not TOML at all falls back to the defaults); the rest of the file applies, so checks still run. Fix \
the line shown; `docs/skillgraph.toml.schema.json` describes every key.",
    },
    RuleDoc {
        code: codes::CONFIG_UNKNOWN_RULE,
        summary: "A `[rules]` entry names a code that no rule has.",
        explanation: "The override has no effect, usually because of a typo in the code; the message names the \
nearest code when one is close. `docs/rules.md` lists every code.",
    },
];
