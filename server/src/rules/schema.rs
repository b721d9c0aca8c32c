//! Validation of SwarmKit artifacts against the official SwarmKit JSON Schemas (draft 2020-12,
//! bundled in the binary from `server/schemas/`). Owns the `schema.*` codes.
//!
//! Every violation is reported, each on the node it is about (the unknown key, the wrong value,
//! the key of the mapping that lacks a field), with a message of our own. Validators are compiled
//! once per kind; a file that validates costs one `is_valid` pass and no error bookkeeping. The
//! schemas hold only local `$ref`s, and the validator is built without any resolver that could
//! fetch one.

mod locate;
mod report;

use std::sync::OnceLock;

use jsonschema::Validator;
use serde_json::Value;

use super::rule_doc::RuleDoc;
use crate::diagnostic::{codes, Code, Diagnostic, FileId};
use crate::model::swarmkit::ArtifactKind;
use crate::syntax::Node;

/// What a bundled schema describes: an artifact of one of the SwarmKit kinds (their facts are
/// the model's one table, `model::swarmkit::KINDS`), or one of the two shapes that are not files
/// of a workspace directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SchemaKind {
    Artifact(ArtifactKind),
    /// Not a file of its own (no `apiVersion`/`kind`): the shape of an approval gate's policy,
    /// embedded in other artifacts.
    ApprovalPolicy,
    ModelProvider,
}

impl From<ArtifactKind> for SchemaKind {
    fn from(kind: ArtifactKind) -> SchemaKind {
        SchemaKind::Artifact(kind)
    }
}

impl SchemaKind {
    pub const ALL: [SchemaKind; ArtifactKind::ALL.len() + 2] = {
        let mut all = [SchemaKind::ApprovalPolicy; ArtifactKind::ALL.len() + 2];
        let mut i = 0;
        while i < ArtifactKind::ALL.len() {
            all[i] = SchemaKind::Artifact(ArtifactKind::ALL[i]);
            i += 1;
        }
        all[i] = SchemaKind::ApprovalPolicy;
        all[i + 1] = SchemaKind::ModelProvider;
        all
    };

    /// The position of this kind in [`SchemaKind::ALL`].
    fn slot(self) -> usize {
        match self {
            SchemaKind::Artifact(kind) => kind as usize,
            SchemaKind::ApprovalPolicy => ArtifactKind::ALL.len(),
            SchemaKind::ModelProvider => ArtifactKind::ALL.len() + 1,
        }
    }

    /// The kind a YAML `kind:` value names (exactly the schemas' `kind` constants).
    pub fn from_kind_field(kind: &str) -> Option<SchemaKind> {
        SchemaKind::ALL
            .into_iter()
            .find(|k| k.kind_field() == Some(kind))
    }

    /// The `kind:` value of this artifact; `None` for the approval policy, which has none.
    pub fn kind_field(self) -> Option<&'static str> {
        match self {
            SchemaKind::Artifact(kind) => Some(kind.kind_field()),
            SchemaKind::ModelProvider => Some("ModelProvider"),
            SchemaKind::ApprovalPolicy => None,
        }
    }

    /// The schema's file stem, as SwarmKit names it (`role-registry`), which is also the name of
    /// its folder of test fixtures.
    pub fn schema_name(self) -> &'static str {
        match self {
            SchemaKind::Artifact(kind) => kind.schema_name(),
            SchemaKind::ApprovalPolicy => "approval-policy",
            SchemaKind::ModelProvider => "model-provider",
        }
    }

    pub fn from_schema_name(name: &str) -> Option<SchemaKind> {
        SchemaKind::ALL
            .into_iter()
            .find(|k| k.schema_name() == name)
    }

    /// What a document of this kind is called in messages about its root.
    fn document_name(self) -> &'static str {
        match self {
            SchemaKind::ApprovalPolicy => "approval policy",
            other => other.kind_field().unwrap_or("document"),
        }
    }

    /// The bundled schema text, by file stem: the one place a schema file is named.
    fn source(self) -> &'static str {
        macro_rules! bundled {
            ($($stem:literal),* $(,)?) => {
                match self.schema_name() {
                    $($stem => include_str!(concat!("../../schemas/", $stem, ".schema.json")),)*
                    // Caught by `every_bundled_schema_compiles_and_kinds_round_trip`: a stem with no
                    // bundled file.
                    _ => "",
                }
            };
        }
        bundled!(
            "workspace",
            "topology",
            "skill",
            "archetype",
            "trigger",
            "funnel",
            "contract",
            "role-registry",
            "executor-adapter",
            "approval-policy",
            "model-provider",
        )
    }
}

