//! `arx round validate|apply|revert|status|evidence`: life-harness rounds.
//! The kernel (`kernel::round`) validates and decides; `io::git` builds and
//! lands commits; `io::rounds` keeps the round files. This module gathers
//! what they need (settings, the patch, the governing config) and renders.

mod apply;
mod ci;
mod evidence;
mod harness;
mod protect;
mod revert;
mod status;
mod validate;

use std::path::Path;

use anyhow::Result;
use serde_json::Value;

use super::Ctx;
use crate::cli::RoundCommand;
use crate::error::{Exit, Hinted};
use crate::io::config::Format;
use crate::io::git::RoundRepo;
use crate::io::input::{read_text, Source};
use crate::io::rounds::tree_path_problems;
pub use crate::io::rounds::{record_path, RoundRecord};
pub use ci::{patch_file, tell as tell_ci};
pub use harness::{settings, CheckSpec, Settings};

/// Every round record, oldest first; unreadable ones are skipped with a warning.
pub fn all_records(state: &std::path::Path) -> Result<Vec<RoundRecord>> {
    let (records, skipped) = crate::io::rounds::all_records(state)?;
    for message in &skipped {
        crate::output::warn(message);
    }
    Ok(records)
}

/// Every round: the state directory's records (a cache), and the rounds
/// the repository tells of that they lack (a fresh clone's CI runner has
/// no state directory, but the round commits, their trailers, the revert
/// commits and the review branches came with the clone). Oldest first.
pub fn known_rounds(repo: Option<&RoundRepo>, state: &Path) -> Result<Vec<RoundRecord>> {
    let mut records = all_records(state)?;
    let Some(repo) = repo else {
        return Ok(records);
    };
    for round in repo.git_rounds()? {
        if records.iter().any(|r| r.round_id == round.id) {
            continue;
        }
        records.push(record_from_git(&round));
    }
    records.sort_by(|a, b| {
        let at = |r: &RoundRecord| r.created_at.parse::<jiff::Timestamp>().ok();
        at(a).cmp(&at(b)).then_with(|| a.round_id.cmp(&b.round_id))
    });
    Ok(records)
}

/// A round's record as the repository tells it.
fn record_from_git(round: &crate::io::git::GitRound) -> RoundRecord {
    let commit = round.commit.to_string();
    let created_at = jiff::Timestamp::from_second(round.time)
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH)
        .to_string();
    let (status, detail) = match (round.landed, round.reverted_by) {
        (true, Some(revert)) => (
            RoundStatus::Reverted,
            format!("reverted by {revert} (from the repository's history)"),
        ),
        (true, None) => (
            RoundStatus::Applied,
            "applied (from the repository's history)".to_string(),
        ),
        (false, _) => (
            RoundStatus::Evaluated,
            format!(
                "awaiting review on {} (from the repository)",
                round.branch.as_deref().unwrap_or("its branch")
            ),
        ),
    };
    RoundRecord {
        round_id: round.id.clone(),
        status,
        detail,
        evidence_count: 0,
        patch_hash: round.patch_hash.clone(),
        eval_report: None,
        applied_sha: round.landed.then(|| commit.clone()),
        parent_sha: round.parent.map(|p| p.to_string()),
        created_at,
        commit_sha: Some(commit),
        branch: round.branch.clone(),
        reverted_sha: round.reverted_by.map(|r| r.to_string()),
        reverted_at: None,
        errors: Vec::new(),
        landing: false,
    }
}

