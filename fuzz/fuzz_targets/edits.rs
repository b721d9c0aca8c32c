//! The `edits` target: input and properties are documented on `skillgraph::fuzzing::edits`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| skillgraph::fuzzing::edits(data));
