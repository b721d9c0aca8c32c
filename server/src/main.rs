//! The `skillgraph` command: `check` for terminals and CI, `graph` to draw the ordering rules,
//! `lsp` for editors. It reads the arguments and hands over to the library; it checks nothing
//! itself.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

// mimalloc rather than the system allocator: an edit in a large workspace allocates and frees
// many small nodes in a big heap, where glibc's malloc measurably slows down (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// mimalloc's own option setter (the crate links the library but does not export it).
extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}
/// `mi_option_purge_delay` in mimalloc.h's option enum.
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

/// Tunes the allocator of the language server for resident memory as well as speed (figures in
/// BENCHMARKS.md): transparent huge pages cost 10-15 MiB of RSS at 10,000 skills, and purging
/// freed pages at once rather than after 10 ms another 20 MiB. The server lives for hours beside
/// the editor, so its footprint counts. `check` and `graph` run for a fraction of a second and
/// keep mimalloc's defaults: with huge pages a 10,000-skill check takes about 400 page faults
/// instead of 16,000 and 0.23 s instead of 0.30 s, for 79 MB of peak RSS instead of 61 MB.
fn configure_allocator() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes plain integer arguments and touches no memory of ours.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    // mimalloc's own variable, when set, wins (for measuring other settings).
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets an integer option; mimalloc reads it on its next purge.
        unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    }
}
use skillgraph::cli::{Format, GraphFormat};

#[derive(Parser)]
#[command(
    name = "skillgraph",
    version,
    about = "Checks SwarmKit workspaces and SKILL.md skills: ordering rules, references, schemas"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
enum Command {
    /// Check every SwarmKit workspace and SKILL.md under the paths (default: the current directory).
    ///
    /// Each path is checked within the SwarmKit workspace or skill root that encloses it, and
    /// only its own diagnostics are reported. Exit status: 0 no errors, 1 errors (or warnings
    /// with --deny-warnings), 2 when no path exists or the report cannot be written.
    Check {
        /// Files or folders; `-` reads the file named by --stdin-filename from stdin.
        paths: Vec<PathBuf>,
        /// Check stdin as if it were the file at this path (`check - --stdin-filename p`).
        #[arg(long, value_name = "PATH")]
        stdin_filename: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        /// Exit with 1 when there are warnings, too.
        #[arg(long)]
        deny_warnings: bool,
        /// Colour in human output (auto: when stdout is a terminal and NO_COLOR is unset).
        #[arg(long, value_enum, default_value = "auto")]
        color: ColorChoice,
        /// Apply the safe fixes (repeats removed, values quoted, fields moved under
        /// `metadata:`), write the files, and report what is left.
        #[arg(long, conflicts_with = "diff")]
        fix: bool,
        /// Print the safe fixes as a unified diff instead of the report, writing nothing.
        /// Exit status 1 when there is something to fix.
        #[arg(long)]
        diff: bool,
        /// With --fix or --diff, also apply the fixes that guess: the closest known id, a
        /// renamed name, a folder renamed to its skill's name. Still only within the paths.
        #[arg(long)]
        unsafe_fixes: bool,
        /// Run `<binary> --version` for the binaries command packs require with a version
        /// constraint (found on PATH, never a path), as `swarmkit run` does when it loads the
        /// workspace. Without it they are only looked up on PATH.
        #[arg(long)]
        probe_versions: bool,
    },
    /// Draw the ordering rules under the paths (default: the current directory).
    ///
    /// Each topology's agents with their `depends_on`, each agent's `requires:` rules with a
    /// call order, composed skills and SKILL.md chains; cycles, blocked, unsatisfiable and
    /// not-enforced skills styled apart, with a legend. Paths are read within their enclosing
    /// workspace or skill root, as `check` reads them. Exit status: 0 drawn, 2 when no path
    /// exists or --topology / --agent matches nothing.
    Graph {
        /// Files or folders.
        paths: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "mermaid")]
        format: GraphFormat,
        /// Only the agent with this id (and the agents its `depends_on` links it to).
        #[arg(long, value_name = "ID")]
        agent: Option<String>,
        /// Only the topology with this name (`metadata.name`).
        #[arg(long, value_name = "NAME")]
        topology: Option<String>,
        /// Read each workspace's audit log (as `skillgraph audit` does) and show each rule's
        /// refusals on its edges (JSON: an `observed` object per edge).
        #[arg(long)]
        observed: bool,
    },
    /// Run the MCP server (Model Context Protocol) on stdin/stdout, for agents.
    ///
    /// Tools: check, explain, graph, fixes (read-only). Nothing outside the roots is read.
    Mcp {
        /// Folders (or files) the tools may read; default: the client's roots, else the
        /// current directory.
        roots: Vec<PathBuf>,
    },
    /// Read SwarmKit's audit log against every `requires:` rule under the paths (default: the
    /// current directory).
    ///
    /// Per rule: how often the gate refused, whether the agent recovered or gave up, rules never
    /// reached, and how the runs recorded would fare under the rules as written now. The log of
    /// each workspace is found where the runtime writes it (`.swarmkit/audit.sqlite`, or the
    /// PostgreSQL that SWARMKIT_STORE_URL, DATABASE_URL or `storage:` names), and is only read.
    /// Exit status: 0, or 2 when no log could be read.
    Audit {
        /// Files or folders: each workspace with a topology at or below them.
        paths: Vec<PathBuf>,
        /// Read this log instead: a SQLite file, `sqlite:///…` or `postgres://…` URL.
        #[arg(long, value_name = "PATH|URL")]
        db: Option<String>,
        /// Only rows at or after this time (`2026-12-01`, or an ISO-8601 time).
        #[arg(long, value_name = "DATE")]
        since: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value = "human")]
        format: skillgraph::cli::audit::AuditFormat,
    },
    /// Run the language server on stdin/stdout.
    Lsp {
        /// Accepted for editors that pass it; stdio is the only transport.
        #[arg(long)]
        stdio: bool,
    },
}

