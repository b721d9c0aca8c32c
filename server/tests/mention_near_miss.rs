//! `skillmd.mention-near-miss` firing and staying silent, on fixtures and through edits (here,
//! not beside the rule, since `testing` runs the rules and a rule must not import it).

use skillgraph::testing::{index_of, snapshot, Replay};

fn found(fixture: &str) -> Vec<(String, String, String)> {
    snapshot(&index_of(fixture))
        .into_iter()
        .filter(|f| f.1 == skillgraph::diagnostic::codes::SKILLMD_MENTION_NEAR_MISS.name())
        .map(|f| {
            (
                f.0,
                f.4,
                f.5.first().map(|r| r.0.clone()).unwrap_or_default(),
            )
        })
        .collect()
}

const SKILLS: &str = "//- /c/skills/conductor-setup/SKILL.md
---
name: conductor-setup
description: Sets the project up.
---
Body.
//- /c/skills/pdf-tools/SKILL.md
---
name: pdf-tools
description: Works with PDF files.
---
Body.
";

#[test]
fn a_separator_slip_is_reported_with_the_skill_and_a_guessed_fix() {
    let fixture = format!(
        "{SKILLS}\n//- /c/skills/flow/SKILL.md\n---\nname: flow\ndescription: Runs the flow.\n---\nFirst run `/conductor:setup`, then /pdf_tools.\n"
    );
    let found = found(&fixture);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].1.contains("did you mean `/conductor-setup`?"),
        "{found:?}"
    );
    assert_eq!(found[0].2, "/c/skills/conductor-setup/SKILL.md");
    assert!(
        found[1].1.contains("did you mean `/pdf-tools`?"),
        "{found:?}"
    );
    let index = index_of(&fixture);
    let file = index
        .file_id(std::path::Path::new("/c/skills/flow/SKILL.md"))
        .unwrap();
    let diagnostics = index.diagnostics(file);
    let fix = &diagnostics[0].fixes[0];
    assert!(!fix.safe, "a guess is never applied by plain --fix");
    assert_eq!(fix.edits[0].text, "/conductor-setup");
}

#[test]
fn silent_on_ordinary_words_code_own_plugins_and_resolved_names() {
    let fixture = format!(
        r#"{SKILLS}
//- /c/skills/docx/SKILL.md
---
name: docx
description: Word files.
---
See /docs and /model, /rebase, $ref, `/pdf-tools`, /help and /usr/bin.

```
/conductor:setup inside a fence
```
//- /conductor/.claude-plugin/plugin.json
{{"name": "conductor"}}
//- /conductor/skills/conductor-setup/SKILL.md
---
name: conductor-setup
description: The plugin's own.
---
Run /conductor:setup again.
"#
    );
    assert_eq!(found(&fixture), Vec::new());
}

#[test]
fn host_folders_scope_to_their_project() {
    let fixture = r#"
        //- /one/.claude/skills/conductor-setup/SKILL.md
        ---
        name: conductor-setup
        description: Sets up.
        ---
        Body.
        //- /two/.claude/skills/flow/SKILL.md
        ---
        name: flow
        description: Flows.
        ---
        Run /conductor:setup.
    "#;
    assert_eq!(found(fixture), Vec::new());
}

#[test]
fn adding_or_removing_the_skill_is_incremental_and_matches_a_batch() {
    let mut replay = Replay::new();
    replay.set(
        "/c/skills/flow/SKILL.md",
        "---\nname: flow\ndescription: Runs.\n---\nRun /conductor:setup.\n",
    );
    replay.assert_consistent("no skill yet");
    replay.set(
        "/c/skills/conductor-setup/SKILL.md",
        "---\nname: conductor-setup\ndescription: Sets up.\n---\nBody.\n",
    );
    replay.assert_consistent("skill added");
    assert!(replay
        .snapshot()
        .iter()
        .any(|f| f.1 == skillgraph::diagnostic::codes::SKILLMD_MENTION_NEAR_MISS.name()));
    replay.remove("/c/skills/conductor-setup/SKILL.md");
    replay.assert_consistent("skill removed");
    assert!(!replay
        .snapshot()
        .iter()
        .any(|f| f.1 == skillgraph::diagnostic::codes::SKILLMD_MENTION_NEAR_MISS.name()));
}

#[test]
fn a_mention_of_100_000_characters_has_a_bounded_message() {
    let long = "a".repeat(100_000);
    let fixture = format!(
        "//- /c/skills/{long}-b/SKILL.md\n---\nname: x\ndescription: Long.\n---\nBody.\n//- /c/skills/flow/SKILL.md\n---\nname: flow\ndescription: Runs.\n---\nRun /{long}_b now.\n"
    );
    let found = found(&fixture);
    // The long skill's folder does not match its name, so it is found by name only when
    // named; here nothing is named that way and nothing is reported.
    assert!(found.iter().all(|f| f.1.len() < 2_000));
}
