//! Raw bytes -> text. Files arrive as bytes from disk; we never refuse them: a UTF-8 BOM is
//! stripped (and remembered, so offsets stay file offsets), invalid UTF-8 is replaced and the
//! first bad byte reported. (A file holding NUL bytes is text here too; the analysis reports it
//! as binary.)

/// Decoded file text, as the rest of the engine sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// Shared, as the index keeps it: decoding is the one copy of a file's bytes.
    pub text: std::sync::Arc<str>,
    /// Byte offset (in `text`) of the first byte that was not valid UTF-8, if any.
    pub invalid_utf8_at: Option<u32>,
}

pub fn decode(bytes: &[u8]) -> Decoded {
    match std::str::from_utf8(bytes) {
        Ok(text) => Decoded {
            text: text.into(),
            invalid_utf8_at: None,
        },
        Err(error) => Decoded {
            invalid_utf8_at: Some(error.valid_up_to() as u32),
            text: String::from_utf8_lossy(bytes).into(),
        },
    }
}

/// Length in bytes of a leading UTF-8 byte-order mark, which YAML and Markdown both ignore.
pub fn bom_len(text: &str) -> usize {
    if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_is_replaced_and_located() {
        let decoded = decode(b"name: ok\xff\xfe\n");
        assert_eq!(decoded.invalid_utf8_at, Some(8));
        assert!(decoded.text.starts_with("name: ok\u{fffd}"));
    }

    #[test]
    fn bom_is_measured() {
        assert_eq!(bom_len("\u{feff}a: 1"), 3);
        assert_eq!(bom_len("a: 1"), 0);
    }
}
