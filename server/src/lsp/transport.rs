//! The byte stream between the editor and the server, framed by us rather than by
//! tower-lsp-server: its reader stops at the first frame it cannot decode, and one bad frame from
//! an editor must cost that frame, not the session.
//!
//! A thread reads stdin and cuts it into frames; every frame is checked before it is handed to
//! tower through an in-memory pipe, so tower only ever sees well-formed JSON-RPC messages.
//! What a frame may be, and what becomes of it:
//! - Header lines are `Name: value`, names in any case, ended by CRLF or LF; blank lines between
//!   frames are skipped; `Content-Type` and unknown headers are ignored; a line that is not a
//!   header is skipped and reported, and a `Content-Length:` inside such a line starts a header
//!   again (a frame whose length was too short leaves the next frame's header mid-line).
//! - A frame without `Content-Length` is reported; its body cannot be delimited, so the bytes up to
//!   the next header are skipped as non-header lines. Two different lengths: the first counts.
//! - `Content-Length: 0` is ignored at once. A length over [`MAX_FRAME`] (64 MiB) is skipped whole,
//!   without being held in memory, and reported.
//! - A body that stops arriving for [`STALL`] is taken as it is (a length larger than the body);
//!   a body that holds the next frame's `Content-Length:` header is cut there and the rest read as
//!   the next frame.
//! - A body that is not UTF-8 is skipped whole; one that is not JSON (or not a JSON-RPC message)
//!   answers -32700 (-32600) when an id can be recovered, and is only reported when none can.
//!   A lone UTF-16 surrogate escape (`"\ud83d"`, which JavaScript clients send for a split
//!   emoji) is read as U+FFFD.
//! - Reported means: written to stderr and sent to the client as `window/logMessage`.
//!
//! The server ends on `exit` or at the end of input, within [`GRACE`] whatever is still pending.

use std::io::Read;
use std::sync::mpsc as std_mpsc;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tower_lsp_server::{ClientSocket, LspService, Server};

use super::Backend;

/// The largest frame read; larger ones are skipped.
pub const MAX_FRAME: usize = 64 << 20;
/// How long a body may stop arriving before it is taken as complete.
pub const STALL: Duration = Duration::from_secs(1);
/// How long pending work may still run once the input has ended or `exit` came.
pub const GRACE: Duration = Duration::from_millis(500);
/// The longest header line kept; longer ones are garbage.
const MAX_HEADER_LINE: usize = 8 << 10;

/// What the framer hands on.
#[derive(Debug, PartialEq)]
pub enum Frame {
    /// A well-formed JSON-RPC message, ready for tower.
    Message { body: Vec<u8>, exit: bool },
    /// A frame that was dropped: an error response when an id could be recovered, and what to
    /// report.
    Dropped {
        reply: Option<Value>,
        report: String,
    },
    /// Something worth reporting that needs no answer.
    Note(String),
    /// The input ended.
    End,
}

/// Stdin as chunks from a reader thread, so a stalled body can be noticed.
pub struct Input {
    chunks: std_mpsc::Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
    ended: bool,
}

enum Fill {
    Data,
    Stalled,
    Ended,
}

impl Input {
    pub fn new(chunks: std_mpsc::Receiver<Vec<u8>>) -> Input {
        Input {
            chunks,
            buf: Vec::new(),
            pos: 0,
            ended: false,
        }
    }

