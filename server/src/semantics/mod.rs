//! What a workspace means, queried over the index: the skill registry with the skills the
//! runtime makes up, chain resolution and the graphs that span files (chains, composes), and the
//! answers the rules judge and the IDE shows alike. Every query reads other files through
//! [`crate::index::Lookup`], so its reads are recorded for incremental re-checking. The rules
//! decide what is wrong; the one exception is grant resolution (see [`grants`]), which reports
//! what it meets on its walk. It must not know the editor, the protocol or how a diagnostic is
//! shown.

pub mod chain;
pub mod composes;
pub mod config;
pub mod depends_on;
pub mod grants;
pub mod mentions;
pub mod plugins;
pub mod registry;
pub mod requires;
pub mod schema_files;
