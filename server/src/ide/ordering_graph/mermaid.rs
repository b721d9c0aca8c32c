//! Mermaid flowchart text of an [`OrderingGraph`]. Node and cluster ids are made up (`n0`,
//! `c0`, ...), so no id the user wrote can clash with Mermaid's keywords (`end`, `graph`) or
//! need escaping; every caption is a quoted string in which the characters Mermaid reads
//! specially are written as its entity codes (`#quot;`, `#35;`, ...).

use std::fmt::Write;

use super::{edge_caption, node_caption, EdgeKind, Layout, OrderingGraph, ARROWS, STYLES};

/// The Mermaid text, ending with a newline.
pub fn render(graph: &OrderingGraph) -> String {
    let layout = Layout::of(graph);
    let mut out = String::from("flowchart LR\n");
    layout.write_nested(&mut out, graph, open_cluster, nodes, "end");
    legend(&mut out);
    let mut cyclic = Vec::new();
    let mut blocking = Vec::new();
    for (i, edge) in graph.edges.iter().enumerate() {
        let arrow = match edge.kind {
            EdgeKind::Requires | EdgeKind::Chain => "-->",
            EdgeKind::DependsOn => "==>",
            EdgeKind::Composes => "-.->",
            // Naming, not ordering: a circle end (mentions) or a dotted line.
            EdgeKind::Mentions => "--o",
            EdgeKind::Preloads | EdgeKind::RunsIn => "-.->",
        };
        let _ = write!(out, "  n{} {arrow}", edge.from);
        if let Some(caption) = edge_caption(edge) {
            let _ = write!(out, "|\"{}\"|", escape(&caption));
        }
        let _ = writeln!(out, " n{}", edge.to);
        if edge.on_cycle {
            cyclic.push(i);
        } else if edge.blocking {
            blocking.push(i);
        }
    }
    for style in STYLES {
        let (fill, stroke) = style.colours();
        let _ = writeln!(
            out,
            "  classDef {} fill:{fill},stroke:{stroke},color:#000000",
            class_name(style.as_str())
        );
    }
    for (i, node) in graph.nodes.iter().enumerate() {
        if let Some(style) = node.state.style() {
            let _ = writeln!(out, "  class n{i} {}", class_name(style.as_str()));
        }
    }
    for (i, style) in STYLES.iter().enumerate() {
        let _ = writeln!(out, "  class legend{i} {}", class_name(style.as_str()));
    }
    // A node a diagnostic reports links to the code's section of the rules' documentation.
    for (i, node) in graph.nodes.iter().enumerate() {
        if let Some(code) = node.code {
            let _ = writeln!(
                out,
                "  click n{i} href \"{}\" \"{}\"",
                crate::rules::catalogue::doc_url(code),
                code.name()
            );
        }
    }
    link_style(&mut out, &cyclic, "stroke:#c62828,stroke-width:2px");
    link_style(
        &mut out,
        &blocking,
        "stroke:#e65100,stroke-width:2px,stroke-dasharray:5 5",
    );
    out
}

/// Mermaid class names: letters, digits, `_` (a `-` would read as part of an arrow).
fn class_name(state: &str) -> String {
    state.replace('-', "_")
}

fn open_cluster(out: &mut String, graph: &OrderingGraph, cluster: usize, depth: usize) {
    let indent = "  ".repeat(depth);
    let caption = escape(&graph.clusters[cluster].caption());
    let _ = writeln!(out, "{indent}subgraph c{cluster}[\"{caption}\"]");
}

fn nodes(out: &mut String, graph: &OrderingGraph, members: &[usize], depth: usize) {
    let indent = "  ".repeat(depth);
    for &i in members {
        let caption = node_caption(&graph.nodes[i], escape, "<br>");
        let _ = writeln!(out, "{indent}n{i}[\"{caption}\"]");
    }
}

fn legend(out: &mut String) {
    out.push_str("  subgraph legend[\"Legend\"]\n");
    for (i, style) in STYLES.iter().enumerate() {
        let _ = writeln!(out, "    legend{i}[\"{}\"]", escape(style.meaning()));
    }
    for (i, text) in ARROWS.iter().enumerate() {
        let _ = writeln!(out, "    legend_arrow{i}[\"{}\"]", escape(text));
    }
    out.push_str("  end\n");
}

fn link_style(out: &mut String, edges: &[usize], style: &str) {
    if edges.is_empty() {
        return;
    }
    let list: Vec<String> = edges.iter().map(usize::to_string).collect();
    let _ = writeln!(out, "  linkStyle {} {style}", list.join(","));
}

/// A caption inside `"..."`: Mermaid's entity codes for the quote, `#` (which starts an
/// entity), `%` (comments), HTML's specials, the backtick (Markdown strings) and controls.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '#' | '%' | '&' | '<' | '>' | '`' | '\\' | '{' | '}' | '[' | ']' | '|' => {
                let _ = write!(out, "#{};", c as u32);
            }
            c if c.is_control() => {
                let _ = write!(out, "#{};", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}
