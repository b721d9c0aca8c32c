//! The IDE tests' fixtures: the crate's one parser (`//- /path` starts a file, `$0` marks the
//! cursor), in `crate::testing`.

pub(crate) use crate::testing::{fixture, Fixture};

/// A decision skill bound in the workspace and in a topology: the skill's definition is `$2`, the
/// workspace's binding `$1`.
pub(crate) const DECISION_BINDINGS: &str = "//- /w/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w\ngovernance:\n  provider: mock\n  decision_skills:\n    - id: grounding-$1judge\n      trigger: post_output\n//- /w/skills/judge.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: grounding-$2judge\ncategory: decision\n//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\ngovernance:\n  decision_skills:\n    - id: grounding-judge\n      trigger: pre_input\n      enabled: false\n";
