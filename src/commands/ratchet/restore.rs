//! `arx restore [RUN]`: put a discarded candidate back in the working tree
//! (without RUN, the newest discarded try's), or work stored under
//! `refs/arx/discarded/NAME` by name (`arx lane rm --force` prints it).

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use crate::commands::{lookup_run, Ctx, WARN};
use crate::error::{Exit, Hinted};
use crate::io::git::ratchet::RatchetRepo;
use crate::io::state::journal;
use crate::output::{bold, Report};

#[derive(Serialize)]
struct RestoreReport {
    /// The try's run id (absent for work stored by name, such as a removed
    /// lane's).
    #[serde(skip_serializing_if = "Option::is_none")]
    run_id: Option<String>,
    discarded_ref: String,
    paths: Vec<String>,
}

impl Report for RestoreReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        writeln!(
            out,
            "{b}restored{b:#}: {} paths from {}",
            self.paths.len(),
            self.discarded_ref
        )?;
        for p in &self.paths {
            writeln!(out, "  {p}")?;
        }
        Ok(())
    }
}

pub fn run(ctx: &Ctx, run_id: Option<&str>) -> Result<Exit> {
    let state = ctx.state_dir()?;
    let registry = journal(&state, WARN);
    let records = registry.read()?;
    if let Some(name) = run_id.and_then(|q| stored_name(&records, q)) {
        return restore_stored(ctx, &state, &name);
    }
    let record = match run_id {
        // The one discarded try the prefix names (a run id's start can name
        // tries of other statuses too), else a set-aside ref the prefix
        // names (a try cut off before its record), else the journal's run.
        Some(id) => match discarded_by_prefix(&records, id) {
            Some(r) => r,
            None => {
                if let Some(name) = set_aside_by_prefix(ctx, &state, id)? {
                    return restore_stored(ctx, &state, &name);
                }
                lookup_run(ctx, &records, &registry.path, id)?
            }
        },
        None => records
            .iter()
            .rev()
            .find(|r| r.ratchet.as_ref().is_some_and(|t| t.discarded_ref.is_some()))
            .cloned()
            .ok_or_else(|| {
                Hinted::error(
                    "no discarded try in the journal",
                    "arx try sets a candidate aside when it does not keep it; `arx log --format tsv` lists the tries",
                )
            })?,
    };
    let Some(refname) = record
        .ratchet
        .as_ref()
        .and_then(|r| r.discarded_ref.clone())
    else {
        return Err(Hinted::error(
            format!("run {} is not a discarded try", record.run_id),
            "`arx log --format tsv` lists the tries and their statuses; only a discard's candidate can be restored",
        ));
    };
    let repo = RatchetRepo::open(&ctx.cwd()?, &state)?;
    let _lock = finish_interrupted(&repo, &state)?;
    if repo.ref_target(&refname).is_none() {
        return Err(Hinted::error(
            format!("{refname} no longer exists in this repository"),
            "the discarded candidate was stored in the repository it ran in; fetch its refs/arx/* refs",
        ));
    }
    let paths = repo.apply_snapshot(&refname)?;
    ctx.out.emit(&RestoreReport {
        run_id: Some(record.run_id.clone()),
        discarded_ref: refname,
        paths,
    })?;
    Ok(Exit::Ok)
}

/// The one discarded try whose run id starts with `query`.
fn discarded_by_prefix(
    records: &[crate::kernel::journal::RunRecord],
    query: &str,
) -> Option<crate::kernel::journal::RunRecord> {
    let query = query.trim();
    let mut found = records.iter().filter(|r| {
        !query.is_empty()
            && r.run_id.starts_with(query)
            && r.ratchet
                .as_ref()
                .is_some_and(|t| t.discarded_ref.is_some())
    });
    match (found.next(), found.next()) {
        (Some(one), None) => Some(one.clone()),
        _ => None,
    }
}