fn main() -> ExitCode {
    // Decided before parsing, so that every allocation of the server follows the settings.
    if std::env::args_os()
        .nth(1)
        .is_some_and(|command| command == "lsp")
    {
        configure_allocator();
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let code = if error.use_stderr() { 2 } else { 0 };
            let _ = error.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Command::Check {
            paths,
            stdin_filename,
            format,
            deny_warnings,
            color,
            fix,
            diff,
            unsafe_fixes,
            probe_versions,
        } => {
            let color = match color {
                ColorChoice::Always => true,
                ColorChoice::Never => false,
                ColorChoice::Auto => {
                    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
                }
            };
            let fixes = match (fix, diff) {
                (true, _) => Fixes::Write,
                (_, true) => Fixes::Diff,
                _ => Fixes::None,
            };
            if unsafe_fixes && fixes == Fixes::None {
                eprintln!("skillgraph: --unsafe-fixes goes with --fix or --diff");
                return ExitCode::from(2);
            }
            let mode = if unsafe_fixes {
                skillgraph::check::FixMode::Unsafe
            } else {
                skillgraph::check::FixMode::Safe
            };
            check(
                paths,
                stdin_filename,
                format,
                deny_warnings,
                color,
                (fixes, mode),
                probe_versions,
            )
        }
        Command::Graph {
            paths,
            format,
            agent,
            topology,
            observed,
        } => graph(paths, format, agent, topology, observed),
        Command::Audit {
            paths,
            db,
            since,
            format,
        } => audit(paths, db, since, format),
        Command::Lsp { .. } => skillgraph::lsp::run(),
        Command::Mcp { roots } => skillgraph::mcp::run(roots),
    }
}

/// What `check` does with the safe fixes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fixes {
    None,
    Write,
    Diff,
}

