//! Cutting the byte stream into frames: `Content-Length` headers and the bodies they delimit,
//! with every way a client gets them wrong answered by skipping as little as possible.
//!
//! What a frame may be, and what becomes of it:
//! - Header lines are `Name: value`, names in any case, ended by CRLF, LF or a lone CR; blank
//!   lines between frames are skipped; `Content-Type` and unknown headers are ignored; a line
//!   that is not a header is skipped and reported (a run of them, once), and a
//!   `Content-Length:` inside such a line starts a header again (a frame whose length was too
//!   short leaves the next frame's header mid-line). A body that begins (`{` or `[`) where the
//!   blank line ending the header should be ends the header.
//! - A frame without `Content-Length` is reported; its body cannot be delimited, so the bytes up to
//!   the next header are skipped as non-header lines. Two different lengths: the first counts.
//!   A length that is not a byte count (`-5`, `0x10`, past 2^64) counts as none.
//! - `Content-Length: 0` is ignored at once. A length over [`MAX_FRAME`] (64 MiB) is skipped
//!   without being held in memory, and reported; the skipping stops early at the next frame's
//!   header or when the bytes stop arriving for [`STALL`], so a length that lies cannot swallow
//!   the messages behind it.
//! - A body that stops arriving for [`STALL`] is taken as it is (a length larger than the body);
//!   a body that holds the next frame's header is cut there and the rest read as the next
//!   frame. The header is recognised by `Content-Length:`, digits and a line end: raw line ends
//!   cannot appear in JSON strings nor `Content-Length` outside them, so no valid body holds
//!   that sequence.
//! - The body then goes to [`super::message::check_body`].
//! - Reported means: written to stderr and sent to the client as `window/logMessage`; the
//!   reports of one frame are capped at [`MAX_NOTES`].

use std::io::Read;
use std::sync::mpsc as std_mpsc;
use std::time::Duration;

use super::message::{check_body, Frame};

