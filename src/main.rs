//! The `arx` binary: parse the command line, run it, turn the outcome into an exit code.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = arx::cli::Cli::parse();
    arx::run(cli).into()
}