/// Keeps the paths that exist, saying which do not. `None` when paths were given and none
/// exists; no path at all means the current directory.
fn existing_paths(mut paths: Vec<PathBuf>) -> Option<Vec<PathBuf>> {
    if paths.is_empty() {
        return Some(vec![PathBuf::from(".")]);
    }
    keep_checkable(&mut paths);
    (!paths.is_empty()).then_some(paths)
}

/// The paths checked as `check` reads them (`check::run_scoped_check_with`), or the status to
/// exit with when they could not be read, having said why.
fn scoped_check(
    paths: &[PathBuf],
    stdin: Option<(PathBuf, Vec<u8>)>,
    probe_versions: bool,
) -> Result<skillgraph::check::CheckOutcome, ExitCode> {
    skillgraph::check::run_scoped_check_with(paths, stdin, probe_versions).map_err(|message| {
        eprintln!("skillgraph: {message}");
        ExitCode::from(2)
    })
}

/// Keeps the files and folders among `paths`, saying why each other one goes.
fn keep_checkable(paths: &mut Vec<PathBuf>) {
    paths.retain(|path| match std::fs::metadata(path) {
        Err(_) => {
            eprintln!("skillgraph: {}: no such file or directory", path.display());
            false
        }
        // A FIFO, a socket or a device is never read: it could block or never end.
        Ok(meta) if !meta.is_file() && !meta.is_dir() => {
            eprintln!(
                "skillgraph: {}: not a regular file or a folder; skipped",
                path.display()
            );
            false
        }
        Ok(_) => true,
    });
}

fn graph(
    paths: Vec<PathBuf>,
    format: GraphFormat,
    agent: Option<String>,
    topology: Option<String>,
    observed: bool,
) -> ExitCode {
    let Some(paths) = existing_paths(paths) else {
        return ExitCode::from(2);
    };
    // Read as `check` reads them: each path within the workspace or skill root around it.
    let outcome = match scoped_check(&paths, None, false) {
        Ok(outcome) => outcome,
        Err(status) => return status,
    };
    let selection = skillgraph::ide::ordering_graph::Selection {
        roots: paths
            .iter()
            .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone()))
            .collect(),
        topology,
        agent,
    };
    let roots = selection.roots.clone();
    let mut graph = match skillgraph::ide::ordering_graph::build(&outcome.index, &selection) {
        Ok(graph) => graph,
        Err(error) => {
            eprintln!("skillgraph: {error}");
            return ExitCode::from(2);
        }
    };
    if observed {
        let env = |name: &str| std::env::var(name).ok();
        let run = skillgraph::cli::audit::run(&outcome.index, &roots, None, None, &env);
        for error in run.errors.iter().chain(
            run.workspaces
                .iter()
                .filter_map(|(_, s, _)| s.as_ref().and_then(|s| s.read.as_ref().err())),
        ) {
            eprintln!("skillgraph: {error}");
        }
        let counts = skillgraph::cli::audit::observed_rules(&run);
        skillgraph::ide::ordering_graph::observe(&mut graph, &|topology, agent, skill| {
            counts
                .get(&(topology.to_owned(), agent.to_owned(), skill.to_owned()))
                .copied()
        });
    }
    let text = skillgraph::cli::render_graph(format, &graph);
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
    {
        if error.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("skillgraph: cannot write the graph: {error}");
            return ExitCode::from(2);
        }
    }
    std::mem::forget(outcome);
    ExitCode::SUCCESS
}

