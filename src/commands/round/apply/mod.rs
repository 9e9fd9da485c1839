//! `arx round apply`: validate, dedupe, build the round commit in memory,
//! evaluate it in a scratch checkout, pass the apply gate, and land it as
//! exactly one commit (auto) or leave it on a review branch.

mod base;
mod checks;

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;

use super::{
    check_round_id, head_tree_problems, known_hashes, known_rounds, next_allowed, read_patch,
    record_path, settings, validate_all, RoundRecord, Settings,
};
use crate::commands::Ctx;
use crate::commands::WARN;
use crate::error::{Exit, Hinted};
use crate::io::clock::timestamp;
use crate::io::git::{Change, RoundRepo};
use crate::io::rounds::{hashes, rounds_dir, write_json_within, HashLine};
use crate::kernel::round::{
    gate_round, patch_hash, screen_round, EvalReport, RoundPatch, RoundStatus,
};
use crate::output::{bold, dim, Report};
use checks::evaluate;

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
            // A base's problem goes on with its diffs: indented under it.
            writeln!(out, "  - {}", e.trim_end().replace('\n', "\n    "))?;
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

pub fn run(
    ctx: &Ctx,
    patch_arg: &str,
    auto: bool,
    dry_run: bool,
    round_id: Option<&str>,
    evidence: Option<Option<&str>>,
) -> Result<Exit> {
    let mut r = Round::open(ctx, auto, dry_run, round_id)?;
    r.patch_file = super::patch_file(patch_arg, r.repo.workdir());
    // 1. The kill switch, before any other work (the patch is not even read).
    if r.settings.autonomy.kill_switch {
        r.record.detail = "kill switch is on".into();
        return r.emit(None);
    }
    // A landing an earlier round did not finish is settled first.
    super::recover_landings(&r.repo, &r.state)?;
    // Concurrent applies take turns: from admission to the round's record,
    // one at a time under the repository's round lock (a dry run only
    // reads, and may run where nothing can be written).
    let _turn = if dry_run {
        r.repo.lock_rounds_to_read()?
    } else {
        Some(r.repo.lock_rounds()?)
    };
    let value = read_patch(patch_arg)?;
    r.record.evidence_count = evidence_count(&value);
    // 2. Too soon after the last counted round; too little evidence.
    if !r.admitted()? || !r.select_evidence(evidence)? {
        return r.emit(None);
    }
    // 3. Validation, then the duplicate check.
    let Some(patch) = r.screen(&value)? else {
        return r.emit(None);
    };
    r.refuse_dirty_before_checks(&patch)?;
    // 4. The round commit, built in memory, on its own branch.
    let built = r.build(&patch)?;
    // 5. Evaluate.
    let eval = match evaluate(
        &r.repo,
        built.commit,
        &r.settings,
        &r.state,
        &patch,
        r.quiet,
    ) {
        Ok(e) => e,
        Err(e) => {
            let _ = r.repo.delete_branch(&built.branch);
            return Err(e);
        }
    };
    r.record.eval_report = Some(eval.clone());
    // 6. The apply gate, and the landing.
    r.gate_and_land(&patch, &built, &eval)
}

/// The patch's evidence references, counted before it is validated.
fn evidence_count(value: &serde_json::Value) -> usize {
    value
        .get("entries")
        .and_then(|e| e.as_array())
        .map_or(0, |entries| {
            entries
                .iter()
                .filter_map(|e| e.get("evidence_refs").and_then(|r| r.as_array()))
                .map(Vec::len)
                .sum()
        })
}

/// A round being applied: where, with which settings, and its record so
/// far. Each step of `arx round apply` is a method; a step that decides the
/// round ends early leaves the record to emit.
struct Round<'c> {
    ctx: &'c Ctx,
    repo: RoundRepo,
    state: PathBuf,
    settings: Settings,
    now: jiff::Timestamp,
    id: String,
    dry_run: bool,
    quiet: bool,
    record: RoundRecord,
    evidence_md: Option<String>,
    /// The patch file from the repository root, for CI's annotations.
    patch_file: Option<String>,
}

