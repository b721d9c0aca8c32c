//! Tests of the schema checks: the documents of `cases/<schema name>/`, each saying the
//! diagnostics it must get, and the cases that need code of their own.

use super::*;
use crate::diagnostic::Code;
use crate::syntax::TextRange;

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
    let (errors, diagnostics) = check_text(kind.into(), text).expect("a root");
    assert!(errors.is_empty(), "fixture does not parse: {errors:?}");
    diagnostics
}

/// The codes of the diagnostics of `text`, in order.
fn codes_of(kind: impl Into<SchemaKind>, text: &str) -> Vec<Code> {
    check(kind, text).iter().map(|d| d.code).collect()
}

fn slice(text: &str, range: TextRange) -> &str {
    &text[range.start as usize..range.end as usize]
}

/// Asserts that `message` says `part`.
#[track_caller]
fn says(message: &str, part: &str) {
    assert!(message.contains(part), "{message}");
}

fn skill_with(from: &str, to: &str) -> String {
    assert!(SKILL.contains(from), "{from:?} not in the skill fixture");
    SKILL.replacen(from, to, 1)
}

/// What a document of `cases/` must get: one diagnostic with this code on this text, whose
/// message says each of `says` and whose first related locations are on `related`.
#[derive(Debug, Default)]
struct Expected {
    code: String,
    on: String,
    says: Vec<String>,
    related: Vec<String>,
}

/// The expectations written at the top of a case: `# expect <code> on <text>` for each
/// diagnostic, in order, each followed by its `#   says <part>` and `#   related <text>` lines.
/// A case with none must be silent.
fn expectations(text: &str) -> Vec<Expected> {
    let mut expected: Vec<Expected> = Vec::new();
    for line in text.lines().take_while(|line| line.starts_with('#')) {
        if let Some(rest) = line.strip_prefix("# expect ") {
            let (code, on) = rest
                .split_once(" on ")
                .expect("`# expect <code> on <text>`");
            expected.push(Expected {
                code: code.to_owned(),
                on: on.to_owned(),
                ..Expected::default()
            });
        } else if let Some(part) = line.strip_prefix("#   says ") {
            let last = expected.last_mut().expect("`says` after an `expect`");
            last.says.push(part.to_owned());
        } else if let Some(on) = line.strip_prefix("#   related ") {
            let last = expected.last_mut().expect("`related` after an `expect`");
            last.related.push(on.to_owned());
        }
    }
    expected
}

/// The documents of `cases/<schema name>/*.yaml`, as (schema name/file name, text), in order.
fn cases() -> Vec<(String, String)> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/src/rules/schema/cases");
    let mut cases = Vec::new();
    for folder in std::fs::read_dir(root).unwrap() {
        let folder = folder.unwrap().path();
        for file in std::fs::read_dir(&folder).unwrap() {
            let file = file.unwrap().path();
            let name_of =
                |path: &std::path::Path| path.file_name().unwrap().to_string_lossy().into_owned();
            let name = format!("{}/{}", name_of(&folder), name_of(&file));
            cases.push((name, std::fs::read_to_string(&file).unwrap()));
        }
    }
    cases.sort();
    cases
}

