//! Lanes as `arx lane` and `arx try` both see them: a lane's name, the
//! lane a working tree is, and the best a lane starts from. The git work
//! is `io::git::lane` and `io::git::ratchet`.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use crate::error::Hinted;
use crate::io::git::lane::{LaneInfo, Lanes};
use crate::io::git::ratchet::RatchetRepo;
use crate::io::Warn;

/// A lane name: what a branch name and a directory name can both hold.
pub fn check_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && !name.ends_with('.')
        && !name.ends_with(".lock")
        && !name.contains("..");
    if ok {
        return Ok(());
    }
    Err(Hinted::error(
        format!("invalid lane name {name:?}"),
        "use up to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (for example gpu0)",
    ))
}

/// The segment's best commit, as the journal has it: the segment of the
/// configuration's objective when it names one, else the journal's last
/// segment. `None` before the first baseline.
pub fn best_commit(
    state: &Path,
    objective: Option<&serde_json::Value>,
    warn: Warn,
) -> Result<Option<String>> {
    let id = crate::ops::objective::resolve(
        &crate::ops::objective::ObjectiveFlags::default(),
        objective,
    )
    .ok()
    .map(|(o, _)| o.segment_id());
    segment_best(state, id.as_deref(), warn)
}

/// The best commit of the journal's last segment, when it is segment `id`
/// (any segment when `id` is `None`), from the report's cached fold
/// (extended by the lines appended since). `None` without a journal or
/// before the first baseline.
pub fn segment_best(state: &Path, id: Option<&str>, warn: Warn) -> Result<Option<String>> {
    let path = state.join(crate::io::state::JOURNAL_FILE);
    if !path.exists() {
        return Ok(None);
    }
    let text = crate::io::report::JournalText::open(&path)?;
    let (fold, _, _) = crate::io::report::fold(state, text.bytes(), warn, None)?;
    Ok(fold
        .segments
        .into_iter()
        .last()
        .filter(|s| id.is_none_or(|id| s.id == id))
        .and_then(|s| s.kept)
        .map(|k| k.commit))
}

/// The name (under `refs/arx/discarded/`) a lane's work is saved under by
/// `lane rm --force` and `lane sync --theirs`, which `arx restore` takes:
/// `lane-NAME-STAMP`, never over one saved earlier (twice in one second
/// gets `-2`, `-3`, …).
pub fn saved_name(lanes: &Lanes, name: &str, stamp: &str) -> String {
    (1..)
        .map(|n| match n {
            1 => format!("lane-{name}-{stamp}"),
            n => format!("lane-{name}-{stamp}-{n}"),
        })
        .find(|s| lanes.resolve(&format!("refs/arx/discarded/{s}")).is_none())
        .unwrap_or_default()
}

/// Where a lane's work is kept while it is replayed onto the best.
pub fn before_sync_ref(name: &str) -> String {
    format!("refs/arx/lane/{name}/before-sync")
}

/// The lane `name`, or an error naming the lanes there are.
pub fn find(lanes: &Lanes, name: &str) -> Result<LaneInfo> {
    let infos = lanes.list()?;
    infos
        .iter()
        .find(|l| l.name == name)
        .cloned()
        .ok_or_else(|| {
            let names: Vec<&str> = infos.iter().map(|l| l.name.as_str()).collect();
            Hinted::error(
                format!("there is no lane {name}"),
                if names.is_empty() {
                    "there are no lanes: add one with arx lane add".to_string()
                } else {
                    format!("the lanes are: {}", names.join(", "))
                },
            )
        })
}

/// What `arx try` needs to know of the lane it runs in.
#[derive(Debug, Clone)]
pub struct LaneCtx {
    pub name: String,
    /// The branch its keeps advance (full name, `refs/heads/...`).
    pub best_ref: String,
    /// The main working tree's root.
    pub main_root: PathBuf,
}

impl LaneCtx {
    /// Where this lane's work is kept while it is replayed onto the best.
    pub fn before_sync_ref(&self) -> String {
        before_sync_ref(&self.name)
    }

    /// The main working tree when it is on the best's branch (`None` when
    /// it is on another: a keep does not concern it).
    pub fn main_tree(&self, state: &Path, kept: &str) -> Option<MainTree> {
        let main = RatchetRepo::open(&self.main_root, state).ok()?;
        if format!("refs/heads/{}", main.branch()) != self.best_ref {
            return None;
        }
        let changed = match main.candidate(kept) {
            Ok(c) if main.head() == kept => Some(c.paths),
            _ => None,
        };
        Some(MainTree { changed })
    }

    /// Bring the main working tree to the new best `commit` (whose parent
    /// is `kept`) its branch moved to: all of it when it had no changes of
    /// its own (as `git merge --ff-only` would), else the paths the keep
    /// changed and it did not; its index follows the keep on every path
    /// the keep changed, so nothing staged undoes it. Returns the paths it
    /// changed and the keep changed too, left as they were.
    pub fn follow_in_main(
        &self,
        state: &Path,
        main: &MainTree,
        kept: &str,
        commit: &str,
    ) -> Result<Vec<String>> {
        if main.changed.is_none() {
            return Ok(Vec::new());
        }
        let repo = RatchetRepo::open(&self.main_root, state)?;
        repo.follow_keep(kept, commit)
    }
}