/// The patch hashes already decided: the state directory's registry and
/// the rounds the repository tells of (landed, reverted or awaiting review).
pub fn known_hashes(repo: &RoundRepo, state: &Path) -> Result<Vec<crate::io::rounds::HashLine>> {
    let mut seen = crate::io::rounds::hashes(state, crate::commands::WARN).read()?;
    for round in repo.git_rounds()?.into_iter().filter(|r| r.landed) {
        let Some(hash) = round.patch_hash.clone() else {
            continue;
        };
        if seen.iter().any(|h| h.hash == hash) {
            continue;
        }
        let status = record_from_git(&round).status;
        seen.push(crate::io::rounds::HashLine {
            hash,
            round: round.id.clone(),
            status: status.as_str().to_string(),
        });
    }
    Ok(seen)
}
use crate::kernel::round::{
    strict_patch_errors, validate_patch_json, PatchKind, PatchOp, RoundPatch, RoundStatus,
    DEFAULT_CONFIG_PATH,
};

pub fn run(ctx: &Ctx, cmd: &RoundCommand) -> Result<Exit> {
    let result = run_command(ctx, cmd);
    if let Err(e) = &result {
        let patch = match cmd {
            RoundCommand::Validate { patch } | RoundCommand::Apply { patch, .. } => Some(patch),
            _ => None,
        };
        let root = ctx
            .cwd()
            .ok()
            .and_then(|d| crate::io::config::repo_root(&d));
        let file = patch.zip(root).and_then(|(p, r)| ci::patch_file(p, &r));
        ci::tell_error(e, file.as_deref());
    }
    result
}

fn run_command(ctx: &Ctx, cmd: &RoundCommand) -> Result<Exit> {
    match cmd {
        RoundCommand::Validate { patch } => validate::run(ctx, patch),
        RoundCommand::Apply {
            patch,
            auto,
            dry_run,
            round_id,
            evidence,
            context,
        } => apply::run(
            ctx,
            patch,
            *auto,
            *dry_run,
            round_id.as_deref(),
            evidence.then_some(context.as_deref()),
        ),
        RoundCommand::Revert { id } => revert::run(ctx, id),
        RoundCommand::Status => status::run(ctx),
        RoundCommand::ProtectCheck { files } => protect::run(ctx, files),
        RoundCommand::Evidence {
            findings,
            context,
            min,
            max,
        } => evidence::run(ctx, findings.as_deref(), context.as_deref(), *min, *max),
    }
}

/// Entries that change a JSON config's `research_gates` (the approval
/// gates): compared as values, a missing key is `null`.
fn json_gates_errors(patch: &RoundPatch, settings: &Settings, config_path: &str) -> Vec<String> {
    use crate::kernel::round::paths_alias;
    if settings.config_format != Some(Format::Json) || settings.config_rel.is_none() {
        return Vec::new();
    }
    let live = settings
        .protected
        .get("research_gates")
        .cloned()
        .unwrap_or(Value::Null);
    let mut errors = Vec::new();
    for (i, e) in patch.entries.iter().enumerate() {
        if !paths_alias(&e.path, config_path) {
            continue;
        }
        let Some(Ok(Value::Object(new))) = e.content.as_deref().map(serde_json::from_str::<Value>)
        else {
            // Deletes and content that is not a JSON object are reported
            // by the config rules.
            continue;
        };
        if new.get("research_gates").cloned().unwrap_or(Value::Null) != live {
            errors.push(format!(
                "entries[{i}] ({}): round may not modify the research_gates block of its config",
                e.path.escape_debug()
            ));
        }
    }
    errors
}

/// What a state directory at the repository root holds: patches may not
/// touch these names there.
const STATE_NAMES: &[&str] = &[
    "journal.jsonl",
    "dead-ends.jsonl",
    "knowhow.jsonl",
    "rounds",
    "precision.json",
    "report.json",
    "ratchet-pending.json",
    "ratchet-aside.json",
];