/// The name under `refs/arx/discarded/` of the one set-aside ref whose
/// name starts with `query` (outside a git repository: none).
fn set_aside_by_prefix(ctx: &Ctx, state: &std::path::Path, query: &str) -> Result<Option<String>> {
    let name = query.trim().strip_prefix(DISCARDED).unwrap_or(query.trim());
    if name.is_empty() || name.contains("..") {
        return Ok(None);
    }
    let Ok(repo) = RatchetRepo::open(&ctx.cwd()?, state) else {
        return Ok(None);
    };
    Ok(
        match repo.refs_starting(&format!("{DISCARDED}{name}")).as_slice() {
            [one] => Some(one.trim_start_matches(DISCARDED).to_string()),
            _ => None,
        },
    )
}

/// The name under `refs/arx/discarded/` that `query` gives (`NAME` or the
/// whole ref), when no run of the journal has that id or prefix: work
/// stored by name, as `arx lane rm --force` stores a lane's.
fn stored_name(records: &[crate::kernel::journal::RunRecord], query: &str) -> Option<String> {
    use crate::kernel::journal::{find_run, Lookup};
    let name = query.trim().strip_prefix(DISCARDED).unwrap_or(query.trim());
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && !name.contains("..")
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    let is_run = matches!(
        find_run(records, query),
        Lookup::Found(_) | Lookup::Ambiguous(_)
    );
    (plain && !is_run && name.len() <= 200).then(|| name.to_string())
}

const DISCARDED: &str = "refs/arx/discarded/";

/// Put back the work stored under `refs/arx/discarded/NAME`; a name with
/// no such ref falls back to the journal's error for an unknown run.
fn restore_stored(ctx: &Ctx, state: &std::path::Path, name: &str) -> Result<Exit> {
    let repo = RatchetRepo::open(&ctx.cwd()?, state)?;
    let mut refname = format!("{DISCARDED}{name}");
    // A prefix of a set-aside ref's name (a run id as `arx log` shows it,
    // or any unique start) names that ref.
    if repo.ref_target(&refname).is_none() {
        match repo.refs_starting(&refname).as_slice() {
            [one] => refname.clone_from(one),
            [] => {}
            many => {
                return Err(Hinted::error(
                    format!("{name} names {} set-aside candidates", many.len()),
                    format!(
                        "give more of the name: {}",
                        many.iter()
                            .take(5)
                            .map(|r| r.trim_start_matches(DISCARDED))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ))
            }
        }
    }
    if repo.ref_target(&refname).is_none() {
        let registry = journal(state, WARN);
        let records = registry.read()?;
        return Err(lookup_run(ctx, &records, &registry.path, name)
            .err()
            .unwrap_or_else(|| anyhow::anyhow!("there is no {refname}")));
    }
    let _lock = finish_interrupted(&repo, state)?;
    let paths = repo.apply_snapshot(&refname)?;
    ctx.out.emit(&RestoreReport {
        run_id: None,
        discarded_ref: refname,
        paths,
    })?;
    Ok(Exit::Ok)
}

/// A restore changes the working tree: it takes the working tree's try
/// lock (refusing while a try runs there), then finishes what a killed
/// arx left half done (see `ops::ratchet::recover`). The lock is held
/// until the restore ends.
fn finish_interrupted(
    repo: &RatchetRepo,
    state: &std::path::Path,
) -> Result<crate::io::ratchet::TryLock> {
    let holder = crate::io::ratchet::TryHolder::ours(
        crate::io::clock::timestamp(None)?.to_string(),
        Some("arx restore".into()),
    );
    crate::io::state::ensure_dir(state)?;
    let Ok(lock) = crate::io::ratchet::lock_try(state, repo.workdir(), &holder)? else {
        return Err(Hinted::error(
            "an arx try is running in this working tree",
            "wait for it to end (arx ps shows it), then restore",
        ));
    };
    for line in crate::ops::ratchet::recover::all(repo, state, WARN)? {
        crate::output::warn(line);
    }
    Ok(lock)
}

/// One candidate set aside, as `--list` and `--prune` show it.
#[derive(Serialize)]
struct Stored {
    refname: String,
    /// The name under `refs/arx/discarded/` (a try's run id, or a removed
    /// lane's work).
    name: String,
    commit: String,
    stored_at: String,
    paths: usize,
    bytes: u64,
}

impl Stored {
    fn of(s: crate::io::git::ratchet::StoredRef) -> Stored {
        let stored_at = jiff::Timestamp::from_second(s.time)
            .map(|t| t.to_string())
            .unwrap_or_default();
        Stored {
            name: s
                .refname
                .strip_prefix(DISCARDED)
                .unwrap_or(&s.refname)
                .to_string(),
            refname: s.refname,
            commit: s.commit,
            stored_at,
            paths: s.paths,
            bytes: s.bytes,
        }
    }
}

/// Bytes as people read them.
fn size(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1024.0 * 1024.0 * 1024.0 {
        format!("{:.1} GB", b / (1024.0 * 1024.0 * 1024.0))
    } else if b >= 1024.0 * 1024.0 {
        format!("{:.1} MB", b / (1024.0 * 1024.0))
    } else if b >= 1024.0 {
        format!("{:.1} KB", b / 1024.0)
    } else {
        format!("{bytes} B")
    }
}

#[derive(Serialize)]
struct ListReport {
    stored: Vec<Stored>,
    bytes: u64,
}

impl Report for ListReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        for s in &self.stored {
            writeln!(
                out,
                "{}  {}  {} path{}  {}",
                s.name,
                s.stored_at,
                s.paths,
                if s.paths == 1 { "" } else { "s" },
                size(s.bytes)
            )?;
        }
        writeln!(
            out,
            "{} set aside, {} (arx restore --prune --older-than 30d removes the old ones)",
            self.stored.len(),
            size(self.bytes)
        )
    }
}

