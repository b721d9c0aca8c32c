//! Placeholder until the schema module lands.
use super::catalogue::RuleDoc;
use crate::diagnostic::{Diagnostic, FileId};
use crate::syntax::Node;
pub const RULES: &[RuleDoc] = &[];
pub enum SchemaKind {
    Workspace,
    Topology,
    Skill,
    Archetype,
    Trigger,
    Funnel,
    Contract,
    RoleRegistry,
    ExecutorAdapter,
}
pub fn check_schema(_kind: SchemaKind, _root: Node<'_>, _file: FileId) -> Vec<Diagnostic> {
    Vec::new()
}