    /// Reads stdin on its own thread (a blocking read never holds up the async runtime).
    pub fn stdin() -> Input {
        let (tx, rx) = std_mpsc::sync_channel(16);
        std::thread::spawn(move || {
            let mut stdin = std::io::stdin().lock();
            let mut chunk = vec![0; 64 << 10];
            loop {
                match stdin.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => {
                        if tx.send(chunk[..n].to_vec()).is_err() {
                            break;
                        }
                    }
                    Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                }
            }
        });
        Input::new(rx)
    }

    fn available(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    /// Makes sure some bytes are buffered; `stall` bounds the wait.
    fn fill(&mut self, stall: Option<Duration>) -> Fill {
        if self.pos < self.buf.len() {
            return Fill::Data;
        }
        if self.ended {
            return Fill::Ended;
        }
        let chunk = match stall {
            None => self.chunks.recv().map_err(|_| true),
            Some(wait) => self.chunks.recv_timeout(wait).map_err(|e| match e {
                std_mpsc::RecvTimeoutError::Timeout => false,
                std_mpsc::RecvTimeoutError::Disconnected => true,
            }),
        };
        match chunk {
            Ok(chunk) => {
                self.buf.drain(..self.pos);
                self.pos = 0;
                self.buf.extend_from_slice(&chunk);
                Fill::Data
            }
            Err(true) => {
                self.ended = true;
                Fill::Ended
            }
            Err(false) => Fill::Stalled,
        }
    }

    /// One line without its terminator; `None` at the end of input. Lines longer than
    /// `MAX_HEADER_LINE` come back truncated, flagged `true`.
    fn line(&mut self) -> Option<(Vec<u8>, bool)> {
        let mut line = Vec::new();
        let mut too_long = false;
        loop {
            if let Fill::Ended = self.fill(None) {
                return (!line.is_empty()).then_some((line, too_long));
            }
            let available = self.available();
            let (taken, done) = match available.iter().position(|&b| b == b'\n') {
                Some(at) => (at + 1, true),
                None => (available.len(), false),
            };
            let room = MAX_HEADER_LINE.saturating_sub(line.len());
            too_long |= taken > room;
            line.extend_from_slice(&available[..taken.min(room)]);
            self.pos += taken;
            if done {
                while line.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                    line.pop();
                }
                return Some((line, too_long));
            }
        }
    }

    /// Up to `length` bytes; fewer when the input ends or stalls.
    fn body(&mut self, length: usize) -> (Vec<u8>, bool) {
        let mut body = Vec::with_capacity(length.min(1 << 20));
        while body.len() < length {
            match self.fill(Some(STALL)) {
                Fill::Data => {
                    let available = self.available();
                    let taken = available.len().min(length - body.len());
                    body.extend_from_slice(&available[..taken]);
                    self.pos += taken;
                }
                Fill::Stalled | Fill::Ended => return (body, false),
            }
        }
        (body, true)
    }

    /// Skips `length` bytes without keeping them; false when the input ended first.
    fn skip(&mut self, mut length: usize) -> bool {
        while length > 0 {
            if let Fill::Ended = self.fill(None) {
                return false;
            }
            let taken = self.available().len().min(length);
            self.pos += taken;
            length -= taken;
        }
        true
    }

    /// Puts bytes back in front of the input.
    fn unread(&mut self, bytes: &[u8]) {
        let mut buf = bytes.to_vec();
        buf.extend_from_slice(self.available());
        self.buf = buf;
        self.pos = 0;
    }
}

/// Where `Content-Length:` starts in `bytes`, in any case.
fn find_content_length(bytes: &[u8]) -> Option<usize> {
    const NEEDLE: &[u8] = b"content-length:";
    bytes
        .windows(NEEDLE.len())
        .position(|w| w.eq_ignore_ascii_case(NEEDLE))
}

/// Cuts the next frame from the input.
pub fn next_frame(input: &mut Input) -> Frame {
    let mut length: Option<usize> = None;
    let mut notes: Vec<String> = Vec::new();
    let mut in_header = false;
    loop {
        let Some((mut line, too_long)) = input.line() else {
            return if in_header {
                Frame::Note("the input ended inside a message header".to_owned())
            } else {
                Frame::End
            };
        };
        if line.is_empty() {
            if in_header {
                break;
            }
            continue;
        }
        // A header cut short by a frame whose length was too small, or glued to garbage.
        if let Some(at) = find_content_length(&line).filter(|&at| at > 0) {
            notes.push(format!(
                "skipped {at} bytes that were not part of any message"
            ));
            line.drain(..at);
        }
        let text = String::from_utf8_lossy(&line);
        let header = (!too_long).then(|| text.split_once(':')).flatten();
        let Some((name, value)) = header.filter(|(name, _)| is_token(name.trim())) else {
            notes.push(format!(
                "skipped a line that is not a message header: {}",
                shorten(&text)
            ));
            if !in_header {
                // Garbage between frames: report it now rather than with the next frame.
                return Frame::Note(notes.join("; "));
            }
            continue;
        };
        in_header = true;
        if name.trim().eq_ignore_ascii_case("content-length") {
            match value.trim().parse::<usize>() {
                Ok(n) if length.is_some_and(|l| l != n) => notes.push(format!(
                    "a second Content-Length ({n}) differs from the first ({}); the first counts",
                    length.unwrap_or(0)
                )),
                Ok(n) => length = Some(n),
                Err(_) => notes.push(format!(
                    "a Content-Length that is not a byte count: {}",
                    shorten(value.trim())
                )),
            }
        }
    }
    let Some(length) = length else {
        notes.push("a message without a Content-Length header was skipped".to_owned());
        return Frame::Dropped {
            reply: None,
            report: notes.join("; "),
        };
    };
    if length == 0 {
        return Frame::Note(join(notes, "an empty message was ignored"));
    }
    if length > MAX_FRAME {
        let whole = input.skip(length);
        let what = if whole {
            format!("a message of {length} bytes, over the limit of {MAX_FRAME}, was skipped")
        } else {
            format!("a message of {length} bytes, over the limit of {MAX_FRAME}, was skipped; the input ended inside it")
        };
        return Frame::Dropped {
            reply: None,
            report: join(notes, &what),
        };
    }
    let (mut body, complete) = input.body(length);
    if !complete {
        notes.push(format!(
            "Content-Length said {length} bytes but {} arrived",
            body.len()
        ));
    }
    if let Some(at) = find_content_length(&body) {
        if serde_json::from_slice::<serde::de::IgnoredAny>(&body).is_err() {
            notes.push(format!(
                "Content-Length said {length} bytes but the next message began after {at}"
            ));
            input.unread(&body[at..]);
            body.truncate(at);
        }
    }
    let frame = check_body(body);
    match (frame, notes.is_empty()) {
        (frame, true) => frame,
        (Frame::Dropped { reply, report }, false) => Frame::Dropped {
            reply,
            report: join(notes, &report),
        },
        (frame @ Frame::Message { .. }, false) => {
            // The message goes on; the notes are reported once it has been handed over.
            let note = notes.join("; ");
            eprintln!("skillgraph lsp: {note}");
            frame
        }
        (frame, false) => frame,
    }
}

