//! `arx finding ...`: the findings store's subcommands.

use std::path::PathBuf;

use clap::Subcommand;

use crate::ops::gate::GateFlags;

/// Kinds of findings, for flags that take one.
pub const FINDING_KINDS: [&str; 6] = [
    "takeaway",
    "decision",
    "insight",
    "hypothesis",
    "todo",
    "question",
];

/// Statuses of findings, for flags that take one.
pub const FINDING_STATUSES: [&str; 3] = ["active", "decaying", "deprecated"];

#[derive(Debug, Subcommand)]
pub enum FindingCommand {
    /// Record a finding; one at least 0.95 similar to a stored one (and not
    /// contradicting it) is that finding, reinforced instead.
    ///
    /// Exit 0 recorded or reinforced, 1 paused at the kg_write gate, 2 on
    /// bad input (blank, or over 2,000 characters).
    #[command(
        after_help = "Example:\n  arx finding add --kind takeaway \"doubling the LR made val_bpb worse\" --source run:0193a7c2"
    )]
    Add {
        /// The finding's text.
        text: String,
        /// What it is.
        #[arg(long, value_parser = FINDING_KINDS, default_value = "takeaway")]
        kind: String,
        /// Where it came from: a run id, a round, a file, a person.
        #[arg(long, value_name = "S")]
        source: Option<String>,
        /// How sure it is, in [0, 1] (default 0.7).
        #[arg(long, value_name = "C", allow_negative_numbers = true)]
        confidence: Option<f64>,
        /// A label (repeatable).
        #[arg(long = "tag", value_name = "TAG")]
        tags: Vec<String>,
        #[command(flatten)]
        gates: GateFlags,
    },
    /// Extract candidate findings from free text (notes, logs, a transcript)
    /// and record them.
    ///
    /// Greetings, acknowledgements, bare commands and code blocks are
    /// skipped; timestamps and log prefixes stripped; lines split into
    /// claims; duplicates dropped. Exit 0 when something was found, 1 when
    /// nothing was (or paused at the gate).
    #[command(
        after_help = "Examples:\n  arx finding ingest notes.md --dry-run\n  agent-log | arx finding ingest - --approve"
    )]
    Ingest {
        /// The text (default: stdin; `-` also means stdin).
        file: Option<PathBuf>,
        /// List the claims found; record nothing.
        #[arg(long)]
        dry_run: bool,
        /// Record every claim as this kind (default: guessed from its wording).
        #[arg(long, value_parser = FINDING_KINDS)]
        kind: Option<String>,
        /// Source of the claims (default: the file name, or `stdin`).
        #[arg(long, value_name = "S")]
        source: Option<String>,
        /// Confidence of the claims, in [0, 1] (default 0.5).
        #[arg(long, value_name = "C", allow_negative_numbers = true)]
        confidence: Option<f64>,
        #[command(flatten)]
        gates: GateFlags,
    },
    /// One maintenance pass: reinforcement, decay, contradiction audit,
    /// mutation, resolution, safety check. Prints what changed and why.
    ///
    /// Exit 0 when applied, 1 when refused by the safety check (more than
    /// 30% of the live findings would be deprecated; nothing is written).
    #[command(after_help = "Example:\n  arx finding maintain --now 2026-02-01T00:00:00Z")]
    Maintain {
        /// Apply a pass past the safety limit.
        #[arg(long)]
        force: bool,
        /// Say what the pass would change; write nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// What to read before the next proposal: live findings ranked by
    /// 0.4 relevance + 0.3 confidence + 0.2 recency - 0.1 tension
    /// (relevance below 0.3 dropped).
    ///
    /// Exit 0 when something ranks, 1 when nothing is relevant.
    #[command(
        after_help = "Example:\n  arx finding rank --context \"raise the learning rate\" --limit 5 --json"
    )]
    Rank {
        /// What the next proposal is about.
        #[arg(long, value_name = "TEXT")]
        context: String,
        /// Most findings shown.
        #[arg(long, value_name = "N", default_value_t = 10)]
        limit: usize,
    },
    /// List findings (live ones unless --all or --status).
    #[command(after_help = "Example:\n  arx finding list --kind todo")]
    List {
        /// Only this kind.
        #[arg(long, value_parser = FINDING_KINDS)]
        kind: Option<String>,
        /// Only this status.
        #[arg(long, value_parser = FINDING_STATUSES)]
        status: Option<String>,
        /// Deprecated findings too.
        #[arg(long)]
        all: bool,
        /// Only the N most recent.
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
    },
    /// Show one finding in full (a unique prefix of its id is enough).
    #[command(after_help = "Example:\n  arx finding show f3a9c")]
    Show {
        /// Finding id or a unique prefix.
        id: String,
    },
    /// Why a finding ranks where it does, what reinforced or contradicted
    /// it, and its lineage.
    #[command(
        after_help = "Example:\n  arx finding explain f3a9c --context \"raise the learning rate\""
    )]
    Explain {
        /// Finding id or a unique prefix.
        id: String,
        /// Rank it against this context (default: its own text).
        #[arg(long, value_name = "TEXT")]
        context: Option<String>,
    },
    /// Merge findings files (e.g. from other machines) into the store: the
    /// union, one finding per id, the most recently updated version winning.
    #[command(after_help = "Example:\n  arx finding merge other/.arx/findings.jsonl")]
    Merge {
        /// Findings files to merge in.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}
