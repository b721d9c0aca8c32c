//! `triggers/*.yaml` (and `schedules/`): what fires which topology.

use super::super::{spanned_scalar, SpannedStr};
use super::metadata_id;
use crate::syntax::Node;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Trigger {
    pub id: Option<SpannedStr>,
    /// Topology ids among `targets` (event targets, `{pipeline, emit}` maps, name no artifact).
    pub topology_targets: Vec<SpannedStr>,
}

impl Trigger {
    pub fn lower(root: Node<'_>) -> Trigger {
        Trigger {
            id: metadata_id(root, "id"),
            topology_targets: root
                .get("targets")
                .into_iter()
                .flat_map(|t| t.items())
                .filter(|item| !item.is_mapping())
                .filter_map(spanned_scalar)
                .collect(),
        }
    }
}