/// The largest frame read; larger ones are skipped.
pub const MAX_FRAME: usize = 64 << 20;
/// How long a body may stop arriving before it is taken as complete.
pub const STALL: Duration = Duration::from_secs(1);
/// The longest header line kept; longer ones are garbage.
const MAX_HEADER_LINE: usize = 8 << 10;
/// The most problems reported for one frame; the rest are counted.
const MAX_NOTES: usize = 8;
/// The longest `Content-Length: <digits>\r` a frame start can be, for searches across chunks.
const FRAME_START_SPAN: usize = 64;

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
        self.more(stall)
    }

    /// Appends the next chunk to what is buffered; `stall` bounds the wait.
    fn more(&mut self, stall: Option<Duration>) -> Fill {
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

    /// Whether bytes are at hand without waiting.
    fn has_buffered(&mut self) -> bool {
        if self.pos < self.buf.len() {
            return true;
        }
        match self.chunks.try_recv() {
            Ok(chunk) => {
                self.buf.clear();
                self.pos = 0;
                self.buf.extend_from_slice(&chunk);
                true
            }
            Err(_) => false,
        }
    }

    /// The next byte, without taking it; `None` at the end of input.
    fn peek(&mut self) -> Option<u8> {
        match self.fill(None) {
            Fill::Data => self.available().first().copied(),
            Fill::Stalled | Fill::Ended => None,
        }
    }

    /// One line without its terminator (CRLF, LF or a lone CR); `None` at the end of input.
    /// Lines longer than `MAX_HEADER_LINE` come back truncated, flagged `true`.
    fn line(&mut self) -> Option<(Vec<u8>, bool)> {
        let mut line = Vec::new();
        let mut too_long = false;
        loop {
            if let Fill::Ended = self.fill(None) {
                return (!line.is_empty()).then_some((line, too_long));
            }
            let available = self.available();
            let (taken, end) = match available.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(at) => (at, Some(available[at])),
                None => (available.len(), None),
            };
            let room = MAX_HEADER_LINE.saturating_sub(line.len());
            too_long |= taken > room;
            line.extend_from_slice(&available[..taken.min(room)]);
            self.pos += taken;
            match end {
                None => continue,
                Some(b'\r') => {
                    self.pos += 1;
                    // CRLF is one line end; a CR alone is one too.
                    if self.peek() == Some(b'\n') {
                        self.pos += 1;
                    }
                }
                Some(_) => self.pos += 1,
            }
            return Some((line, too_long));
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

    /// Skips up to `length` bytes without keeping them, stopping early before the next frame's
    /// header, or when the input stalls or ends.
    fn skip(&mut self, mut length: usize) -> Skipped {
        while length > 0 {
            match self.fill(Some(STALL)) {
                Fill::Data => {}
                Fill::Stalled => return Skipped::Stalled,
                Fill::Ended => return Skipped::Ended,
            }
            // A header cut between two chunks is looked for again once the next one is here.
            if self.available().len() < FRAME_START_SPAN && length > self.available().len() {
                match self.more(Some(STALL)) {
                    Fill::Data => continue,
                    Fill::Stalled | Fill::Ended => {}
                }
            }
            let window = &self.available()[..self.available().len().min(length)];
            if let Some(at) = find_frame_start(window) {
                self.pos += at;
                return Skipped::NextFrame;
            }
            let taken = if window.len() < self.available().len() || self.ended {
                window.len()
            } else {
                // Keep the tail: it may be the start of a header that the next chunk ends.
                window.len().saturating_sub(FRAME_START_SPAN).max(1)
            };
            self.pos += taken;
            length -= taken;
        }
        Skipped::Whole
    }

    /// Puts bytes back in front of the input.
    fn unread(&mut self, bytes: &[u8]) {
        let mut buf = bytes.to_vec();
        buf.extend_from_slice(self.available());
        self.buf = buf;
        self.pos = 0;
    }
}

/// How the skipping of an oversized frame ended.
enum Skipped {
    Whole,
    NextFrame,
    Stalled,
    Ended,
}

/// Where `Content-Length:` starts in `bytes`, in any case.
fn find_content_length(bytes: &[u8]) -> Option<usize> {
    const NEEDLE: &[u8] = b"content-length:";
    bytes
        .windows(NEEDLE.len())
        .position(|w| w.eq_ignore_ascii_case(NEEDLE))
}

/// Where a frame's header starts in `bytes`: `Content-Length:`, blanks, digits, blanks and a
/// line end, a sequence no valid JSON body holds (see the module's comment).
fn find_frame_start(bytes: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = find_content_length(&bytes[from..]).map(|at| at + from) {
        let rest = &bytes[at + "content-length:".len()..];
        let blanks = |s: &[u8]| s.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
        let mut i = blanks(rest);
        let digits = rest[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        i += digits;
        i += blanks(&rest[i..]);
        if digits > 0 && matches!(rest.get(i), Some(b'\r' | b'\n')) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// A frame's problems, at most [`MAX_NOTES`] of them spelled out.
#[derive(Default)]
struct Notes {
    spelled: Vec<String>,
    more: usize,
}

impl Notes {
    fn push(&mut self, note: String) {
        if self.spelled.len() < MAX_NOTES {
            self.spelled.push(note);
        } else {
            self.more += 1;
        }
    }

    fn is_empty(&self) -> bool {
        self.spelled.is_empty()
    }

    /// The notes as one report, ending with `last`.
    fn with(mut self, last: &str) -> String {
        self.spelled.push(last.to_owned());
        self.to_string()
    }
}

impl std::fmt::Display for Notes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.spelled.join("; "))?;
        match self.more {
            0 => Ok(()),
            n => write!(f, "; and {n} more problems"),
        }
    }
}

/// Cuts the next frame from the input.
pub fn next_frame(input: &mut Input) -> Frame {
    let mut length: Option<usize> = None;
    let mut notes = Notes::default();
    let mut in_header = false;
    let mut garbage_lines = 0usize;
    loop {
        // A body where the blank line ending the header should be: the header has ended.
        if in_header && length.is_some() && matches!(input.peek(), Some(b'{' | b'[')) {
            notes.push("the message header did not end with a blank line".to_owned());
            break;
        }
        let Some((mut line, too_long)) = input.line() else {
            return if in_header {
                Frame::Note(notes.with("the input ended inside a message header"))
            } else if garbage_lines > 0 {
                Frame::Note(notes.to_string())
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
            garbage_lines += 1;
            if garbage_lines == 1 || in_header {
                notes.push(format!(
                    "skipped a line that is not a message header: {}",
                    shorten(&text)
                ));
            }
            if !in_header && !input.has_buffered() {
                // Garbage between frames: report it now rather than with the next frame, once
                // for the lines that came together.
                if garbage_lines > 1 {
                    notes.push(format!("{} such lines in all", garbage_lines));
                }
                return Frame::Note(notes.to_string());
            }
            continue;
        };
        if !in_header && garbage_lines > 0 {
            // The garbage before this header is reported on its own, the header read again.
            let mut again = line;
            again.extend_from_slice(b"\r\n");
            input.unread(&again);
            if garbage_lines > 1 {
                notes.push(format!("{garbage_lines} such lines in all"));
            }
            return Frame::Note(notes.to_string());
        }
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
        return Frame::Dropped {
            replies: Vec::new(),
            report: notes.with("a message without a Content-Length header was skipped"),
        };
    };
    if length == 0 {
        return Frame::Note(notes.with("an empty message was ignored"));
    }
    if length > MAX_FRAME {
        let over =
            format!("a message of {length} bytes, over the limit of {MAX_FRAME}, was skipped");
        let how = match input.skip(length) {
            Skipped::Whole => over,
            Skipped::NextFrame => format!("{over}; the next message began inside it"),
            Skipped::Stalled => format!("{over}; its bytes stopped arriving"),
            Skipped::Ended => format!("{over}; the input ended inside it"),
        };
        return Frame::Dropped {
            replies: Vec::new(),
            report: notes.with(&how),
        };
    }
    let (mut body, complete) = input.body(length);
    if !complete {
        notes.push(format!(
            "Content-Length said {length} bytes but {} arrived",
            body.len()
        ));
    }
    if let Some(at) = find_frame_start(&body) {
        notes.push(format!(
            "Content-Length said {length} bytes but the next message began after {at}"
        ));
        input.unread(&body[at..]);
        body.truncate(at);
    }
    match (check_body(body), notes.is_empty()) {
        (frame, true) => frame,
        (Frame::Dropped { replies, report }, false) => Frame::Dropped {
            replies,
            report: notes.with(&report),
        },
        (frame @ Frame::Message { .. }, false) => {
            // The message goes on; the notes are reported once it has been handed over.
            eprintln!("skillgraph lsp: {notes}");
            frame
        }
        (frame, false) => frame,
    }
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

    /// The message tower is handed for `body`: the same members, written out again.
    fn message(body: &str) -> Frame {
        let value: serde_json::Value = serde_json::from_str(body).unwrap();
        Frame::Message {
            body: serde_json::to_vec(&value).unwrap(),
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
            matches!(&got[0], Frame::Dropped { replies, .. } if replies.is_empty()),
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

    #[test]
    fn a_lone_carriage_return_ends_a_header_line() {
        let input = format!("Content-Length: {}\r\r{PING}{}", PING.len(), framed(PING));
        assert_eq!(frames(input.as_bytes()), vec![message(PING), message(PING)]);
    }

    #[test]
    fn a_header_without_its_blank_line_ends_where_the_body_begins() {
        let input = format!("Content-Length: {}\r\n{PING}{}", PING.len(), framed(PING));
        assert_eq!(frames(input.as_bytes()), vec![message(PING), message(PING)]);
    }

    #[test]
    fn an_oversized_length_that_lies_stops_at_the_next_header() {
        let input = format!(
            "Content-Length: {}\r\n\r\n{PING}{}",
            MAX_FRAME * 4,
            framed(PING)
        );
        let got = frames(input.as_bytes());
        assert!(
            matches!(&got[0], Frame::Dropped { report, .. } if report.contains("began inside it")),
            "{got:?}"
        );
        assert_eq!(got[1..], [message(PING)]);
    }

    #[test]
    fn an_oversized_frame_cut_by_chunks_still_ends_at_the_next_header() {
        // The next header arrives split across two chunks, inside the skipped frame.
        let (tx, rx) = std_mpsc::sync_channel(16);
        let header = format!("Content-Length: {}\r\n\r\n", MAX_FRAME + 1);
        let next = framed(PING);
        let (first, second) = next.split_at(9);
        tx.send(format!("{header}{}{first}", "x".repeat(200)).into_bytes())
            .unwrap();
        tx.send(second.as_bytes().to_vec()).unwrap();
        drop(tx);
        let mut input = Input::new(rx);
        assert!(matches!(next_frame(&mut input), Frame::Dropped { .. }));
        assert_eq!(next_frame(&mut input), message(PING));
        assert_eq!(next_frame(&mut input), Frame::End);
    }

    #[test]
    fn a_run_of_garbage_is_one_report_and_a_frame_reports_at_most_a_few_problems() {
        let garbage = "not a header\n".repeat(10_000);
        let got = frames(format!("{garbage}{}", framed(PING)).as_bytes());
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(
            matches!(&got[0], Frame::Note(n) if n.contains("10000 such lines")),
            "{got:?}"
        );
        let header_garbage = "x\n".repeat(10_000);
        let input = format!("Content-Length: 8\r\n{header_garbage}\r\nnot json");
        let got = frames(input.as_bytes());
        let Frame::Dropped { report, .. } = &got[0] else {
            panic!("{got:?}");
        };
        assert!(
            report.len() < 2_000 && report.contains("more problems"),
            "{report}"
        );
    }
}
