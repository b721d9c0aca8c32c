//! Ending with the editor: the process named by `processId` in `initialize` is watched, and when
//! it is gone the server ends (as rust-analyzer and gopls do), so a crashed editor leaves no
//! orphan behind. Unix only (`kill(pid, 0)`); elsewhere the end of input is what ends the server.

use std::time::Duration;

use super::Backend;

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
        tokio::spawn(async move {
            loop {
                if process_exists(pid) == Some(false) {
                    eprintln!("skillgraph lsp: the editor's process {pid} is gone; ending");
                    ending.notify_one();
                    return;
                }
                tokio::time::sleep(POLL).await;
            }
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
