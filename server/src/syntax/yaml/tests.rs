use super::*;

/// The document's errors of one kind.
fn errors_of(doc: &YamlDocument, kind: YamlErrorKind) -> Vec<&YamlError> {
    doc.errors.iter().filter(|e| e.kind == kind).collect()
}

fn text_of(text: &str, range: TextRange) -> &str {
    &text[range.start as usize..range.end as usize]
}

#[test]
fn keys_scalars_and_collections_have_byte_ranges() {
    let text = "agents:\n  root:\n    id: r😀t\n    skills: [a, \"b\"]\n    list:\n      - x\n      - y\nafter: 1\n";
    let doc = YamlDocument::parse(text, 0);
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    let root = doc.root().unwrap();
    let agent = root.get("agents").unwrap().get("root").unwrap();
    let (id_key, id) = agent.entry("id").unwrap();
    assert_eq!(text_of(text, id_key.range()), "id");
    assert_eq!(text_of(text, id.range()), "r😀t");
    let skills = agent.get("skills").unwrap();
    assert!(skills.is_flow());
    assert_eq!(text_of(text, skills.range()), "[a, \"b\"]");
    let b = skills.items().nth(1).unwrap();
    assert_eq!(text_of(text, b.range()), "\"b\"");
    assert_eq!(b.as_str(), Some("b"));
    let list = agent.get("list").unwrap();
    assert_eq!(text_of(text, list.range()), "- x\n      - y");
    assert_eq!(
        text_of(text, agent.range()),
        "id: r😀t\n    skills: [a, \"b\"]\n    list:\n      - x\n      - y"
    );
    assert_eq!(root.get("after").unwrap().value(), ScalarValue::Int(1));
}

#[test]
fn partial_tree_survives_an_error() {
    let text = "a: 1\nb: [x, y\nc: 3\n";
    let doc = YamlDocument::parse(text, 0);
    assert!(doc.has_syntax_error());
    let root = doc.root().expect("a partial root");
    assert_eq!(root.get("a").unwrap().value(), ScalarValue::Int(1));
}

#[test]
fn duplicate_keys_are_reported_and_the_last_value_kept() {
    let text = "a: 1\nb: 2\na: 3\n";
    let doc = YamlDocument::parse(text, 0);
    assert_eq!(doc.duplicate_keys.len(), 1);
    let dup = &doc.duplicate_keys[0];
    assert_eq!((dup.first.start, dup.second.start), (0, 10));
    let root = doc.root().unwrap();
    let keys: Vec<_> = root
        .entries()
        .map(|(k, v)| (k.scalar(), v.scalar()))
        .collect();
    assert_eq!(keys, [(Some("b"), Some("2")), (Some("a"), Some("3"))]);
    // The mapping still spans what was written.
    assert_eq!(root.range(), TextRange::new(0, 14));
    // Nested mappings too, and an anchor in a discarded value still resolves.
    let doc = YamlDocument::parse("m: {x: &v [1], x: 2}\nuse: *v\n", 0);
    let root = doc.root().unwrap();
    assert_eq!(root.get("m").unwrap().get("x").unwrap().scalar(), Some("2"));
    assert_eq!(root.get("use").unwrap().to_json(), serde_json::json!([1]));
}

#[test]
fn aliases_resolve_by_reference() {
    let text = "base: &b {x: 1}\nuse: *b\n";
    let doc = YamlDocument::parse(text, 0);
    let used = doc.root().unwrap().get("use").unwrap();
    assert!(used.is_alias());
    assert_eq!(used.get("x").unwrap().value(), ScalarValue::Int(1));
    assert_eq!(text_of(text, used.range()), "*b");
}

#[test]
fn alias_bomb_is_capped() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let prev = i - 1;
        text.push_str(&format!(
            "a{i}: &a{i} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"
        ));
    }
    let doc = YamlDocument::parse(&text, 0);
    let refused = errors_of(&doc, YamlErrorKind::AliasExpansion);
    assert_eq!(refused.len(), 1, "{:?}", doc.errors);
    // Converting to JSON stays small because refused aliases read as null.
    let root = doc.root().unwrap();
    assert!(root.expanded_size() <= doc.written_nodes() as u32 + MAX_ALIAS_EXPANSION);
    assert!(root.to_json().to_string().len() < 10_000_000);
}

/// One long scalar aliased many times is one node per use, but its text in full to every
/// reader: the budget counts the bytes too.
#[test]
fn aliases_of_a_long_scalar_are_capped_by_their_text() {
    let long = "x".repeat(20_000);
    let uses = vec!["*d"; 2_000].join(", ");
    let doc = YamlDocument::parse(&format!("chain: [&d {long}, {uses}]\n"), 0);
    let refused = errors_of(&doc, YamlErrorKind::AliasExpansion);
    assert_eq!(refused.len(), 1, "one mistake, one diagnostic");
    let items = doc.root().unwrap().get("chain").unwrap();
    let text: usize = items
        .items()
        .filter_map(|item| item.scalar())
        .map(str::len)
        .sum();
    assert!(text <= 20_000 + MAX_ALIAS_BYTES as usize, "{text}");
    // Within the budget, every use reads the text.
    let doc = YamlDocument::parse(&format!("chain: [&d {long}, *d, *d]\n"), 0);
    assert!(doc.errors.is_empty());
    let root = doc.root().unwrap();
    assert!(root
        .get("chain")
        .unwrap()
        .items()
        .all(|i| i.scalar() == Some(long.as_str())));
}

