//! The folders `skillgraph mcp` may read, and the paths its tools are given, held inside them.
//!
//! A path is refused when it leaves the roots as written (`/etc`, `../..`), checked before the
//! disk is asked anything about it (so a refusal says nothing about what exists outside), and
//! again after symbolic links are resolved (a link inside a root pointing out of it). The walk
//! of a folder follows no link (`discover`), and the check reads nothing above a root
//! (`check::run_fenced_check`).

use std::path::{Path, PathBuf};

/// The roots, resolved (absolute, links followed), in the order given.
#[derive(Clone, Debug)]
pub struct Roots {
    folders: Vec<PathBuf>,
}

impl Roots {
    /// Resolves `paths`. Fails when one does not exist (a root the server cannot read is a
    /// mistake in how it was started, better said at once) or when there are none.
    pub fn new(paths: &[PathBuf]) -> Result<Roots, String> {
        let mut folders = Vec::with_capacity(paths.len());
        for path in paths {
            let resolved = path
                .canonicalize()
                .map_err(|error| format!("root {}: {error}", path.display()))?;
            if !folders.contains(&resolved) {
                folders.push(resolved);
            }
        }
        if folders.is_empty() {
            return Err("no root to read".to_owned());
        }
        Ok(Roots { folders })
    }

    pub fn folders(&self) -> &[PathBuf] {
        &self.folders
    }

    /// The roots as a list for messages: `/a, /b`.
    pub fn describe(&self) -> String {
        self.folders
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The paths a tool was given, resolved and held inside the roots; no path means every root.
    pub fn resolve_all(&self, given: Option<&[String]>) -> Result<Vec<PathBuf>, String> {
        match given {
            None | Some([]) => Ok(self.folders.clone()),
            Some(paths) => paths.iter().map(|p| self.resolve(p)).collect(),
        }
    }

    /// One path a tool was given: absolute, or relative to a root (the first root it exists
    /// under). Its resolved form, inside a root; or why not.
    pub fn resolve(&self, given: &str) -> Result<PathBuf, String> {
        if given.is_empty() || given.contains('\0') {
            return Err(format!("{given:?} is not a path"));
        }
        let path = Path::new(given);
        let candidates: Vec<PathBuf> = if path.is_absolute() {
            vec![normalize(path)]
        } else {
            self.folders
                .iter()
                .map(|root| normalize(&root.join(path)))
                .collect()
        };
        // As written: outside every root is refused before the disk is asked.
        let inside: Vec<&PathBuf> = candidates
            .iter()
            .filter(|candidate| self.holds(candidate))
            .collect();
        if inside.is_empty() {
            return Err(format!(
                "{given} is outside the roots this server reads ({}); give a path inside them",
                self.describe()
            ));
        }
        let Some(existing) = inside.iter().find(|c| c.symlink_metadata().is_ok()) else {
            return Err(format!(
                "{given}: no such file or folder in the roots ({})",
                self.describe()
            ));
        };
        let resolved = existing
            .canonicalize()
            .map_err(|error| format!("{given}: {error}"))?;
        if !self.holds(&resolved) {
            return Err(format!(
                "{given} leads through a symbolic link to {}, outside the roots this server reads ({})",
                resolved.display(),
                self.describe()
            ));
        }
        let meta = std::fs::metadata(&resolved).map_err(|error| format!("{given}: {error}"))?;
        // A FIFO, a socket or a device is never read: it could block or never end.
        if !meta.is_file() && !meta.is_dir() {
            return Err(format!("{given} is not a regular file or a folder"));
        }
        Ok(resolved)
    }

    fn holds(&self, path: &Path) -> bool {
        self.folders.iter().any(|root| path.starts_with(root))
    }
}

/// `path` with `.` dropped and `..` taking off the component before it, as written, without
/// asking the disk (`/r/a/../../etc` is `/etc`).
fn normalize(path: &Path) -> PathBuf {
    crate::model::tools::join_lexically(Path::new(""), path)
}

/// The local path of a `file://` URI (an MCP client's root), percent-decoded; `None` for
/// another scheme or a URI naming another host.
pub fn path_of_file_uri(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file:///p` or `file://localhost/p`; any other authority is another machine.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let bytes = rest.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                decoded.push((hex(h)? * 16 + hex(l)?) as u8);
                i += 3;
            }
            (b, _, _) => {
                decoded.push(b);
                i += 1;
            }
        }
    }
    let text = String::from_utf8(decoded).ok()?;
    // `file:///C:/x` on Windows names `C:/x`.
    let text = match text.as_bytes() {
        [b'/', drive, b':', ..] if drive.is_ascii_alphabetic() && cfg!(windows) => &text[1..],
        _ => &text[..],
    };
    Some(PathBuf::from(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> (tempfile::TempDir, Roots) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("skills/a")).unwrap();
        std::fs::write(root.join("skills/a/SKILL.md"), "---\nname: a\n---\n").unwrap();
        std::fs::write(dir.path().join("secret.yaml"), "x: 1\n").unwrap();
        let roots = Roots::new(&[root]).unwrap();
        (dir, roots)
    }

    #[test]
    fn paths_inside_resolve_relative_to_the_root() {
        let (_dir, roots) = tree();
        let root = &roots.folders()[0];
        assert_eq!(roots.resolve("skills/a").unwrap(), root.join("skills/a"));
        assert_eq!(
            roots.resolve("skills/../skills/a/SKILL.md").unwrap(),
            root.join("skills/a/SKILL.md")
        );
        let absolute = root.join("skills").display().to_string();
        assert_eq!(roots.resolve(&absolute).unwrap(), root.join("skills"));
        assert_eq!(roots.resolve_all(None).unwrap(), vec![root.clone()]);
    }

    #[test]
    fn escapes_as_written_are_refused_before_the_disk_is_asked() {
        let (_dir, roots) = tree();
        for escape in [
            "/etc",
            "../secret.yaml",
            "../..",
            "skills/../../secret.yaml",
            "/",
        ] {
            let error = roots.resolve(escape).unwrap_err();
            assert!(error.contains("outside the roots"), "{escape}: {error}");
        }
        // A path outside that does not exist reads the same as one that does.
        let error = roots.resolve("../no-such-file").unwrap_err();
        assert!(error.contains("outside the roots"), "{error}");
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_out_of_the_root_is_refused() {
        let (dir, roots) = tree();
        let root = &roots.folders()[0];
        std::os::unix::fs::symlink(dir.path().join("secret.yaml"), root.join("link.yaml")).unwrap();
        std::os::unix::fs::symlink(dir.path(), root.join("up")).unwrap();
        for link in ["link.yaml", "up", "up/secret.yaml"] {
            let error = roots.resolve(link).unwrap_err();
            assert!(error.contains("symbolic link"), "{link}: {error}");
        }
    }

    #[test]
    fn missing_and_malformed_paths_say_so() {
        let (_dir, roots) = tree();
        assert!(roots.resolve("nope").unwrap_err().contains("no such file"));
        assert!(roots.resolve("").unwrap_err().contains("not a path"));
        assert!(roots.resolve("a\0b").unwrap_err().contains("not a path"));
    }

    #[test]
    fn file_uris() {
        assert_eq!(
            path_of_file_uri("file:///home/me/my%20ws"),
            Some(PathBuf::from("/home/me/my ws"))
        );
        assert_eq!(
            path_of_file_uri("file://localhost/w"),
            Some(PathBuf::from("/w"))
        );
        assert_eq!(path_of_file_uri("file://elsewhere/w"), None);
        assert_eq!(path_of_file_uri("https://x/w"), None);
    }
}
