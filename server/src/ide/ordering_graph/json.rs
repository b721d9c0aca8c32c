//! The ordering graph as JSON, for tools: every cluster, node and edge with what the analysis
//! says of it (fields in docs/ordering-graph.md). Ids are the ones the other formats use.

use serde_json::{json, Value};

use super::{OrderingGraph, ARROWS, STYLES};

/// Bumped when a field changes meaning or goes away (adding one does not).
pub const FORMAT_VERSION: u32 = 1;

/// The JSON text, pretty-printed, ending with a newline.
pub fn render(graph: &OrderingGraph) -> String {
    let mut text = serde_json::to_string_pretty(&value(graph))
        .unwrap_or_else(|_| unreachable!("a JSON value always serialises"));
    text.push('\n');
    text
}

pub fn value(graph: &OrderingGraph) -> Value {
    let clusters: Vec<Value> = graph
        .clusters
        .iter()
        .enumerate()
        .map(|(i, c)| {
            json!({
                "id": format!("c{i}"),
                "kind": c.kind.as_str(),
                "name": c.name,
                "parent": c.parent.map(|p| format!("c{p}")),
                "source": c.source,
            })
        })
        .collect();
    let nodes: Vec<Value> = graph
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let states: Vec<&str> = STYLES
                .iter()
                .filter(|&&s| n.state.holds(s))
                .map(|s| s.as_str())
                .collect();
            json!({
                "id": format!("n{i}"),
                "kind": n.kind.as_str(),
                "name": n.name,
                "cluster": n.cluster.map(|c| format!("c{c}")),
                "states": states,
                "style": n.state.style().map(|s| s.as_str()),
                "implementation": n.implementation.map(|t| t.as_str()),
                "call_order": n.call_order,
                "async": n.asynchronous,
                "code": n.code.map(|c| c.name()),
                "code_url": n.code.map(crate::rules::catalogue::doc_url),
            })
        })
        .collect();
    let edges: Vec<Value> = graph
        .edges
        .iter()
        .map(|e| {
            let mut edge = json!({
                "kind": e.kind.as_str(),
                "from": format!("n{}", e.from),
                "to": format!("n{}", e.to),
                "step": e.step,
                "async": e.asynchronous,
                "on_cycle": e.on_cycle,
                "blocking": e.blocking,
            });
            // Only with `--observed`: the audit log's counts of the edge's rule.
            if let Some(o) = e.observed {
                edge["observed"] = json!({
                    "agent_runs": o.agent_runs,
                    "runs": o.runs,
                    "refused": o.refused,
                    "recovered": o.recovered,
                    "gave_up": o.gave_up,
                    "would_refuse": o.would_refuse,
                });
            }
            edge
        })
        .collect();
    let legend: Vec<Value> = STYLES
        .iter()
        .map(|s| json!({"state": s.as_str(), "meaning": s.meaning()}))
        .chain(ARROWS.iter().map(|a| json!({"state": null, "meaning": a})))
        .collect();
    json!({
        "version": FORMAT_VERSION,
        "clusters": clusters,
        "nodes": nodes,
        "edges": edges,
        "legend": legend,
    })
}
