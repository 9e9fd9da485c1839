//! The MCP tools beyond the ratchet's core: putting a discarded try back,
//! one run in full, lanes, importing another loop's night, checking the
//! journal, the live runs, dead ends, the report (as text or as files) and
//! the findings. Each is one struct and the command line it stands for, as in
//! [`super::tools`].

use schemars::JsonSchema;
use serde::Deserialize;

use super::tools::{Argv, Call, Tool};
use crate::kernel::gate::Gate;

/// `arx restore`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Restore {
    /// The run id (or a unique prefix) of the discarded try to put back;
    /// default: the newest discarded try.
    pub run_id: Option<String>,
}

impl Tool for Restore {
    const NAME: &'static str = "restore";
    const DESCRIPTION: &'static str = "Put a discarded try's change back in the working tree (`arx restore`), to build on it; the working tree must be clean. With no `run_id`, the newest discarded try. To undo an interrupted try's change instead, the change is still in the tree: call `try` again to take it up.";
    const READ_ONLY: bool = false;
    const DESTRUCTIVE: bool = false;
    fn call(self) -> Call {
        let argv = Argv::new(&["restore"]);
        match self.run_id {
            Some(id) => argv.rest(&[id]).call(),
            None => argv.call(),
        }
    }
}

/// `arx show`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Show {
    /// The run id or a unique prefix of it (as `log` gives it).
    pub run_id: String,
}

impl Tool for Show {
    const NAME: &'static str = "show";
    const DESCRIPTION: &'static str =
        "One journaled run in full (`arx show`): its attempts, metrics, verdict and ratchet record.";
    fn call(self) -> Call {
        Argv::new(&["show"]).rest(&[self.run_id]).call()
    }
}

/// `arx lane add`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LaneAdd {
    /// Lane names (letters, digits, `.`, `_`, `-`); none: the next free number.
    #[serde(default)]
    pub names: Vec<String>,
}

impl Tool for LaneAdd {
    const NAME: &'static str = "lane_add";
    const DESCRIPTION: &'static str = "Add lanes (`arx lane add`): a git worktree each, on its own branch, started at the best, sharing one journal and one best; `try` with `lane` tries in one.";
    const READ_ONLY: bool = false;
    const DESTRUCTIVE: bool = false;
    fn call(self) -> Call {
        Argv::new(&["lane", "add"]).rest(&self.names).call()
    }
}

/// `arx lane list`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LaneList {}

impl Tool for LaneList {
    const NAME: &'static str = "lane_list";
    const DESCRIPTION: &'static str = "The lanes (`arx lane list`): name, path, base commit, keeps behind the best, last try, live run; under `lanes`.";
    const LIST_KEY: &'static str = "lanes";
    fn call(self) -> Call {
        Argv::new(&["lane", "list"]).call()
    }
}

/// `arx lane sync`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LaneSync {
    /// The lane (default: every lane).
    pub name: Option<String>,
    /// Where the lane's work conflicts with the best, the best's side wins;
    /// the work as it was is stored first (`restore` puts it back).
    #[serde(default)]
    pub theirs: bool,
}

impl Tool for LaneSync {
    const NAME: &'static str = "lane_sync";
    const DESCRIPTION: &'static str = "Replay a lane's work onto the best (`arx lane sync`). `_meta.exit_code` 1 when it conflicts (nothing changed then; call again with `theirs`).";
    const READ_ONLY: bool = false;
    const DESTRUCTIVE: bool = true;
    fn call(self) -> Call {
        let argv = Argv::new(&["lane", "sync"]).flag("--theirs", self.theirs);
        match self.name {
            Some(n) => argv.rest(&[n]).call(),
            None => argv.call(),
        }
    }
}

/// `arx journal import`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JournalImport {
    /// The file: results.tsv (karpathy, codex) or autoresearch.jsonl (pi).
    pub file: String,
    /// The loop that wrote it: karpathy, pi or codex.
    pub from: String,
    /// The name to record the metric under.
    pub metric: Option<String>,
    /// max or min.
    pub direction: Option<String>,
}

impl Tool for JournalImport {
    const NAME: &'static str = "journal_import";
    const DESCRIPTION: &'static str = "Import another loop's night as ratchet records marked imported (`arx journal import`): shown by log, report and best, never measured against.";
    const READ_ONLY: bool = false;
    const DESTRUCTIVE: bool = false;
    fn call(self) -> Call {
        Argv::new(&["journal", "import"])
            .opt("--from", Some(self.from))
            .opt("--metric", self.metric)
            .opt("--direction", self.direction)
            .rest(&[self.file])
            .call()
    }
}

