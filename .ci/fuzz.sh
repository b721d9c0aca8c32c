#!/usr/bin/env bash
# The fuzz targets (fuzz/, a workspace of its own) still compile against the library: checked on
# stable, without the fuzzer's instrumentation, which needs nightly. Their corpora and regression
# inputs are replayed by `cargo test --workspace` (server/tests/fuzz_replay.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo check --locked --manifest-path fuzz/Cargo.toml --bins
cargo clippy --locked --manifest-path fuzz/Cargo.toml --bins -- -D warnings
