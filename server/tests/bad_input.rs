//! SPEC §8: no input may crash, hang or exhaust memory. One test per kind of bad input, each
//! asserting a sensible diagnostic. The whole file runs in a few seconds in a debug build.

mod support;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use skillgraph::check::check_changes;
use skillgraph::index::{Change, Index, MAX_FILE_BYTES};
use skillgraph::syntax::{decode, LineCol, PositionEncoding};
use support::*;

/// The baseline plus one extra file given as raw text.
fn with_file(path: &str, text: &str) -> Vec<Change> {
    let mut all = changes(BASELINE);
    all.retain(|c| !matches!(c, Change::Set { path: p, .. } if p.to_str() == Some(path)));
    all.push(Change::Set {
        path: path.into(),
        text: text.into(),
    });
    all
}

/// (path, code, ranged text) of every diagnostic, schema codes included.
fn check_changes_all(all: Vec<Change>) -> Vec<(String, &'static str, String)> {
    let outcome = check_changes(all, PathBuf::from("/"));
    outcome
        .diagnostics
        .iter()
        .map(|d| describe(&outcome.index, d))
        .collect()
}

/// Without `schema.*` codes, which belong to the schema module's tests.
fn check_changes_resolution(all: Vec<Change>) -> Vec<(String, &'static str, String)> {
    check_changes_all(all)
        .into_iter()
        .filter(|(_, code, _)| !code.starts_with("schema."))
        .collect()
}

/// Runs `f` and fails if it took longer than `limit` (generous: debug builds on slow CI).
#[track_caller]
fn within<T>(limit: Duration, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let value = f();
    let took = start.elapsed();
    assert!(took < limit, "took {took:?}, over {limit:?}");
    value
}

const SECOND: Duration = Duration::from_secs(1);

// ---------------------------------------------------------------------------------------------
// Encodings and line endings.

#[test]
fn invalid_utf8_is_replaced_and_the_rest_is_still_checked() {
    let bytes = b"apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: odd\n  name: Odd \xff\xfe name\n  description: Bad bytes.\ncategory: capability\nimplementation:\n  type: mcp_tool\n  server: nowhere\n  tool: odd\nprovenance:\n  authored_by: human\n  version: 1.0.0\n";
    let decoded = decode(bytes);
    assert_eq!(
        decoded.invalid_utf8_at,
        Some(bytes.iter().position(|&b| b == 0xff).unwrap() as u32)
    );
    assert!(decoded.text.contains('\u{fffd}'));
    // Handed in with the decoder's answer, as discovery does.
    let mut all = with_file("/ws/skills/odd.yaml", "");
    all.pop();
    all.push(Change::from_bytes("/ws/skills/odd.yaml".into(), bytes));
    let found = check_changes_resolution(all);
    // Checked past the bad bytes: the unknown server further down is found.
    assert!(
        found.contains(&d("skills/odd.yaml", "skill.unknown-mcp-server", "nowhere")),
        "{found:?}"
    );
    // The first replaced byte is reported, on the replacement character itself.
    assert!(
        found.contains(&d("skills/odd.yaml", "file.encoding", "\u{fffd}")),
        "{found:?}"
    );
}

#[test]
fn a_replacement_character_in_valid_utf8_is_just_a_character() {
    let skill = parse_fixture(&llm_skill("mark")).remove(0);
    let text = skill.text.replace(
        "description: ",
        "description: Shows \u{fffd} for unknown bytes. ",
    );
    assert!(text.contains('\u{fffd}'));
    let found = check_changes_all(with_file("/ws/skills/mark.yaml", &text));
    assert!(
        !found.iter().any(|(_, code, _)| *code == "file.encoding"),
        "{found:?}"
    );
    // The same text from bytes: the decoder says it was UTF-8.
    let change = Change::from_bytes(
        "/r/x/SKILL.md".into(),
        "---\nname: x\ndescription: \u{fffd}\n---\n".as_bytes(),
    );
    assert!(matches!(change, Change::Set { .. }));
}

#[test]
fn invalid_utf8_in_an_id_still_defines_it_byte_for_byte() {
    let decoded = decode(b"apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: caf\xe9\n");
    let found = check_changes_resolution(with_file("/ws/skills/cafe.yaml", &decoded.text));
    // Ranges stay on character boundaries of the decoded text.
    assert!(
        found.iter().all(|(_, _, text)| !text.starts_with("<range")),
        "{found:?}"
    );
}

