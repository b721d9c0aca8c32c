//! What a workspace means, queried over the index: the skill registry with the skills the
//! runtime makes up, chain resolution and the graphs that span files (chains, composes), and the
//! answers the rules judge and the IDE shows alike. Every query reads other files through
//! [`crate::index::Lookup`], so its reads are recorded for incremental re-checking. Nothing here
//! makes a diagnostic of its own accord: the rules decide what is wrong.

pub mod chain;
pub mod composes;
pub mod registry;