/// The round commit and the branch that holds it until it lands.
struct Built {
    commit: git2::Oid,
    branch: String,
    changes: Vec<Change>,
    hash: String,
}

impl<'c> Round<'c> {
    fn open(ctx: &'c Ctx, auto: bool, dry_run: bool, round_id: Option<&str>) -> Result<Self> {
        let now = timestamp(ctx.global.now.as_deref())?;
        let id = match round_id {
            Some(id) => id.to_string(),
            None => now.strftime("%Y%m%d-%H%M%S").to_string(),
        };
        check_round_id(&id)?;
        let repo = RoundRepo::open(&ctx.cwd()?)?;
        let state = ctx.state_dir()?;
        let settings = settings(ctx, repo.workdir(), auto)?;
        let record = RoundRecord {
            round_id: id.clone(),
            status: RoundStatus::Skipped,
            detail: String::new(),
            evidence_count: 0,
            patch_hash: None,
            eval_report: None,
            applied_sha: None,
            parent_sha: Some(repo.head.to_string()),
            created_at: now.to_string(),
            commit_sha: None,
            branch: None,
            reverted_sha: None,
            reverted_at: None,
            errors: Vec::new(),
            landing: false,
        };
        Ok(Round {
            // `--json` keeps the checks' progress on stderr: a CI log has
            // nothing else.
            quiet: ctx.out.quiet,
            ctx,
            repo,
            state,
            settings,
            now,
            id,
            dry_run,
            record,
            evidence_md: None,
            patch_file: None,
        })
    }

    /// Print the record; a rejected round is a "no".
    fn emit(self, next_step: Option<String>) -> Result<Exit> {
        let exit = if self.record.status == RoundStatus::Rejected {
            Exit::No
        } else {
            Exit::Ok
        };
        super::tell_ci(&self.record, self.patch_file.as_deref(), self.ctx.out.json);
        let r = &self.record;
        let line = format!(
            "{}: round {}: {}",
            r.status.as_str(),
            r.round_id,
            one_line(&r.detail)
        );
        let next = match (r.status == RoundStatus::Rejected, &next_step) {
            (true, _) => "fix what it says, then apply the round again".to_string(),
            (false, Some(step)) => format!("to land it: {step}"),
            (false, None) => "go on".to_string(),
        };
        self.ctx.out.emit(&ApplyReport {
            record: self.record,
            dry_run: self.dry_run,
            next_step,
        })?;
        self.ctx.answer(&line, &next);
        Ok(exit)
    }

    /// Write the round's files, with the patch and checks given.
    fn save(
        &self,
        record: &RoundRecord,
        patch: &RoundPatch,
        eval: Option<&EvalReport>,
    ) -> Result<()> {
        save(
            &self.state,
            record,
            Some(patch),
            eval,
            self.evidence_md.as_deref(),
        )
    }

    /// Whether the round may go on after the last counted one (an error
    /// for a round id that exists already).
    fn admitted(&mut self) -> Result<bool> {
        let records = known_rounds(Some(&self.repo), &self.state)?;
        // Too soon is decided first: two rounds in one second with the
        // default ids are too soon, not a clash of ids.
        let hours = self.settings.autonomy.min_interval_hours;
        if let Some(next) = next_allowed(&records, hours) {
            if self.now < next {
                self.record.detail = format!(
                    "too soon: the next round is allowed at {} (min_interval_hours = {hours})",
                    super::shown_time(next),
                );
                return Ok(false);
            }
        }
        let id = &self.id;
        if records.iter().any(|r| &r.round_id == id)
            || self
                .repo
                .branch_target(&format!("harness/round-{id}"))
                .is_some()
        {
            return Err(Hinted::error(
                format!("round {id} already exists"),
                "pass another --round-id, or wait a second for a new one",
            ));
        }
        Ok(true)
    }

