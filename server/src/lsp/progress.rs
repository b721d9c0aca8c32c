//! Work-done progress that never holds the work up. The token is asked for in the background;
//! the report begins when the client answers, and the work goes on whether it answers or not.
//! A client that answers only after the work is done still sees the report begin and end, with
//! the final message, so every client that grants a token sees its progress end.

use std::sync::Arc;

use tokio::sync::Mutex;
use tower_lsp_server::ls_types::NumberOrString;
use tower_lsp_server::{NotCancellable, OngoingProgress, Unbounded};

use super::state::lock;
use super::{Backend, CLIENT_ANSWER_WAIT};

/// A progress report, shown once the client grants its token.
pub(super) struct Report {
    slot: Arc<Mutex<Slot>>,
}

enum Slot {
    /// The client has not answered yet, and the work goes on.
    Asking,
    Shown(OngoingProgress<Unbounded, NotCancellable>),
    /// The work is done, with this final message.
    Done(String),
}

impl Backend {
    /// Starts asking for a progress token, when the client offers progress at all.
    pub(super) fn start_progress(&self, token: &str, message: &str) -> Option<Report> {
        if !lock(&self.state).offers.work_done_progress {
            return None;
        }
        let slot = Arc::new(Mutex::new(Slot::Asking));
        let client = self.client.clone();
        let asking = slot.clone();
        let token = NumberOrString::String(token.to_owned());
        let message = message.to_owned();
        tokio::spawn(async move {
            let created = tokio::time::timeout(
                CLIENT_ANSWER_WAIT,
                client.create_work_done_progress(token.clone()),
            )
            .await;
            if !matches!(created, Ok(Ok(()))) {
                return;
            }
            let mut slot = asking.lock().await;
            let progress = client.progress(token, "skillgraph");
            match &*slot {
                Slot::Asking => {
                    *slot = Slot::Shown(progress.with_message(message).begin().await);
                }
                Slot::Done(done) => {
                    let done = done.clone();
                    progress
                        .with_message(message)
                        .begin()
                        .await
                        .finish_with_message(done)
                        .await;
                }
                Slot::Shown(_) => {}
            }
        });
        Some(Report { slot })
    }
}

impl Report {
    /// Ends the report with `message` (at once when it is shown, else when the client answers).
    pub(super) async fn finish(self, message: String) {
        let mut slot = self.slot.lock().await;
        match std::mem::replace(&mut *slot, Slot::Done(message.clone())) {
            Slot::Shown(progress) => progress.finish_with_message(message).await,
            Slot::Asking | Slot::Done(_) => {}
        }
    }
}
