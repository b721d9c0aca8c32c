//! Graphviz DOT text of an [`OrderingGraph`]. Node ids are made up (`n0`, ...), clusters are
//! `cluster_0`, ... (Graphviz draws a box only around a subgraph whose name starts with
//! `cluster`); every caption is a quoted string with `"` and `\` escaped, so ids holding
//! quotes, dots, dashes or any Unicode come out as written.

use std::fmt::Write;

use super::{edge_caption, node_caption, EdgeKind, Layout, OrderingGraph, ARROWS, STYLES};

/// The DOT text, ending with a newline.
pub fn render(graph: &OrderingGraph) -> String {
    let layout = Layout::of(graph);
    let mut out = String::from(
        "digraph ordering {\n  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\"];\n",
    );
    layout.write_nested(&mut out, graph, open_cluster, nodes, "}");
    legend(&mut out);
    for edge in &graph.edges {
        let mut attributes = Vec::new();
        match edge.kind {
            EdgeKind::Requires | EdgeKind::Chain => {}
            EdgeKind::DependsOn => attributes.push("penwidth=2.5".to_owned()),
            EdgeKind::Composes => attributes.push("style=dotted".to_owned()),
            // Naming, not ordering: grey, with an open end.
            EdgeKind::Mentions => attributes.push("color=\"#607d8b\", arrowhead=odot".to_owned()),
            EdgeKind::Preloads | EdgeKind::RunsIn => {
                attributes.push("style=dashed, color=\"#607d8b\"".to_owned())
            }
        }
        if let Some(caption) = edge_caption(edge) {
            attributes.push(format!("label=\"{}\"", escape(&caption)));
        }
        if edge.on_cycle {
            attributes.push("color=\"#c62828\", penwidth=2".to_owned());
        } else if edge.blocking {
            attributes.push("color=\"#e65100\", penwidth=2, style=dashed".to_owned());
        }
        let _ = write!(out, "  n{} -> n{}", edge.from, edge.to);
        if !attributes.is_empty() {
            let _ = write!(out, " [{}]", attributes.join(", "));
        }
        out.push_str(";\n");
    }
    out.push_str("}\n");
    out
}

fn open_cluster(out: &mut String, graph: &OrderingGraph, cluster: usize, depth: usize) {
    let indent = "  ".repeat(depth);
    let caption = escape(&graph.clusters[cluster].caption());
    let _ = writeln!(
        out,
        "{indent}subgraph cluster_{cluster} {{\n{indent}  label=\"{caption}\";"
    );
}

fn nodes(out: &mut String, graph: &OrderingGraph, members: &[usize], depth: usize) {
    let indent = "  ".repeat(depth);
    for &i in members {
        let node = &graph.nodes[i];
        let caption = node_caption(node, escape, "\\n");
        let _ = write!(out, "{indent}n{i} [label=\"{caption}\"");
        if let Some(style) = node.state.style() {
            let (fill, stroke) = style.colours();
            let _ = write!(
                out,
                ", fillcolor=\"{fill}\", color=\"{stroke}\", penwidth=2"
            );
        }
        if let Some(code) = node.code {
            let _ = write!(
                out,
                ", URL=\"{}\", tooltip=\"{}\"",
                escape(&crate::rules::catalogue::doc_url(code)),
                code.name()
            );
        }
        out.push_str("];\n");
    }
}

fn legend(out: &mut String) {
    out.push_str("  subgraph cluster_legend {\n    label=\"Legend\";\n");
    for (i, style) in STYLES.iter().enumerate() {
        let (fill, stroke) = style.colours();
        let _ = writeln!(
            out,
            "    legend{i} [label=\"{}\", fillcolor=\"{fill}\", color=\"{stroke}\", penwidth=2];",
            escape(style.meaning())
        );
    }
    for (i, text) in ARROWS.iter().enumerate() {
        let _ = writeln!(
            out,
            "    legend_arrow{i} [label=\"{}\", shape=plaintext, style=\"\"];",
            escape(text)
        );
    }
    out.push_str("  }\n");
}

/// A caption inside `"..."`: DOT's only escapes there are `\"` and a backslash sequence, so a
/// backslash is doubled; a line break would end nothing but is written as a space, since a
/// caption is one line of the id.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}