fn join(mut notes: Vec<String>, last: &str) -> String {
    notes.push(last.to_owned());
    notes.join("; ")
}

fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn shorten(text: &str) -> String {
    let mut short: String = text.chars().take(60).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

/// Checks a body: UTF-8, JSON, a JSON-RPC message. Lone surrogate escapes become U+FFFD.
pub fn check_body(body: Vec<u8>) -> Frame {
    let text = match String::from_utf8(body) {
        Ok(text) => text,
        Err(error) => {
            let lossy = String::from_utf8_lossy(error.as_bytes()).into_owned();
            return Frame::Dropped {
                reply: recover_id(&lossy)
                    .map(|id| error_response(id, -32700, "the message is not UTF-8")),
                report: format!(
                    "a message that is not UTF-8 (at byte {}) was skipped",
                    error.utf8_error().valid_up_to()
                ),
            };
        }
    };
    let text = replace_lone_surrogates(text);
    let value: Value = match serde_json::from_str(&text) {
        Ok(value) => value,
        Err(error) => {
            let message = format!("the message is not JSON: {error}");
            return Frame::Dropped {
                reply: recover_id(&text).map(|id| error_response(id, -32700, &message)),
                report: message,
            };
        }
    };
    check_message(value, text)
}

/// A JSON value that tower will accept as a request, notification or response.
fn check_message(mut value: Value, text: String) -> Frame {
    let Some(object) = value.as_object_mut() else {
        return Frame::Dropped {
            reply: None,
            report: "a message that is not a JSON object was skipped (batches are not part of LSP)"
                .to_owned(),
        };
    };
    let id = object.get("id").cloned();
    let id_ok = id
        .as_ref()
        .is_none_or(|id| id.is_string() || id.is_null() || id.as_i64().is_some());
    let invalid = |what: &str| {
        let report = format!("an invalid JSON-RPC message was skipped: {what}");
        // An id that is there but cannot be one (`1.5`, `{}`, `true`, past 2^63) is answered
        // with a null id, as JSON-RPC 2.0 asks when the id cannot be read.
        let reply_to = match &id {
            Some(id) if id_ok && !id.is_null() => Some(id.clone()),
            Some(id) if !id_ok => Some(Value::Null),
            _ => None,
        };
        Frame::Dropped {
            reply: reply_to.map(|id| error_response(id, -32600, &report)),
            report,
        }
    };
    if !id_ok {
        return invalid("its id is neither a number nor a string");
    }
    let mut changed = false;
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        // Lenient on the version tag: the message is otherwise understood.
        object.insert("jsonrpc".to_owned(), json!("2.0"));
        changed = true;
    }
    let exit;
    match object.get("method") {
        Some(Value::String(method)) => {
            exit = method == "exit";
            if object.get("params").is_some_and(Value::is_null) {
                object.remove("params");
                changed = true;
            }
        }
        Some(_) => return invalid("its method is not a string"),
        None => {
            exit = false;
            let has_result = object.contains_key("result");
            let has_error = object.contains_key("error");
            if id.is_none() || has_result == has_error {
                return invalid("neither a request, a notification nor a response");
            }
            if has_error {
                let error = &object["error"];
                if !(error.get("code").is_some_and(|c| c.as_i64().is_some())
                    && error.get("message").is_some_and(Value::is_string))
                {
                    // A malformed error from the client still settles its request.
                    object.insert(
                        "error".to_owned(),
                        json!({"code": -32603, "message": error.to_string()}),
                    );
                    changed = true;
                }
            }
        }
    }
    let body = if changed {
        serde_json::to_vec(&value).unwrap_or_default()
    } else {
        text.into_bytes()
    };
    Frame::Message { body, exit }
}

