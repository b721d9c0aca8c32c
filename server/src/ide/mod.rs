//! The IDE features: hover, go to definition, find references, rename, highlights, inlay hints,
//! code lenses, document symbols, completion, and the audit log's counts on the rules.
//! Pure functions of (index, file, byte offset) returning byte ranges; they know nothing of the
//! protocol, which `lsp` converts at the edge. They decide nothing is wrong: what is wrong is
//! the rules' to say, and the YAML tree is read only where `server/tests/layers.rs` lists it.

mod answers;
pub mod completion;
mod cursor;
pub mod definition;
mod extensions;
pub mod hover;
pub mod inlay;
pub mod lens;
pub mod links;
mod mentions;
pub mod observed;
pub mod ordering_graph;
pub mod references;
pub mod rename;
mod schema_shape;
mod skill_files;
pub(crate) mod skill_load;
pub mod symbols;

pub use answers::{CompletionItem, CompletionKind, Completions, HoverResult, Symbol, SymbolKind};
pub use completion::completion;
pub use cursor::{occurrences, on_agent_definition, Occurrence, Ref, Site};
pub use definition::{declaration, definition};
pub use hover::hover;
pub use inlay::{inlay_hints, InlayHint};
pub use lens::{code_lenses, Lens, LensAction};
pub use links::path_links;
pub use references::{document_highlights, references, HighlightKind};
pub use rename::{prepare_rename, rename, Renamable, Rename};
pub use skill_files::{document_links, link_target, DocumentLink};
pub use symbols::{document_symbols, workspace_symbols, WorkspaceSymbol};

#[cfg(test)]
mod test_support;
