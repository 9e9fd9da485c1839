//! `arx round apply`: validate, dedupe, build the round commit in memory,
//! evaluate it in a scratch checkout, pass the apply gate, and land it as
//! exactly one commit (auto) or leave it on a review branch.

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use serde::Serialize;

use super::{
    all_records, check_round_id, head_tree_problems, next_allowed, read_patch, record_path,
    settings, validate_all, CheckSpec, RoundRecord, Settings,
};
use crate::commands::Ctx;
use crate::commands::WARN;
use crate::error::{Exit, Hinted};
use crate::io::clock::timestamp;
use crate::io::git::{Change, RoundRepo};
use crate::io::process::{self, RunSpec, Sink};
use crate::io::rounds::{hashes, rounds_dir, write_json_within, HashLine};
use crate::io::sandbox::{hidden_paths, Bubblewrap, Confinement, BWRAP_ENV};
use crate::kernel::failure::FailureClass;
use crate::kernel::round::{
    gate_round, patch_hash, screen_round, EvalCheck, EvalReport, RoundPatch, RoundStatus,
};
use crate::output::{bold, dim, Report};

#[derive(Serialize)]
struct ApplyReport {
    #[serde(flatten)]
    record: RoundRecord,
    dry_run: bool,
    /// How to land a round awaiting review.
    #[serde(skip_serializing_if = "Option::is_none")]
    next_step: Option<String>,
}

impl Report for ApplyReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        let r = &self.record;
        if self.dry_run && r.status == RoundStatus::Validated {
            writeln!(
                out,
                "{b}valid{b:#}: round {} would be applied (patch hash {})",
                r.round_id,
                r.patch_hash.as_deref().unwrap_or("-")
            )?;
            return Ok(());
        }
        writeln!(
            out,
            "{b}{}{b:#}: round {}: {}",
            r.status.as_str(),
            r.round_id,
            r.detail
        )?;
        for e in &r.errors {
            writeln!(out, "  - {e}")?;
        }
        if let Some(report) = &r.eval_report {
            for c in &report.checks {
                let mark = if c.exit_code == 0 { "ok" } else { "FAILED" };
                write!(out, "  {d}check{d:#} {} {mark}", c.name)?;
                if !c.detail.is_empty() {
                    write!(out, " {d}{}{d:#}", c.detail)?;
                }
                writeln!(out)?;
            }
        }
        if let Some(sha) = &r.applied_sha {
            writeln!(out, "  {d}commit {sha}{d:#}")?;
        }
        if let Some(step) = &self.next_step {
            writeln!(out, "  {d}to land it:{d:#} {step}")?;
        }
        Ok(())
    }
}