#[test]
fn a_bom_is_ignored_and_ranges_stay_file_offsets() {
    let skill = parse_fixture(&mcp_skill("bom", "tools")).remove(0);
    let with_bom = format!("\u{feff}{}", skill.text);
    assert_eq!(
        check_changes_all(with_file("/ws/skills/bom.yaml", &with_bom)),
        vec![]
    );
    // A diagnostic in a file with a BOM covers exactly the offending text.
    let misplaced = with_bom.replace("kind: Skill", "kind: Archetype");
    assert_eq!(
        check_changes_resolution(with_file("/ws/skills/bom.yaml", &misplaced)),
        vec![d("skills/bom.yaml", "workspace.kind-mismatch", "Archetype")]
    );
    // A BOM on the manifest too.
    let manifest = parse_fixture(BASELINE).remove(0);
    assert_eq!(
        check_changes_all(with_file(
            "/ws/workspace.yaml",
            &format!("\u{feff}{}", manifest.text)
        )),
        vec![]
    );
}

#[test]
fn crlf_line_endings_check_the_same_and_ranges_exclude_the_cr() {
    let crlf = |fixture: &str| -> Vec<Change> {
        changes(fixture)
            .into_iter()
            .map(|c| match c {
                Change::Set { path, text } => Change::Set {
                    path,
                    text: text.replace('\n', "\r\n").into(),
                },
                other => other,
            })
            .collect()
    };
    assert_eq!(check_changes_all(crlf(BASELINE)), vec![]);
    let fixture = with_baseline(&team(
        r#"
        root:
          id: root
          role: root
          skills:
            - store
            - nope
          requires:
            store: [summarise]
          depends_on: root
        "#,
    ));
    assert_eq!(
        check_changes_resolution(crlf(&fixture)),
        vec![
            d("topologies/team.yaml", "agent.unknown-skill", "nope"),
            d(
                "topologies/team.yaml",
                "agent.requires-unknown-skill",
                "summarise"
            ),
            d("topologies/team.yaml", "agent.depends-on-cycle", "root"),
            d("topologies/team.yaml", "agent.depends-on-self", "root"),
        ]
    );
    assert_eq!(check_changes_resolution(crlf(&fixture)), check(&fixture));
}

#[test]
fn a_lone_cr_and_mixed_line_endings_do_not_panic() {
    let text = "apiVersion: swarmkit/v1\rkind: Skill\r\nmetadata:\n  id: mixed\r";
    let found = check_changes_all(with_file("/ws/skills/mixed.yaml", text));
    assert!(
        found.iter().all(|(_, _, t)| !t.starts_with("<range")),
        "{found:?}"
    );
}

#[test]
fn tabs_used_for_indentation_are_a_parse_error_and_tabs_in_values_are_fine() {
    let skill = parse_fixture(&llm_skill("tabbed")).remove(0);
    let indented = skill.text.replace("  id: tabbed", "\tid: tabbed");
    let found = check_changes_resolution(with_file("/ws/skills/tabbed.yaml", &indented));
    assert!(
        found
            .iter()
            .any(|(p, c, _)| p == "skills/tabbed.yaml" && *c == "workspace.yaml-parse"),
        "{found:?}"
    );
    let in_value = skill.text.replace(
        "description: The tabbed skill.",
        "description: \"A skill\\twith a tab in its description.\"\t# comment",
    );
    assert_eq!(
        check_changes_all(with_file("/ws/skills/tabbed.yaml", &in_value)),
        vec![]
    );
}

// ---------------------------------------------------------------------------------------------
// Binary files.

#[test]
fn a_binary_file_named_skill_md_gets_one_encoding_diagnostic() {
    let bytes: Vec<u8> = (0u8..=255).cycle().take(4096).collect();
    let decoded = decode(&bytes);
    assert!(
        decoded.text.contains('\0'),
        "the NUL bytes stay in the text"
    );
    let found = check_changes_all(vec![Change::Set {
        path: "/repo/skills/tool/SKILL.md".into(),
        text: decoded.text,
    }]);
    assert_eq!(
        found,
        vec![d("/repo/skills/tool/SKILL.md", "file.encoding", "")]
    );
}

