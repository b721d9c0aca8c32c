//! skillgraph: one engine behind a command-line checker and a language server for SwarmKit
//! workspaces and Agent Skills `SKILL.md` files.
//!
//! Layers, from the bottom: `syntax` (text to spanned trees; with `graph` and `suggest`, leaves),
//! `diagnostic`, `model` (trees to typed artifacts), `index` (the file set, id tables and
//! incremental re-checking, running the checks it is handed), `semantics` (what a workspace
//! means), `rules` (diagnostics), `ide` (hover, definition, ...). `cli` and `lsp` are the two
//! faces (with `mcp`, the engine for agents); only `lsp` knows LSP types, and only the faces
//! and `discover` do I/O. Imports run down the layers (`server/tests/layers.rs`;
//! docs/architecture.md, "Layers").

pub mod audit;
pub mod audit_log;
pub mod check;
pub mod cli;
pub mod diagnostic;
pub mod discover;
pub mod fix;
// What each fuzz target (`fuzz/`) does with its input, shared with the replay test; not part of
// the API.
#[doc(hidden)]
pub mod fuzzing;
pub mod graph;
pub mod ide;
pub mod index;
pub mod lsp;
pub mod mcp;
pub mod model;
pub mod probe;
pub mod rules;
pub mod semantics;
pub mod suggest;
pub mod syntax;
// Test support for the unit and integration tests alike (an integration test sees only the
// public API); not part of the API, and nothing outside tests calls it.
#[doc(hidden)]
pub mod testing;