fn audit(
    paths: Vec<PathBuf>,
    db: Option<String>,
    since: Option<String>,
    format: skillgraph::cli::audit::AuditFormat,
) -> ExitCode {
    use skillgraph::cli::audit;
    let Some(paths) = existing_paths(paths) else {
        return ExitCode::from(2);
    };
    let db = match db
        .as_deref()
        .map(skillgraph::audit_log::Location::from_argument)
    {
        None => None,
        Some(Ok(location)) => Some(location),
        Some(Err(error)) => {
            eprintln!("skillgraph: --db: {error}");
            return ExitCode::from(2);
        }
    };
    let outcome = match scoped_check(&paths, None, false) {
        Ok(outcome) => outcome,
        Err(status) => return status,
    };
    let roots: Vec<PathBuf> = paths
        .iter()
        .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone()))
        .collect();
    let env = |name: &str| std::env::var(name).ok();
    let run = audit::run(&outcome.index, &roots, db.as_ref(), since.as_deref(), &env);
    for error in &run.errors {
        eprintln!("skillgraph: {error}");
    }
    for (_, source, _) in &run.workspaces {
        match source.as_ref().map(|s| &s.read) {
            Some(Err(error)) => eprintln!("skillgraph: {error}"),
            Some(Ok(stats)) => {
                for warning in &stats.warnings {
                    eprintln!(
                        "skillgraph: {}: {warning}",
                        source
                            .as_ref()
                            .map(|s| s.location.display())
                            .unwrap_or_default()
                    );
                }
            }
            None => {}
        }
    }
    if run.workspaces.is_empty() {
        eprintln!("skillgraph: no SwarmKit topology under the paths given, so no log to read");
        return ExitCode::from(2);
    }
    let display = |path: &std::path::Path| outcome.display_path(path);
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let written = match format {
        audit::AuditFormat::Json => audit::render_json(&outcome.index, &run, &display, &mut stdout),
        audit::AuditFormat::Human => {
            audit::render_human(&outcome.index, &run, &display, &mut stdout)
        }
    };
    if let Err(error) = written.and_then(|_| stdout.flush()) {
        if error.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("skillgraph: cannot write the report: {error}");
            return ExitCode::from(2);
        }
    }
    if !run.any_read() {
        eprintln!("skillgraph: no audit log could be read");
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}

