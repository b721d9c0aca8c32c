//! docs/rules.md is rendered from the rule catalogue (the docs kept next to each rule). This
//! test fails when the file is stale; `UPDATE_DOCS=1 cargo test -p skillgraph --test rules_doc`
//! rewrites it.

use std::fmt::Write as _;

fn render() -> String {
    let mut out = String::from(
        "# Diagnostic codes\n\nEvery diagnostic skillgraph reports, with its default severity. Severities can be \
changed or a code turned off in `skillgraph.toml`:\n\n```toml\n[rules]\n\"agent.duplicate-grant\" = \"off\"      # or error | warning | info | hint\n```\n\n\
This file is generated from the documentation kept beside each rule in `server/src/rules/`.\n",
    );
    for rule in skillgraph::rules::catalogue::all() {
        let _ = write!(
            out,
            "\n## `{}`\n\n*{}* — {}\n\n{}\n",
            rule.code,
            rule.severity.as_str(),
            rule.summary,
            rule.explanation
        );
    }
    out
}

#[test]
fn rules_md_is_up_to_date() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/rules.md");
    let expected = render();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path, &expected).unwrap();
        return;
    }
    let actual = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/rules.md is stale; run `UPDATE_DOCS=1 cargo test -p skillgraph --test rules_doc`"
    );
}