/// Entries that would write into the state directory where it really is
/// (`.arx/` is checked by the kernel whatever the state directory).
fn state_dir_errors(patch: &RoundPatch, settings: &Settings) -> Vec<String> {
    use crate::kernel::round::{path_in_dir, path_in_state_dir};
    let Some(dir) = settings.state_rel.as_deref() else {
        return Vec::new();
    };
    let mut errors = Vec::new();
    for (i, e) in patch.entries.iter().enumerate() {
        let inside = if dir.is_empty() {
            STATE_NAMES.iter().any(|n| path_in_dir(&e.path, n))
        } else {
            path_in_dir(&e.path, dir)
        };
        if inside && !path_in_state_dir(&e.path) {
            let shown = if dir.is_empty() { "." } else { dir };
            errors.push(format!(
                "entries[{i}] ({}): may not touch the state directory ({shown}/)",
                e.path.escape_debug()
            ));
        }
    }
    errors
}

/// Read the patch JSON (file or `-`).
pub fn read_patch(arg: &str) -> Result<Value> {
    let source = Source::from_arg(Some(Path::new(arg)));
    let text = read_text(&source, "the patch")?;
    serde_json::from_str(&text).map_err(|e| {
        Hinted::error(
            format!("{} is not valid JSON: {e}", source.describe()),
            "a patch is {\"summary\", \"confidence\", \"entries\": [...]}",
        )
    })
}

/// Every validation error of a patch: the kernel's rules (with the
/// reference's parity), arx's stricter string rules, the governing TOML
/// config's `[harness]` block, and checks against the real working tree.
pub fn validate_all(
    value: &Value,
    settings: &Settings,
    workdir: &Path,
) -> (Option<RoundPatch>, Vec<String>) {
    let json_config = settings.config_format == Some(Format::Json);
    let config_path = match (&settings.config_rel, json_config) {
        (Some(rel), true) => rel.clone(),
        _ => DEFAULT_CONFIG_PATH.to_string(),
    };
    // With a JSON config the kernel guards its harness block; an arx.toml is
    // guarded below.
    let harness = json_config.then_some(&settings.harness);
    let (patch, mut errors) = match validate_patch_json(
        value,
        &settings.autonomy.allowed_targets,
        &settings.deny_paths,
        &config_path,
        harness,
    ) {
        Ok(p) => (Some(p), Vec::new()),
        Err(errors) => (None, errors),
    };
    // Every error is listed: when the kernel's rules fail, arx's own checks
    // still run on the entries as far as they can be read.
    let checked = patch.clone().unwrap_or_else(|| lenient_patch(value));
    errors.extend(strict_patch_errors(
        &checked,
        &settings.deny_paths,
        &config_path,
        harness,
    ));
    errors.extend(state_dir_errors(&checked, settings));
    errors.extend(crate::kernel::round::kind_errors(&checked));
    errors.extend(toml_harness_errors(&checked, settings, workdir));
    errors.extend(json_gates_errors(&checked, settings, &config_path));
    for entry in &checked.entries {
        errors.extend(tree_path_problems(workdir, &entry.path, false));
    }
    (patch, errors)
}

