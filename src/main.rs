//! The `arx` binary: parse the command line, run it, turn the outcome into an exit code.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = match arx::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return arx::cli::usage_error(&e).into(),
    };
    arx::run(cli).into()
}
