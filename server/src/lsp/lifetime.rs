//! Ending with the editor: the process named by `processId` in `initialize` is watched, and when
//! it is gone the server ends (as rust-analyzer and gopls do), so a crashed editor leaves no
//! orphan behind. Unix only (`kill(pid, 0)`); elsewhere the end of input is what ends the server.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Once};
use std::time::Duration;

use tokio::sync::Notify;

use super::Backend;

/// How long pending work may still run once the input has ended or `exit` came.
pub const GRACE: Duration = Duration::from_millis(500);

/// How long past [`GRACE`] the process may still take to end once the end
/// began, before a thread of its own ends it.
const STUCK: Duration = Duration::from_millis(1500);

/// The end of the server: once begun (`exit`, the end of input, stdout gone, the editor's
/// process gone), pending work gets [`GRACE`] on the runtime, and a thread of
/// its own ends the process [`STUCK`] later whatever the runtime is doing. The runtime's timers
/// run on its workers, so an analysis that keeps every worker busy could otherwise hold the
/// process long after its editor has gone.
#[derive(Clone)]
pub(crate) struct Ending {
    notify: Arc<Notify>,
    /// Set when `shutdown` came: the exit code is 0 then, else 1 (LSP).
    pub(crate) clean: Arc<AtomicBool>,
    armed: Arc<Once>,
}

impl Ending {
    pub(crate) fn new() -> Ending {
        Ending {
            notify: Arc::new(Notify::new()),
            clean: Arc::new(AtomicBool::new(false)),
            armed: Arc::new(Once::new()),
        }
    }

    /// Begins the end; callable from any thread, any number of times.
    pub(crate) fn begin(&self) {
        self.notify.notify_one();
        self.armed.call_once(|| {
            let clean = self.clean.clone();
            let limit = GRACE + STUCK;
            std::thread::spawn(move || {
                std::thread::sleep(limit);
                eprintln!("skillgraph lsp: still busy {limit:?} after the end began; ending now");
                std::process::exit(if clean.load(Ordering::SeqCst) { 0 } else { 1 });
            });
        });
    }

    /// Resolves once the end has begun.
    pub(crate) async fn begun(&self) {
        self.notify.notified().await;
    }
}

/// How often the editor's process is looked for.
const POLL: Duration = Duration::from_secs(2);

/// Whether process `pid` exists; `None` where this cannot be told.
pub fn process_exists(pid: u32) -> Option<bool> {
    #[cfg(unix)]
    {
        let pid = libc::pid_t::try_from(pid).ok()?;
        if pid <= 0 {
            return None;
        }
        // SAFETY: signal 0 sends nothing; it only checks that the process exists.
        let result = unsafe { libc::kill(pid, 0) };
        if result == 0 {
            return Some(true);
        }
        // EPERM: it exists, but belongs to someone else.
        Some(std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM))
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        None
    }
}

impl Backend {
    /// Ends the server once the editor's process is gone.
    pub(super) fn watch_editor_process(&self, pid: u32) {
        if process_exists(pid).is_none() {
            return;
        }
        let ending = self.ending.clone();
        // A thread, not a task: it must see the editor go even when every worker is busy.
        std::thread::spawn(move || loop {
            if process_exists(pid) == Some(false) {
                eprintln!("skillgraph lsp: the editor's process {pid} is gone; ending");
                ending.begin();
                return;
            }
            std::thread::sleep(POLL);
        });
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn this_process_exists_and_a_reaped_child_does_not() {
        assert_eq!(process_exists(std::process::id()), Some(true));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert_eq!(process_exists(pid), Some(false));
    }
}
