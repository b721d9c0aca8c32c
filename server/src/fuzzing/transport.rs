//! The language server's transport: raw bytes, as an editor might write them to stdin, cut into
//! frames and each message checked (`lsp::fuzz_transport`).
//!
//! Input: the bytes of stdin.
//!
//! Properties: nothing panics and the input is consumed to its end; every message handed on is
//! one tower-lsp-server decodes (a message it cannot decode ends its reader, and so the server),
//! and passes the message check again; every answer to a dropped message is a JSON-RPC response.

pub fn transport(data: &[u8]) {
    let data = &data[..data.len().min(super::MAX_INPUT)];
    if let Err(finding) = crate::lsp::fuzz_transport(data) {
        panic!("{finding}");
    }
}
