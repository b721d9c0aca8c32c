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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Code;
    use crate::syntax::{TextRange, YamlDocument};

    const SKILL: &str = "apiVersion: swarmkit/v1
kind: Skill
metadata:
  id: say-hello
  name: Say hello
  description: Greets the person who asked.
category: capability
implementation:
  type: mcp_tool
  server: greeter
  tool: hello
provenance:
  authored_by: human
  version: 1.0.0
";

    fn check(kind: impl Into<SchemaKind>, text: &str) -> Vec<Diagnostic> {
        let doc = YamlDocument::parse(text, 0);
        assert!(
            doc.errors.is_empty(),
            "fixture does not parse: {:?}",
            doc.errors
        );
        check_schema(kind.into(), doc.root().expect("a root"), FileId(0))
    }

    fn slice(text: &str, range: TextRange) -> &str {
        &text[range.start as usize..range.end as usize]
    }

    /// Asserts exactly one diagnostic, with this code, on this text, and returns its message.
    #[track_caller]
    /// [`single`] on a Skill.
    fn skill_single(text: &str, code: Code, on: &str) -> String {
        single(ArtifactKind::Skill, text, code, on)
    }

    /// Asserts that `message` says `part`.
    fn says(message: &str, part: &str) {
        assert!(message.contains(part), "{message}");
    }

    fn single(kind: impl Into<SchemaKind>, text: &str, code: Code, on: &str) -> String {
        let diagnostics = check(kind, text);
        let shown: Vec<_> = diagnostics
            .iter()
            .map(|d| (d.code, slice(text, d.range), d.message.as_str()))
            .collect();
        assert_eq!(diagnostics.len(), 1, "{shown:#?}");
        assert_eq!((shown[0].0, shown[0].1), (code, on), "{shown:#?}");
        diagnostics[0].message.clone()
    }

    fn skill_with(from: &str, to: &str) -> String {
        assert!(SKILL.contains(from), "{from:?} not in the skill fixture");
        SKILL.replacen(from, to, 1)
    }

    #[test]
    fn every_bundled_schema_compiles_and_kinds_round_trip() {
        for kind in SchemaKind::ALL {
            assert!(compiled(kind).is_some(), "{kind:?}");
            assert_eq!(SchemaKind::from_schema_name(kind.schema_name()), Some(kind));
            if let Some(field) = kind.kind_field() {
                assert_eq!(SchemaKind::from_kind_field(field), Some(kind));
                let schema = &compiled(kind).unwrap().schema;
                assert_eq!(
                    schema
                        .pointer("/properties/kind/const")
                        .and_then(Value::as_str),
                    Some(field)
                );
            }
        }
        assert_eq!(SchemaKind::from_kind_field("ApprovalPolicy"), None);
        assert_eq!(SchemaKind::from_kind_field("skill"), None);
    }

    #[test]
    fn valid_skill_is_silent() {
        assert_eq!(check(ArtifactKind::Skill, SKILL), vec![]);
    }

    #[test]
    fn every_code_is_documented() {
        let documented: Vec<Code> = RULES.iter().map(|r| r.code).collect();
        for code in [
            codes::SCHEMA_REQUIRED_FIELD,
            codes::SCHEMA_TYPE_MISMATCH,
            codes::SCHEMA_PATTERN_MISMATCH,
            codes::SCHEMA_ENUM_MISMATCH,
            codes::SCHEMA_CONST_MISMATCH,
            codes::SCHEMA_UNKNOWN_FIELD,
            codes::SCHEMA_ARRAY_SIZE,
            codes::SCHEMA_LENGTH,
            codes::SCHEMA_RANGE,
            codes::SCHEMA_VARIANT_MISMATCH,
            codes::SCHEMA_FORMAT,
            codes::SCHEMA_OBJECT_SIZE,
            codes::SCHEMA_OTHER,
            codes::SKILL_MODEL_CONSTRUCTION,
            codes::ARCHETYPE_MODEL_CONSTRUCTION,
            codes::TOPOLOGY_MODEL_CONSTRUCTION,
            codes::TRIGGER_MODEL_CONSTRUCTION,
            codes::FUNNEL_MODEL_CONSTRUCTION,
            codes::CONTRACT_MODEL_CONSTRUCTION,
        ] {
            assert!(documented.contains(&code), "{code}");
        }
        assert_eq!(documented.len(), 19);
    }

    #[test]
    fn required_field_at_root_is_on_kind() {
        let text = SKILL.replace("category: capability\n", "");
        let message = skill_single(&text, codes::SCHEMA_REQUIRED_FIELD, "kind");
        says(&message, "`category`");
        says(&message, "capability, decision, coordination, persistence");
    }

    #[test]
    fn required_field_in_a_mapping_is_on_its_key() {
        let text = skill_with("  version: 1.0.0\n", "");
        let message = skill_single(&text, codes::SCHEMA_REQUIRED_FIELD, "provenance");
        says(&message, "`version`");
    }

    #[test]
    fn required_field_in_a_list_item_is_on_its_first_key() {
        let text = "rules:\n  - scope: design:approve\n    roles: [lead]\n";
        let message = single(
            SchemaKind::ApprovalPolicy,
            text,
            codes::SCHEMA_REQUIRED_FIELD,
            "scope",
        );
        assert!(
            message.contains("`rules[0]`") && message.contains("`quorum`"),
            "{message}"
        );
    }

    #[test]
    fn conditional_requirement_says_when() {
        let text = SKILL.replace("category: capability", "category: decision");
        let message = skill_single(&text, codes::SCHEMA_REQUIRED_FIELD, "kind");
        assert!(
            message.contains("`outputs`") && message.contains("`category` is `decision`"),
            "{message}"
        );
    }

    #[test]
    fn type_mismatch_is_on_the_value() {
        let text = skill_with("  name: Say hello", "  name: [a, b]");
        let message = skill_single(&text, codes::SCHEMA_TYPE_MISMATCH, "[a, b]");
        says(&message, "must be a string; found a list");
    }

    #[test]
    fn empty_value_of_wrong_type_is_on_its_key() {
        let text = skill_with("  name: Say hello", "  name:");
        let message = skill_single(&text, codes::SCHEMA_TYPE_MISMATCH, "name");
        says(&message, "found an empty value");
    }

    #[test]
    fn pattern_mismatch_is_on_the_value() {
        let text = skill_with("id: say-hello", "id: Say_Hello");
        let message = skill_single(&text, codes::SCHEMA_PATTERN_MISMATCH, "Say_Hello");
        assert!(
            message.contains("`metadata.id`") && message.contains("lowercase"),
            "{message}"
        );
    }

    #[test]
    fn an_id_with_a_final_line_break_is_what_swarmkit_s_model_refuses() {
        // Quoted with `\n`, and as a `|` block, which keeps the final line break.
        for written in ["id: \"say-hello\\n\"", "id: |\n    say-hello"] {
            let text = skill_with("id: say-hello", written);
            let found = check(ArtifactKind::Skill, &text);
            assert_eq!(found.len(), 1, "{written}: {found:?}");
            assert_eq!(found[0].code, codes::SKILL_MODEL_CONSTRUCTION, "{written}");
            assert!(
                found[0].message.contains("ends with a line break"),
                "{}",
                found[0].message
            );
        }
    }

    #[test]
    fn a_requires_key_with_a_final_line_break_is_what_the_topology_model_refuses() {
        let text = "apiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: hello\n  version: 0.1.0\n\
agents:\n  root:\n    id: root\n    role: root\n    skills: [a, b]\n    requires:\n      \"a\\n\": [b]\n";
        let found = check(ArtifactKind::Topology, text);
        let found_codes: Vec<_> = found.iter().map(|d| d.code).collect();
        assert_eq!(
            found_codes,
            [codes::TOPOLOGY_MODEL_CONSTRUCTION],
            "{found:?}"
        );
    }

    #[test]
    fn a_final_line_break_is_a_pattern_mismatch_where_swarmkit_builds_no_model_or_it_is_wrong_anyway(
    ) {
        // The manifest's model is built last and its refusal is no diagnostic in SwarmKit.
        let text =
            "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: \"ws\\n\"\n  name: W\n";
        let found: Vec<_> = check(ArtifactKind::Workspace, text)
            .iter()
            .map(|d| d.code)
            .collect();
        assert!(found.contains(&codes::SCHEMA_PATTERN_MISMATCH), "{found:?}");
        assert!(
            !found
                .iter()
                .any(|c| c.name().ends_with(".model-construction")),
            "{found:?}"
        );
        // Without the line break the value would still be wrong: the pattern code stays.
        let text = skill_with("id: say-hello", "id: \"Say_Hello\\n\"");
        let found: Vec<_> = check(ArtifactKind::Skill, &text)
            .iter()
            .map(|d| d.code)
            .collect();
        assert_eq!(found, [codes::SCHEMA_PATTERN_MISMATCH]);
        // A well-formed id is silent.
        assert!(check(ArtifactKind::Skill, SKILL).is_empty());
    }

    #[test]
    fn enum_mismatch_lists_values_and_suggests() {
        let text = skill_with("category: capability", "category: capabilty");
        let message = skill_single(&text, codes::SCHEMA_ENUM_MISMATCH, "capabilty");
        assert_eq!(
            message,
            "`category` must be one of capability, decision, coordination, persistence; \
             found \"capabilty\"; did you mean `capability`?"
        );
    }

    #[test]
    fn const_mismatch_is_on_the_value() {
        let text = skill_with("apiVersion: swarmkit/v1", "apiVersion: swarmkit/v2");
        let message = skill_single(&text, codes::SCHEMA_CONST_MISMATCH, "swarmkit/v2");
        says(&message, "`swarmkit/v1`");
    }

    #[test]
    fn unknown_field_is_on_the_key_with_a_suggestion() {
        let text = skill_with(
            "  authored_by: human",
            "  authored_by: human\n  vendr: acme",
        );
        let message = skill_single(&text, codes::SCHEMA_UNKNOWN_FIELD, "vendr");
        says(&message, "did you mean `vendor`?");
        says(&message, "`registry`");
    }

    #[test]
    fn thousands_of_unknown_fields_are_each_on_their_own_key() {
        let count = 20_000;
        let unknown: String = (0..count).map(|i| format!("x{i}: {i}\n")).collect();
        // `categry` is close to `category`, which the skill has: no rename is offered.
        let text = format!("{SKILL}{unknown}categry: 1\n");
        let diagnostics = check(ArtifactKind::Skill, &text);
        assert_eq!(diagnostics.len(), count + 1);
        for (i, d) in diagnostics[..count].iter().enumerate() {
            assert_eq!(d.code, codes::SCHEMA_UNKNOWN_FIELD);
            assert_eq!(slice(&text, d.range), format!("x{i}"));
        }
        let last = &diagnostics[count];
        assert_eq!(slice(&text, last.range), "categry");
        assert!(
            last.message.contains("did you mean `category`?"),
            "{}",
            last.message
        );
        assert!(last.fixes.is_empty());
    }

    #[test]
    fn unknown_field_at_root() {
        let text = format!("{SKILL}extra: 1\n");
        let message = skill_single(&text, codes::SCHEMA_UNKNOWN_FIELD, "extra");
        says(&message, "in this Skill");
    }

    #[test]
    fn array_size() {
        let text = skill_with(
            "  type: mcp_tool\n  server: greeter\n  tool: hello",
            "  type: composed\n  composes: []",
        );
        let message = skill_single(&text, codes::SCHEMA_ARRAY_SIZE, "[]");
        says(&message, "at least 1 item; found an empty list");
    }

    #[test]
    fn length() {
        let text = skill_with(
            "description: Greets the person who asked.",
            "description: Hi",
        );
        let message = skill_single(&text, codes::SCHEMA_LENGTH, "Hi");
        says(&message, "at least 10 characters long; found 2");
    }

    #[test]
    fn range() {
        let text = "rules:\n  - scope: design:approve\n    roles: [lead]\n    quorum: {k-of: 0}\n";
        let message = single(SchemaKind::ApprovalPolicy, text, codes::SCHEMA_RANGE, "0");
        says(&message, "at least 1");
    }

    #[test]
    fn unique_items_marks_the_repeat() {
        let text = format!("{SKILL}requires_credentials: [gh, jira, gh]\n");
        let diagnostics = check(ArtifactKind::Skill, &text);
        assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
        assert_eq!(diagnostics[0].code, codes::SCHEMA_OTHER);
        let second_gh = text.rfind("gh").unwrap() as u32;
        assert_eq!(
            diagnostics[0].range,
            TextRange::new(second_gh, second_gh + 2)
        );
        assert_eq!(slice(&text, diagnostics[0].related[0].range), "gh");
    }

    #[test]
    fn format() {
        let text = skill_with(
            "  version: 1.0.0",
            "  version: 1.0.0\n  authored_date: 2025-13-45",
        );
        let message = skill_single(&text, codes::SCHEMA_FORMAT, "2025-13-45");
        says(&message, "YYYY-MM-DD");
        let text = skill_with(
            "  version: 1.0.0",
            "  version: 1.0.0\n  authored_date: 2025-01-31",
        );
        assert_eq!(check(ArtifactKind::Skill, &text), vec![]);
    }

    #[test]
    fn property_count() {
        let text = "apiVersion: swarmkit/v1
kind: ExecutorAdapter
metadata:
  id: h
  name: H
  description: A harness.
spec:
  launch:
    command: [h]
  stream:
    format: jsonl
  event_map:
    - emit: [{event: result}]
  auth:
    modes: {}
provenance:
  authored_by: human
  version: 0.1.0
";
        single(
            ArtifactKind::ExecutorAdapter,
            text,
            codes::SCHEMA_OBJECT_SIZE,
            "{}",
        );
        let valid = text.replace("  auth:\n    modes: {}\n", "");
        assert_eq!(check(ArtifactKind::ExecutorAdapter, &valid), vec![]);
    }

    #[test]
    fn one_of_by_discriminator_reports_the_chosen_branch() {
        let text = skill_with("  tool: hello", "  tol: hello");
        let diagnostics = check(ArtifactKind::Skill, &text);
        let found: Vec<_> = diagnostics
            .iter()
            .map(|d| (d.code, slice(&text, d.range)))
            .collect();
        assert_eq!(
            found,
            vec![
                (codes::SCHEMA_REQUIRED_FIELD, "implementation"),
                (codes::SCHEMA_UNKNOWN_FIELD, "tol")
            ],
            "{diagnostics:#?}"
        );
        assert!(
            diagnostics[0].message.contains("(type: mcp_tool)"),
            "{}",
            diagnostics[0].message
        );
        assert!(
            diagnostics[1].message.contains("did you mean `tool`?"),
            "{}",
            diagnostics[1].message
        );
    }

    #[test]
    fn one_of_with_unknown_discriminator_is_an_enum_mismatch() {
        let text = skill_with("type: mcp_tool", "type: mcp-tool");
        let message = skill_single(&text, codes::SCHEMA_ENUM_MISMATCH, "mcp-tool");
        says(&message, "mcp_tool, llm_prompt, composed, command, agent");
        says(&message, "did you mean `mcp_tool`?");
    }

    #[test]
    fn one_of_without_discriminator_is_a_missing_field() {
        let text = skill_with("  type: mcp_tool\n", "");
        let message = skill_single(&text, codes::SCHEMA_REQUIRED_FIELD, "implementation");
        assert!(
            message.contains("`type`") && message.contains("llm_prompt"),
            "{message}"
        );
    }

    #[test]
    fn one_of_exclusive_fields() {
        let both = skill_with(
            "  type: mcp_tool\n  server: greeter\n  tool: hello",
            "  type: agent\n  topology: helper\n  card_url: https://x.test/card",
        );
        let message = skill_single(&both, codes::SCHEMA_VARIANT_MISMATCH, "card_url");
        says(&message, "only one of `topology` or `card_url`");
        let neither = skill_with(
            "  type: mcp_tool\n  server: greeter\n  tool: hello",
            "  type: agent",
        );
        let message = skill_single(&neither, codes::SCHEMA_REQUIRED_FIELD, "implementation");
        says(&message, "exactly one of `topology` or `card_url`");
    }

    #[test]
    fn one_of_by_type_picks_the_form_that_was_written() {
        let text = "apiVersion: swarmkit/v1
kind: Trigger
metadata:
  id: t
  name: T
type: manual
targets:
  - Hello_Swarm
  - pipeline: ci
  - 42
";
        let diagnostics = check(ArtifactKind::Trigger, text);
        let found: Vec<_> = diagnostics
            .iter()
            .map(|d| (d.code, slice(text, d.range)))
            .collect();
        assert_eq!(
            found,
            vec![
                (codes::SCHEMA_PATTERN_MISMATCH, "Hello_Swarm"),
                (codes::SCHEMA_REQUIRED_FIELD, "pipeline"),
                (codes::SCHEMA_TYPE_MISMATCH, "42"),
            ],
            "{diagnostics:#?}"
        );
        assert!(
            diagnostics[1].message.contains("`emit`"),
            "{}",
            diagnostics[1].message
        );
        assert!(
            diagnostics[2].message.contains("a string or a mapping"),
            "{}",
            diagnostics[2].message
        );
    }

    #[test]
    fn property_name_pattern_is_on_the_key() {
        let text = "apiVersion: swarmkit/v1
kind: Topology
metadata:
  name: minimal
  version: 0.1.0
agents:
  root:
    id: root
    role: root
    archetype: supervisor-root
    requires:
      Bad_Key: [fetch]
";
        let message = single(
            ArtifactKind::Topology,
            text,
            codes::SCHEMA_PATTERN_MISMATCH,
            "Bad_Key",
        );
        says(&message, "key `Bad_Key` in `agents.root.requires`");
    }

    #[test]
    fn violation_for_fields_that_exclude_each_other() {
        let text = "apiVersion: swarmkit/v1
kind: ExecutorAdapter
metadata:
  id: h
  name: H
  description: A harness.
spec:
  launch:
    command: [h]
  stream:
    format: jsonl
  event_map:
    - emit: [{event: result}]
  sandbox:
    kind: container
    image: img
    build:
      base: node:22
provenance:
  authored_by: human
  version: 0.1.0
";
        let diagnostics = check(ArtifactKind::ExecutorAdapter, text);
        let found: Vec<_> = diagnostics
            .iter()
            .map(|d| (d.code, slice(text, d.range)))
            .collect();
        assert_eq!(
            found,
            vec![(codes::SCHEMA_OTHER, "build")],
            "{diagnostics:#?}"
        );
        assert_eq!(slice(text, diagnostics[0].related[0].range), "image");
    }

    #[test]
    fn an_unresolved_reference_is_judged_as_written() {
        // SwarmKit validates the text it could not substitute: `${CATEGORY}` is not a category.
        let text = skill_with("category: capability", "category: ${CATEGORY}");
        let codes: Vec<_> = check(ArtifactKind::Skill, &text)
            .iter()
            .map(|d| d.code)
            .collect();
        assert_eq!(codes, [codes::SCHEMA_ENUM_MISMATCH]);
        let text = skill_with(
            "  type: mcp_tool\n  server: greeter\n  tool: hello",
            "  type: agent\n  topology: helper\n  timeout_s: ${TIMEOUT}",
        );
        let codes: Vec<_> = check(ArtifactKind::Skill, &text)
            .iter()
            .map(|d| d.code)
            .collect();
        assert_eq!(codes, [codes::SCHEMA_TYPE_MISMATCH]);
        // A string field holding one is fine as text.
        let text = skill_with(
            "description: Greets the person who asked.",
            "description: ${DESCRIPTION}",
        );
        assert_eq!(check(ArtifactKind::Skill, &text), vec![]);
    }

    #[test]
    fn reports_every_violation_at_once() {
        let text = SKILL
            .replace("id: say-hello", "id: Say")
            .replace("category: capability", "category: nope")
            .replace("  version: 1.0.0", "  version: one");
        let codes: Vec<_> = check(ArtifactKind::Skill, &text)
            .iter()
            .map(|d| d.code)
            .collect();
        assert_eq!(
            codes,
            vec![
                codes::SCHEMA_PATTERN_MISMATCH,
                codes::SCHEMA_ENUM_MISMATCH,
                codes::SCHEMA_PATTERN_MISMATCH
            ]
        );
    }

    #[test]
    fn odd_documents_do_not_panic_and_stay_in_the_file() {
        let texts = [
            "",
            "- a\n- b\n",
            "just a string",
            "kind: Skill\n",
            "{}",
            "1: 2\n? [a]\n: b\n",
            "metadata: &m {id: x}\nimplementation: *m\nprovenance: *m\n",
            "implementation: [1, {type: 3}]\ncategory: {a: b}\n",
            "a/b: 1\n\"~0\": 2\n",
        ];
        for kind in SchemaKind::ALL {
            for text in texts {
                let doc = YamlDocument::parse(text, 0);
                let Some(root) = doc.root() else { continue };
                for d in check_schema(kind, root, FileId(0)) {
                    assert!(
                        d.range.end as usize <= text.len(),
                        "{kind:?} {text:?} {d:?}"
                    );
                    assert!(d.code.name().starts_with("schema."), "{d:?}");
                }
            }
        }
    }
}
