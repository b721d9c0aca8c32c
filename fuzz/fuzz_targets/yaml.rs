//! The `yaml` target: input and properties are documented on `skillgraph::fuzzing::yaml`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| skillgraph::fuzzing::yaml(data));
