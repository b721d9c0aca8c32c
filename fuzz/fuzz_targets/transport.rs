//! The `transport` target: input and properties are documented on `skillgraph::fuzzing::transport`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| skillgraph::fuzzing::transport(data));
