//! Which settings a file's checks read. The walk to the nearest `skillgraph.toml` is the index's
//! (`Index::nearest_config_file`, one walk per folder, shared with the levels the index gives
//! diagnostics); what is added here is what the checks mean by "the config": that file, or where
//! there is none, the settings the editor sent.

use std::path::Path;

use crate::index::{Content, FileEntry, Lookup};
use crate::model::config::Config;

/// The settings the checks of the file at `path` read: the nearest `skillgraph.toml` above it
/// (with its file, for related locations and relative paths), else the editor's settings (no
/// file), else none. Every read is recorded, so a config appearing, changing or going away, or
/// the editor's settings changing, re-checks the file.
pub fn settings_for<'a>(
    lookup: &Lookup<'a>,
    path: &Path,
) -> Option<(Option<&'a FileEntry>, &'a Config)> {
    if let Some(entry) = lookup.nearest_config_file(path) {
        if let Content::Config(config) = &entry.parsed.content {
            return Some((Some(entry), config));
        }
    }
    lookup.editor_config().map(|config| (None, config))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::index::{Change, Checks, Index, Key, Settings};

    fn set(path: &str, text: &str) -> Change {
        Change::Set {
            path: PathBuf::from(path),
            text: text.into(),
        }
    }

    /// The path of the config file the settings come from (`None`: the editor's), with the keys
    /// the lookup recorded (sorted).
    fn answer(index: &Index, path: &str) -> (Option<Option<PathBuf>>, Vec<Key>) {
        let lookup = Lookup::new(index);
        let found = settings_for(&lookup, Path::new(path))
            .map(|(file, _)| file.map(|entry| entry.path.clone()));
        (found, lookup.into_reads())
    }

    fn sorted(mut keys: Vec<Key>) -> Vec<Key> {
        keys.sort();
        keys
    }

    fn config_key(dir: &str) -> Key {
        Key::Config {
            dir: PathBuf::from(dir),
        }
    }

    #[test]
    fn the_nearest_file_wins_and_its_folder_is_recorded() {
        let mut index = Index::new(&Checks::NONE);
        index.apply(vec![
            set("/r/skillgraph.toml", "[skill-md]\nstrict = true\n"),
            set("/r/a/b/SKILL.md", "---\nname: b\ndescription: d\n---\n"),
        ]);
        let (found, reads) = answer(&index, "/r/a/b/SKILL.md");
        assert_eq!(found, Some(Some(PathBuf::from("/r/skillgraph.toml"))));
        // One read, however deep the file: a config appearing below `/r` re-checks every file
        // below its own folder.
        assert_eq!(reads, sorted(vec![config_key("/r")]));
        // A config appearing nearer answers from then on, and the file is checked again.
        let b = index.file_id(Path::new("/r/a/b/SKILL.md")).unwrap();
        let affected = index.apply(vec![set("/r/a/skillgraph.toml", "")]);
        assert!(affected.contains(&b));
        let (found, reads) = answer(&index, "/r/a/b/SKILL.md");
        assert_eq!(found, Some(Some(PathBuf::from("/r/a/skillgraph.toml"))));
        assert_eq!(reads, sorted(vec![config_key("/r/a")]));
    }

    #[test]
    fn a_config_changing_rechecks_the_files_it_governs_and_no_others() {
        let mut index = Index::new(&Checks::NONE);
        let skill = "---\nname: s\ndescription: d\n---\n";
        index.apply(vec![
            set("/r/skillgraph.toml", ""),
            set("/r/a/skillgraph.toml", ""),
            set("/r/x/SKILL.md", skill),
            set("/r/a/b/SKILL.md", skill),
        ]);
        let id = |path: &str| index.file_id(Path::new(path)).unwrap();
        let (x, b) = (id("/r/x/SKILL.md"), id("/r/a/b/SKILL.md"));
        // `/r/a/skillgraph.toml` governs `b` whatever the outer one says.
        let affected = index.apply(vec![set(
            "/r/skillgraph.toml",
            "[skill-md]\nstrict = true\n",
        )]);
        assert!(affected.contains(&x));
        assert!(!affected.contains(&b));
        // With the nearer one gone, the outer one governs `b` again.
        let affected = index.apply(vec![Change::Remove {
            path: PathBuf::from("/r/a/skillgraph.toml"),
        }]);
        assert!(affected.contains(&b));
        assert!(!affected.contains(&x));
    }

    #[test]
    fn with_no_file_above_the_editor_settings_apply_and_without_them_nothing() {
        let mut index = Index::new(&Checks::NONE);
        index.apply(vec![set(
            "/r/a/SKILL.md",
            "---\nname: a\ndescription: d\n---\n",
        )]);
        let (found, reads) = answer(&index, "/r/a/SKILL.md");
        assert_eq!(found, None);
        assert_eq!(reads, sorted(vec![Key::EditorConfig]));
        index.set_settings(Settings {
            config: Some(Config::default()),
            ..Settings::default()
        });
        assert_eq!(answer(&index, "/r/a/SKILL.md").0, Some(None));
    }
}
