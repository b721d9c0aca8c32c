//! Multi-file fixtures for the IDE tests: `//- /path` starts a file, `$0` marks the cursor.

use std::path::PathBuf;

use crate::diagnostic::FileId;
use crate::index::{Change, Index};

pub(crate) struct Fixture {
    pub index: Index,
    pub cursor_file: FileId,
    pub offset: u32,
}

pub(crate) fn fixture(text: &str) -> Fixture {
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if let Some(path) = line.strip_prefix("//- ") {
            files.push((PathBuf::from(path.trim()), String::new()));
        } else if let Some((_, body)) = files.last_mut() {
            body.push_str(line);
        }
    }
    let mut cursor = None;
    let changes = files
        .into_iter()
        .map(|(path, mut body)| {
            if let Some(at) = body.find("$0") {
                body.replace_range(at..at + 2, "");
                cursor = Some((path.clone(), at as u32));
            }
            Change::Set { path, text: body }
        })
        .collect();
    let mut index = Index::new();
    index.apply(changes);
    let (path, offset) = cursor.expect("the fixture marks a cursor with $0");
    Fixture {
        cursor_file: index.file_id(&path).expect("cursor file indexed"),
        index,
        offset,
    }
}