/// The entries of a patch the kernel rejected, as far as they can be read
/// (an entry needs a string path; an unknown kind or op reads as code or
/// modify), for the checks beyond the kernel's.
fn lenient_patch(value: &Value) -> RoundPatch {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
    let entries = value
        .get("entries")
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|e| {
                    Some(crate::kernel::round::PatchEntry {
                        path: text(e, "path")?,
                        kind: text(e, "kind")
                            .and_then(|k| k.parse().ok())
                            .unwrap_or(PatchKind::Code),
                        op: text(e, "op")
                            .and_then(|o| o.parse().ok())
                            .unwrap_or(PatchOp::Modify),
                        content: text(e, "content"),
                        rationale: text(e, "rationale").unwrap_or_default(),
                        evidence_refs: Vec::new(),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    RoundPatch {
        summary: text(value, "summary").unwrap_or_default(),
        confidence: 0.0,
        entries,
        round_id: None,
    }
}

/// Problems of a patch against the tree of `commit` (HEAD), which the
/// working tree may no longer show: a path that names a directory, a file
/// or symlink where a directory is needed, a write into or over a
/// submodule, a delete of a file that is not there. Checked after the
/// duplicate check, so a patch proposed again after it was applied (its
/// deletes done) is still reported as a duplicate.
pub fn head_tree_problems(
    repo: &crate::io::git::RoundRepo,
    commit: git2::Oid,
    patch: &RoundPatch,
) -> Result<Vec<String>> {
    use crate::io::git::TreeKind;
    let mut problems = Vec::new();
    for (i, entry) in patch.entries.iter().enumerate() {
        let tag = format!("entries[{i}] ({})", entry.path);
        let parts: Vec<&str> = entry.path.split('/').collect();
        let mut prefix = String::new();
        let mut blocked = false;
        for (j, part) in parts.iter().enumerate() {
            if !prefix.is_empty() {
                prefix.push('/');
            }
            prefix.push_str(part);
            let last = j + 1 == parts.len();
            let problem = match repo.tree_kind(commit, &prefix)? {
                TreeKind::Submodule => Some(format!("{prefix} is a submodule")),
                TreeKind::Directory if last => Some("names a directory".to_string()),
                TreeKind::File | TreeKind::Executable | TreeKind::Symlink if !last => Some(
                    format!("{prefix} is a file in the repository, not a directory"),
                ),
                _ => None,
            };
            if let Some(p) = problem {
                problems.push(format!("{tag}: {p}"));
                blocked = true;
                break;
            }
        }
        if blocked {
            continue;
        }
        match repo.tree_kind(commit, &entry.path)? {
            TreeKind::Absent if entry.op == PatchOp::Delete => {
                problems.push(format!("{tag}: not in the repository (nothing to delete)"))
            }
            TreeKind::Executable if entry.kind != PatchKind::Code => problems.push(format!(
                "{tag}: kind '{}' does not match the file: it is executable in the repository, so it is code",
                entry.kind
            )),
            _ => {}
        }
    }
    Ok(problems)
}

/// Entries on TOML configs: the governing one may not be deleted, must
/// stay valid TOML and keep its `[harness]` and `[gates]` blocks. Any other
/// file named `arx.toml` (which config discovery would find from its
/// directory, or which would govern once created) may not change those
/// blocks either, compared with what it holds now.
fn toml_harness_errors(patch: &RoundPatch, settings: &Settings, workdir: &Path) -> Vec<String> {
    use crate::kernel::round::{paths_alias, toml_harness_error, toml_protected};
    let governing = match (&settings.config_rel, settings.config_format) {
        (Some(rel), Some(Format::Toml)) => Some(rel.as_str()),
        _ => None,
    };
    let mut errors = Vec::new();
    for entry in &patch.entries {
        let is_governing = governing.is_some_and(|g| paths_alias(&entry.path, g));
        let named_config = entry
            .path
            .rsplit('/')
            .next()
            .is_some_and(|name| paths_alias(name, crate::io::config::FILE_NAME));
        if !is_governing && !named_config {
            continue;
        }
        let current = if is_governing {
            settings.protected.clone()
        } else {
            std::fs::read_to_string(workdir.join(&entry.path))
                .ok()
                .and_then(|t| t.parse::<toml::Table>().ok())
                .map(|t| toml_protected(&t))
                .unwrap_or_default()
        };
        errors.extend(toml_harness_error(
            &entry.path,
            entry.content.as_deref(),
            &current,
            is_governing,
        ));
    }
    errors
}

/// Settle rounds the record no longer tells the truth about:
/// - a landing cut off by a kill is finished or undone in the working tree
///   and the index (`settle_interrupted_landings`), naming the files it
///   restored;
/// - a round whose landing was interrupted: applied when its commit is on
///   the current branch (its patch hash recorded), else left awaiting
///   review on its branch;
/// - a round awaiting review whose commit is now on the current branch
///   (`git merge --ff-only harness/round-<id>`, or a merge): applied, its
///   patch hash recorded (so proposing it again is a duplicate), its review
///   branch removed when it still points at the round commit.
///
/// Takes the round lock: a landing in progress in another process is
/// waited for, never mistaken for an interrupted one.
pub fn recover_landings(repo: &crate::io::git::RoundRepo, state: &Path) -> Result<()> {
    let _lock = repo.lock_rounds_to_read()?;
    // The working tree first: a landing cut off by a kill is finished or
    // undone, and the files it restored are named.
    for report in repo.settle_interrupted_landings()? {
        crate::output::warn(&report);
    }
    let unsettled = |r: &RoundRecord| {
        r.landing || (r.status == RoundStatus::Evaluated && r.commit_sha.is_some())
    };
    for mut record in all_records(state)?.into_iter().filter(unsettled) {
        let commit = record
            .commit_sha
            .as_deref()
            .and_then(|s| git2::Oid::from_str(s).ok());
        let landed = commit.is_some_and(|c| repo.contains(c));
        let was_landing = record.landing;
        if !was_landing && !landed {
            continue;
        }
        record.landing = false;
        if landed {
            record.status = RoundStatus::Applied;
            record.applied_sha = record.commit_sha.clone();
            record.detail = if was_landing {
                "eval passed; autonomy approved (landing completed after an interruption)".into()
            } else {
                format!(
                    "merged from its review branch {}",
                    record.branch.as_deref().unwrap_or("(gone)")
                )
            };
            if let Some(branch) = record.branch.take() {
                if repo.branch_target(&branch) == commit {
                    let _ = repo.delete_branch(&branch);
                }
            }
            if let Some(hash) = &record.patch_hash {
                let registry = crate::io::rounds::hashes(state, crate::commands::WARN);
                let line = crate::io::rounds::HashLine {
                    hash: hash.clone(),
                    round: record.round_id.clone(),
                    status: RoundStatus::Applied.as_str().to_string(),
                };
                registry.append_unless(line, |known| {
                    known.iter().find(|h| h.hash == *hash).cloned()
                })?;
            }
        } else {
            record.status = RoundStatus::Evaluated;
            record.detail = "awaiting review (landing was interrupted)".into();
        }
        let how = if was_landing {
            "an interrupted landing was settled as"
        } else {
            "its review branch was merged; now"
        };
        crate::output::warn(format_args!(
            "round {}: {how} {}",
            record.round_id, record.status
        ));
        crate::io::rounds::write_json_within(
            state,
            &record_path(state, &record.round_id),
            &record,
        )?;
    }
    Ok(())
}

/// When the next round is allowed (`None`: now). A reverted round counts as
/// the applied round it was, at its original time (its record is updated in
/// place, so a revert must not reset the interval).
pub fn next_allowed(records: &[RoundRecord], hours: u64) -> Option<jiff::Timestamp> {
    let last = crate::kernel::round::last_counted_round(records.iter().filter_map(|r| {
        let status = match r.status {
            RoundStatus::Reverted => RoundStatus::Applied,
            s => s,
        };
        r.created_at
            .parse::<jiff::Timestamp>()
            .ok()
            .map(|t| (status, t))
    }));
    crate::kernel::round::next_round_allowed(last, hours)
}

/// A time for people, to the second (rounded up: a round may start at the
/// time shown).
pub fn shown_time(t: jiff::Timestamp) -> String {
    let secs = t.as_second() + i64::from(t.subsec_nanosecond() > 0);
    jiff::Timestamp::from_second(secs)
        .unwrap_or(t)
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

/// Is `id` usable as a round id (a branch and directory name)?
pub fn check_round_id(id: &str) -> Result<()> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && !id.starts_with(['.', '-'])
        && !id.contains("..")
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(Hinted::error(
            format!("invalid round id {id:?}"),
            "use letters, digits, '-', '_' and '.', e.g. 20261121-101500",
        ))
    }
}
