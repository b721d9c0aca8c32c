//! skillgraph for Zed: starts `skillgraph lsp` for Markdown (SKILL.md) and YAML (SwarmKit
//! workspaces). Everything else is the server's: this only finds the binary and hands over the
//! user's settings.
//!
//! Settings (Zed's `settings.json`):
//!
//! ```json
//! "lsp": {
//!   "skillgraph": {
//!     "binary": { "path": "/path/to/skillgraph", "arguments": ["lsp"] },
//!     "initialization_options": { "rules": { "agent.duplicate-grant": "off" } },
//!     "settings": { "skill-md": { "strict": true } }
//!   }
//! }
//! ```
//!
//! `initialization_options` and `settings` take the keys of `skillgraph.toml`; a
//! `skillgraph.toml` in the project works without them.

use zed_extension_api::{self as zed, settings::LspSettings, LanguageServerId, Result, Worktree};

/// The server's name in Zed's `lsp` settings and the binary looked up on `PATH`.
const SERVER: &str = "skillgraph";

/// What to do when the binary is nowhere to be found.
const NOT_FOUND: &str = "skillgraph was not found on PATH. Install it with `pip install skillgraph` \
(or `uv tool install skillgraph`, or `cargo install skillgraph`), or set \
lsp.skillgraph.binary.path in Zed's settings.";

struct Skillgraph;

impl Skillgraph {
    fn settings(worktree: &Worktree) -> LspSettings {
        LspSettings::for_worktree(SERVER, worktree).unwrap_or_default()
    }
}

impl zed::Extension for Skillgraph {
    fn new() -> Self {
        Skillgraph
    }

    fn language_server_command(
        &mut self,
        _language_server_id: &LanguageServerId,
        worktree: &Worktree,
    ) -> Result<zed::Command> {
        let binary = Self::settings(worktree).binary;
        let path = binary
            .as_ref()
            .and_then(|b| b.path.clone())
            .or_else(|| worktree.which(SERVER))
            .ok_or_else(|| NOT_FOUND.to_owned())?;
        let args = binary
            .as_ref()
            .and_then(|b| b.arguments.clone())
            .unwrap_or_else(|| vec!["lsp".to_owned()]);
        // The project's shell environment, so `${…}` references and `PATH` lookups of command
        // packs see what a terminal in the project sees; the settings' `env` on top.
        let mut env = worktree.shell_env();
        if let Some(extra) = binary.and_then(|b| b.env) {
            env.extend(extra);
        }
        Ok(zed::Command {
            command: path,
            args,
            env,
        })
    }

    fn language_server_initialization_options(
        &mut self,
        _language_server_id: &LanguageServerId,
        worktree: &Worktree,
    ) -> Result<Option<zed::serde_json::Value>> {
        Ok(Self::settings(worktree).initialization_options)
    }

    fn language_server_workspace_configuration(
        &mut self,
        _language_server_id: &LanguageServerId,
        worktree: &Worktree,
    ) -> Result<Option<zed::serde_json::Value>> {
        // Under `skillgraph`, the section the server reads (it also takes the keys at the top).
        Ok(Self::settings(worktree)
            .settings
            .map(|settings| zed::serde_json::json!({ SERVER: settings })))
    }
}

zed::register_extension!(Skillgraph);
