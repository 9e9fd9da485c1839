//! `arx lane add|list|sync|rm`: many tries at once, each in a git
//! worktree of its own (a lane), all sharing the main working tree's state
//! directory, journal and best. The git work is `io::git::lane` (worktrees)
//! and `io::git::ratchet` (replaying a lane's work onto the best); a lane's
//! keep is `arx try`'s (`commands::ratchet::attempt`).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use super::{run_short, short, Ctx, WARN};
use crate::cli::LaneCommand;
use crate::error::{Exit, Hinted};
use crate::io::git::lane::{LaneInfo, Lanes};
use crate::io::git::ratchet::{RatchetRepo, Replay};
use crate::ops::lanes::{check_name, find, saved_name, LaneRow};
use crate::output::{bold, dim, warn, Report};

/// The segment's best commit (see [`crate::ops::lanes::best_commit`]).
fn best_commit(ctx: &Ctx) -> Result<Option<String>> {
    let config = ctx.config()?;
    crate::ops::lanes::best_commit(&ctx.state_dir()?, config.objective.as_ref(), WARN)
}

pub fn run(ctx: &Ctx, cmd: &LaneCommand) -> Result<Exit> {
    match cmd {
        LaneCommand::Add { names, dir } => add(ctx, names, dir.as_deref()),
        LaneCommand::List => list(ctx),
        LaneCommand::Sync { name, theirs } => sync(ctx, name.as_deref(), *theirs),
        LaneCommand::Rm { name, force } => rm(ctx, name, *force),
    }
}

/// Where the lanes of the repository rooted at `root` go by default:
/// `<root>.lanes/` beside it, outside its working tree.
fn default_dir(root: &Path) -> PathBuf {
    let name = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "repository".into());
    root.parent().unwrap_or(root).join(format!("{name}.lanes"))
}

#[derive(Serialize)]
struct Added {
    lanes: Vec<LaneRow>,
}

impl Report for Added {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        for l in &self.lanes {
            writeln!(
                out,
                "{b}lane {}{b:#}: {} (branch {}, at {})",
                l.name,
                l.path.as_deref().unwrap_or("-"),
                l.branch,
                l.base.as_deref().map_or("-", short)
            )?;
        }
        Ok(())
    }
}

fn add(ctx: &Ctx, names: &[String], dir: Option<&Path>) -> Result<Exit> {
    let cwd = ctx.cwd()?;
    let lanes = Lanes::open(&cwd)?;
    check_names(names)?;
    // A branch with no commit is "not on a branch" to git: say what is
    // missing first.
    let Some(head) = lanes.resolve("HEAD") else {
        return Err(Hinted::error(
            "the repository has no commit yet",
            "make a first commit (git add -A && git commit -m start), then add lanes",
        ));
    };
    let state = ctx.state_dir()?;
    if let Ok(repo) = RatchetRepo::open(&cwd, &state) {
        // Lanes start from the best: first finish a keep a crash cut off.
        for line in crate::ops::ratchet::recover::keep(&repo, &state, WARN)? {
            warn(line);
        }
    }
    let Some(best_branch) = lanes.main_branch() else {
        return Err(Hinted::error(
            "the main working tree is not on a branch",
            "check out the branch the loop runs on (git switch main), then add lanes",
        ));
    };
    let best = best_commit(ctx)?.unwrap_or(head);
    if !lanes.on_branch(&best, &best_branch) {
        return Err(Hinted::error(
            format!(
                "{best_branch} does not hold the best commit {}",
                short(&best)
            ),
            "check out the branch the loop runs on in the main working tree",
        ));
    }
    let existing = lanes.list()?;
    let names = names_or_next(names, &existing);
    let dir = match dir {
        Some(d) => crate::io::git::lane::resolved(&cwd.join(d)),
        None => default_dir(&lanes.root),
    };
    // Compared as the file system has them: `..`, `.` and symbolic links
    // resolved on both sides.
    let root = crate::io::git::lane::resolved(&lanes.root);
    if dir.starts_with(&root) {
        return Err(Hinted::error(
            format!("{} is inside the repository's working tree", dir.display()),
            "lanes go outside it (else they show as untracked files): choose a --dir beside it",
        ));
    }
    let mut rows = Vec::new();
    for name in &names {
        if existing.iter().any(|l| &l.name == name) {
            return Err(Hinted::error(
                format!("there is already a lane {name}"),
                "choose another name, or remove it first with arx lane rm",
            ));
        }
        let path = dir.join(name);
        lanes.add(name, &path, &best, &best_branch)?;
        crate::errln!("arx: added lane {name} at {}", path.display());
        rows.push(LaneRow {
            name: name.clone(),
            branch: format!("{}{name}", crate::io::git::lane::BRANCH_PREFIX),
            path: Some(path.display().to_string()),
            exists: true,
            base: Some(best.clone()),
            behind: Some(0),
            best_branch: Some(best_branch.clone()),
            last_try: None,
            live: None,
            live_state: None,
        });
    }
    ctx.out.emit(&Added { lanes: rows })?;
    Ok(Exit::Ok)
}

