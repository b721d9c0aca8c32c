//! The language server. Not served yet: `skillgraph lsp` says so and exits.

use std::process::ExitCode;

pub fn run() -> ExitCode {
    eprintln!("skillgraph lsp: the language server is not available in this build yet; use `skillgraph check`");
    ExitCode::from(2)
}
