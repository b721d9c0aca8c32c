//! The output formats of `skillgraph graph`: the ordering graph's renderers, by name.

use crate::ide::ordering_graph::{dot, json, mermaid, OrderingGraph};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GraphFormat {
    Mermaid,
    Dot,
    Json,
}

pub fn render_graph(format: GraphFormat, graph: &OrderingGraph) -> String {
    match format {
        GraphFormat::Mermaid => mermaid::render(graph),
        GraphFormat::Dot => dot::render(graph),
        GraphFormat::Json => json::render(graph),
    }
}