/// Each lane name valid, and none given twice.
fn check_names(names: &[String]) -> Result<()> {
    for n in names {
        check_name(n)?;
    }
    let mut seen = std::collections::BTreeSet::new();
    for n in names {
        if !seen.insert(n) {
            return Err(Hinted::error(
                format!("lane {n} is named twice"),
                "give each lane its own name",
            ));
        }
    }
    Ok(())
}

/// The names given, or else the first number no lane has.
fn names_or_next(names: &[String], existing: &[LaneInfo]) -> Vec<String> {
    let mut names: Vec<String> = names.to_vec();
    if names.is_empty() {
        let n = (1..)
            .map(|i: usize| i.to_string())
            .find(|n| !existing.iter().any(|l| &l.name == n))
            .unwrap_or_default();
        names.push(n);
    }
    names
}

#[derive(Serialize)]
#[serde(transparent)]
struct Listed {
    lanes: Vec<LaneRow>,
}

impl Report for Listed {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        if self.lanes.is_empty() {
            writeln!(out, "no lanes (add some with arx lane add)")?;
            return Ok(());
        }
        let d = dim();
        for l in &self.lanes {
            let path = if l.exists {
                l.path.clone().unwrap_or_else(|| "-".into())
            } else {
                format!(
                    "{} (missing: arx lane rm {} cleans up)",
                    l.path.as_deref().unwrap_or("no worktree"),
                    l.name
                )
            };
            let behind = match l.behind {
                Some(0) => "at the best".to_string(),
                Some(n) => format!("{n} behind the best"),
                None => "-".into(),
            };
            let last = l.last_try.as_ref().map_or("no try yet".to_string(), |t| {
                format!(
                    "last try {} {}{}",
                    run_short(&t.run_id),
                    t.status,
                    t.description
                        .as_deref()
                        .map(|d| format!(" \"{d}\""))
                        .unwrap_or_default()
                )
            });
            let live = l
                .live
                .as_deref()
                .map(|r| {
                    let state = l.live_state.as_deref().unwrap_or("running");
                    let reap = if state == "lost" {
                        " (arx ps --reap journals it)"
                    } else {
                        ""
                    };
                    format!(", {state} {}{reap}", run_short(r))
                })
                .unwrap_or_default();
            writeln!(
                out,
                "{:<8} {path}  {d}base {} · {behind} · {last}{live}{d:#}",
                l.name,
                l.base.as_deref().map_or("-", short)
            )?;
        }
        Ok(())
    }
}

fn list(ctx: &Ctx) -> Result<Exit> {
    let lanes = Lanes::open(&ctx.cwd()?)?;
    let best = best_commit(ctx)?;
    let now_ms = crate::io::clock::timestamp(ctx.global.now.as_deref())?.as_millisecond();
    let rows = crate::ops::lanes::rows(&ctx.state_dir()?, &lanes, best, now_ms, WARN)?;
    ctx.out.emit(&Listed { lanes: rows })?;
    Ok(Exit::Ok)
}

/// The lane whose working tree holds `cwd`.
fn lane_of(cwd: &Path, infos: &[LaneInfo]) -> Option<LaneInfo> {
    let cwd = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
    infos
        .iter()
        .find(|l| {
            l.path.as_ref().is_some_and(|p| {
                let p = p.canonicalize().unwrap_or_else(|_| p.clone());
                cwd.starts_with(p)
            })
        })
        .cloned()
}

#[derive(Serialize)]
struct Synced {
    lanes: Vec<SyncRow>,
}