/// `arx finding list`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindingList {
    /// Only this kind.
    pub kind: Option<String>,
    /// Only this status.
    pub status: Option<String>,
    /// The last N findings (default 20).
    pub limit: Option<usize>,
}

impl Tool for FindingList {
    const NAME: &'static str = "finding_list";
    const DESCRIPTION: &'static str = "What the loop learned (`arx finding list`): the findings, under `findings` (the last 20 unless `limit`).";
    const LIST_KEY: &'static str = "findings";
    fn call(self) -> Call {
        Argv::new(&["finding", "list"])
            .opt("--kind", self.kind)
            .opt("--status", self.status)
            .opt(
                "--limit",
                Some(self.limit.unwrap_or(super::tools::DEFAULT_LIMIT)),
            )
            .call()
    }
}

/// `arx deadend check`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeadendCheck {
    /// The approach to look up (case and spacing do not matter).
    pub statement: String,
}

impl Tool for DeadendCheck {
    const NAME: &'static str = "deadend_check";
    const DESCRIPTION: &'static str = "Is this approach a known dead end? (`arx deadend check`): a recorded dead end, or a change discarded as not better (refuted) at the current best. `_meta.exit_code` is 1 when it is, 0 when not.";
    fn call(self) -> Call {
        Argv::new(&["deadend", "check"])
            .rest(&[self.statement])
            .call()
    }
}

/// `arx report --markdown`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Report {
    /// Ratchet segment N (1, 2, ...) or `all` (default: every run, the latest segment summarized).
    pub segment: Option<String>,
    /// How many last runs (and dead ends, rounds) to list.
    pub last: Option<usize>,
}

impl Tool for Report {
    const NAME: &'static str = "report";
    const DESCRIPTION: &'static str = "The loop's report as Markdown (`arx report --markdown`): summary, best, last runs, dead ends, rounds. The structured result holds it under `markdown`.";
    fn call(self) -> Call {
        let mut call = Argv::new(&["report", "--markdown"])
            .opt("--segment", self.segment)
            .opt("--last", self.last)
            .call();
        call.text_key = Some("markdown");
        call
    }
}

/// `arx finding rank`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindingRank {
    /// What the next proposal is about.
    pub context: String,
    /// Most findings shown.
    pub limit: Option<usize>,
}

impl Tool for FindingRank {
    const NAME: &'static str = "finding_rank";
    const DESCRIPTION: &'static str = "The findings most relevant to the next proposal, best first (`arx finding rank`). `_meta.exit_code` is 1 when nothing is relevant.";
    fn call(self) -> Call {
        Argv::new(&["finding", "rank"])
            .opt("--context", Some(self.context))
            .opt("--limit", self.limit)
            .call()
    }
}

/// `arx deadend add`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeadendAdd {
    /// The approach that failed, as a statement (as `deadend_check` takes it).
    pub statement: String,
    /// Why it is a dead end.
    pub reason: String,
    /// Strength of the evidence: deterministic, exit_code, llm or manual
    /// (default manual).
    pub evidence_level: Option<String>,
    /// The loop iteration it was found in.
    pub iteration: Option<i64>,
}

impl Tool for DeadendAdd {
    const NAME: &'static str = "deadend_add";
    const DESCRIPTION: &'static str = "Record an approach as a dead end (`arx deadend add`), so `deadend_check` and `next` know it and no one tries it again. Behind the `kg_write` gate: when it is on, the person is asked (as for `try`); a pause is `_meta.exit_code` 1 (stop and tell the person). The result is the record with its `approach_hash`; `added` false when it was known already.";
    const READ_ONLY: bool = false;
    const DESTRUCTIVE: bool = false;
    fn output_schema() -> serde_json::Value {
        serde_json::json!({
            "type": "object",
            "properties": {
                "added": {"type": "boolean", "description": "false: the approach was a dead end already"},
                "record": {"type": "object", "description": "the dead end: approach_hash, statement, reason, iteration, evidence_level, created_at"},
                "proceed": {"type": "boolean", "description": "false when the kg_write gate paused it"},
                "pending_gate": {"type": ["string", "null"]}
            }
        })
    }
    fn check(&self) -> Result<(), String> {
        match &self.evidence_level {
            Some(l) if !["deterministic", "exit_code", "llm", "manual"].contains(&l.as_str()) => {
                Err(format!(
                    "`evidence_level` is deterministic, exit_code, llm or manual, not {l:?}"
                ))
            }
            _ => Ok(()),
        }
    }
    fn call(self) -> Call {
        let mut call = Argv::new(&["deadend", "add"])
            .opt("--reason", Some(self.reason))
            .opt("--iteration", self.iteration)
            .opt("--evidence-level", self.evidence_level)
            .rest(&[self.statement])
            .call();
        call.gate = Some(Gate::KgWrite);
        call
    }
}