pub fn error_response(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The id of a body that does not parse: the first `"id": <number or string>` outside a string.
fn recover_id(text: &str) -> Option<Value> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = text[from..].find("\"id\"").map(|i| i + from) {
        from = at + 4;
        if at > 0 && bytes[at - 1] == b'\\' {
            continue; // an escaped quote: inside a string
        }
        let rest = text[from..].trim_start();
        let Some(rest) = rest.strip_prefix(':') else {
            continue;
        };
        let rest = rest.trim_start();
        if let Some(stripped) = rest.strip_prefix('"') {
            let end = stripped.find(['"', '\\'])?;
            if stripped.as_bytes()[end] == b'"' {
                return Some(Value::String(stripped[..end].to_owned()));
            }
            return None;
        }
        let digits: String = rest
            .chars()
            .enumerate()
            .take_while(|&(i, c)| c.is_ascii_digit() || (i == 0 && c == '-'))
            .map(|(_, c)| c)
            .collect();
        return digits.parse::<i64>().ok().map(Value::from);
    }
    None
}

/// `\uD800`–`\uDFFF` escapes not part of a valid pair become `\uFFFD`, which serde_json would
/// otherwise refuse. Other text is left as it is.
fn replace_lone_surrogates(text: String) -> String {
    if !text.contains("\\u") && !text.contains("\\U") {
        return text;
    }
    let bytes = text.as_bytes();
    let hex = |at: usize| -> Option<u32> {
        let digits = bytes.get(at..at + 4)?;
        u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    let escape_at = |at: usize| -> Option<u32> {
        (bytes.get(at) == Some(&b'\\') && bytes.get(at + 1) == Some(&b'u'))
            .then(|| hex(at + 2))
            .flatten()
    };
    let mut out: Option<Vec<u8>> = None;
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let Some(unit) = escape_at(i) else {
            i += 2; // any other escape, `\\` included, is copied as it is
            continue;
        };
        let lone = match unit {
            0xD800..=0xDBFF => match escape_at(i + 6) {
                Some(0xDC00..=0xDFFF) => {
                    i += 12;
                    continue;
                }
                _ => true,
            },
            0xDC00..=0xDFFF => true,
            _ => false,
        };
        if lone {
            let out = out.get_or_insert_with(|| Vec::with_capacity(bytes.len()));
            out.extend_from_slice(&bytes[copied..i]);
            out.extend_from_slice(b"\\uFFFD");
            copied = i + 6;
        }
        i += 6;
    }
    match out {
        None => text,
        Some(mut out) => {
            out.extend_from_slice(&bytes[copied.min(bytes.len())..]);
            String::from_utf8(out).unwrap_or(text)
        }
    }
}

fn frame_bytes(body: &[u8]) -> Vec<u8> {
    let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    frame.extend_from_slice(body);
    frame
}

fn report_message(report: &str) -> Vec<u8> {
    let message = json!({
        "jsonrpc": "2.0",
        "method": "window/logMessage",
        "params": {"type": 2, "message": format!("skillgraph: {report}")},
    });
    frame_bytes(&serde_json::to_vec(&message).unwrap_or_default())
}