/// `arx restore --list`: the candidates set aside, oldest first, with
/// their size. Changes nothing.
pub fn list(ctx: &Ctx) -> Result<Exit> {
    let state = ctx.state_dir()?;
    let repo = RatchetRepo::open(&ctx.cwd()?, &state)?;
    let stored: Vec<Stored> = repo.stored_refs()?.into_iter().map(Stored::of).collect();
    let bytes = stored.iter().map(|s| s.bytes).sum();
    ctx.out.emit(&ListReport { stored, bytes })?;
    Ok(Exit::Ok)
}

#[derive(Serialize)]
struct PruneReport {
    pruned: Vec<Stored>,
    /// The set-aside candidates younger than the age, left.
    kept: usize,
    bytes: u64,
}

impl Report for PruneReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        for s in &self.pruned {
            writeln!(
                out,
                "pruned  {}  {}  {}",
                s.name,
                s.stored_at,
                size(s.bytes)
            )?;
        }
        writeln!(
            out,
            "{} pruned ({}), {} kept; git gc --prune=now frees their space",
            self.pruned.len(),
            size(self.bytes),
            self.kept
        )
    }
}

/// An age such as `30d`, `12h` or `1h30m`.
fn age(text: &str) -> Result<std::time::Duration> {
    let trimmed = text.trim();
    if let Some(days) = trimmed.strip_suffix('d') {
        if let Ok(days) = days.trim().parse::<f64>() {
            if days.is_finite() && days >= 0.0 {
                return Ok(std::time::Duration::from_secs_f64(days * 86_400.0));
            }
        }
    }
    crate::io::clock::parse_duration(trimmed, "--older-than").map_err(|_| {
        Hinted::error(
            format!("invalid --older-than {text:?}"),
            "use an age such as 30d, 12h or 1h30m",
        )
    })
}

/// `arx restore --prune --older-than AGE`: remove the refs of candidates
/// set aside longer ago than `AGE` (before `--now`). The journal keeps
/// their records; `arx restore` of one says its ref is gone.
pub fn prune(ctx: &Ctx, older_than: &str) -> Result<Exit> {
    let age = age(older_than)?;
    let now = crate::io::clock::timestamp(ctx.global.now.as_deref())?;
    let cutoff = now.as_second() - age.as_secs() as i64;
    let state = ctx.state_dir()?;
    let repo = RatchetRepo::open(&ctx.cwd()?, &state)?;
    let (old, young): (Vec<_>, Vec<_>) = repo
        .stored_refs()?
        .into_iter()
        .partition(|s| s.time < cutoff);
    let mut pruned = Vec::new();
    for s in old {
        repo.delete_ref(&s.refname)?;
        pruned.push(Stored::of(s));
    }
    let bytes = pruned.iter().map(|s| s.bytes).sum();
    ctx.out.emit(&PruneReport {
        pruned,
        kept: young.len(),
        bytes,
    })?;
    Ok(Exit::Ok)
}