/// `arx journal verify`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JournalVerify {
    /// A journal file (default: the loop's own).
    pub file: Option<String>,
}

impl Tool for JournalVerify {
    const NAME: &'static str = "journal_verify";
    const DESCRIPTION: &'static str = "Check the run journal (`arx journal verify`): records, unique runs, conflicting or missing run ids, unreadable lines, a torn last line. `_meta.exit_code` 0 sound, 1 not sound (stop and tell the person; never edit the journal).";
    fn output_schema() -> serde_json::Value {
        serde_json::json!({
            "type": "object",
            "properties": {
                "ok": {"type": "boolean", "description": "sound: no conflicting or missing run id, no unreadable line"},
                "path": {"type": "string"},
                "exists": {"type": "boolean"},
                "records": {"type": "integer"},
                "unique_runs": {"type": "integer"},
                "conflicts": {"type": "array", "items": {"type": "string"}},
                "missing_ids": {"type": "integer"},
                "duplicate_records": {"type": "integer"},
                "unreadable_lines": {"type": "array", "items": {"type": "integer"}},
                "torn_tail": {"type": "boolean"}
            }
        })
    }
    fn call(self) -> Call {
        let argv = Argv::new(&["journal", "verify"]);
        match self.file {
            Some(f) => argv.rest(&[f]).call(),
            None => argv.call(),
        }
    }
}

/// `arx ps`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ps {}

impl Tool for Ps {
    const NAME: &'static str = "ps";
    const DESCRIPTION: &'static str = "The live runs (`arx ps`): every running `try` and `run` of this repository (other lanes' and other clients' too), with its elapsed time, last progress and heartbeat age, under `runs`. Read-only: ending lost runs (`arx ps --reap`) is the person's.";
    fn output_schema() -> serde_json::Value {
        serde_json::json!({
            "type": "object",
            "properties": {"runs": {"type": "array", "items": {"type": "object"}}}
        })
    }
    fn call(self) -> Call {
        Argv::new(&["ps"]).call()
    }
}

/// Where `report_write` puts the HTML page when no file is named: beside
/// the journal, ignored by git (a page in the working tree would be part
/// of the next try's change).
const DEFAULT_PAGE: &str = ".arx/report.html";

/// `arx report` writing its files.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportWrite {
    /// Write a self-contained HTML page to this file: chart, summary, run
    /// table, rounds, dead ends (default, when no file is named:
    /// `.arx/report.html`, beside the journal and ignored by git).
    pub html: Option<String>,
    /// With `html`: the page reloads itself every N seconds.
    pub refresh: Option<u32>,
    /// Write the progress chart (SVG) to this file.
    pub svg: Option<String>,
    /// Write every run as a JUnit test case to this file.
    pub junit: Option<String>,
    /// Ratchet segment N (1, 2, ...) or `all`.
    pub segment: Option<String>,
    /// How many last runs (and dead ends, rounds) to list.
    pub last: Option<usize>,
}

impl Tool for ReportWrite {
    const NAME: &'static str = "report_write";
    const DESCRIPTION: &'static str = "Write the loop's report to files (`arx report --html/--svg/--junit`): an HTML page, the progress chart as SVG, JUnit XML (naming none: the page at `.arx/report.html`). It overwrites the files it names. The result's first line names the files written; the structured content is the report's summary (`report` gives it as Markdown).";
    const READ_ONLY: bool = false;
    const DESTRUCTIVE: bool = false;
    fn output_schema() -> serde_json::Value {
        serde_json::json!({
            "type": "object",
            "properties": {
                "runs": {"type": "integer"},
                "tries": {"type": "integer"},
                "segments": {"type": "array"}
            }
        })
    }
    fn check(&self) -> Result<(), String> {
        if self.refresh.is_some() && self.html.is_none() {
            return Err("`refresh` is for the HTML page: give `html` too".into());
        }
        Ok(())
    }
    fn call(self) -> Call {
        let html = match (&self.html, &self.svg, &self.junit) {
            (None, None, None) => Some(DEFAULT_PAGE.to_string()),
            _ => self.html,
        };
        Argv::new(&["report"])
            .opt("--html", html)
            .opt("--refresh", self.refresh)
            .opt("--svg", self.svg)
            .opt("--junit", self.junit)
            .opt("--segment", self.segment)
            .opt("--last", self.last)
            .call()
    }
}
