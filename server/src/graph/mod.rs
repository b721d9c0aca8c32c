//! Graphs over ids: strongly connected components (each cyclic one reported once, with a shortest
//! cycle through its earliest node), dependency orders, and the bounded way diagnostics show a
//! path. Used for `requires:` rules, `depends_on`, composed skills and SKILL.md chains. It knows
//! ids and edges only, never files, YAML or what the ids name.

pub mod cycles;
pub mod path;
