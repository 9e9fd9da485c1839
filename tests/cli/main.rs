//! Integration tests: the real binary, one file per command; the helpers
//! they share are in `support`.

mod agents;
mod ci_files;
mod classify;
mod compare;
mod completions;
mod deadend;
mod decide;
mod errors;
mod evidence;
mod finding;
mod formats;
mod gate;
mod ideas;
mod import_nights;
mod init;
mod instances;
mod journal;
mod journal_import;
mod knowhow;
mod lanes;
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
mod paired;
mod parse;
mod plateau;
mod ratchet;
mod reactive;
mod report;
mod round;
mod run;
mod show;
mod slots;
mod support;
mod symlinks;

#[test]
fn cli_definition_is_consistent() {
    use clap::CommandFactory;
    arx::cli::Cli::command().debug_assert();
}