#[derive(Serialize)]
struct SyncRow {
    name: String,
    /// `synced`, `already` (at the best or ahead of it), `conflict`, `busy`
    /// (a try runs in it) or `missing` (its directory is gone).
    status: String,
    best: Option<String>,
    /// The lane's work before the replay.
    #[serde(skip_serializing_if = "Option::is_none")]
    snapshot: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    conflicts: Vec<String>,
    /// `--theirs`: the paths where the work conflicted with the best and
    /// the best's side was taken.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    best_won: Vec<String>,
    /// `--theirs`, where the best's side was taken: the work as it was
    /// (`arx restore NAME`, from a clean working tree, or `git show`).
    #[serde(skip_serializing_if = "Option::is_none")]
    saved: Option<String>,
}

impl Report for Synced {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        for r in &self.lanes {
            let best = r.best.as_deref().map_or("-", short);
            let what = match r.status.as_str() {
                "synced" if !r.best_won.is_empty() => format!(
                    "replayed onto the best {best}, the best's side taken where they conflicted in {} \
                     (the work as it was is under {})",
                    r.best_won.join(", "),
                    r.saved.as_deref().unwrap_or("-")
                ),
                "synced" => format!("replayed onto the best {best}"),
                "already" => format!("already on the best {best}"),
                "conflict" => format!(
                    "conflicts with the best {best} in {}; nothing changed \
                     (arx lane sync --theirs {} takes up the best, its side winning there)",
                    r.conflicts.join(", "),
                    r.name
                ),
                "busy" => "a try is running in it; not synced".to_string(),
                _ => "its directory is gone; arx lane rm cleans up".to_string(),
            };
            writeln!(out, "{b}lane {}{b:#}: {what}", r.name)?;
        }
        Ok(())
    }
}

/// The lanes `arx lane sync` syncs: the one named, else the lane the
/// working directory is in, else every lane.
fn to_sync(lanes: &Lanes, cwd: &std::path::Path, name: Option<&str>) -> Result<Vec<LaneInfo>> {
    let infos = lanes.list()?;
    Ok(match name {
        Some(n) => vec![find(lanes, n)?],
        None => match lane_of(cwd, &infos) {
            Some(l) => vec![l],
            None => infos,
        },
    })
}

fn sync(ctx: &Ctx, name: Option<&str>, theirs: bool) -> Result<Exit> {
    let cwd = ctx.cwd()?;
    let lanes = Lanes::open(&cwd)?;
    let chosen = to_sync(&lanes, &cwd, name)?;
    let state = ctx.state_dir()?;
    let best = best_commit(ctx)?;
    let mut out = Vec::new();
    for lane in chosen {
        let best = best
            .clone()
            .or_else(|| lane.best_branch.as_deref().and_then(|b| lanes.resolve(b)));
        let mut row = SyncRow {
            name: lane.name.clone(),
            status: "missing".into(),
            best: best.clone(),
            snapshot: None,
            conflicts: Vec::new(),
            best_won: Vec::new(),
            saved: None,
        };
        let (Some(path), true, Some(best)) = (&lane.path, lane.exists, &best) else {
            out.push(row);
            continue;
        };
        let holder = crate::io::ratchet::TryHolder::ours(
            crate::io::clock::timestamp(ctx.global.now.as_deref())?.to_string(),
            Some("arx lane sync".into()),
        );
        crate::io::state::ensure_dir(&state)?;
        let Ok(_lock) = crate::io::ratchet::lock_try(&state, path, &holder)? else {
            row.status = "busy".into();
            out.push(row);
            continue;
        };
        let repo = RatchetRepo::open(path, &state)?;
        for line in crate::ops::ratchet::recover::all(&repo, &state, WARN)? {
            warn(line);
        }
        let refname = crate::ops::lanes::before_sync_ref(&lane.name);
        let (replay, best_won) =
            crate::ops::ratchet::takeup::replay(&repo, &state, (best, &refname), theirs)?;
        match replay {
            Replay::Already => row.status = "already".into(),
            Replay::Replayed { snapshot } => {
                row.status = "synced".into();
                if !best_won.is_empty() {
                    let stamp = crate::io::clock::timestamp(ctx.global.now.as_deref())?.as_second();
                    let saved = format!(
                        "refs/arx/discarded/{}",
                        saved_name(&lanes, &lane.name, &stamp.to_string())
                    );
                    lanes.store_ref(&saved, &snapshot)?;
                    row.saved = Some(saved);
                    row.best_won = best_won;
                }
                row.snapshot = Some(snapshot);
            }
            Replay::Conflicts(paths) => {
                row.status = "conflict".into();
                row.conflicts = paths;
            }
        }
        out.push(row);
    }
    let failed = out
        .iter()
        .any(|r| r.status != "synced" && r.status != "already");
    ctx.out.emit(&Synced { lanes: out })?;
    Ok(if failed { Exit::No } else { Exit::Ok })
}