/// The main working tree, on the best's branch.
#[derive(Debug, Clone)]
pub struct MainTree {
    /// The paths it changed relative to the best (sorted), when its HEAD is
    /// the best; `None` when its HEAD is elsewhere.
    pub changed: Option<Vec<String>>,
}

/// The lane `repo` is (its branch is `arx/lane/<name>`), or `None` for
/// another working tree. Refuses a try in a working tree on the branch
/// lanes advance while lanes exist: the lanes move that branch under it.
pub fn context(repo: &RatchetRepo) -> Result<Option<LaneCtx>> {
    let branch = repo.branch().to_string();
    let lanes = Lanes::open(repo.workdir())?;
    if let Some(name) = branch.strip_prefix(crate::io::git::lane::BRANCH_PREFIX) {
        let best = lanes
            .best_branch(name)
            .or_else(|| lanes.main_branch())
            .ok_or_else(|| {
                Hinted::error(
                    format!("lane {name} has no branch to keep on"),
                    "check out the loop's branch in the main working tree",
                )
            })?;
        return Ok(Some(LaneCtx {
            name: name.to_string(),
            best_ref: format!("refs/heads/{best}"),
            main_root: lanes.root.clone(),
        }));
    }
    let on_it: Vec<String> = lanes
        .list()?
        .into_iter()
        .filter(|l| l.best_branch.as_deref() == Some(branch.as_str()))
        .map(|l| l.name)
        .collect();
    if !on_it.is_empty() {
        return Err(Hinted::error(
            format!(
                "lanes keep on {branch} ({}): a try here would have the branch move under it",
                on_it.join(", ")
            ),
            "run arx try in a lane (arx lane list shows where), or add one with arx lane add",
        ));
    }
    Ok(None)
}

/// One lane as `arx lane list` shows it.
#[derive(Serialize, Clone)]
pub struct LaneRow {
    pub name: String,
    pub branch: String,
    pub path: Option<String>,
    /// Its working tree is there (false: deleted by hand; `arx lane rm`
    /// cleans up).
    pub exists: bool,
    /// Where its work started: the best it last took up.
    pub base: Option<String>,
    /// Keeps made on the best's branch since.
    pub behind: Option<usize>,
    pub best_branch: Option<String>,
    pub last_try: Option<LastTry>,
    /// The run going on in it (`arx ps`).
    pub live: Option<String>,
    /// That run's state as `arx ps` says it (`running`, `late`, `lost`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub live_state: Option<String>,
}

#[derive(Serialize, Clone)]
pub struct LastTry {
    pub run_id: String,
    pub status: String,
    pub at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// Every lane as `arx lane list` shows it: its base (where its work started
/// against `best`), how many keeps it is behind, its last try in the
/// journal and the live run in its working tree, at `now_ms`.
pub fn rows(
    state: &Path,
    lanes: &Lanes,
    best: Option<String>,
    now_ms: i64,
    warn: Warn,
) -> Result<Vec<LaneRow>> {
    let infos = lanes.list()?;
    if infos.is_empty() {
        return Ok(Vec::new());
    }
    let records = crate::io::state::journal(state, warn).read()?;
    let live = crate::ops::reactive::survey(state, now_ms, warn).unwrap_or_default();
    Ok(infos
        .into_iter()
        .map(|info| {
            let best = best
                .clone()
                .or_else(|| info.best_branch.as_deref().and_then(|b| lanes.resolve(b)));
            let base = match (&info.head, &best) {
                (Some(h), Some(b)) => lanes.merge_base(h, b),
                (h, _) => h.clone(),
            };
            let behind = match (&base, &best) {
                (Some(h), Some(b)) => lanes.behind(h, b),
                _ => None,
            };
            let last_try = records
                .iter()
                .rev()
                .filter_map(|r| r.ratchet.as_ref().map(|i| (r, i)))
                .find(|(_, i)| i.lane.as_deref() == Some(info.name.as_str()))
                .map(|(r, i)| LastTry {
                    run_id: r.run_id.clone(),
                    status: i.status.as_str().to_string(),
                    at: r.started_at.clone(),
                    description: i.description.clone(),
                });
            let seen = info.path.as_ref().and_then(|p| {
                let p = p.canonicalize().unwrap_or_else(|_| p.clone());
                live.iter().find(|s| {
                    let cwd = PathBuf::from(&s.live.cwd);
                    let cwd = cwd.canonicalize().unwrap_or(cwd);
                    cwd.starts_with(&p)
                })
            });
            LaneRow {
                name: info.name.clone(),
                branch: info.branch.clone(),
                path: info.path.as_ref().map(|p| p.display().to_string()),
                exists: info.exists,
                base,
                behind,
                best_branch: info.best_branch.clone(),
                last_try,
                live: seen.map(|s| s.live.run_id.clone()),
                live_state: seen.map(|s| s.state.as_str().to_string()),
            }
        })
        .collect())
}

/// Commits of `lane` that never became the best's (on `best_branch`).
pub fn unkept(lanes: &Lanes, lane: &LaneInfo, best_branch: &str) -> bool {
    lane.head
        .as_deref()
        .is_some_and(|h| !lanes.on_branch(h, best_branch))
}

/// The working tree of `repo` has changes (tracked or untracked).
pub fn has_changes(repo: &RatchetRepo) -> Result<bool> {
    Ok(!repo.candidate(&repo.head())?.changed.is_empty())
}
