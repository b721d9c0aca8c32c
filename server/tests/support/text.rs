//! Assertions on text for the integration tests: that a message or a rendering says a given
//! thing, with the whole text shown when it does not.

/// Fails, showing `text` whole, unless it contains `part`.
#[track_caller]
pub fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "expected {part:?} in:\n{text}");
}
