//! Helpers shared by more than one test binary.
//!
//! The conformance binaries take all of it with `mod common;`. The CLI tests
//! include only `fixture.rs` and `barrier.rs` (with `#[path]` from
//! `tests/cli/support.rs`), the external tests only `barrier.rs` (from
//! `tests/external/main.rs`), so every binary uses everything it compiles.

mod fixture;

use fixture::fixture;
use serde_json::Value;

/// The cases of `fixtures/kernel/<name>.json` (expected values computed by
/// the reference). A missing file or an empty case list fails the test, so
/// a lost fixture cannot pass silently.
pub fn kernel_cases(name: &str) -> Vec<Value> {
    let path = fixture(&format!("kernel/{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let doc: Value = serde_json::from_str(&text).expect("fixture is JSON");
    let cases = doc["cases"].as_array().expect("fixture has cases").clone();
    assert!(!cases.is_empty(), "{name}: no cases");
    cases
}
