//! Integration tests: the real binary, one file per command; the helpers
//! they share are in `support`.

mod agents;
mod answers;
mod candidate;
mod candidate_cases;
mod ci_files;
mod claims;
mod classify;
mod compare;
mod completions;
mod cost;
mod deadend;
mod decide;
mod encodings;
mod errors;
mod evidence;
mod finding;
mod formats;
mod gate;
mod holdout;
mod hostile;
mod ideas;
mod import_nights;
mod init;
mod init_from;
mod instances;
mod journal;
mod journal_import;
mod knowhow;
mod lanes;
mod lanes_fresh;
mod log;
mod man;
#[cfg(feature = "mcp")]
mod mcp;
#[cfg(not(feature = "mcp"))]
mod mcp_off;
mod measure;
mod next;
mod next_ideas;
mod next_imported;
mod outcomes;
mod paired;
mod parse;
mod plateau;
mod portable;
mod ratchet;
mod reactive;
mod report;
mod round;
mod round_ci;
mod run;
#[cfg(feature = "serve")]
mod serve;
#[cfg(not(feature = "serve"))]
mod serve_off;
mod show;
mod slots;
mod support;
mod symlinks;
mod truths;
mod try_line;

#[test]
fn cli_definition_is_consistent() {
    use clap::CommandFactory;
    arx::cli::Cli::command().debug_assert();
}
