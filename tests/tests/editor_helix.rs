//! The Helix snippet must name the real binary with the arguments the server accepts, and add
//! skillgraph beside Helix's own servers for YAML and Markdown rather than replacing them.

use std::path::Path;

use skillgraph_e2e::{assert_binary_accepts, toml_strings};

fn snippet() -> toml::Table {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors/helix/languages.toml");
    let text = std::fs::read_to_string(&path).expect("editors/helix/languages.toml exists");
    text.parse().expect("the snippet is valid TOML")
}

#[test]
fn names_the_real_binary_and_arguments() {
    let table = snippet();
    let server = &table["language-server"]["skillgraph"];
    assert_eq!(server["command"].as_str(), Some("skillgraph"));
    let args = toml_strings(&server["args"]);
    assert_eq!(args, ["lsp"]);
    // The binary built by this workspace accepts exactly that command line: started with it
    // and given an empty stdin, the server ends cleanly instead of refusing the arguments.
    assert_binary_accepts(&args);
}

#[test]
fn adds_skillgraph_beside_the_default_servers() {
    let table = snippet();
    let languages = table["language"].as_array().unwrap();
    for (name, default_server) in [("yaml", "yaml-language-server"), ("markdown", "marksman")] {
        let language = languages
            .iter()
            .find(|l| l["name"].as_str() == Some(name))
            .unwrap_or_else(|| panic!("a [[language]] entry for {name}"));
        let servers = toml_strings(&language["language-servers"]);
        assert!(servers.contains(&"skillgraph"), "{name}: {servers:?}");
        assert!(
            servers.contains(&default_server),
            "{name} keeps {default_server}: {servers:?}"
        );
    }
}