/// One anchor under the per-alias size, used many times: the budget is the document's.
#[test]
fn wide_alias_bomb_is_capped_for_the_whole_document() {
    let mut text = String::from("base: &b [");
    text.push_str(&vec!["x"; 20_000].join(", "));
    text.push_str("]\nuses:\n");
    for _ in 0..50 {
        text.push_str("  - *b\n");
    }
    let doc = YamlDocument::parse(&text, 0);
    let refused = errors_of(&doc, YamlErrorKind::AliasExpansion);
    assert_eq!(refused.len(), 1, "{:?}", doc.errors);
    // 100,000 extra nodes allow five uses of 20,001; the sixth is the first refused.
    let uses = doc.root().unwrap().get("uses").unwrap();
    let sixth = uses.item(5).unwrap();
    assert_eq!(refused[0].range, sixth.range());
    assert!(
        refused[0].message.contains("44 more aliases"),
        "{}",
        refused[0].message
    );
    assert!(uses.item(4).unwrap().is_sequence());
    assert!(sixth.is_null() && uses.item(49).unwrap().is_null());
    assert!(
        doc.root().unwrap().expanded_size() <= doc.written_nodes() as u32 + MAX_ALIAS_EXPANSION
    );
}

/// Anchors chained through complex keys nest deeper with each link while the text stays flat.
#[test]
fn aliases_at_depth_are_refused_past_the_cap() {
    let mut text = String::from("? &a1 [x]\n: v\n");
    for i in 2..=1000 {
        text.push_str(&format!("? &a{i} [*a{}]\n: v\n", i - 1));
    }
    text.push_str("x: *a1000\n");
    let doc = YamlDocument::parse(&text, 0);
    let refused = errors_of(&doc, YamlErrorKind::AliasDepth);
    assert_eq!(refused.len(), 1, "{:?}", doc.errors);
    assert!(refused[0].message.contains("past the limit of 256"));
    let root = doc.root().unwrap();
    assert!(root.expanded_height() as usize <= MAX_DEPTH + 1);
    // Every walk over the expansion is bounded by the cap; this one is iterative anyway.
    let json = root.to_json();
    assert!(json.is_object());
    // Under the cap, aliases at depth still resolve.
    let doc = YamlDocument::parse("? &a [[[x]]]\n: v\nuse: *a\n", 0);
    assert!(doc.errors.is_empty());
    let used = doc.root().unwrap().get("use").unwrap();
    assert_eq!(used.expanded_height(), 4);
    assert_eq!(used.to_json(), serde_json::json!([[["x"]]]));
}

#[test]
fn to_json_keeps_the_last_of_duplicate_keys_and_nesting() {
    let doc = YamlDocument::parse("a: 2\na: {b: [1, {c: d}], e: ~}\nf: [[], {}]\n", 0);
    assert_eq!(
        doc.root().unwrap().to_json(),
        serde_json::json!({"a": {"b": [1, {"c": "d"}], "e": null}, "f": [[], {}]})
    );
    assert_eq!(
        YamlDocument::parse("7", 0).root().unwrap().to_json(),
        serde_json::json!(7)
    );
}

#[test]
fn large_mappings_find_every_duplicate_once() {
    let mut text = String::new();
    for i in 0..2_000 {
        text.push_str(&format!("k{i}: 1\n"));
    }
    text.push_str("k3: 2\nk1999: 3\nk3: 4\nnew: 5\n");
    let doc = YamlDocument::parse(&text, 0);
    let found: Vec<_> = doc
        .duplicate_keys
        .iter()
        .map(|d| (d.key.as_str(), d.first.start))
        .collect();
    let at = |key: &str| text.find(&format!("{key}:")).unwrap() as u32;
    assert_eq!(
        found,
        vec![("k3", at("k3")), ("k1999", at("k1999")), ("k3", at("k3"))]
    );
    // Only the last of each repeated key stays in the tree.
    let root = doc.root().unwrap();
    assert_eq!(root.entries().len(), 2_001);
    assert_eq!(root.get("k3").unwrap().scalar(), Some("4"));
    assert_eq!(root.get("k1999").unwrap().scalar(), Some("3"));
}

