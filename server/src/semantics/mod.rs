//! What a workspace means, queried over the index: facts that the rules judge and the IDE shows,
//! computed in one place so both read the same answer.

pub mod chain;
