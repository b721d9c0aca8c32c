//! The `skillgraph` command: `check` for terminals and CI, `lsp` for editors.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

// mimalloc rather than the system allocator: an edit in a large workspace allocates and frees
// many small nodes in a big heap, where glibc's malloc measurably slows down (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use skillgraph::cli::Format;

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
    Check {
        paths: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        /// Exit with 1 when there are warnings, too.
        #[arg(long)]
        deny_warnings: bool,
        /// Colour in human output (auto: when stdout is a terminal and NO_COLOR is unset).
        #[arg(long, value_enum, default_value = "auto")]
        color: ColorChoice,
    },
    /// Run the language server on stdin/stdout.
    Lsp {
        /// Accepted for editors that pass it; stdio is the only transport.
        #[arg(long)]
        stdio: bool,
    },
}

fn main() -> ExitCode {
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
            format,
            deny_warnings,
            color,
        } => {
            let color = match color {
                ColorChoice::Always => true,
                ColorChoice::Never => false,
                ColorChoice::Auto => {
                    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
                }
            };
            check(paths, format, deny_warnings, color)
        }
        Command::Lsp { .. } => skillgraph::lsp::run(),
    }
}

fn check(paths: Vec<PathBuf>, format: Format, deny_warnings: bool, color: bool) -> ExitCode {
    let paths = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths
    };
    for path in &paths {
        if !path.exists() {
            eprintln!("skillgraph: {}: no such file or directory", path.display());
            return ExitCode::from(2);
        }
    }
    let outcome = match skillgraph::check::run_check(&paths) {
        Ok(outcome) => outcome,
        Err(message) => {
            eprintln!("skillgraph: {message}");
            return ExitCode::from(2);
        }
    };
    let mut stdout = std::io::stdout().lock();
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
