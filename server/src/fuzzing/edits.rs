//! Edits: a workspace edited step by step, the incremental index compared after every step with
//! a fresh check of the same files (`testing::Replay`).
//!
//! Input: steps separated by lines `//= `. Within a step:
//! - `//- /path` sets the file to the text that follows (the first step is a lenient fixture);
//! - `//x /path` removes the file;
//! - `//~ /path START END` replaces bytes `START..END` of the file's current text with the text
//!   that follows (offsets clamped to the text and moved back to a character's start), as an
//!   editor's keystroke does;
//! - `//> /from /to` renames a file (removed and added in one batch, as editors report it).
//!
//! Each step is one batch. At most [`MAX_STEPS`] steps.
//!
//! Property: after every step the incremental index reports exactly what a fresh index of the
//! same files reports (every diagnostic, its range, message and related locations).

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::{sections, text_of, tree_path, MAX_FILES};
use crate::index::Change;
use crate::testing::Replay;

/// Most steps replayed.
pub const MAX_STEPS: usize = 12;

pub fn edits(data: &[u8]) {
    let text = text_of(data);
    let mut files: BTreeMap<PathBuf, String> = BTreeMap::new();
    let mut replay = Replay::new();
    for (n, step) in text.split("\n//= ").take(MAX_STEPS).enumerate() {
        // A step's first line may be a directive: put back the newline `split` took.
        let step = format!("\n{step}");
        let mut changes = Vec::new();
        for (marker, line, body) in sections(&step, &["//- ", "//x ", "//~ ", "//> "]) {
            let mut words = line.split_whitespace();
            let Some(path) = words.next().and_then(tree_path) else {
                continue;
            };
            match marker {
                "//- " if files.contains_key(&path) || files.len() < MAX_FILES => {
                    files.insert(path.clone(), body.clone());
                    changes.push(Change::Set {
                        path,
                        text: body.into(),
                    });
                }
                "//x " => {
                    files.remove(&path);
                    changes.push(Change::Remove { path });
                }
                "//~ " => {
                    let Some(current) = files.get_mut(&path) else {
                        continue;
                    };
                    let offset = |word: Option<&str>| {
                        let mut at = word
                            .and_then(|w| w.parse::<usize>().ok())
                            .unwrap_or(0)
                            .min(current.len());
                        while !current.is_char_boundary(at) {
                            at -= 1;
                        }
                        at
                    };
                    let (start, end) = (offset(words.next()), offset(words.next()));
                    let (start, end) = (start.min(end), start.max(end));
                    current.replace_range(start..end, &body);
                    changes.push(Change::Set {
                        path,
                        text: current.as_str().into(),
                    });
                }
                "//> " => {
                    let Some(to) = words.next().and_then(tree_path) else {
                        continue;
                    };
                    if to == path || files.contains_key(&to) {
                        continue;
                    }
                    let Some(moved) = files.remove(&path) else {
                        continue;
                    };
                    files.insert(to.clone(), moved.clone());
                    changes.push(Change::Remove { path });
                    changes.push(Change::Set {
                        path: to,
                        text: moved.into(),
                    });
                }
                _ => {}
            }
        }
        replay.apply(changes);
        replay.assert_consistent(&format!("step {n}"));
    }
}