/// Serves the protocol on stdin/stdout until the client says `exit` or closes its side.
/// `ending` is notified when the input has ended or `exit` came; the caller then gives pending
/// work [`GRACE`] to finish.
pub(super) async fn serve(
    service: LspService<Backend>,
    socket: ClientSocket,
    ending: super::lifetime::Ending,
) {
    let (to_tower, tower_input) = tokio::io::duplex(1 << 20);
    let (tower_output, from_tower) = tokio::io::duplex(1 << 20);
    let (out_tx, out_rx) = mpsc::channel::<Vec<u8>>(64);

    // stdin -> frames, on a thread of its own.
    let (frames_tx, frames_rx) = mpsc::channel::<Frame>(64);
    let input_ending = ending.clone();
    std::thread::spawn(move || {
        let mut input = Input::stdin();
        loop {
            let frame = next_frame(&mut input);
            let end = frame == Frame::End;
            // Seen here, on the reading thread, so the end begins even while every worker of
            // the runtime is busy.
            if end || matches!(frame, Frame::Message { exit: true, .. }) {
                input_ending.begin();
            }
            if frames_tx.blocking_send(frame).is_err() || end {
                break;
            }
        }
    });

    tokio::spawn(forward_frames(
        frames_rx,
        to_tower,
        out_tx.clone(),
        ending.clone(),
    ));
    tokio::spawn(relay_tower_output(from_tower, out_tx));
    std::thread::spawn(move || write_stdout(out_rx, ending));
    Server::new(tower_input, tower_output, socket)
        .concurrency_level(32)
        .serve(service)
        .await;
}

/// Hands checked messages to tower and answers or reports the dropped ones.
async fn forward_frames(
    mut frames: mpsc::Receiver<Frame>,
    mut to_tower: tokio::io::DuplexStream,
    out: mpsc::Sender<Vec<u8>>,
    ending: super::lifetime::Ending,
) {
    while let Some(frame) = frames.recv().await {
        match frame {
            // An `exit` began the end already, on the reading thread.
            Frame::Message { body, .. } => {
                if to_tower.write_all(&frame_bytes(&body)).await.is_err() {
                    break;
                }
            }
            Frame::Dropped { reply, report } => {
                eprintln!("skillgraph lsp: {report}");
                if let Some(reply) = reply {
                    let body = serde_json::to_vec(&reply).unwrap_or_default();
                    let _ = out.send(frame_bytes(&body)).await;
                }
                let _ = out.send(report_message(&report)).await;
            }
            Frame::Note(note) => {
                eprintln!("skillgraph lsp: {note}");
                let _ = out.send(report_message(&note)).await;
            }
            Frame::End => break,
        }
    }
    // Dropping the pipe ends tower's input.
    drop(to_tower);
    ending.begin();
}

/// Tower writes well-formed frames; they are cut apart again so the server's own answers to
/// dropped frames go out between them, never inside one.
async fn relay_tower_output(from_tower: tokio::io::DuplexStream, out: mpsc::Sender<Vec<u8>>) {
    let mut reader = BufReader::new(from_tower);
    loop {
        let mut length = None;
        loop {
            let mut line = String::new();
            match reader.read_line(&mut line).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse::<usize>().ok();
                }
            }
        }
        let Some(length) = length else {
            continue;
        };
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).await.is_err() {
            return;
        }
        if out.send(frame_bytes(&body)).await.is_err() {
            return;
        }
    }
}