    /// The evidence the round is based on (`--evidence`): too little skips
    /// it.
    fn select_evidence(&mut self, evidence: Option<Option<&str>>) -> Result<bool> {
        let Some(context) = evidence else {
            return Ok(true);
        };
        let (min, max) = (
            self.settings.autonomy.min_evidence,
            self.settings.autonomy.max_evidence,
        );
        let (available, selected) =
            crate::ops::finding::evidence(&self.state, context, self.now, min, max, WARN)?;
        if selected.is_empty() && !(min == 0 && available == 0) {
            self.record.detail =
                format!("too little evidence: {available} active findings, a round needs {min}");
            return Ok(false);
        }
        self.record.evidence_count = selected.len();
        self.evidence_md = Some(evidence_markdown(&self.id, &selected));
        Ok(true)
    }

    /// Validation, the duplicate check, the patch against HEAD's tree: the
    /// patch when the round goes on to be built (none when the record is
    /// decided: rejected, a duplicate, a no-op, or valid on a dry run).
    fn screen(&mut self, value: &serde_json::Value) -> Result<Option<RoundPatch>> {
        let (patch, errors) = validate_all(value, &self.settings, self.repo.workdir());
        let seen: Vec<HashLine> = known_hashes(&self.repo, &self.state)?;
        let seen_set: HashSet<String> = seen.iter().map(|h| h.hash.clone()).collect();
        let screened = match &patch {
            Some(p) => screen_round(p, &self.settings.autonomy, &errors, &seen_set),
            None => Some(crate::kernel::round::RoundDecision::invalid(&errors)),
        };
        let record = &mut self.record;
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
            if !self.dry_run && record.status == RoundStatus::Rejected {
                let evidence = self.evidence_md.as_deref();
                save(&self.state, record, patch.as_ref(), None, evidence)?;
            }
            return Ok(None);
        }
        let patch = patch.expect("screened patches are parsed");
        self.against_head(patch, value)
    }

    /// The patch against HEAD's tree: rejected when it does not fit, skipped
    /// when it changes nothing, valid on a dry run.
    fn against_head(
        &mut self,
        patch: RoundPatch,
        value: &serde_json::Value,
    ) -> Result<Option<RoundPatch>> {
        let mut problems = head_tree_problems(&self.repo, self.repo.head, &patch)?;
        problems.extend(base::problems(&self.repo, value, &patch)?);
        let record = &mut self.record;
        if !problems.is_empty() {
            record.status = RoundStatus::Rejected;
            // The first line of each (a base's problem goes on with diffs).
            let heads: Vec<&str> = problems.iter().filter_map(|p| p.lines().next()).collect();
            record.detail = heads.join("; ");
            record.errors = problems;
            if !self.dry_run {
                self.save(&self.record, &patch, None)?;
            }
            return Ok(None);
        }
        // A patch whose every file already holds its content would land an
        // empty commit: skipped, and nothing is written.
        if changes_nothing(&self.repo, &patch)? {
            record.status = RoundStatus::Skipped;
            record.detail =
                "the patch changes nothing: every file already holds the content it gives".into();
            return Ok(None);
        }
        if self.dry_run {
            record.status = RoundStatus::Validated;
            record.detail = "valid; not a duplicate".into();
            return Ok(None);
        }
        Ok(Some(patch))
    }

    /// A round that will land if its checks pass fails fast on dirty
    /// paths, before the checks run (and is checked again just before
    /// landing).
    fn refuse_dirty_before_checks(&self, patch: &RoundPatch) -> Result<()> {
        let passing = EvalReport::default();
        if gate_round(&passing, &self.settings.autonomy, patch.confidence).status
            == RoundStatus::Applied
        {
            self.refuse_dirty(patch)?;
        }
        Ok(())
    }

    /// An error when a file the round touches has uncommitted changes.
    fn refuse_dirty(&self, patch: &RoundPatch) -> Result<()> {
        let touched: Vec<&str> = patch.entries.iter().map(|e| e.path.as_str()).collect();
        let dirty = self.repo.dirty_paths(&touched)?;
        if dirty.is_empty() {
            return Ok(());
        }
        Err(Hinted::error(
            format!(
                "the round touches files with uncommitted changes: {}",
                dirty.join(", ")
            ),
            "commit or stash those changes, then apply the round again",
        ))
    }

    /// The round commit, built in memory, on its own branch.
    fn build(&mut self, patch: &RoundPatch) -> Result<Built> {
        let changes: Vec<Change> = patch
            .entries
            .iter()
            .map(|e| Change {
                path: e.path.clone(),
                content: e.content.clone().map(String::into_bytes),
            })
            .collect();
        let hash = self.record.patch_hash.clone().unwrap_or_default();
        let commit = self.repo.build_commit(
            self.repo.head,
            &changes,
            &message(&self.id, patch, &hash),
            self.now.as_second(),
        )?;
        let branch = format!("harness/round-{}", self.id);
        self.repo.create_branch(&branch, commit)?;
        self.record.commit_sha = Some(commit.to_string());
        self.record.branch = Some(branch.clone());
        Ok(Built {
            commit,
            branch,
            changes,
            hash,
        })
    }

    /// The apply gate: a rejected round's branch goes, an applied one
    /// lands, one awaiting review stays on its branch. Then the round's
    /// files and its patch hash are written.
    fn gate_and_land(
        mut self,
        patch: &RoundPatch,
        built: &Built,
        eval: &EvalReport,
    ) -> Result<Exit> {
        let decision = gate_round(eval, &self.settings.autonomy, patch.confidence);
        let records_hash = decision.records_hash();
        self.record.status = decision.status;
        self.record.detail = decision.detail;
        let mut next_step = None;
        // The dirty check, the landing and the round's records happen under
        // the repository's round lock, held since admission (`run`).
        match decision.status {
            RoundStatus::Rejected => {
                self.repo.delete_branch(&built.branch)?;
                self.record.branch = None;
            }
            RoundStatus::Applied => self.land(patch, built, eval)?,
            _ => {
                let branch = &built.branch;
                next_step = Some(format!(
                    "git merge --ff-only {branch}   (or review it first: git show {branch})"
                ));
            }
        }
        self.save(&self.record, patch, Some(eval))?;
        if records_hash {
            hashes(&self.state, WARN).append(&HashLine {
                hash: built.hash.clone(),
                round: self.id.clone(),
                status: self.record.status.as_str().to_string(),
            })?;
        }
        self.emit(next_step)
    }

    /// Land an applied round as exactly one commit, its record written
    /// first (if arx is stopped while landing, the next round settles it:
    /// `recover_landings`).
    fn land(&mut self, patch: &RoundPatch, built: &Built, eval: &EvalReport) -> Result<()> {
        let repo = &self.repo;
        if let Err(e) = self.refuse_dirty(patch) {
            let _ = repo.delete_branch(&built.branch);
            return Err(e);
        }
        let mut provisional = self.record.clone();
        provisional.status = RoundStatus::Evaluated;
        provisional.detail = "landing".into();
        provisional.landing = true;
        self.save(&provisional, patch, Some(eval))?;
        let message = format!("arx: round {}", self.id);
        if let Err(e) = repo.land(repo.head, built.commit, &built.changes, &message) {
            let _ = repo.delete_branch(&built.branch);
            // Nothing landed: the round leaves no trace.
            let _ = std::fs::remove_dir_all(rounds_dir(&self.state).join(&self.id));
            return Err(e);
        }
        repo.delete_branch(&built.branch)?;
        self.record.branch = None;
        self.record.applied_sha = Some(built.commit.to_string());
        Ok(())
    }
}

/// Does every entry give a file the content HEAD already has? (Deletes
/// always change something: a delete of a missing file is an error.)
fn changes_nothing(repo: &RoundRepo, patch: &RoundPatch) -> Result<bool> {
    for e in &patch.entries {
        let Some(content) = &e.content else {
            return Ok(false);
        };
        let same = repo.tree_kind(repo.head, &e.path)? != crate::io::git::TreeKind::Symlink
            && repo.blob_at(repo.head, &e.path)? == Some(repo.to_blob(&e.path, content.as_bytes()));
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
