//! The IDE tests' fixtures: the crate's one parser (`//- /path` starts a file, `$0` marks the
//! cursor), in `crate::testing`.

pub(crate) use crate::testing::{fixture, Fixture};