#[test]
fn a_binary_file_in_skills_gets_one_encoding_diagnostic_and_defines_nothing() {
    let mut bytes = b"apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: blob\n".to_vec();
    bytes.extend_from_slice(&[0, 1, 2, 0xff, 0]);
    let decoded = decode(&bytes);
    assert!(
        decoded.text.contains('\0'),
        "the NUL bytes stay in the text"
    );
    let mut all = with_file("/ws/skills/blob.yaml", &decoded.text);
    all.extend(changes(&team(
        "root:\n  id: root\n  role: root\n  skills: [store, blob]\n",
    )));
    assert_eq!(
        check_changes_resolution(all),
        vec![
            d("skills/blob.yaml", "file.encoding", ""),
            d("topologies/team.yaml", "agent.unknown-skill", "blob"),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Deep nesting and alias bombs.

#[test]
fn ten_thousand_nested_flow_sequences() {
    for (open, close) in [("[", "]"), ("{a: ", "}")] {
        let text = format!(
            "apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: deep\ncategory: {}x{}\n",
            open.repeat(10_000),
            close.repeat(10_000)
        );
        let found = within(5 * SECOND, || {
            check_changes_resolution(with_file("/ws/skills/deep.yaml", &text))
        });
        assert_eq!(
            codes_and_paths(&found),
            [("skills/deep.yaml", "workspace.yaml-parse")],
            "{open}"
        );
        // DOUBTFUL: the range is the whole run of brackets to the end of the line (the
        // "token" the parser stopped on), 20,000 characters here; only its start is asserted.
        let text = &found[0].2;
        assert!(
            text.starts_with(&open[..1]) && !text.contains('\n'),
            "{open}"
        );
        assert!(text.len() <= 20_002, "{open}");
    }
}

#[test]
fn ten_thousand_nested_block_sequences() {
    // `- - - ... x`: block nesting on one line.
    let text = format!("{}x\n", "- ".repeat(10_000));
    let found = within(5 * SECOND, || {
        check_changes_resolution(with_file("/ws/skills/deep.yaml", &text))
    });
    // What was read before the depth cap is a list, so the file is also malformed.
    assert_eq!(
        codes_and_paths(&found),
        [
            ("skills/deep.yaml", "workspace.malformed"),
            ("skills/deep.yaml", "workspace.yaml-parse")
        ]
    );
    // The parse error is on the sequence that goes one level too deep.
    assert_eq!(found[1].2, "-");
}

#[test]
fn deeply_nested_block_mappings() {
    // 2,000 levels (indented one more space each), well past the depth cap and under the size
    // cap (10,000 levels indented this way would be a 50 MB file).
    let mut text = String::from(
        "apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: deep\nimplementation:\n",
    );
    for depth in 1..2_000 {
        text.push_str(&" ".repeat(depth));
        text.push_str("a:\n");
    }
    let found = within(5 * SECOND, || {
        check_changes_resolution(with_file("/ws/skills/deep.yaml", &text))
    });
    assert_eq!(
        codes_and_paths(&found),
        [("skills/deep.yaml", "workspace.yaml-parse")]
    );
    // What was read before the cap still counts: the id is defined, the topology's grant of
    // it resolves.
    let mut all = with_file("/ws/skills/deep.yaml", &text);
    all.extend(changes(&team(
        "root:\n  id: root\n  role: root\n  skills: [store, deep]\n",
    )));
    assert_eq!(
        codes_and_paths(&check_changes_resolution(all)),
        [("skills/deep.yaml", "workspace.yaml-parse")]
    );
}

fn codes_and_paths<'a>(
    found: &'a [(String, &'static str, String)],
) -> Vec<(&'a str, &'static str)> {
    found.iter().map(|(p, c, _)| (p.as_str(), *c)).collect()
}

/// The billion laughs: nine levels of ten aliases each.
fn billion_laughs() -> String {
    let mut text = String::from("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for pair in names.windows(2) {
        let (prev, name) = (pair[0], pair[1]);
        let refs = vec![format!("*{prev}"); 10].join(", ");
        text.push_str(&format!("{name}: &{name} [{refs}]\n"));
    }
    text
}

/// The baseline with the MCP skill `id` (`/ws/skills/<id>.yaml`) given the `inputs:` block
/// `inputs`.
fn with_inputs(id: &str, inputs: &str) -> Vec<Change> {
    let skill = parse_fixture(&mcp_skill(id, "tools")).remove(0);
    with_file(
        &format!("/ws/skills/{id}.yaml"),
        &format!("{}inputs:\n{inputs}", skill.text),
    )
}

fn indented(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect()
}

