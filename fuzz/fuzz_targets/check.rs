//! The `check` target: input and properties are documented on `skillgraph::fuzzing::check`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| skillgraph::fuzzing::check(data));