#[derive(Serialize)]
struct Removed {
    name: String,
    path: Option<String>,
    /// Where its unsaved work was stored (`--force`, or a lane whose
    /// directory was deleted by hand, with commits never kept).
    #[serde(skip_serializing_if = "Option::is_none")]
    saved: Option<String>,
    /// The name `arx restore` puts that work back by.
    #[serde(skip_serializing_if = "Option::is_none")]
    restore: Option<String>,
}

impl Report for Removed {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        write!(out, "{b}removed lane {}{b:#}", self.name)?;
        if let Some(p) = &self.path {
            write!(out, " ({p})")?;
        }
        writeln!(out)?;
        if let (Some(s), Some(name)) = (&self.saved, &self.restore) {
            writeln!(
                out,
                "  its unsaved work is under {s}: arx restore {name} puts it back in the working tree it runs in"
            )?;
        }
        Ok(())
    }
}

fn rm(ctx: &Ctx, name: &str, force: bool) -> Result<Exit> {
    check_name(name)?;
    let cwd = ctx.cwd()?;
    let lanes = Lanes::open(&cwd)?;
    let lane = find(&lanes, name)?;
    let state = ctx.state_dir()?;
    let stamp = crate::io::clock::timestamp(ctx.global.now.as_deref())?
        .as_second()
        .to_string();
    let stored = saved_name(&lanes, name, &stamp);
    let refname = format!("refs/arx/discarded/{stored}");
    let best_branch = lane
        .best_branch
        .clone()
        .or_else(|| lanes.main_branch())
        .unwrap_or_default();
    let unkept = crate::ops::lanes::unkept(&lanes, &lane, &best_branch);
    let mut saved = None;
    let _lock;
    match (&lane.path, lane.exists) {
        (Some(path), true) => {
            refuse_inside(&cwd, path, name)?;
            let holder =
                crate::io::ratchet::TryHolder::ours(stamp.clone(), Some("arx lane rm".into()));
            crate::io::state::ensure_dir(&state)?;
            _lock = match crate::io::ratchet::lock_try(&state, path, &holder)? {
                Ok(lock) => lock,
                Err(_) => {
                    return Err(Hinted::error(
                        format!("an arx try is running in lane {name}"),
                        "wait for it to end (arx ps shows it), then remove the lane",
                    ))
                }
            };
            let repo = RatchetRepo::open(path, &state)?;
            for line in crate::ops::ratchet::recover::all(&repo, &state, WARN)? {
                warn(line);
            }
            let dirty = crate::ops::lanes::has_changes(&repo)?;
            if dirty || unkept {
                if !force {
                    return Err(Hinted::error(
                        format!(
                            "lane {name} has unsaved work ({})",
                            match (dirty, unkept) {
                                (true, true) => "changes in its working tree and commits never kept",
                                (true, false) => "changes in its working tree",
                                _ => "commits never kept",
                            }
                        ),
                        format!("keep it with arx try in {}, or remove the lane with --force (the work is stored first, under refs/arx/discarded/lane-{name}-<time>, whose name arx restore takes)", path.display()),
                    ));
                }
                repo.snapshot(&refname, &format!("arx: lane {name} removed"))?;
                saved = Some(refname.clone());
            }
        }
        _ => {
            if unkept {
                if let Some(h) = &lane.head {
                    lanes.store_ref(&refname, h)?;
                    saved = Some(refname.clone());
                    warn(format_args!(
                        "lane {name}'s directory is gone; its branch's commits never kept are under {refname} (arx restore {stored} puts them back)"
                    ));
                }
            }
        }
    }
    lanes.remove(&lane)?;
    ctx.out.emit(&Removed {
        name: name.to_string(),
        path: lane.path.as_ref().map(|p| p.display().to_string()),
        restore: saved.as_ref().map(|_| stored.clone()),
        saved,
    })?;
    Ok(Exit::Ok)
}

/// A lane is not removed from inside it.
fn refuse_inside(cwd: &Path, path: &Path, name: &str) -> Result<()> {
    if cwd
        .canonicalize()
        .unwrap_or_else(|_| cwd.to_path_buf())
        .starts_with(path.canonicalize().unwrap_or_else(|_| path.to_path_buf()))
    {
        return Err(Hinted::error(
            format!("the working directory is inside lane {name}"),
            "run arx lane rm from the main working tree",
        ));
    }
    Ok(())
}