#[test]
fn an_alias_bomb_in_an_unused_field_costs_nothing() {
    let skill = with_inputs("laughs", &indented(&billion_laughs()));
    let found = within(5 * SECOND, || check_changes_resolution(skill));
    // The first alias past the document's budget is reported, once; nothing else is.
    assert_eq!(
        codes_and_paths(&found),
        [("skills/laughs.yaml", "yaml.alias-expansion")],
        "{found:?}"
    );
}

#[test]
fn an_alias_bomb_where_grants_requires_and_depends_on_are_read() {
    // Every list the rules walk points at the bomb, which is anchored before the agents.
    let agents = "root:\n  id: root\n  role: root\n  skills: *i\n  skills_additional: *h\n  depends_on: *g\n  requires:\n    store: *i\n  children: *i\n";
    let topology_text = parse_fixture(&team(agents)).remove(0).text.replacen(
        "agents:\n",
        &format!("x-laughs:\n{}agents:\n", indented(&billion_laughs())),
        1,
    );
    let found = within(10 * SECOND, || {
        check_changes_all(with_file("/ws/topologies/team.yaml", &topology_text))
    });
    assert!(!found.is_empty());
    assert!(found.len() < 1_000, "{} diagnostics", found.len());
}

/// One anchor of a few thousand nodes used over and over: each use is under any per-alias cap,
/// all of them together are not.
#[test]
fn a_wide_alias_bomb_gets_one_diagnostic() {
    let base = vec!["x"; 5_000].join(", ");
    let uses = "    - *base\n".repeat(600);
    let skill = with_inputs("wide", &format!("  base: &base [{base}]\n  uses:\n{uses}"));
    let found = within(5 * SECOND, || check_changes_resolution(skill));
    assert_eq!(
        codes_and_paths(&found),
        [("skills/wide.yaml", "yaml.alias-expansion")],
        "{found:?}"
    );
    assert_eq!(found[0].2, "*base");
}

/// Anchors chained through complex keys: flat text, deep expansion.
#[test]
fn aliases_chained_through_complex_keys_get_one_depth_diagnostic() {
    let mut chain = String::from("  ? &a1 [x]\n  : v\n");
    for i in 2..=2_000 {
        chain.push_str(&format!("  ? &a{i} [*a{}]\n  : v\n", i - 1));
    }
    let skill = with_inputs("deep", &format!("{chain}  x: *a2000\n"));
    let found = within(5 * SECOND, || check_changes_all(skill));
    let depth: Vec<_> = found
        .iter()
        .filter(|(_, c, _)| *c == "yaml.alias-depth")
        .collect();
    assert_eq!(depth.len(), 1, "{found:?}");
    // `*a253` names 254 levels and sits 3 deep (root, `inputs`, its key): one past 256.
    assert_eq!(depth[0].2, "*a253");
}

