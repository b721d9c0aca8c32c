//! `skillgraph mcp`: the engine for agents, over the Model Context Protocol on stdin/stdout
//! (the official Rust SDK, `rmcp`). It must not answer anything the other faces do not: each
//! tool calls what `check`, `cli` or `ide` already give, and knows no LSP type.
//!
//! - Tools (`tools`): `check`, `explain`, `graph`, `fixes`, each the answer a face already gives
//!   (`check --format json`, the hover, `skillgraph graph`, `check --diff`), bounded at about
//!   1 MB (`bounded`). They never write.
//! - Resources: each diagnostic code's documentation, `skillgraph://rules/<code>`, the text
//!   `docs/rules.md` is generated from (`rules::catalogue`).
//! - Roots (`roots`): the command's arguments; else the client's roots (`roots/list`); else the
//!   working directory. Nothing outside them is read.
//! - Life: the end of stdin ends the process within 2 s, whatever calls are running (a check
//!   runs on a blocking thread the runtime cannot stop, so the process does not wait for it).

mod bounded;
mod roots;
mod server;
mod tools;

use std::path::PathBuf;
use std::pin::Pin;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, ReadBuf};

pub use roots::Roots;

/// How long after its client goes away the process ends at the latest, calls in flight or not.
const GRACE_AFTER_END_OF_INPUT: Duration = Duration::from_secs(2);

/// Runs the MCP server on stdin/stdout until the client goes away. `roots` are the folders it
/// may read; none means the client's roots, else the working directory.
pub fn run(roots: Vec<PathBuf>) -> ExitCode {
    let fixed = if roots.is_empty() {
        None
    } else {
        match Roots::new(&roots) {
            Ok(roots) => Some(roots),
            Err(error) => {
                eprintln!("skillgraph mcp: {error}");
                return ExitCode::from(2);
            }
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("skillgraph mcp: cannot start: {error}");
            return ExitCode::from(2);
        }
    };
    let code = runtime.block_on(async {
        use rmcp::ServiceExt;
        let transport = (WatchedStdin::new(), tokio::io::stdout());
        match server::Server::new(fixed).serve(transport).await {
            Ok(running) => {
                let _ = running.waiting().await;
                0
            }
            Err(error) => {
                eprintln!("skillgraph mcp: {error}");
                1
            }
        }
    });
    // Calls may still run on blocking threads, and the runtime's read of stdin cannot be
    // cancelled: the client is gone, so the process ends here rather than waiting for them.
    std::process::exit(code)
}

/// Stdin that, once it ends (or fails), ends the process from a plain thread after
/// [`GRACE_AFTER_END_OF_INPUT`], whether or not the service winds down by then: a check
/// holding every worker cannot keep the process alive after its client is gone.
struct WatchedStdin {
    inner: tokio::io::Stdin,
    ended: AtomicBool,
}

impl WatchedStdin {
    fn new() -> WatchedStdin {
        WatchedStdin {
            inner: tokio::io::stdin(),
            ended: AtomicBool::new(false),
        }
    }

    fn end(&self) {
        if !self.ended.swap(true, Ordering::SeqCst) {
            std::thread::spawn(|| {
                std::thread::sleep(GRACE_AFTER_END_OF_INPUT);
                std::process::exit(0);
            });
        }
    }
}

impl AsyncRead for WatchedStdin {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let poll = Pin::new(&mut this.inner).poll_read(cx, buf);
        match &poll {
            Poll::Ready(Ok(())) if buf.filled().len() == before && buf.remaining() > 0 => {
                this.end()
            }
            Poll::Ready(Err(_)) => this.end(),
            _ => {}
        }
        poll
    }
}