struct Compiled {
    validator: Validator,
    /// The schema itself, to read what an error's schema path points at (allowed keys, branches).
    schema: Value,
    order: KeyOrder,
}

/// Where each key of the bundled schema's `properties` objects is written among its siblings.
/// `serde_json` keeps object keys sorted, but completion offers a mapping's keys in the order
/// the schema's authors wrote them (`id` and `name` before the rest).
#[derive(Default)]
pub struct KeyOrder {
    /// By the address of a `properties` object of the parsed (never mutated) schema: its keys
    /// in written order.
    written: std::collections::HashMap<usize, Vec<String>>,
}

impl KeyOrder {
    /// Reads the written order of every `properties` object of `source`, whose parse is
    /// `schema`. Walks both trees side by side with a stack (the schemas nest deeply).
    fn of(source: &str, schema: &Value) -> KeyOrder {
        let Ok(ordered) = serde_json::from_str::<Ordered>(source) else {
            return KeyOrder::default();
        };
        let mut written = std::collections::HashMap::new();
        let mut stack = vec![(schema, &ordered)];
        while let Some((value, ordered)) = stack.pop() {
            match (value, ordered) {
                (Value::Object(map), Ordered::Object(entries)) => {
                    for (key, child) in entries {
                        let Some(value) = map.get(key) else { continue };
                        if key == "properties" {
                            if let (Value::Object(properties), Ordered::Object(names)) =
                                (value, child)
                            {
                                let at = properties as *const _ as usize;
                                written.insert(at, names.iter().map(|(n, _)| n.clone()).collect());
                            }
                        }
                        stack.push((value, child));
                    }
                }
                (Value::Array(items), Ordered::Array(children)) => {
                    stack.extend(items.iter().zip(children));
                }
                _ => {}
            }
        }
        KeyOrder { written }
    }

    /// The keys of `properties` (an object of the bundled schema) in written order; sorted when
    /// it is not one of them.
    pub fn keys<'v>(&self, properties: &'v serde_json::Map<String, Value>) -> Vec<&'v str> {
        let at = properties as *const _ as usize;
        match self.written.get(&at) {
            Some(names) => names
                .iter()
                .filter_map(|n| properties.get_key_value(n).map(|(k, _)| k.as_str()))
                .collect(),
            None => properties.keys().map(String::as_str).collect(),
        }
    }
}

/// JSON read with its object keys in written order (what `KeyOrder` needs and `Value` drops).
enum Ordered {
    Object(Vec<(String, Ordered)>),
    Array(Vec<Ordered>),
    Scalar,
}

