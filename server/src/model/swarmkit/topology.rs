//! `topologies/*.yaml`: the agent tree. Agents are flattened into a list in document order (a
//! parent before its children), each knowing its parent, so rules can walk the tree without
//! recursion.

use super::super::{field, scalar_list, spanned_scalar, SpannedStr};
use super::{grants, metadata_id, Grant};
use crate::syntax::{Node, TextRange};

pub type AgentIndex = usize;

/// One `guarded: [prerequisite, ...]` line of a `requires:` block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RequiresRule {
    pub guarded: SpannedStr,
    pub prerequisites: Vec<SpannedStr>,
    /// The value node: the list, or whatever was written instead of one.
    pub value_range: TextRange,
    /// Set when the value is not a list of strings (a lone string, a map, null).
    pub value_shape_problem: Option<&'static str>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RequiresBlock {
    pub key_range: TextRange,
    pub rules: Vec<RequiresRule>,
    /// Set when `requires:` is not a mapping at all.
    pub shape_problem: Option<(&'static str, TextRange)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Agent {
    pub id: Option<SpannedStr>,
    /// Where the agent is written: the `root:` key, or the `- ` item's mapping.
    pub anchor_range: TextRange,
    /// The whole agent mapping.
    pub range: TextRange,
    pub role: Option<SpannedStr>,
    pub archetype: Option<SpannedStr>,
    /// `skills:` key range and entries; `None` when the agent has no `skills` field (it then
    /// inherits its archetype's defaults).
    pub skills: Option<(TextRange, Vec<Grant>)>,
    pub skills_additional: Option<(TextRange, Vec<Grant>)>,
    pub requires: Option<RequiresBlock>,
    pub depends_on: Vec<SpannedStr>,
    pub funnel: Option<SpannedStr>,
    /// `output_schema:` when written (an explicit null opts out of the archetype's).
    pub output_schema: Option<super::OutputSchema>,
    pub parent: Option<AgentIndex>,
    pub children: Vec<AgentIndex>,
}

impl Agent {
    pub fn label(&self) -> &str {
        self.id
            .as_ref()
            .map_or("(agent without id)", |id| id.value.as_str())
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Topology {
    pub name: Option<SpannedStr>,
    /// `metadata.version`: topologies of one name but different versions may coexist.
    pub version: Option<SpannedStr>,
    pub agents: Vec<Agent>,
    /// `governance.decision_skills`: bindings that add to or override the workspace's by id.
    pub decision_skills: Vec<super::DecisionBinding>,
}

impl Topology {
    pub fn lower(root: Node<'_>) -> Topology {
        let mut topology = Topology {
            name: metadata_id(root, "name"),
            version: metadata_id(root, "version"),
            agents: Vec::new(),
            decision_skills: super::workspace::decision_bindings(root),
        };
        if let Some((key, node)) = root.get("agents").and_then(|a| a.entry("root")) {
            // An explicit stack instead of recursion: nesting depth is capped by the parser, but a
            // flat loop costs nothing and cannot overflow.
            let mut pending = vec![(key.range(), node, None::<AgentIndex>)];
            while let Some((anchor, node, parent)) = pending.pop() {
                let index = topology.agents.len();
                topology.agents.push(lower_agent(anchor, node, parent));
                if let Some(parent) = parent {
                    topology.agents[parent].children.push(index);
                }
                if let Some(children) = node.get("children") {
                    let items: Vec<_> = children.items().collect();
                    for child in items.into_iter().rev() {
                        if child.is_mapping() {
                            let anchor = child
                                .entries()
                                .next()
                                .map_or(child.range(), |(k, _)| k.range());
                            pending.push((anchor, child, Some(index)));
                        }
                    }
                }
            }
        }
        topology
    }

    pub fn agent_by_id(&self, id: &str) -> Option<(AgentIndex, &Agent)> {
        self.agents
            .iter()
            .enumerate()
            .find(|(_, a)| a.id.as_ref().is_some_and(|i| i.value == id))
    }
}

fn lower_agent(anchor_range: TextRange, node: Node<'_>, parent: Option<AgentIndex>) -> Agent {
    // `skills:` with no value reads as absent (the archetype's defaults apply), as in SwarmKit;
    // `skills: []` is present and empty.
    let grant_list = |key: &str| {
        node.entry(key)
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (k.range(), grants(Some(v))))
    };
    Agent {
        id: field(node, "id"),
        anchor_range,
        range: node.range(),
        role: field(node, "role"),
        archetype: field(node, "archetype"),
        skills: grant_list("skills"),
        skills_additional: grant_list("skills_additional"),
        requires: node
            .entry("requires")
            .map(|(k, v)| lower_requires(k.range(), v)),
        depends_on: scalar_list(node.get("depends_on")),
        funnel: field(node, "funnel"),
        output_schema: node.get("output_schema").map(super::OutputSchema::lower),
        parent,
        children: Vec::new(),
    }
}

fn lower_requires(key_range: TextRange, value: Node<'_>) -> RequiresBlock {
    if !value.is_mapping() {
        let problem = if value.is_null() {
            "empty"
        } else {
            value.type_name()
        };
        return RequiresBlock {
            key_range,
            rules: Vec::new(),
            shape_problem: Some((problem, value.range())),
        };
    }
    let rules = value
        .entries()
        .filter_map(|(k, v)| {
            let guarded = spanned_scalar(k)?;
            let value_shape_problem = if v.is_sequence() {
                None
            } else if v.is_null() {
                Some("empty")
            } else {
                Some(v.type_name())
            };
            Some(RequiresRule {
                guarded,
                prerequisites: if v.is_sequence() {
                    v.items().filter_map(spanned_scalar).collect()
                } else {
                    spanned_scalar(v).into_iter().collect()
                },
                value_range: v.range(),
                value_shape_problem,
            })
        })
        .collect();
    RequiresBlock {
        key_range,
        rules,
        shape_problem: None,
    }
}
