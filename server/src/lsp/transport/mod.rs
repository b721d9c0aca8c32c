//! The byte stream between the editor and the server, framed by us rather than by
//! tower-lsp-server: its reader stops for good at the first message it cannot decode, and one bad
//! message from an editor must cost that message, not the session.
//!
//! A thread reads stdin and cuts it into frames (`framing`); every body is checked and rebuilt
//! (`message`) before it is handed to tower through an in-memory pipe, so tower only ever sees
//! well-formed JSON-RPC messages written by us. Frames that are dropped are answered (-32700 /
//! -32600, to the id that could be recovered) and reported: written to stderr and sent to the
//! client as `window/logMessage`. tower's output is cut into frames again so those answers go
//! out between its frames, never inside one. A panic in a handler that escapes the handler's own
//! guard is answered as an internal error of that request (`CatchPanics`).
//!
//! The rule: no single message, whatever its bytes, ends the server or stops it reading, except
//! `exit`. The server ends on `exit` or at the end of input, within `lifetime::GRACE` whatever is
//! still pending.

mod framing;
mod message;

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};

use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tower_lsp_server::jsonrpc::{Error, Request, Response};
use tower_lsp_server::{ClientSocket, LspService, Server};
use tower_service::Service;

use super::lifetime::Ending;
use super::Backend;
pub use framing::{next_frame, Input};
pub use message::{check_body, Frame};

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
/// work `lifetime::GRACE` to finish.
pub(super) async fn serve(service: LspService<Backend>, socket: ClientSocket, ending: Ending) {
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
        .serve(CatchPanics(service))
        .await;
}

/// Hands checked messages to tower and answers or reports the dropped ones.
async fn forward_frames(
    mut frames: mpsc::Receiver<Frame>,
    mut to_tower: tokio::io::DuplexStream,
    out: mpsc::Sender<Vec<u8>>,
    ending: Ending,
) {
    while let Some(frame) = frames.recv().await {
        match frame {
            // An `exit` began the end already, on the reading thread.
            Frame::Message { body, .. } => {
                if to_tower.write_all(&frame_bytes(&body)).await.is_err() {
                    break;
                }
            }
            Frame::Dropped { replies, report } => {
                eprintln!("skillgraph lsp: {report}");
                for reply in replies {
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
fn write_stdout(mut out: mpsc::Receiver<Vec<u8>>, ending: Ending) {
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

/// tower-lsp-server's service, with a panic in any handler answered as an internal error of
/// that request (or, for a notification, only written to stderr) instead of unwinding through
/// tower's server, which would end the process. Each handler guards its own analysis; this is
/// the guard for everything around it.
struct CatchPanics(LspService<Backend>);

impl Service<Request> for CatchPanics {
    type Response = Option<Response>;
    type Error = tower_lsp_server::ExitedError;
    type Future = Guarded;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Guarded {
        let id = request.id().cloned();
        let method = request.method().to_owned();
        match std::panic::catch_unwind(AssertUnwindSafe(|| self.0.call(request))) {
            Ok(inner) => Guarded {
                inner: Some(inner),
                id,
                method,
            },
            Err(_) => Guarded {
                inner: None,
                id,
                method,
            },
        }
    }
}

type Answer = Result<Option<Response>, tower_lsp_server::ExitedError>;

/// A handler's future under [`CatchPanics`]; `inner` is `None` when the call itself panicked.
struct Guarded {
    inner: Option<Pin<Box<dyn Future<Output = Answer> + Send>>>,
    id: Option<tower_lsp_server::jsonrpc::Id>,
    method: String,
}

impl Future for Guarded {
    type Output = Answer;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Answer> {
        let this = &mut *self;
        let polled = match this.inner.as_mut() {
            Some(inner) => std::panic::catch_unwind(AssertUnwindSafe(|| inner.as_mut().poll(cx))),
            None => Err(Box::new("the call panicked") as Box<dyn std::any::Any + Send>),
        };
        match polled {
            Ok(poll) => poll,
            Err(_) => {
                this.inner = None;
                eprintln!(
                    "skillgraph lsp: {} panicked; the server goes on",
                    this.method
                );
                let mut error = Error::internal_error();
                error.message = format!("skillgraph: {} failed: a panic", this.method).into();
                Poll::Ready(Ok(this.id.take().map(|id| Response::from_error(id, error))))
            }
        }
    }
}
