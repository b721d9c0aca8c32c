//! The `skill_md` target: input and properties are documented on `skillgraph::fuzzing::skill_md`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| skillgraph::fuzzing::skill_md(data));
