//! `arx idea ...`: the backlog's subcommands.

use clap::Subcommand;

/// What `arx idea list --status` filters on.
pub const IDEA_STATUSES: [&str; 4] = ["open", "in_flight", "tried", "dropped"];

#[derive(Debug, Subcommand)]
pub enum IdeaCommand {
    /// Add an idea to the backlog (`.arx/ideas.jsonl`); prints its id alone
    /// on stdout.
    ///
    /// Without --family the idea takes the family of the most similar idea
    /// that has one, or `unsorted` (said on stderr). With --retry ID and
    /// --because TEXT it tries a discarded idea again, saying what changed
    /// (STATEMENT and --family default to the idea's).
    #[command(
        after_help = "Examples:\n  id=$(arx idea add --family lr \"halve the learning rate\")\n  arx idea add --retry i-3f9a2c71e0 --because \"the warmup is longer now\""
    )]
    Add {
        /// The idea: one change, in words (at most 4 KiB).
        statement: Option<String>,
        /// Its family: one word (letters, digits, _, - or .), e.g. lr, batch, init.
        #[arg(long, value_name = "WORD")]
        family: Option<String>,
        /// Try this idea (its id or a unique prefix) again; needs --because.
        #[arg(long, value_name = "ID")]
        retry: Option<String>,
        /// With --retry: what changed since it was tried.
        #[arg(long, value_name = "TEXT")]
        because: Option<String>,
    },
    /// The backlog, oldest first: each idea's id, status (open, in flight
    /// in a lane, tried: how each try ended, with its run, or dropped),
    /// family and statement.
    #[command(after_help = "Examples:\n  arx idea list\n  arx idea list --status open --json")]
    List {
        /// Only ideas with this status.
        #[arg(long, value_parser = IDEA_STATUSES)]
        status: Option<String>,
        /// Only ideas of this family.
        #[arg(long, value_name = "WORD")]
        family: Option<String>,
        /// Only the N most recent ideas.
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
    },
    /// Drop an idea: no longer proposed (its tries stay in the journal).
    #[command(
        after_help = "Example:\n  arx idea drop i-3f9a2c71e0 --reason \"superseded by the new schedule\""
    )]
    Drop {
        /// The idea's id (or a unique prefix).
        id: String,
        /// Why.
        #[arg(long, value_name = "TEXT")]
        reason: Option<String>,
    },
}