/// Writes frames to stdout on a thread of its own, flushing once per burst: a burst of
/// diagnostics (the initial indexing of ten thousand files) is one flush, not ten thousand.
fn write_stdout(mut out: mpsc::Receiver<Vec<u8>>, ending: super::lifetime::Ending) {
    use std::io::Write;
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    while let Some(frame) = out.blocking_recv() {
        let mut written = stdout.write_all(&frame);
        while written.is_ok() {
            match out.try_recv() {
                Ok(frame) => written = stdout.write_all(&frame),
                Err(_) => break,
            }
        }
        if written.and_then(|_| stdout.flush()).is_err() {
            // The editor no longer reads: nothing more to do for it.
            ending.begin();
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(bytes: &[u8]) -> Vec<Frame> {
        let (tx, rx) = std_mpsc::sync_channel(1024);
        tx.send(bytes.to_vec()).unwrap();
        drop(tx);
        let mut input = Input::new(rx);
        let mut frames = Vec::new();
        loop {
            let frame = next_frame(&mut input);
            if frame == Frame::End {
                return frames;
            }
            frames.push(frame);
        }
    }

    fn message(body: &str) -> Frame {
        Frame::Message {
            body: body.as_bytes().to_vec(),
            exit: false,
        }
    }

    const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn headers_in_any_case_with_content_type_and_bare_newlines() {
        let input = format!(
            "content-length: {}\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\n{PING}",
            PING.len()
        );
        assert_eq!(frames(input.as_bytes()), vec![message(PING)]);
    }

    #[test]
    fn an_empty_frame_is_noted_and_the_next_one_follows() {
        let input = format!("Content-Length: 0\r\n\r\n{}", framed(PING));
        let got = frames(input.as_bytes());
        assert!(matches!(&got[0], Frame::Note(n) if n.contains("empty")));
        assert_eq!(got[1], message(PING));
    }

    #[test]
    fn a_short_length_is_recovered_at_the_next_header() {
        let input = format!("Content-Length: 10\r\n\r\n{PING}{}", framed(PING));
        let got = frames(input.as_bytes());
        assert!(
            matches!(&got[0], Frame::Dropped { reply: None, .. }),
            "{got:?}"
        );
        assert_eq!(got.last(), Some(&message(PING)), "{got:?}");
    }

    #[test]
    fn a_long_length_is_cut_at_the_next_header() {
        let input = format!("Content-Length: 60\r\n\r\n{PING}{}", framed(PING));
        let got = frames(input.as_bytes());
        assert_eq!(got, vec![message(PING), message(PING)]);
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        let body = r#"{"jsonrpc":"2.0","method":"m","params":{"a":"\ud83d","b":"\ud83d\ude80","c":"\\ud83d","d":"\udc00x"}}"#;
        let Frame::Message { body, .. } = check_body(body.as_bytes().to_vec()) else {
            panic!("a message expected");
        };
        let value: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(value["params"]["a"], "\u{FFFD}");
        assert_eq!(value["params"]["b"], "🚀");
        assert_eq!(value["params"]["c"], "\\ud83d");
        assert_eq!(value["params"]["d"], "\u{FFFD}x");
    }

    #[test]
    fn bodies_that_are_not_json_answer_with_the_recovered_id() {
        let Frame::Dropped { reply, .. } =
            check_body(br#"{"jsonrpc":"2.0","id":7,"method":"#.to_vec())
        else {
            panic!("dropped expected");
        };
        assert_eq!(reply.unwrap()["error"]["code"], -32700);
        let Frame::Dropped { reply, .. } = check_body(b"\xff\xfe{\"id\":\"x\"}".to_vec()) else {
            panic!("dropped expected");
        };
        assert_eq!(reply.unwrap()["id"], "x");
        let Frame::Dropped { reply, .. } = check_body(b"not json".to_vec()) else {
            panic!("dropped expected");
        };
        assert_eq!(reply, None);
    }

    #[test]
    fn messages_that_are_not_json_rpc_are_refused() {
        for (body, code) in [
            (r#"{"id":3,"method":5}"#, Some(-32600)),
            (r#"{"id":3}"#, Some(-32600)),
            (r#"[1,2]"#, None),
            // An id that cannot be one is answered with a null id (JSON-RPC 2.0, "Invalid
            // Request"), so the client sees the refusal.
            (r#"{"id":{"a":1},"method":"x"}"#, Some(-32600)),
        ] {
            let Frame::Dropped { reply, .. } = check_body(body.as_bytes().to_vec()) else {
                panic!("{body} dropped expected");
            };
            assert_eq!(
                reply.map(|r| r["error"]["code"].clone()),
                code.map(Value::from),
                "{body}"
            );
        }
        let Frame::Dropped { reply, .. } = check_body(br#"{"id":1.5,"method":"x"}"#.to_vec())
        else {
            panic!("dropped expected");
        };
        assert_eq!(reply.unwrap()["id"], Value::Null);
        let Frame::Message { body, exit } = check_body(br#"{"method":"exit"}"#.to_vec()) else {
            panic!("a message expected");
        };
        assert!(exit);
        let value: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(value["jsonrpc"], "2.0");
    }

    #[test]
    fn oversized_frames_are_skipped_without_reading_them_whole() {
        let mut input = format!("Content-Length: {}\r\n\r\n", MAX_FRAME + 1).into_bytes();
        input.extend(std::iter::repeat_n(b'x', MAX_FRAME + 1));
        input.extend(framed(PING).bytes());
        let got = frames(&input);
        assert!(
            matches!(&got[0], Frame::Dropped { report, .. } if report.contains("over the limit"))
        );
        assert_eq!(got[1], message(PING));
    }

    #[test]
    fn garbage_and_missing_lengths_are_reported_and_skipped() {
        let input = format!(
            "hello there\r\nX-Foo: bar\r\n\r\n{}Content-Length: abc\r\n\r\n{}",
            framed(PING),
            framed(PING)
        );
        let got = frames(input.as_bytes());
        assert!(
            matches!(&got[0], Frame::Note(n) if n.contains("not a message header")),
            "{got:?}"
        );
        assert!(got.contains(&message(PING)), "{got:?}");
    }
}