#[test]
fn every_key_of_a_large_mapping_is_found_by_lookup() {
    let count = 50_000;
    let mut text = String::from("small: {a: 1, b: 2}\nname: &name n\nbig:\n");
    for i in 0..count {
        text.push_str(&format!("  k{i}: v{i}\n"));
    }
    // A repeated key keeps its last value; an alias key reads the scalar it names.
    text.push_str("  k7: again\n  ? *name\n  : aliased\n");
    let medium: Vec<String> = (0..40).map(|i| format!("m{i}: {i}")).collect();
    text.push_str(&format!(
        "medium: &medium {{{}}}\nsame: *medium\n",
        medium.join(", ")
    ));
    let doc = YamlDocument::parse(&text, 0);
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    let root = doc.root().unwrap();
    let big = root.get("big").unwrap();
    assert_eq!(big.entries().len(), count + 1);
    for i in (0..count).filter(|&i| i != 7) {
        let (key, value) = big.entry(&format!("k{i}")).unwrap();
        assert_eq!(key.scalar(), Some(format!("k{i}").as_str()));
        assert_eq!(value.scalar(), Some(format!("v{i}").as_str()));
    }
    assert_eq!(big.get("k7").unwrap().scalar(), Some("again"));
    assert_eq!(big.get("n").unwrap().scalar(), Some("aliased"));
    assert!(big.get("k50000").is_none() && big.get("v1").is_none());
    // Through an alias to the mapping, and in a small mapping.
    assert_eq!(
        root.get("same").unwrap().get("m9").unwrap().scalar(),
        Some("9")
    );
    assert_eq!(
        root.get("small").unwrap().get("b").unwrap().scalar(),
        Some("2")
    );
    // Substitution rewrites a scalar an alias key may name: lookups see the new text.
    let mut doc = doc;
    let name = doc.root().unwrap().get("name").unwrap().id();
    doc.set_scalar(name, "renamed", Style::Plain);
    let big = doc.root().unwrap().get("big").unwrap();
    assert_eq!(big.get("renamed").unwrap().scalar(), Some("aliased"));
    assert!(big.get("n").is_none());
}

#[test]
fn scalars_take_the_bytes_they_hold() {
    let text = (0..1_000).map(|i| format!("- s{i}\n")).collect::<String>();
    let doc = YamlDocument::parse(&text, 0);
    let per_scalar = doc.heap_bytes() / 1_000;
    // A node, a child id and the text: far from saphyr's 128 bytes reserved per scalar.
    assert!(per_scalar < 48, "{per_scalar} bytes per scalar");
    assert_eq!(
        doc.root().unwrap().item(999).unwrap().scalar(),
        Some("s999")
    );
}

#[test]
fn deep_nesting_stops_with_an_error() {
    // saphyr's scanner refuses very deep flow nesting itself; either refusal is fine.
    let text = "[".repeat(10_000);
    let doc = YamlDocument::parse(&text, 0);
    assert!(!doc.errors.is_empty());
    let text = "a:\n".to_string()
        + &(1..2000)
            .map(|i| format!("{}b:\n", " ".repeat(i)))
            .collect::<String>();
    let doc = YamlDocument::parse(&text, 0);
    assert!(doc.errors.iter().any(|e| e.kind == YamlErrorKind::TooDeep));
}

#[test]
fn base_offset_shifts_every_range() {
    let doc = YamlDocument::parse("name: x\n", 4);
    let (k, v) = doc.root().unwrap().entry("name").unwrap();
    assert_eq!((k.range().start, v.range().start), (4, 10));
}

#[test]
fn quoted_scalars_end_at_the_closing_quote() {
    let text = "a: 'it''s'\t# it's a comment\nb: \"x\\\"y\"  # \"c\"\n";
    let doc = YamlDocument::parse(text, 0);
    let root = doc.root().unwrap();
    assert_eq!(text_of(text, root.get("a").unwrap().range()), "'it''s'");
    assert_eq!(text_of(text, root.get("b").unwrap().range()), "\"x\\\"y\"");
}

#[test]
fn crlf_text_keeps_byte_ranges() {
    let text = "a: 1\r\nb: two\r\n";
    let doc = YamlDocument::parse(text, 0);
    let b = doc.root().unwrap().get("b").unwrap();
    assert_eq!(text_of(text, b.range()), "two");
}

#[test]
fn core_schema_scalars() {
    let doc = YamlDocument::parse("[1, -2, 1.5, .5, 1e3, true, ~, '1', abc, 0x1f, 1.2.3]", 0);
    let values: Vec<_> = doc.root().unwrap().items().map(|n| n.value()).collect();
    assert_eq!(
        values,
        vec![
            ScalarValue::Int(1),
            ScalarValue::Int(-2),
            ScalarValue::Float(1.5),
            ScalarValue::Float(0.5),
            ScalarValue::Float(1000.0),
            ScalarValue::Bool(true),
            ScalarValue::Null,
            ScalarValue::Str("1"),
            ScalarValue::Str("abc"),
            ScalarValue::Int(31),
            ScalarValue::Str("1.2.3"),
        ]
    );
}

#[test]
fn multiple_documents_are_flagged() {
    let doc = YamlDocument::parse("a: 1\n---\nb: 2\n", 0);
    assert!(doc
        .errors
        .iter()
        .any(|e| e.kind == YamlErrorKind::MultipleDocuments));
    assert!(doc.root().unwrap().get("a").is_some());
}
