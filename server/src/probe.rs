//! Finding out what the machine offers the command packs of a workspace, at the edge: whether
//! each binary a pack requires is on `PATH`, and, when asked, the version its `--version`
//! prints. The answers go to the core as data (`index::Settings::executables`); see
//! `model::machine` for how they are judged. It must not judge them itself.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::index::{Content, Index};
use crate::model::machine::{parse_version, Executable, VersionProbe};
use crate::model::swarmkit::Artifact;

/// How long a `--version` may run, as the runtime allows (`_probe_version`, `timeout=10`).
const VERSION_TIMEOUT: Duration = Duration::from_secs(10);

/// Every binary the command packs of the index's workspaces require, with whether any
/// requirement of it states a version.
pub fn required_binaries(index: &Index) -> BTreeMap<String, bool> {
    let mut out: BTreeMap<String, bool> = BTreeMap::new();
    for entry in index.workspace_manifests() {
        if let Content::SwarmKit(Artifact::Workspace(manifest)) = &entry.parsed.content {
            for requirement in manifest.command_packs.iter().flat_map(|p| &p.requires) {
                let versioned = out.entry(requirement.binary.value.clone()).or_default();
                *versioned |= requirement.version.is_some();
            }
        }
    }
    out
}

/// Looks each binary up on `path` (the value of `PATH`), and runs `<binary> --version` for those
/// `with_version` names when `run_versions` is set, for a bare name found on `PATH` only: a name
/// holding a separator is a path, which may be a file of the repository being checked, and is
/// never run.
pub fn executables(
    binaries: &BTreeMap<String, bool>,
    path: Option<&OsStr>,
    run_versions: bool,
) -> BTreeMap<String, Executable> {
    binaries
        .iter()
        .map(|(name, versioned)| {
            let fact = match which(name, path) {
                None => Executable::Missing,
                Some(found) => {
                    Executable::Found(if run_versions && *versioned && !has_separator(name) {
                        version_of(&found)
                    } else {
                        VersionProbe::NotAsked
                    })
                }
            };
            (name.clone(), fact)
        })
        .collect()
}

fn has_separator(name: &str) -> bool {
    name.contains('/') || (cfg!(windows) && name.contains('\\'))
}

/// Where `name` is, as Python's `shutil.which` finds it: a name with a separator is checked as
/// a path; otherwise each directory of `PATH` in turn (on Windows also with each `PATHEXT`).
fn which(name: &str, path: Option<&OsStr>) -> Option<PathBuf> {
    if name.is_empty() {
        return None;
    }
    if has_separator(name) {
        let candidate = PathBuf::from(name);
        return is_executable(&candidate).then_some(candidate);
    }
    let extensions: Vec<String> = if cfg!(windows) {
        std::env::var("PATHEXT")
            .unwrap_or_else(|_| ".COM;.EXE;.BAT;.CMD".to_owned())
            .split(';')
            .map(str::to_owned)
            .chain(std::iter::once(String::new()))
            .collect()
    } else {
        vec![String::new()]
    };
    std::env::split_paths(path?)
        .filter(|dir| !dir.as_os_str().is_empty())
        .flat_map(|dir| {
            extensions
                .iter()
                .map(move |ext| dir.join(format!("{name}{ext}")))
        })
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    if !meta.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    true
}

/// Runs `<executable> --version` with the runtime's timeout and reads the first version in its
/// output (standard output, then standard error).
fn version_of(executable: &Path) -> VersionProbe {
    let child = std::process::Command::new(executable)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        return VersionProbe::Unreadable;
    };
    // Each stream drained on a thread of its own, so a chatty binary cannot block on a full pipe.
    let drain = |stream: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut stream) = stream {
                // At most 1 MiB: a version is in the first lines.
                let _ = stream.by_ref().take(1 << 20).read_to_end(&mut text);
            }
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() < VERSION_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(10))
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return VersionProbe::Unreadable;
            }
        }
    }
    let output = format!(
        "{}\n{}",
        stdout.join().unwrap_or_default(),
        stderr.join().unwrap_or_default()
    );
    parse_version(&output).map_or(VersionProbe::Unreadable, VersionProbe::Read)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn script(dir: &Path, name: &str, body: &str) {
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn binaries_are_looked_up_on_path_and_versions_read_only_when_asked() {
        let dir = std::env::temp_dir().join(format!("skillgraph-probe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        script(&dir, "newtool", "echo 'newtool version 2.43.1'");
        script(&dir, "quiet", "echo 'no number'");
        script(&dir, "late", "echo 'late 1.0' >&2");
        std::fs::write(dir.join("plain"), "not executable").unwrap();
        let binaries: BTreeMap<String, bool> = [
            ("newtool", true),
            ("quiet", true),
            ("late", true),
            ("plain", false),
            ("nowhere", false),
        ]
        .into_iter()
        .map(|(n, v)| (n.to_owned(), v))
        .collect();
        let path = dir.clone().into_os_string();
        let found = executables(&binaries, Some(&path), true);
        assert_eq!(
            found["newtool"],
            Executable::Found(VersionProbe::Read(vec![2, 43, 1]))
        );
        assert_eq!(found["quiet"], Executable::Found(VersionProbe::Unreadable));
        assert_eq!(
            found["late"],
            Executable::Found(VersionProbe::Read(vec![1, 0]))
        );
        assert_eq!(found["plain"], Executable::Missing);
        assert_eq!(found["nowhere"], Executable::Missing);
        // Not asked to run anything: presence only.
        let found = executables(&binaries, Some(&path), false);
        assert_eq!(found["newtool"], Executable::Found(VersionProbe::NotAsked));
        // A path is never run, even when asked.
        let by_path: BTreeMap<String, bool> = [(dir.join("newtool").display().to_string(), true)]
            .into_iter()
            .collect();
        let found = executables(&by_path, None, true);
        assert_eq!(
            found.values().next(),
            Some(&Executable::Found(VersionProbe::NotAsked))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