fn check(
    paths: Vec<PathBuf>,
    stdin_filename: Option<PathBuf>,
    format: Format,
    deny_warnings: bool,
    color: bool,
    (fixes, mode): (Fixes, skillgraph::check::FixMode),
    probe_versions: bool,
) -> ExitCode {
    let dash = paths.iter().any(|p| p.as_os_str() == "-");
    let mut paths: Vec<PathBuf> = paths.into_iter().filter(|p| p.as_os_str() != "-").collect();
    if dash && stdin_filename.is_none() {
        eprintln!("skillgraph: `-` reads stdin and needs --stdin-filename to say which file it is");
        return ExitCode::from(2);
    }
    if fixes == Fixes::Write && stdin_filename.is_some() {
        eprintln!(
            "skillgraph: --fix writes files and cannot fix stdin; use --diff to see the fixes"
        );
        return ExitCode::from(2);
    }
    let stdin = match stdin_filename {
        Some(path) => {
            use std::io::Read;
            // At most one byte past the size cap: enough to say the file is too large, and an
            // endless input costs no more than that.
            let cap = skillgraph::index::MAX_FILE_BYTES as u64 + 1;
            let mut bytes = Vec::new();
            if let Err(error) = std::io::stdin().take(cap).read_to_end(&mut bytes) {
                eprintln!("skillgraph: cannot read stdin: {error}");
                return ExitCode::from(2);
            }
            Some((path, bytes))
        }
        None => None,
    };
    if paths.is_empty() && stdin.is_none() {
        paths.push(PathBuf::from("."));
    }
    // A missing path is reported and the others are still checked; only when none exists is
    // there nothing to check.
    let given = paths.len();
    keep_checkable(&mut paths);
    if paths.is_empty() && given > 0 && stdin.is_none() {
        return ExitCode::from(2);
    }
    let mut outcome = match scoped_check(&paths, stdin, probe_versions) {
        Ok(outcome) => outcome,
        Err(status) => return status,
    };
    if fixes != Fixes::None {
        let fixed = outcome.apply_fixes(mode);
        if let Some(code) = report_fixes(&outcome, &fixed, fixes) {
            return code;
        }
    }
    if format == Format::Human {
        for (path, root) in &outcome.widened {
            eprintln!(
                "skillgraph: checking {} within {}",
                outcome.display_path(path),
                outcome.display_path(root)
            );
        }
    }
    // Rust's stdout flushes at every newline: a report of thousands of lines would cost a
    // system call per line.
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    if let Err(error) = skillgraph::cli::render(format, &outcome.report(), &mut stdout, color)
        .and_then(|_| stdout.flush())
    {
        if error.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("skillgraph: cannot write the report: {error}");
            return ExitCode::from(2);
        }
    }
    let (errors, warnings) = outcome.counts();
    // The process ends here: freeing ten thousand parsed files one by one would only cost time.
    std::mem::forget(outcome);
    if errors > 0 || (deny_warnings && warnings > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Shows (`--diff`) or carries out (`--fix`) what `check` fixed, and says so on stderr. Returns
/// the exit status when the command ends here (`--diff`, or an error).
fn report_fixes(
    outcome: &skillgraph::check::CheckOutcome,
    fixed: &skillgraph::check::FixOutcome,
    fixes: Fixes,
) -> Option<ExitCode> {
    let files = fixed.files.len();
    // `a/` and `b/` before a relative path, as git writes them; an absolute path as it is.
    let shown = |path: &std::path::Path| {
        let shown = outcome.display_path(path);
        shown.strip_prefix('/').map(str::to_owned).unwrap_or(shown)
    };
    if fixes == Fixes::Diff {
        let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
        for file in &fixed.files {
            let written = skillgraph::cli::diff::write_file_diff(
                &mut stdout,
                &shown(&file.from),
                &shown(&file.to),
                &file.before,
                &file.after,
            );
            if let Err(error) = written {
                if error.kind() != std::io::ErrorKind::BrokenPipe {
                    eprintln!("skillgraph: cannot write the diff: {error}");
                    return Some(ExitCode::from(2));
                }
            }
        }
        let _ = stdout.flush();
    } else {
        // Folders first, as the passes moved them; then the texts, at the paths they have now.
        for rename in &fixed.renames {
            if std::fs::symlink_metadata(&rename.to).is_ok() {
                eprintln!(
                    "skillgraph: cannot rename {} to {}: it exists",
                    rename.from.display(),
                    rename.to.display()
                );
                return Some(ExitCode::from(2));
            }
            if let Err(error) = std::fs::rename(&rename.from, &rename.to) {
                eprintln!(
                    "skillgraph: cannot rename {} to {}: {error}",
                    rename.from.display(),
                    rename.to.display()
                );
                return Some(ExitCode::from(2));
            }
        }
        for file in fixed.files.iter().filter(|f| f.after != f.before) {
            if let Err(error) = std::fs::write(&file.to, &file.after) {
                eprintln!("skillgraph: cannot write {}: {error}", file.to.display());
                return Some(ExitCode::from(2));
            }
        }
    }
    let diff = fixes == Fixes::Diff;
    for rename in &fixed.renames {
        eprintln!(
            "skillgraph: {} {} to {}",
            if diff { "would rename" } else { "renamed" },
            outcome.display_path(&rename.from),
            outcome.display_path(&rename.to)
        );
    }
    let hidden = match fixed.hidden {
        0 => String::new(),
        n => format!(
            " ({} can be enabled with the `--unsafe-fixes` option)",
            plural(n, "hidden fix", "hidden fixes")
        ),
    };
    eprintln!(
        "skillgraph: {} {} in {files} {}{hidden}",
        if diff { "would fix" } else { "fixed" },
        plural(fixed.applied, "problem", "problems"),
        if files == 1 { "file" } else { "files" }
    );
    if !fixed.converged {
        eprintln!(
            "skillgraph: fixes were still offered after {} passes, so some are not applied; run again, or fix them by hand",
            skillgraph::check::MAX_FIX_PASSES
        );
    }
    diff.then(|| {
        if files > 0 {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    })
}

fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}