#[test]
fn aliases_within_the_limits_are_silent() {
    let found = check_changes_all(with_inputs(
        "shared",
        "  base: &base {type: object, properties: {a: {type: string}}}\n  again: *base\n  more: [*base, *base]\n",
    ));
    assert!(
        found.iter().all(|(_, c, _)| !c.starts_with("yaml.")),
        "{found:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Size, emptiness.

#[test]
fn a_five_megabyte_file_gets_file_too_large_and_is_skipped() {
    const { assert!(5 * 1024 * 1024 > MAX_FILE_BYTES) };
    let skill = parse_fixture(&llm_skill("huge")).remove(0);
    let mut text = skill.text.clone();
    let filler = "# padding padding padding padding padding padding padding padding\n";
    while text.len() <= 5 * 1024 * 1024 {
        text.push_str(filler);
    }
    let mut all = with_file("/ws/skills/huge.yaml", &text);
    all.extend(changes(&team(
        "root:\n  id: root\n  role: root\n  skills: [store, huge]\n",
    )));
    all.push(Change::Set {
        path: "/repo/big/SKILL.md".into(),
        text: format!("---\nname: big\n---\n{}", "x".repeat(5 * 1024 * 1024)).into(),
    });
    let found = within(10 * SECOND, || check_changes_all(all));
    // The huge skill defines nothing, so the grant of it is unknown.
    let expected = [
        d("/repo/big/SKILL.md", "file.too-large", ""),
        d("skills/huge.yaml", "file.too-large", ""),
        d("topologies/team.yaml", "agent.unknown-skill", "huge"),
    ];
    assert_eq!(found, expected);
}

#[test]
fn a_file_just_over_the_cap_and_one_just_under() {
    let over = " ".repeat(MAX_FILE_BYTES + 1);
    assert_eq!(
        check_changes_all(with_file("/ws/skills/over.yaml", &over)),
        vec![d("skills/over.yaml", "file.too-large", "")]
    );
    let under = format!("{}\n", "#".repeat(MAX_FILE_BYTES - 1));
    let found = within(10 * SECOND, || {
        check_changes_all(with_file("/ws/skills/under.yaml", &under))
    });
    assert_eq!(
        found,
        vec![d("skills/under.yaml", "workspace.malformed", "")]
    );
}

#[test]
fn the_size_cap_is_on_the_files_bytes_not_its_decoded_text() {
    let cap = MAX_FILE_BYTES;
    // 1.5 MB, mostly bytes that are not UTF-8: its decoded text is three times that, yet the
    // file is under the cap, so it is checked and its encoding reported.
    let mut bytes = b"apiVersion: swarmkit/v1\n# ".to_vec();
    bytes.extend(std::iter::repeat_n(0xFF, 1_500_000));
    let mut all = changes(BASELINE);
    all.push(Change::from_bytes("/ws/skills/ff.yaml".into(), &bytes));
    let codes: Vec<&str> = check_changes_all(all)
        .into_iter()
        .filter(|(path, ..)| path == "skills/ff.yaml")
        .map(|(_, code, _)| code)
        .collect();
    assert!(codes.contains(&"file.encoding"), "{codes:?}");
    assert!(!codes.contains(&"file.too-large"), "{codes:?}");
    // Binary bytes under the cap are binary, not too large.
    let mut binary = vec![0u8; 100];
    binary.extend(std::iter::repeat_n(0xFE, 2_000_000));
    assert_eq!(
        codes_of_bytes("/r/skills/b/SKILL.md", &binary),
        ["file.encoding"]
    );
    // One byte over the cap, whatever the bytes, is too large.
    let over = vec![b'#'; cap + 1];
    assert_eq!(
        codes_of_bytes("/r/skills/o/SKILL.md", &over),
        ["file.too-large"]
    );
}

/// The codes of a check of one file, at `path`, of raw `bytes`.
fn codes_of_bytes(path: &str, bytes: &[u8]) -> Vec<&'static str> {
    check_changes_all(vec![Change::from_bytes(path.into(), bytes)])
        .into_iter()
        .map(|(_, code, _)| code)
        .collect()
}

#[test]
fn empty_files() {
    assert_eq!(
        check_changes_all(with_file("/ws/skills/empty.yaml", "")),
        vec![d("skills/empty.yaml", "workspace.malformed", "")]
    );
    // An empty manifest still makes its directory a workspace.
    let found = check_changes_resolution(with_file("/ws/workspace.yaml", ""));
    assert!(
        found.contains(&d("workspace.yaml", "workspace.malformed", "")),
        "{found:?}"
    );
    // An empty SKILL.md and a blank config do not panic.
    check_changes_all(vec![
        Change::Set {
            path: "/repo/SKILL.md".into(),
            text: String::new().into(),
        },
        Change::Set {
            path: "/repo/skillgraph.toml".into(),
            text: String::new().into(),
        },
    ]);
}

#[test]
fn a_file_that_is_only_a_document_marker() {
    for text in ["---", "---\n", "---\n...\n", "--- \n---\n"] {
        let found = check_changes_resolution(with_file("/ws/skills/marker.yaml", text));
        assert!(
            !found.is_empty() && found.iter().all(|(p, _, _)| p == "skills/marker.yaml"),
            "{text:?}: {found:?}"
        );
    }
    assert_eq!(
        check_changes_resolution(with_file("/ws/skills/marker.yaml", "---\n")),
        vec![d("skills/marker.yaml", "workspace.malformed", "")]
    );
}

#[test]
fn a_skill_md_that_is_only_a_frontmatter_marker() {
    for text in ["---", "---\n", "---\n---\n", "---\n\u{0}"] {
        check_changes_all(vec![Change::Set {
            path: "/repo/x/SKILL.md".into(),
            text: text.into(),
        }]);
    }
}

// ---------------------------------------------------------------------------------------------
// Positions past the end.

#[test]
fn positions_past_the_end_clamp() {
    let outcome = run(BASELINE);
    let index = &outcome.index;
    for file in index.files() {
        let len = file.text.len() as u32;
        for encoding in [PositionEncoding::Utf8, PositionEncoding::Utf16] {
            let end = file.line_index().line_col(&file.text, len, encoding);
            assert_eq!(
                file.line_index().line_col(&file.text, u32::MAX, encoding),
                end
            );
            for position in [
                LineCol {
                    line: u32::MAX,
                    col: 0,
                },
                LineCol {
                    line: 1_000_000,
                    col: u32::MAX,
                },
            ] {
                assert_eq!(
                    file.line_index().offset(&file.text, position, encoding),
                    len
                );
            }
            // A column past the end of a line clamps to that line's end.
            let first_line_end = file.text.find('\n').unwrap() as u32;
            assert_eq!(
                file.line_index().offset(
                    &file.text,
                    LineCol {
                        line: 0,
                        col: 10_000
                    },
                    encoding
                ),
                first_line_end
            );
        }
    }
}

#[test]
fn ide_queries_past_the_end_and_inside_characters_do_not_panic() {
    let fixture = with_baseline(
        "//- /ws/skills/unicode.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: unicode\n  name: Ünïcødé 😀 name\n  description: \"é\"\r\ncategory: capability\nimplementation:\n  type: llm_prompt\n  prompt: ✓\n",
    );
    let outcome = run(&fixture);
    let index: &Index = &outcome.index;
    let ids: Vec<_> = index.files().map(|f| (f.id, f.text.len() as u32)).collect();
    within(10 * SECOND, || {
        for (file, len) in ids {
            for offset in (0..=len + 2).chain([u32::MAX / 2, u32::MAX]) {
                let _ = skillgraph::ide::hover(index, file, offset);
                let _ = skillgraph::ide::definition(index, file, offset);
                let _ = skillgraph::ide::references(index, file, offset, true);
                let _ = skillgraph::ide::completion(index, file, offset);
            }
            let _ = skillgraph::ide::document_symbols(index, file);
        }
    });
}

#[test]
fn every_bad_input_at_once_in_one_workspace() {
    // All of the above together, one batch: nothing interferes, and the good files are clean.
    let mut all = changes(BASELINE);
    let extra = [
        ("/ws/skills/empty.yaml", String::new()),
        ("/ws/skills/marker.yaml", "---\n".to_owned()),
        ("/ws/skills/binary.yaml", "\0\0\0".to_owned()),
        ("/ws/skills/deep.yaml", "[".repeat(10_000)),
        ("/ws/skills/bomb.yaml", billion_laughs()),
        ("/ws/skills/tabs.yaml", "a:\n\tb: c\n".to_owned()),
        ("/ws/SKILL.md", "\0".to_owned()),
    ];
    for (path, text) in extra {
        all.push(Change::Set {
            path: path.into(),
            text: text.into(),
        });
    }
    let found = within(10 * SECOND, || check_changes_resolution(all));
    assert!(
        found.iter().all(|(p, _, _)| !p.starts_with("topologies/")
            && !p.starts_with("archetypes/")
            && p != "workspace.yaml"
            && ![
                "skills/fetch.yaml",
                "skills/store.yaml",
                "skills/summarise.yaml"
            ]
            .contains(&p.as_str())),
        "{found:#?}"
    );
}

#[test]
fn every_offset_of_the_example_files_answers_without_panicking() {
    // Half-typed text is what completion mostly sees: every character boundary of every
    // example file, each item's range inside the file and around the cursor.
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let roots = [
        repo.join("examples/demo"),
        repo.join("tests/fixtures/estate"),
    ];
    let (changes, _) = skillgraph::discover::discover(&roots);
    let mut index = Index::new(&skillgraph::rules::CHECKS);
    index.apply(changes);
    let mut answered = 0;
    for entry in index.files() {
        for (offset, _) in entry.text.char_indices().chain([(entry.text.len(), ' ')]) {
            if let Some(found) = skillgraph::ide::completion(&index, entry.id, offset as u32) {
                assert!(
                    found.range.start as usize <= offset
                        && offset <= found.range.end as usize
                        && entry.text.is_char_boundary(found.range.end as usize)
                        && entry.text.is_char_boundary(found.range.start as usize),
                    "{}:{offset}: {found:?}",
                    entry.path.display()
                );
                answered += 1;
            }
        }
    }
    assert!(answered > 1000, "{answered}");
}