/// Every document of `cases/` (`<schema name>/<case>.yaml`) gets exactly the diagnostics its
/// first lines expect: their codes, where they are, what their messages say and where their
/// related locations are.
#[test]
fn every_case_gets_the_diagnostics_it_expects() {
    let cases = cases();
    assert!(cases.len() >= 29, "{} cases", cases.len());
    let mut expected_codes = std::collections::BTreeSet::new();
    for (name, text) in &cases {
        let (name, text) = (name.as_str(), text.as_str());
        let schema = name.split('/').next().unwrap();
        let kind = SchemaKind::from_schema_name(schema)
            .unwrap_or_else(|| panic!("{name}: no schema named {schema:?}"));
        let diagnostics = check(kind, text);
        let found: Vec<(&str, &str)> = diagnostics
            .iter()
            .map(|d| (d.code.name(), slice(text, d.range)))
            .collect();
        let expected = expectations(text);
        let wanted: Vec<(&str, &str)> = expected
            .iter()
            .map(|e| (e.code.as_str(), e.on.as_str()))
            .collect();
        assert_eq!(found, wanted, "{name}: {diagnostics:#?}");
        expected_codes.extend(expected.iter().map(|e| e.code.clone()));
        for (diagnostic, expected) in diagnostics.iter().zip(&expected) {
            for part in &expected.says {
                let message = &diagnostic.message;
                assert!(
                    message.contains(part.as_str()),
                    "{name}: {part:?} in {message}"
                );
            }
            let related: Vec<&str> = diagnostic
                .related
                .iter()
                .map(|r| slice(text, r.range))
                .collect();
            assert!(
                related.starts_with(
                    &expected
                        .related
                        .iter()
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                ),
                "{name}: related {related:?}, expected {:?} first",
                expected.related
            );
        }
    }
    // Each schema code has a case of its own (the models' codes have tests below).
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
    ] {
        assert!(
            expected_codes.contains(code.name()),
            "no case expects {code}"
        );
    }
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
fn every_code_is_documented() {
    let documented: Vec<&str> = RULES.iter().map(|r| r.code.name()).collect();
    // Every `schema.*` code of the engine (each has a case in `cases/`), and the models' own.
    let mut expected: Vec<&str> = codes::ALL
        .iter()
        .map(|code| code.name())
        .filter(|name| name.starts_with("schema."))
        .collect();
    expected.extend(
        [
            codes::SKILL_MODEL_CONSTRUCTION,
            codes::ARCHETYPE_MODEL_CONSTRUCTION,
            codes::TOPOLOGY_MODEL_CONSTRUCTION,
            codes::TRIGGER_MODEL_CONSTRUCTION,
            codes::FUNNEL_MODEL_CONSTRUCTION,
            codes::CONTRACT_MODEL_CONSTRUCTION,
        ]
        .map(|code| code.name()),
    );
    for code in &expected {
        assert!(documented.contains(code), "{code}");
    }
    assert_eq!(documented.len(), expected.len(), "{documented:?}");
    assert_eq!(documented.len(), 19);
}

#[test]
fn an_id_with_a_final_line_break_is_what_swarmkit_s_model_refuses() {
    // Quoted with `\n`, and as a `|` block, which keeps the final line break.
    for written in ["id: \"say-hello\\n\"", "id: |\n    say-hello"] {
        let text = skill_with("id: say-hello", written);
        let found = check(ArtifactKind::Skill, &text);
        assert_eq!(found.len(), 1, "{written}: {found:?}");
        assert_eq!(found[0].code, codes::SKILL_MODEL_CONSTRUCTION, "{written}");
        says(&found[0].message, "ends with a line break");
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
fn a_final_line_break_is_a_pattern_mismatch_where_swarmkit_builds_no_model_or_it_is_wrong_anyway() {
    // The manifest's model is built last and its refusal is no diagnostic in SwarmKit.
    let text = "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: \"ws\\n\"\n  name: W\n";
    let found = codes_of(ArtifactKind::Workspace, text);
    assert!(found.contains(&codes::SCHEMA_PATTERN_MISMATCH), "{found:?}");
    assert!(
        !found
            .iter()
            .any(|c| c.name().ends_with(".model-construction")),
        "{found:?}"
    );
    // Without the line break the value would still be wrong: the pattern code stays.
    let text = skill_with("id: say-hello", "id: \"Say_Hello\\n\"");
    assert_eq!(
        codes_of(ArtifactKind::Skill, &text),
        [codes::SCHEMA_PATTERN_MISMATCH]
    );
    // A well-formed id is silent.
    assert!(check(ArtifactKind::Skill, SKILL).is_empty());
}

#[test]
fn enum_mismatch_lists_values_and_suggests() {
    let text = skill_with("category: capability", "category: capabilty");
    let diagnostics = check(ArtifactKind::Skill, &text);
    let found: Vec<_> = diagnostics
        .iter()
        .map(|d| (d.code, slice(&text, d.range)))
        .collect();
    assert_eq!(
        found,
        [(codes::SCHEMA_ENUM_MISMATCH, "capabilty")],
        "{diagnostics:#?}"
    );
    assert_eq!(
        diagnostics[0].message,
        "`category` must be one of capability, decision, coordination, persistence; \
         found \"capabilty\"; did you mean `capability`?"
    );
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
    says(&last.message, "did you mean `category`?");
    assert!(last.fixes.is_empty());
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
fn reports_every_violation_at_once() {
    let text = SKILL
        .replace("id: say-hello", "id: Say")
        .replace("category: capability", "category: nope")
        .replace("  version: 1.0.0", "  version: one");
    assert_eq!(
        codes_of(ArtifactKind::Skill, &text),
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
            let Some((_, diagnostics)) = check_text(kind, text) else {
                continue;
            };
            for d in diagnostics {
                assert!(
                    d.range.end as usize <= text.len(),
                    "{kind:?} {text:?} {d:?}"
                );
                assert!(d.code.name().starts_with("schema."), "{d:?}");
            }
        }
    }
}
