//! The editor integrations of `editors/` that no editor here can run: each file parses in its
//! own format, starts the real binary with arguments it accepts, and hands the server at least
//! the files the server says are its own (`index::classify::editor_document_patterns`, made
//! from the one table of which files are ours, `OUR_FILES`).

use std::path::{Path, PathBuf};

use serde_json::Value;
use skillgraph_e2e::{assert_binary_accepts, toml_strings};

fn editors() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors")
}

fn read(path: &str) -> String {
    let path = editors().join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn json(path: &str) -> Value {
    serde_json::from_str(&read(path)).unwrap_or_else(|e| panic!("{path} is not JSON: {e}"))
}

/// What kind of file an editor sees in a path: the language it gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Language {
    Markdown,
    Yaml,
    Toml,
    /// Plugin and marketplace manifests: no editor here needs to hand them in (the server reads
    /// them from disk), so none is required to.
    Json,
}

/// Files the server reads as documents, one per kind of place, each checked against the
/// server's own patterns before it is used.
fn our_documents() -> Vec<(&'static str, Language)> {
    let by_language: [(Language, &[&'static str]); 4] = [
        (
            Language::Markdown,
            &["/r/.claude/skills/pdf/SKILL.md", "/r/skills/a/SKILL.md"],
        ),
        (
            Language::Yaml,
            &[
                "/r/ws/workspace.yaml",
                "/r/ws/workspace.yml",
                "/r/ws/workspace.env.yaml",
                "/r/ws/workspace.env.prod.yaml",
                "/r/ws/topologies/estate.yaml",
                "/r/ws/skills/group/lint.yml",
                "/r/ws/archetypes/a.yaml",
            ],
        ),
        (Language::Toml, &["/r/skillgraph.toml"]),
        (
            Language::Json,
            &[
                "/r/p/.claude-plugin/plugin.json",
                "/r/.claude-plugin/marketplace.json",
                "/r/.github/plugin/marketplace.json",
            ],
        ),
    ];
    let samples: Vec<(&'static str, Language)> = by_language
        .iter()
        .flat_map(|(language, paths)| paths.iter().map(|path| (*path, *language)))
        .collect();
    let mut patterns = globset::GlobSetBuilder::new();
    let ours = skillgraph::index::classify::editor_document_patterns();
    for pattern in &ours {
        patterns.add(globset::Glob::new(pattern).unwrap());
    }
    let patterns = patterns.build().unwrap();
    for (path, _) in &samples {
        assert!(patterns.is_match(path), "{path} is not among {ours:?}");
    }
    // Every pattern of the server is exercised by some sample.
    for pattern in &ours {
        let glob = globset::Glob::new(pattern).unwrap().compile_matcher();
        assert!(
            samples.iter().any(|(path, _)| glob.is_match(path)),
            "no sample for the server's pattern {pattern}"
        );
    }
    samples
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap()
}

fn extension(path: &str) -> &str {
    file_name(path).rsplit('.').next().unwrap()
}

/// A file-name pattern as LSP4IJ writes them: a name, or `*` and a suffix.
fn name_matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_prefix('*') {
        Some(suffix) => name.ends_with(suffix),
        None => name == pattern,
    }
}

/// Every document of the server in `languages` is matched by `matches`.
fn covers(editor: &str, languages: &[Language], matches: impl Fn(&str) -> bool) {
    for (path, language) in our_documents() {
        if languages.contains(&language) {
            assert!(matches(path), "{editor} does not hand the server {path}");
        }
    }
}

fn strings(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("a list: {value}"))
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect()
}

#[test]
fn claude_code_plugin_declares_both_servers_for_our_files() {
    let plugin = json("claude-code/.claude-plugin/plugin.json");
    assert_eq!(plugin["name"], "skillgraph");
    let lsp = &plugin["lspServers"]["skillgraph"];
    assert_eq!(lsp["command"], "skillgraph");
    assert_eq!(strings(&lsp["args"]), ["lsp"]);
    // Claude Code rejects the whole server for a field it has not implemented
    // (anthropics/claude-code#53399: `restartOnCrash`, `maxRestarts`).
    for unimplemented in ["restartOnCrash", "maxRestarts"] {
        assert!(lsp.get(unimplemented).is_none(), "{unimplemented}");
    }
    let by_extension = lsp["extensionToLanguage"].as_object().unwrap();
    for (key, language) in by_extension {
        assert!(key.starts_with('.'), "an extension with its dot: {key}");
        assert!(["markdown", "yaml", "toml"].contains(&language.as_str().unwrap()));
    }
    covers(
        "Claude Code",
        &[Language::Markdown, Language::Yaml, Language::Toml],
        |path| by_extension.contains_key(&format!(".{}", extension(path))),
    );
    let mcp = &plugin["mcpServers"]["skillgraph"];
    assert_eq!(mcp["command"], "skillgraph");
    assert_eq!(strings(&mcp["args"]), ["mcp"]);
    assert_binary_accepts(&["lsp"]);
    assert_binary_accepts(&["mcp"]);

    let marketplace = json("claude-code/.claude-plugin/marketplace.json");
    assert!(marketplace["owner"]["name"].is_string());
    let entry = &marketplace["plugins"][0];
    assert_eq!(entry["name"], plugin["name"]);
    assert_eq!(entry["version"], plugin["version"]);
    // The source is the plugin's folder, the marketplace's own.
    let source = entry["source"].as_str().unwrap();
    assert!(editors()
        .join("claude-code")
        .join(source)
        .join(".claude-plugin/plugin.json")
        .is_file());
}

#[test]
fn jetbrains_template_maps_our_files() {
    let template = json("jetbrains/template/template.json");
    assert_eq!(template["id"], "skillgraph");
    for command in template["programArgs"].as_object().unwrap().values() {
        let words: Vec<&str> = command.as_str().unwrap().split_whitespace().collect();
        assert!(words[0].starts_with("skillgraph"), "{command}");
        assert_eq!(&words[1..], ["lsp"]);
    }
    let mappings = template["fileTypeMappings"].as_array().unwrap();
    let patterns = |language: Language| -> Vec<&str> {
        let (file_type, id) = match language {
            Language::Markdown => ("Markdown", "markdown"),
            Language::Yaml => ("YAML", "yaml"),
            Language::Toml => ("TOML", "toml"),
            Language::Json => ("JSON", "json"),
        };
        mappings
            .iter()
            .filter(|m| m["fileType"]["name"] == file_type && m["languageId"] == id)
            .flat_map(|m| strings(&m["fileType"]["patterns"]))
            .collect()
    };
    // The manifests are read from disk; no editor needs to hand them in.
    for (path, language) in our_documents()
        .into_iter()
        .filter(|(_, l)| *l != Language::Json)
    {
        assert!(
            patterns(language)
                .iter()
                .any(|p| name_matches(p, file_name(path))),
            "LSP4IJ does not hand the server {path}"
        );
    }
    // A Markdown file that is not a skill is not handed in.
    assert!(!patterns(Language::Markdown)
        .iter()
        .any(|p| name_matches(p, "README.md")));
    // The other files of the template are JSON, and the settings are skillgraph.toml's keys.
    let settings = json("jetbrains/template/settings.json");
    let keys = settings["skillgraph"].as_object().unwrap();
    for key in keys.keys() {
        assert!(
            ["skill-md", "tools", "rules"].contains(&key.as_str()),
            "{key}"
        );
    }
    json("jetbrains/template/initializationOptions.json");
    let installer = json("jetbrains/template/installer.json");
    assert!(installer["run"]["exec"]["command"]["default"]
        .as_str()
        .unwrap()
        .contains("pip install --user skillgraph"));
}

#[test]
fn zed_extension_starts_the_server_for_markdown_and_yaml() {
    let manifest: toml::Table = read("zed/extension.toml").parse().expect("TOML");
    assert_eq!(manifest["id"].as_str(), Some("skillgraph"));
    let server = &manifest["language_servers"]["skillgraph"];
    let languages = toml_strings(&server["languages"]);
    // Zed's own languages by file suffix: `md` is Markdown, `yaml`/`yml` YAML.
    covers("Zed", &[Language::Markdown, Language::Yaml], |path| {
        let language = match extension(path) {
            "md" => "Markdown",
            "yaml" | "yml" => "YAML",
            _ => return false,
        };
        languages.contains(&language)
    });
    let lib = read("zed/src/lib.rs");
    assert!(lib.contains("vec![\"lsp\".to_owned()]") && lib.contains("worktree.which(SERVER)"));
    let cargo: toml::Table = read("zed/Cargo.toml").parse().expect("TOML");
    assert!(
        cargo.contains_key("workspace"),
        "kept out of the main workspace"
    );
}

#[test]
fn mason_package_installs_the_binary_from_pypi() {
    let text = read("nvim/mason/package.yaml");
    let document = skillgraph::syntax::YamlDocument::parse(&text, 0);
    assert!(!document.has_syntax_error());
    let root = document.root().unwrap();
    let get = |key: &str| root.get(key).and_then(|n| n.as_str()).map(str::to_owned);
    assert_eq!(get("name").as_deref(), Some("skillgraph"));
    let source = root.get("source").and_then(|s| s.get("id")).unwrap();
    let purl = source.as_str().unwrap();
    // The PyPI project is the one pyproject.toml builds.
    let pyproject: toml::Table = std::fs::read_to_string(editors().join("../pyproject.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let project = pyproject["project"]["name"].as_str().unwrap();
    assert!(
        purl.starts_with(&format!("pkg:pypi/{project}@")),
        "{purl} installs {project} from PyPI"
    );
    let bin = root.get("bin").and_then(|b| b.get("skillgraph")).unwrap();
    assert_eq!(bin.as_str(), Some("pypi:skillgraph"));
}

#[test]
fn sublime_client_takes_markdown_and_yaml() {
    // Sublime's settings files are JSON with `//` comments.
    let text: String = read("sublime/LSP-skillgraph.sublime-settings")
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let settings: Value = serde_json::from_str(&text).expect("JSON once comments are dropped");
    let client = &settings["clients"]["skillgraph"];
    assert_eq!(strings(&client["command"]), ["skillgraph", "lsp"]);
    let selector = client["selector"].as_str().unwrap();
    let scopes: Vec<&str> = selector.split('|').map(str::trim).collect();
    // Sublime's scopes by file suffix.
    covers(
        "Sublime Text",
        &[Language::Markdown, Language::Yaml],
        |path| {
            let scope = match extension(path) {
                "md" => "text.html.markdown",
                "yaml" | "yml" => "source.yaml",
                _ => return false,
            };
            scopes.contains(&scope)
        },
    );
}

/// The atoms and strings of an Emacs Lisp text, after checking that its parentheses balance
/// and its strings close.
fn elisp_atoms(text: &str) -> Vec<String> {
    let mut atoms = Vec::new();
    let mut depth = 0i32;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                assert!(depth >= 0, "a `)` closes nothing");
            }
            '"' => {
                let mut string = String::new();
                loop {
                    match chars.next().expect("a string closes") {
                        '"' => break,
                        '\\' => string.push(chars.next().expect("an escape")),
                        c => string.push(c),
                    }
                }
                atoms.push(format!("\"{string}\""));
            }
            c if c.is_whitespace() || c == '\'' || c == '.' => {}
            c => {
                let mut atom = String::from(c);
                while let Some(&next) = chars.peek() {
                    if next.is_whitespace() || "()\"';".contains(next) {
                        break;
                    }
                    atom.push(next);
                    chars.next();
                }
                atoms.push(atom);
            }
        }
    }
    assert_eq!(depth, 0, "parentheses balance");
    atoms
}

#[test]
fn emacs_snippets_start_the_server_for_markdown_and_yaml_modes() {
    let atoms = elisp_atoms(&read("emacs/skillgraph.el"));
    let has = |atom: &str| atoms.iter().any(|a| a == atom);
    for needed in ["eglot-server-programs", "lsp-register-client", ":add-on?"] {
        assert!(has(needed), "{needed}");
    }
    let command: Vec<usize> = atoms
        .iter()
        .enumerate()
        .filter(|(i, a)| {
            *a == "\"skillgraph\"" && atoms.get(i + 1).map(String::as_str) == Some("\"lsp\"")
        })
        .map(|(i, _)| i)
        .collect();
    assert_eq!(
        command.len(),
        2,
        "eglot and lsp-mode both run `skillgraph lsp`"
    );
    // The major modes Emacs gives our files by suffix.
    covers("Emacs", &[Language::Markdown, Language::Yaml], |path| {
        let modes: &[&str] = match extension(path) {
            "md" => &["markdown-mode", "gfm-mode"],
            "yaml" | "yml" => &["yaml-mode", "yaml-ts-mode"],
            _ => return false,
        };
        modes.iter().all(|mode| has(mode))
    });
}
