//! A round's outcome where CI reads it: under GitHub Actions, each
//! refusal and failed check as an annotation naming the patch file, and
//! the round in the job's step summary; with `--json`, the reasons also on
//! stderr (stdout holds the JSON, which no later step may print).

use std::io::Write;

use super::RoundRecord;
use crate::io::github;
use crate::kernel::round::RoundStatus;
use crate::output::annotations::{annotate, Annotation, Level};

/// The patch file as a path from the repository root (what annotations
/// name), when it is a file inside it.
pub fn patch_file(arg: &str, workdir: &std::path::Path) -> Option<String> {
    if arg == "-" {
        return None;
    }
    let path = std::path::Path::new(arg);
    let absolute = std::path::absolute(path).ok()?;
    let root = workdir
        .canonicalize()
        .unwrap_or_else(|_| workdir.to_path_buf());
    let absolute = absolute
        .parent()
        .and_then(|d| d.canonicalize().ok())
        .map(|d| d.join(absolute.file_name().unwrap_or_default()))
        .unwrap_or(absolute);
    match absolute.strip_prefix(&root) {
        Ok(rel) => Some(rel.to_string_lossy().into_owned()),
        Err(_) => Some(arg.to_string()),
    }
}

/// The annotations of a round's record.
pub fn annotations(record: &RoundRecord, file: Option<&str>) -> Vec<Annotation> {
    let id = &record.round_id;
    let file = file.map(str::to_string);
    let one = |level, title: String, message: String| Annotation {
        level,
        file: file.clone(),
        title,
        message,
    };
    let status = record.status.as_str();
    let mut out = Vec::new();
    match record.status {
        RoundStatus::Rejected => {
            for e in &record.errors {
                out.push(one(
                    Level::Error,
                    format!("arx round {id}: rejected"),
                    e.clone(),
                ));
            }
            let failed = record
                .eval_report
                .iter()
                .flat_map(|r| &r.checks)
                .filter(|c| c.exit_code != 0);
            for c in failed {
                let message = if c.detail.is_empty() {
                    format!("exit {}", c.exit_code)
                } else {
                    format!("exit {}: {}", c.exit_code, c.detail)
                };
                out.push(one(
                    Level::Error,
                    format!("arx round {id}: check {} failed", c.name),
                    message,
                ));
            }
            if out.is_empty() {
                out.push(one(
                    Level::Error,
                    format!("arx round {id}: rejected"),
                    record.detail.clone(),
                ));
            }
        }
        RoundStatus::Skipped => out.push(one(
            Level::Warning,
            format!("arx round {id}: skipped"),
            record.detail.clone(),
        )),
        _ => out.push(one(
            Level::Notice,
            format!("arx round {id}: {status}"),
            record.detail.clone(),
        )),
    }
    out
}

/// A Markdown table cell: one line, `|` escaped.
fn cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// The round in the step summary.
pub fn summary(record: &RoundRecord) -> String {
    let mut md = format!(
        "### arx round `{}`: {}\n\n{}\n",
        record.round_id,
        record.status.as_str(),
        cell(&record.detail)
    );
    if !record.errors.is_empty() {
        md.push('\n');
        for e in &record.errors {
            md.push_str(&format!("- {}\n", cell(e)));
        }
    }
    if let Some(report) = record.eval_report.as_ref().filter(|r| !r.checks.is_empty()) {
        md.push_str("\n| check | result | detail |\n|---|---|---|\n");
        for c in &report.checks {
            let result = if c.exit_code == 0 {
                "ok".to_string()
            } else {
                format!("**failed** (exit {})", c.exit_code)
            };
            md.push_str(&format!(
                "| {} | {result} | {} |\n",
                cell(&c.name),
                cell(&c.detail)
            ));
        }
    }
    if let Some(sha) = record
        .applied_sha
        .as_deref()
        .or(record.commit_sha.as_deref())
    {
        md.push_str(&format!("\ncommit `{sha}`\n"));
    }
    md.push('\n');
    md
}

/// Tell CI about a decided round (see the module's comment).
pub fn tell(record: &RoundRecord, file: Option<&str>, json: bool) {
    if json && matches!(record.status, RoundStatus::Rejected | RoundStatus::Skipped) {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(
            err,
            "arx: round {} {}: {}",
            record.round_id,
            record.status.as_str(),
            record.detail.escape_debug()
        );
        for e in &record.errors {
            let _ = writeln!(err, "arx:   - {}", e.escape_debug());
        }
    }
    if github::in_actions() {
        annotate(&annotations(record, file));
        if let Err(e) = github::append_step_summary(&summary(record)) {
            crate::output::warn(format_args!("{e:#}"));
        }
    }
}

/// Tell CI about a round command's error (exit 2).
pub fn tell_error(error: &anyhow::Error, file: Option<&str>) {
    if !github::in_actions() {
        return;
    }
    let message = match error.downcast_ref::<crate::error::Hinted>() {
        Some(h) => format!("{}\nhint: {}", h.message, h.hint),
        None => format!("{error:#}"),
    };
    annotate(&[Annotation {
        level: Level::Error,
        file: file.map(str::to_string),
        title: "arx round: error".into(),
        message: message.clone(),
    }]);
    let _ = github::append_step_summary(&format!("### arx round: error\n\n{}\n\n", cell(&message)));
}
