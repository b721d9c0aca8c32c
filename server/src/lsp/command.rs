//! The server's one command, `skillgraph.orderingGraph`: its argument and its answer, the
//! Mermaid text of a document's ordering graph.

use tower_lsp_server::ls_types::*;

use super::convert;
use crate::index::Index;

/// The server's command drawing the ordering graph (the VS Code client sends it).
pub const ORDERING_GRAPH_COMMAND: &str = "skillgraph.orderingGraph";

/// `skillgraph.orderingGraph`'s argument: `[{"uri": <document>, "agent": <id> | null}]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderingGraphArgument {
    pub path: std::path::PathBuf,
    pub agent: Option<String>,
}

/// Reads the command's arguments; the error says what is wrong with them.
pub fn ordering_graph_argument(arguments: &[LSPAny]) -> Result<OrderingGraphArgument, String> {
    const SHAPE: &str =
        "expects one argument {\"uri\": <document URI>, \"agent\": <agent id or null>}";
    let [argument] = arguments else {
        return Err(format!(
            "{ORDERING_GRAPH_COMMAND} {SHAPE}, got {} arguments",
            arguments.len()
        ));
    };
    let Some(object) = argument.as_object() else {
        return Err(format!("{ORDERING_GRAPH_COMMAND} {SHAPE}, got {argument}"));
    };
    let Some(uri) = object.get("uri").and_then(LSPAny::as_str) else {
        return Err(format!(
            "{ORDERING_GRAPH_COMMAND} {SHAPE}: `uri` is missing or not a string"
        ));
    };
    let path = uri
        .parse::<Uri>()
        .ok()
        .as_ref()
        .and_then(convert::path_of)
        .ok_or_else(|| format!("{ORDERING_GRAPH_COMMAND}: `{uri}` is not a file URI"))?;
    let agent = match object.get("agent") {
        None | Some(LSPAny::Null) => None,
        Some(LSPAny::String(id)) => Some(id.clone()),
        Some(other) => {
            return Err(format!(
                "{ORDERING_GRAPH_COMMAND} {SHAPE}: `agent` is {other}, not a string or null"
            ))
        }
    };
    Ok(OrderingGraphArgument { path, agent })
}

/// The Mermaid text of the document's ordering graph; the error when the agent named is not
/// in the document's scope.
pub fn ordering_graph(index: &Index, argument: &OrderingGraphArgument) -> Result<String, String> {
    use crate::ide::ordering_graph::{build, mermaid, Selection};
    let selection = Selection::for_document(index, &argument.path, argument.agent.clone());
    build(index, &selection)
        .map(|graph| mermaid::render(&graph))
        .map_err(|error| error.to_string())
}