/// `text` on one line: every run of whitespace (newlines, carriage returns,
/// Unicode line separators) becomes one space, control characters are
/// dropped. Text from a patch goes into the commit message this way, so it
/// can neither become the subject nor forge a trailer line.
fn one_line(text: &str) -> String {
    text.split_whitespace()
        .map(|word| word.chars().filter(|c| !c.is_control()).collect::<String>())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The commit message: subject, each entry's rationale, trailers.
fn message(id: &str, patch: &RoundPatch, hash: &str) -> String {
    // One line whatever the summary holds: git reads the first line as the
    // subject.
    let mut m = format!("harness(round-{id}): {}\n\n", one_line(&patch.summary));
    for e in &patch.entries {
        m.push_str(&format!(
            "- {} {}: {}\n",
            e.op.as_str(),
            one_line(&e.path),
            one_line(&e.rationale)
        ));
    }
    m.push_str(&format!(
        "\n[life-harness round {id}]\nRound: {id}\nPatch-Hash: {hash}\n"
    ));
    m
}

/// Checks confined by bubblewrap (`[harness] isolate = true`): the
/// sandbox, and what it hides besides everything outside the scratch
/// checkout being read-only.
struct Isolation {
    bwrap: Bubblewrap,
    hide: Vec<PathBuf>,
}

/// The isolation asked for, or a refusal when it cannot be had: checks are
/// never run unconfined once `isolate = true`.
fn isolation(settings: &Settings, root: &Path, state: &Path) -> Result<Option<Isolation>> {
    if !settings.isolate {
        return Ok(None);
    }
    let bwrap = Bubblewrap::find().map_err(|why| {
        Hinted::error(
            format!("[harness] isolate = true, but checks cannot be isolated: {why}"),
            format!(
                "install bubblewrap (Debian and Ubuntu: apt install bubblewrap) or set \
                 {BWRAP_ENV} to it; nothing was landed"
            ),
        )
    })?;
    let hide = hidden_paths(root, state, &settings.isolate_hide);
    Ok(Some(Isolation { bwrap, hide }))
}

/// Run the triggered checks against a scratch checkout of the round commit.
fn evaluate(
    repo: &RoundRepo,
    commit: git2::Oid,
    settings: &Settings,
    state: &Path,
    patch: &RoundPatch,
    quiet: bool,
) -> Result<EvalReport> {
    let triggered: Vec<&CheckSpec> = settings
        .checks
        .iter()
        .filter(|c| c.kinds.is_empty() || patch.entries.iter().any(|e| c.kinds.contains(&e.kind)))
        .collect();
    if triggered.is_empty() {
        return Ok(EvalReport { checks: Vec::new() });
    }
    let isolation = isolation(settings, repo.workdir(), state)?;
    let scratch = tempfile::Builder::new()
        .prefix("arx-round-")
        .tempdir()
        .context("cannot create a scratch checkout")?;
    repo.export_tree(commit, scratch.path())?;
    // bwrap binds the scratch checkout by its real path.
    let scratch_path = scratch
        .path()
        .canonicalize()
        .context("cannot resolve the scratch checkout")?;
    let interrupt = Arc::new(AtomicBool::new(false));
    let mut results = Vec::new();
    for check in triggered {
        if !quiet {
            let how = if isolation.is_some() {
                " (isolated)"
            } else {
                ""
            };
            eprintln!(
                "arx: check {}: running `{}`{how}",
                check.name, check.command
            );
        }
        let (argv, shell) = match &isolation {
            None => (vec![check.command.clone()], true),
            Some(iso) => {
                let confinement = Confinement {
                    scratch: &scratch_path,
                    hide: &iso.hide,
                };
                let argv = iso
                    .bwrap
                    .argv(&confinement, &check.command)
                    .map_err(|why| anyhow::anyhow!("cannot isolate check {}: {why}", check.name))?;
                (argv, false)
            }
        };
        let spec = RunSpec {
            argv,
            shell,
            env: Vec::new(),
            cwd: Some(scratch_path.clone()),
            timeout: check.timeout,
            grace: Duration::from_secs(5),
            stop_after_result: None,
            heartbeat: Duration::from_secs(3600),
            stdout_to: Sink::Discard,
            stderr_to: Sink::Discard,
            passthrough: Default::default(),
            place: None,
        };
        let outcome = process::run(&spec, &interrupt, |_| {})?;
        let detail = if outcome.exit_code == 0 {
            String::new()
        } else {
            let class = if outcome.failure_class == FailureClass::None {
                FailureClass::H4
            } else {
                outcome.failure_class
            };
            let last = outcome
                .stderr_tail
                .lines()
                .rev()
                .chain(outcome.stdout_tail.lines().rev())
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .trim()
                .to_string();
            let why = if outcome.timed_out {
                "timed out".to_string()
            } else if last.is_empty() {
                format!("exit code {}, no output", outcome.exit_code)
            } else {
                last
            };
            format!("{class}: {why}")
        };
        if !quiet {
            let secs = outcome.duration.as_secs_f64();
            if outcome.exit_code == 0 {
                eprintln!("arx: check {}: ok ({secs:.1}s)", check.name);
            } else {
                eprintln!(
                    "arx: check {}: failed, exit code {} ({secs:.1}s): {detail}",
                    check.name, outcome.exit_code
                );
            }
        }
        results.push(EvalCheck {
            name: check.name.clone(),
            exit_code: outcome.exit_code,
            detail,
        });
    }
    Ok(EvalReport { checks: results })
}

pub fn run(
    ctx: &Ctx,
    patch_arg: &str,
    auto: bool,
    dry_run: bool,
    round_id: Option<&str>,
    evidence: Option<Option<&str>>,
) -> Result<Exit> {
    let now = timestamp(ctx.global.now.as_deref())?;
    let created_at = now.to_string();
    let id = match round_id {
        Some(id) => id.to_string(),
        None => now.strftime("%Y%m%d-%H%M%S").to_string(),
    };
    check_round_id(&id)?;
    let repo = RoundRepo::open(&ctx.cwd()?)?;
    let state = ctx.state_dir()?;
    let settings = settings(ctx, repo.workdir(), auto)?;
    let quiet = ctx.out.quiet || ctx.out.json;

    let mut record = RoundRecord {
        round_id: id.clone(),
        status: RoundStatus::Skipped,
        detail: String::new(),
        evidence_count: 0,
        patch_hash: None,
        eval_report: None,
        applied_sha: None,
        parent_sha: Some(repo.head.to_string()),
        created_at: created_at.clone(),
        commit_sha: None,
        branch: None,
        reverted_sha: None,
        reverted_at: None,
        errors: Vec::new(),
        landing: false,
    };
    let emit = |record: RoundRecord, next_step: Option<String>| -> Result<Exit> {
        let exit = if record.status == RoundStatus::Rejected {
            Exit::No
        } else {
            Exit::Ok
        };
        ctx.out.emit(&ApplyReport {
            record,
            dry_run,
            next_step,
        })?;
        Ok(exit)
    };

    // 1. The kill switch, before any other work (the patch is not even read).
    if settings.autonomy.kill_switch {
        record.detail = "kill switch is on".into();
        return emit(record, None);
    }
    // A landing an earlier round did not finish is settled first.
    super::recover_landings(&repo, &state)?;
    let value = read_patch(patch_arg)?;
    record.evidence_count = value
        .get("entries")
        .and_then(|e| e.as_array())
        .map_or(0, |entries| {
            entries
                .iter()
                .filter_map(|e| e.get("evidence_refs").and_then(|r| r.as_array()))
                .map(Vec::len)
                .sum()
        });
    // 2. Too soon after the last counted round.
    let records = all_records(&state)?;
    if records.iter().any(|r| r.round_id == id) {
        return Err(Hinted::error(
            format!("round {id} already exists"),
            "pass another --round-id, or wait a second for a new one",
        ));
    }
    if let Some(next) = next_allowed(&records, settings.autonomy.min_interval_hours) {
        if now < next {
            record.detail = format!(
                "too soon: the next round is allowed at {} (min_interval_hours = {})",
                super::shown_time(next),
                settings.autonomy.min_interval_hours
            );
            return emit(record, None);
        }
    }
    // The evidence the round is based on (`--evidence`): too little skips it.
    let mut evidence_md = None;
    if let Some(context) = evidence {
        let (min, max) = (
            settings.autonomy.min_evidence,
            settings.autonomy.max_evidence,
        );
        let (available, selected) =
            crate::ops::finding::evidence(&state, context, now, min, max, WARN)?;
        if selected.is_empty() && !(min == 0 && available == 0) {
            record.detail =
                format!("too little evidence: {available} active findings, a round needs {min}");
            return emit(record, None);
        }
        record.evidence_count = selected.len();
        evidence_md = Some(evidence_markdown(&id, &selected));
    }
    // 3. Validation, then the duplicate check.
    let (patch, errors) = validate_all(&value, &settings, repo.workdir());
    let seen: Vec<HashLine> = hashes(&state, WARN).read()?;
    let seen_set: HashSet<String> = seen.iter().map(|h| h.hash.clone()).collect();
    let screened = match &patch {
        Some(p) => screen_round(p, &settings.autonomy, &errors, &seen_set),
        None => Some(crate::kernel::round::RoundDecision::invalid(&errors)),
    };
    if let Some(p) = &patch {
        record.patch_hash = Some(patch_hash(p));
    }
    if let Some(decision) = screened {
        record.status = decision.status;
        record.detail = decision.detail;
        if decision.status == RoundStatus::Rejected {
            record.errors = errors;
        } else if let Some(h) = &record.patch_hash {
            if let Some(prev) = seen.iter().find(|s| &s.hash == h) {
                record.detail = format!(
                    "duplicate of round {} ({}, patch hash {h})",
                    prev.round, prev.status
                );
            }
        }
        if !dry_run && record.status == RoundStatus::Rejected {
            save(
                &state,
                &record,
                patch.as_ref(),
                None,
                evidence_md.as_deref(),
            )?;
        }
        return emit(record, None);
    }
    let patch = patch.expect("screened patches are parsed");
    let hash = record.patch_hash.clone().unwrap_or_default();
    let problems = head_tree_problems(&repo, repo.head, &patch)?;
    if !problems.is_empty() {
        record.status = RoundStatus::Rejected;
        record.detail = problems.join("; ");
        record.errors = problems;
        if !dry_run {
            save(&state, &record, Some(&patch), None, evidence_md.as_deref())?;
        }
        return emit(record, None);
    }
    // A patch whose every file already holds its content would land an
    // empty commit: skipped, and nothing is written.
    if changes_nothing(&repo, &patch)? {
        record.status = RoundStatus::Skipped;
        record.detail =
            "the patch changes nothing: every file already holds the content it gives".into();
        return emit(record, None);
    }
    if dry_run {
        record.status = RoundStatus::Validated;
        record.detail = "valid; not a duplicate".into();
        return emit(record, None);
    }

    // A round that will land if its checks pass fails fast on dirty paths,
    // before the checks run (and is checked again just before landing).
    let touched: Vec<&str> = patch.entries.iter().map(|e| e.path.as_str()).collect();
    let refuse_dirty = |dirty: Vec<String>| {
        Hinted::error(
            format!(
                "the round touches files with uncommitted changes: {}",
                dirty.join(", ")
            ),
            "commit or stash those changes, then apply the round again",
        )
    };
    let passing = EvalReport::default();
    if gate_round(&passing, &settings.autonomy, patch.confidence).status == RoundStatus::Applied {
        let dirty = repo.dirty_paths(&touched)?;
        if !dirty.is_empty() {
            return Err(refuse_dirty(dirty));
        }
    }

    // 4. The round commit, built in memory, on its own branch.
    let changes: Vec<Change> = patch
        .entries
        .iter()
        .map(|e| Change {
            path: e.path.clone(),
            content: e.content.clone().map(String::into_bytes),
        })
        .collect();
    let commit = repo.build_commit(
        repo.head,
        &changes,
        &message(&id, &patch, &hash),
        now.as_second(),
    )?;
    let branch = format!("harness/round-{id}");
    repo.create_branch(&branch, commit)?;
    record.commit_sha = Some(commit.to_string());
    record.branch = Some(branch.clone());

    // 5. Evaluate.
    let eval = evaluate(&repo, commit, &settings, &state, &patch, quiet);
    let eval = match eval {
        Ok(e) => e,
        Err(e) => {
            let _ = repo.delete_branch(&branch);
            return Err(e);
        }
    };
    record.eval_report = Some(eval.clone());
    // 6. The apply gate.
    let decision = gate_round(&eval, &settings.autonomy, patch.confidence);
    let records_hash = decision.records_hash();
    record.status = decision.status;
    record.detail = decision.detail;
    let mut next_step = None;
    // Landings are serialized: the dirty check, the landing and the
    // round's records happen under the repository's round lock.
    let _lock = if decision.status == RoundStatus::Applied {
        Some(repo.lock_rounds()?)
    } else {
        None
    };
    match decision.status {
        RoundStatus::Rejected => {
            repo.delete_branch(&branch)?;
            record.branch = None;
        }
        RoundStatus::Applied => {
            let dirty = repo.dirty_paths(&touched)?;
            if !dirty.is_empty() {
                let _ = repo.delete_branch(&branch);
                return Err(refuse_dirty(dirty));
            }
            // A record first: if arx is stopped while landing, the next
            // round settles it (`recover_landings`).
            let mut provisional = record.clone();
            provisional.status = RoundStatus::Evaluated;
            provisional.detail = "landing".into();
            provisional.landing = true;
            save(
                &state,
                &provisional,
                Some(&patch),
                Some(&eval),
                evidence_md.as_deref(),
            )?;
            if let Err(e) = repo.land(repo.head, commit, &changes, &format!("arx: round {id}")) {
                let _ = repo.delete_branch(&branch);
                // Nothing landed: the round leaves no trace.
                let _ = std::fs::remove_dir_all(rounds_dir(&state).join(&id));
                return Err(e);
            }
            repo.delete_branch(&branch)?;
            record.branch = None;
            record.applied_sha = Some(commit.to_string());
        }
        _ => {
            next_step = Some(format!(
                "git merge --ff-only {branch}   (or review it first: git show {branch})"
            ));
        }
    }
    save(
        &state,
        &record,
        Some(&patch),
        Some(&eval),
        evidence_md.as_deref(),
    )?;
    if records_hash {
        hashes(&state, WARN).append(&HashLine {
            hash,
            round: id.clone(),
            status: record.status.as_str().to_string(),
        })?;
    }
    emit(record, next_step)
}

/// Does every entry give a file the content HEAD already has? (Deletes
/// always change something: a delete of a missing file is an error.)
fn changes_nothing(repo: &RoundRepo, patch: &RoundPatch) -> Result<bool> {
    for e in &patch.entries {
        let Some(content) = &e.content else {
            return Ok(false);
        };
        let same = repo.tree_kind(repo.head, &e.path)? != crate::io::git::TreeKind::Symlink
            && repo.blob_at(repo.head, &e.path)?.as_deref() == Some(content.as_bytes());
        if !same {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Write the round's files.
fn save(
    state: &std::path::Path,
    record: &RoundRecord,
    patch: Option<&RoundPatch>,
    eval: Option<&EvalReport>,
    evidence: Option<&str>,
) -> Result<()> {
    let dir = rounds_dir(state).join(&record.round_id);
    if let Some(md) = evidence {
        crate::io::rounds::write_text_within(state, &dir.join("evidence.md"), md)?;
    }
    if let Some(p) = patch {
        let mut saved = p.clone();
        saved.round_id = Some(record.round_id.clone());
        write_json_within(state, &dir.join("patch.json"), &saved)?;
    }
    if let Some(e) = eval {
        write_json_within(state, &dir.join("eval.json"), e)?;
    }
    write_json_within(state, &record_path(state, &record.round_id), record)
}

/// The round's evidence.md: one section per finding, in selection order.
fn evidence_markdown(id: &str, items: &[crate::kernel::round::Finding]) -> String {
    let mut md = format!("# Evidence for round {id}\n");
    for f in items {
        md.push_str(&format!(
            "\n## {} ({})\n\n{}\n\n_{}_\n",
            f.kind, f.source, f.content, f.created_at
        ));
    }
    md
}