impl<'de> serde::Deserialize<'de> for Ordered {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Ordered, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Ordered, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, Ordered>()? {
                    entries.push(entry);
                }
                Ok(Ordered::Object(entries))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Ordered, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<Ordered>()? {
                    items.push(item);
                }
                Ok(Ordered::Array(items))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Ordered, E> {
                Ok(Ordered::Scalar)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Ordered, E> {
                Ok(Ordered::Scalar)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Ordered, E> {
                Ok(Ordered::Scalar)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Ordered, E> {
                Ok(Ordered::Scalar)
            }
            fn visit_str<E>(self, _: &str) -> Result<Ordered, E> {
                Ok(Ordered::Scalar)
            }
            fn visit_unit<E>(self) -> Result<Ordered, E> {
                Ok(Ordered::Scalar)
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

fn compile(kind: SchemaKind) -> Result<Compiled, String> {
    let schema: Value = serde_json::from_str(kind.source()).map_err(|e| e.to_string())?;
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        // `models.pattern` is matched by the Python runtime's `re`, not ECMA 262: a pattern valid
        // there may not parse here, so judging it would report correct files.
        .with_format("regex", |_: &str| true)
        .build(&schema)
        .map_err(|e| e.to_string())?;
    let order = KeyOrder::of(kind.source(), &schema);
    Ok(Compiled {
        validator,
        schema,
        order,
    })
}

fn compiled(kind: SchemaKind) -> Option<&'static Compiled> {
    static CACHE: [OnceLock<Option<Compiled>>; SchemaKind::ALL.len()] =
        [const { OnceLock::new() }; SchemaKind::ALL.len()];
    CACHE[kind.slot()]
        .get_or_init(|| {
            let result = compile(kind);
            debug_assert!(
                result.is_ok(),
                "bundled schema {kind:?} does not compile: {:?}",
                result.as_ref().err()
            );
            result.ok()
        })
        .as_ref()
}

/// The bundled schema of an artifact kind, parsed once: completion reads from it the keys a
/// mapping accepts and the values a key takes, so they are the ones this check holds files to.
pub fn bundled_schema(kind: crate::model::swarmkit::ArtifactKind) -> Option<&'static Value> {
    let kind = SchemaKind::from_kind_field(kind.kind_field())?;
    compiled(kind).map(|c| &c.schema)
}

/// The written order of the bundled schema's keys, for completion.
pub fn bundled_key_order(kind: crate::model::swarmkit::ArtifactKind) -> Option<&'static KeyOrder> {
    let kind = SchemaKind::from_kind_field(kind.kind_field())?;
    compiled(kind).map(|c| &c.order)
}

/// Validates one artifact's tree against the schema of `kind` and reports every violation.
pub fn check_schema(kind: SchemaKind, root: Node<'_>, file: FileId) -> Vec<Diagnostic> {
    let Some(compiled) = compiled(kind) else {
        return Vec::new();
    };
    let instance = root.to_json();
    if compiled.validator.is_valid(&instance) {
        return Vec::new();
    }
    let mut reporter = report::Reporter::new(&compiled.schema, root, file, kind.document_name())
        .with_model_construction(model_construction_code(kind));
    let scope = report::Scope::default();
    for error in compiled.validator.iter_errors(&instance) {
        reporter.report(&error, &scope);
    }
    reporter.finish()
}

/// The doc of `<kind>.model-construction`; `$source` is where swarmkit-runtime 1.265.0 builds the
/// model and reports the refusal.
macro_rules! model_rule {
    ($code:expr, $what:literal, $source:literal) => {
        RuleDoc {
            code: $code,
            summary: concat!(
                "A ",
                $what,
                " value ends with a line break that SwarmKit's schema check lets through and its model refuses."
            ),
            explanation: concat!(
                "SwarmKit matches the schema's patterns with Python's `re`, where `$` also matches just before a ",
                "final line break, so an id written `\"summarize\\n\"`, or as a `|` block (which keeps one), passes ",
                "the schema check. The ",
                $what,
                " model it builds next holds the same patterns without that allowance and refuses the whole file ",
                "(swarmkit-runtime 1.265.0, ",
                $source,
                "), so `swarmkit validate` fails with this code and everything the file defines is unknown to the ",
                "rest of the workspace. skillgraph reports it under SwarmKit's code, on the value. Remove the line ",
                "break: drop the `\\n`, or write the value on the key's line.\n\nSwarmKit leaves the file's ",
                "definitions out of its registries as well, so it also reports what refers to them (a trigger of ",
                "a refused topology, a grant of a refused skill); skillgraph keeps the definitions and reports only ",
                "the references that the line break itself breaks."
            ),
        }
    };
}

/// SwarmKit's code for an artifact its schema check passes and its model then refuses: the kinds
/// whose registry builds a model of each file (swarmkit-runtime 1.265.0: `skills/__init__.py`,
/// `archetypes/__init__.py`, and `resolver/_topology.py`, `_triggers.py`, `_funnels.py`,
/// `_contracts.py`). The workspace manifest's model is built only after every other phase passes,
/// and a refusal there is not reported as a diagnostic, so it keeps the pattern code.
fn model_construction_code(kind: SchemaKind) -> Option<Code> {
    match kind {
        SchemaKind::Artifact(ArtifactKind::Skill) => Some(codes::SKILL_MODEL_CONSTRUCTION),
        SchemaKind::Artifact(ArtifactKind::Archetype) => Some(codes::ARCHETYPE_MODEL_CONSTRUCTION),
        SchemaKind::Artifact(ArtifactKind::Topology) => Some(codes::TOPOLOGY_MODEL_CONSTRUCTION),
        SchemaKind::Artifact(ArtifactKind::Trigger) => Some(codes::TRIGGER_MODEL_CONSTRUCTION),
        SchemaKind::Artifact(ArtifactKind::Funnel) => Some(codes::FUNNEL_MODEL_CONSTRUCTION),
        SchemaKind::Artifact(ArtifactKind::Contract) => Some(codes::CONTRACT_MODEL_CONSTRUCTION),
        _ => None,
    }
}

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::SCHEMA_REQUIRED_FIELD,
        summary: "A field the SwarmKit schema requires is missing.",
        explanation: "SwarmKit refuses to load an artifact that lacks a required field, so nothing in the \
workspace that refers to it will run. The diagnostic sits on the key of the mapping that lacks the field (or on \
`kind:` for a top-level field) and names what to add; some fields are required only in a given case, e.g. a \
`decision` skill must declare `outputs`, and an `mcp_tool` implementation needs `server` and `tool`. Add the \
field with a value of the documented shape.",
    },
    RuleDoc {
        code: codes::SCHEMA_TYPE_MISMATCH,
        summary: "A value has the wrong type (a string where a list is expected, and so on).",
        explanation: "YAML guesses types from how a value is written: `version: 1.0` is a number, `skills: a` is \
a string rather than a list, and an empty `key:` is null. The schema fixes the type of every field, and SwarmKit \
rejects the file when they differ. Write the value in the expected form: quote a string that looks like a number, \
use `[a, b]` or `- a` for a list, indent a mapping under its key. A value holding `${…}` is judged after \
substitution, as SwarmKit judges it (see `yaml.interpolation-too-large` and docs/architecture/decisions-worth-knowing.md); a reference that \
nothing resolves stays as written and is judged as that text. SwarmKit substitutes every string value, never a \
key, before the schema check (swarmkit-runtime 1.265.0, `resolver/__init__.py`, `_apply_env_interpolation`; \
`resolver/_env_config.py`, `_resolve_refs` and `interpolate_value`): a name is looked up in the properties of \
`workspace.env.yaml` (and the variant `SWARMKIT_ENV` selects), then in the environment, then the `:-default` is \
used; `$${…}` is the escape for a literal `${…}`.",
    },
    RuleDoc {
        code: codes::SCHEMA_PATTERN_MISMATCH,
        summary: "A string does not have the required form (an id, a version, a scope).",
        explanation: "Ids must be lowercase words joined by hyphens (`code-review`), versions are \
MAJOR.MINOR.PATCH (`1.0.0`), IAM scopes are `namespace:action`, and so on; SwarmKit matches each against a \
regular expression and rejects the file otherwise. Ids matter most: other files refer to them, and an id SwarmKit \
rejects makes every reference to it fail too. Rewrite the value in the form the message describes.\n\n\
SwarmKit checks every artifact against its schema before it builds any registry, and stops there when one fails \
(swarmkit-runtime 1.265.0, `resolver/__init__.py`, `resolve_workspace`, after `validate_discovered`). skillgraph \
reports the unknown ids and other cross-file problems in the same pass, on purpose, so they can be fixed together; \
SwarmKit would report them only once the schema errors are gone. A reference to an id written in a form the \
schema refuses is still reported as unknown, because no definition of that form can exist.",
    },
    RuleDoc {
        code: codes::SCHEMA_ENUM_MISMATCH,
        summary: "A value is not one of the values the field allows.",
        explanation: "Fields such as a skill's `category`, an implementation's `type` or an archetype's `role` \
take one of a fixed set of words, each with its own runtime behaviour; anything else is rejected at load time. \
The message lists the allowed values and suggests the closest one when the value looks like a typo \
(`capabilty` -> `capability`).",
    },
    RuleDoc {
        code: codes::SCHEMA_CONST_MISMATCH,
        summary: "A field that must hold one exact value holds another.",
        explanation: "`apiVersion` must be `swarmkit/v1`, and `kind` must name the artifact the schema \
describes (`Skill`, `Topology`, …). A different value means SwarmKit reads the file as something else, or not at \
all. Set the field to the value shown; if the file is really another kind of artifact, move it to the directory \
of that kind instead.",
    },
    RuleDoc {
        code: codes::SCHEMA_UNKNOWN_FIELD,
        summary: "A field the schema does not define (often a typo).",
        explanation: "SwarmKit's schemas are closed: a mapping may hold only the fields they list, so a misspelt \
field (`tol` for `tool`, `skill` for `skills`) is not silently ignored but rejected, which is what you want, since \
the setting you meant would otherwise have no effect. The diagnostic sits on the unknown key, lists the allowed \
fields and suggests the closest one. Rename the key, move it to the mapping it belongs to, or remove it.",
    },
    RuleDoc {
        code: codes::SCHEMA_ARRAY_SIZE,
        summary: "A list has fewer (or more) items than the schema allows.",
        explanation: "Some lists are meaningless when empty: a trigger with no `targets` fires nothing, a \
`composed` skill that composes nothing does nothing, a `requires` rule with no prerequisite guards nothing. \
SwarmKit rejects them rather than guess. Add the missing items, or remove the field when it is optional.",
    },
    RuleDoc {
        code: codes::SCHEMA_LENGTH,
        summary: "A string is shorter (or longer) than the schema allows.",
        explanation: "Names, prompts, tool names and the like must not be empty, and a skill's `description` \
needs at least ten characters, because agents choose skills by reading it. Write a value of the required length.",
    },
    RuleDoc {
        code: codes::SCHEMA_RANGE,
        summary: "A number is outside the range the schema allows.",
        explanation: "Counts, timeouts and thresholds have bounds: a timeout of 0 seconds or a `k-of` quorum of \
0 approvals cannot work, and probabilities lie between 0 and 1. The message gives the bound; change the number to \
lie within it.",
    },
    RuleDoc {
        code: codes::SCHEMA_VARIANT_MISMATCH,
        summary: "A value matches none, or more than one, of the forms a field accepts.",
        explanation: "Some fields accept alternative forms: a skill grant is an id or `{abstract: …}`, a quorum is \
`all`, `any` or `{k-of: N}`, a sandbox `build` takes exactly one of `base`, `dockerfile` or `dockerfile_inline`. \
When a value's form can be told (by its `type:` field or by being a string or a mapping) the errors of that form \
are reported instead; this code remains for values that fit no form at all, or that set fields of two forms that \
exclude each other. Rewrite the value as exactly one of the forms listed.",
    },
    RuleDoc {
        code: codes::SCHEMA_FORMAT,
        summary: "A string is not a valid date, URI or other declared format.",
        explanation: "Fields such as `provenance.authored_date` (a date, `2025-01-31`) and an event sink's `url` \
(an absolute URI) declare a format, and tools that read them parse them as such. A value that does not parse is \
either a typo or a value in the wrong field. Write it in the format named in the message.",
    },
    RuleDoc {
        code: codes::SCHEMA_OBJECT_SIZE,
        summary: "A mapping has fewer (or more) entries than the schema allows.",
        explanation: "A few mappings must not be empty, e.g. an executor adapter's `auth.modes`: an empty one \
declares a feature while providing none of it. Add an entry, or remove the mapping when it is optional.",
    },
    RuleDoc {
        code: codes::SCHEMA_OTHER,
        summary: "A schema rule not covered by a more specific code is broken.",
        explanation: "Covers the rarer schema rules (SwarmKit files them under the same code): fields that must not \
appear together (a sandbox's `image` and `build`, an API key's `tier` and `scopes`), and lists that must not repeat \
an entry (a skill's `requires_credentials`), where the repeat is marked and the first occurrence is related. The \
message says which rule and what to change; SwarmKit rejects the file until it holds.",
    },
    model_rule!(codes::SKILL_MODEL_CONSTRUCTION, "skill", "`skills/__init__.py`, `build_skill_registry`"),
    model_rule!(
        codes::ARCHETYPE_MODEL_CONSTRUCTION,
        "archetype",
        "`archetypes/__init__.py`, `build_archetype_registry`"
    ),
    model_rule!(
        codes::TOPOLOGY_MODEL_CONSTRUCTION,
        "topology",
        "`resolver/_topology.py`, `_resolve_topology`"
    ),
    model_rule!(
        codes::TRIGGER_MODEL_CONSTRUCTION,
        "trigger",
        "`resolver/_triggers.py`, `build_trigger_registry`"
    ),
    model_rule!(
        codes::FUNNEL_MODEL_CONSTRUCTION,
        "funnel",
        "`resolver/_funnels.py`, `build_funnel_registry`"
    ),
    model_rule!(
        codes::CONTRACT_MODEL_CONSTRUCTION,
        "contract",
        "`resolver/_contracts.py`, `build_contract_registry`"
    ),
];

/// `text` parsed as YAML and checked against the schema of `kind`, for the tests (which name
/// no YAML tree): the parser's errors and the diagnostics, or `None` for a document with no root.
#[cfg(test)]
fn check_text(kind: SchemaKind, text: &str) -> Option<(Vec<String>, Vec<Diagnostic>)> {
    let doc = crate::syntax::YamlDocument::parse(text, 0);
    let errors = doc.errors.iter().map(|e| format!("{e:?}")).collect();
    Some((errors, check_schema(kind, doc.root()?, FileId(0))))
}

#[cfg(test)]
mod tests;
