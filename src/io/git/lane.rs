//! Lanes' side of git: a lane is a linked working tree on its own branch
//! `arx/lane/<name>`, made and removed by git itself (`git worktree add`
//! and `remove`, so a lane costs what a worktree costs), and listed from
//! the repository's own files. The branch a lane's keeps advance (the
//! best's branch) is kept in git's configuration, beside the branch's own
//! settings (`branch.arx/lane/<name>.arxbest`), so it goes when the branch
//! goes.

use std::path::{Path, PathBuf};
use std::process::Command;

use git2::Repository;

use super::git_err;
use crate::error::Hinted;

/// The prefix of every lane's branch.
pub const BRANCH_PREFIX: &str = "arx/lane/";

/// Where `path` really is: the nearest of its ancestors that exists (itself
/// included) with its symbolic links and `..` resolved, and the rest
/// (which does not exist yet, so holds no link) appended with its `..` and
/// `.` parts applied. A relative `path` is taken from the working directory.
pub fn resolved(path: &Path) -> PathBuf {
    use std::path::Component;
    let parts: Vec<Component<'_>> = path.components().collect();
    let (mut real, rest) = (0..=parts.len())
        .rev()
        .find_map(|k| {
            let prefix: PathBuf = parts[..k].iter().collect();
            let prefix = if k == 0 { PathBuf::from(".") } else { prefix };
            prefix.canonicalize().ok().map(|real| (real, &parts[k..]))
        })
        .unwrap_or_else(|| (PathBuf::new(), &parts[..]));
    for part in rest {
        match part {
            Component::ParentDir => {
                real.pop();
            }
            Component::CurDir => {}
            other => real.push(other.as_os_str()),
        }
    }
    real
}

/// One lane as git knows it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LaneInfo {
    pub name: String,
    /// `arx/lane/<name>`.
    pub branch: String,
    /// The lane's working tree, when a worktree has the branch checked out.
    pub path: Option<PathBuf>,
    /// The working tree is there (false: deleted by hand).
    pub exists: bool,
    /// The branch's commit.
    pub head: Option<String>,
    /// The branch its keeps advance (`main`, ...).
    pub best_branch: Option<String>,
}

/// The repository every lane belongs to (its main working tree's).
pub struct Lanes {
    repo: Repository,
    /// The main working tree's root.
    pub root: PathBuf,
}

impl Lanes {
    /// The repository of `cwd`, seen from its main working tree (also
    /// from inside a lane).
    pub fn open(cwd: &Path) -> anyhow::Result<Lanes> {
        let found = Repository::discover(cwd).map_err(|_| {
            Hinted::error(
                format!("{} is not inside a git repository", cwd.display()),
                "lanes are git worktrees: run arx lane in a repository",
            )
        })?;
        let repo = match crate::io::config::main_root(cwd) {
            Some(main) if found.is_worktree() => Repository::open(main).map_err(git_err)?,
            _ => found,
        };
        let root = repo
            .workdir()
            .ok_or_else(|| {
                Hinted::error(
                    "the repository is bare",
                    "run arx lane in a clone with a working tree",
                )
            })?
            .to_path_buf();
        Ok(Lanes { repo, root })
    }

    /// Every lane: each local branch `arx/lane/*`, with the worktree that
    /// has it checked out. Sorted by name.
    pub fn list(&self) -> anyhow::Result<Vec<LaneInfo>> {
        let checked_out = self.worktree_heads()?;
        let mut lanes = Vec::new();
        let branches = self
            .repo
            .branches(Some(git2::BranchType::Local))
            .map_err(git_err)?;
        for b in branches {
            let (branch, _) = b.map_err(git_err)?;
            let Some(full) = branch.get().name().map(str::to_string) else {
                continue;
            };
            let Some(short) = full.strip_prefix("refs/heads/") else {
                continue;
            };
            let Some(name) = short.strip_prefix(BRANCH_PREFIX) else {
                continue;
            };
            let path = checked_out
                .iter()
                .find(|(r, _)| *r == full)
                .map(|(_, p)| p.clone());
            let exists = path.as_ref().is_some_and(|p| p.join(".git").exists());
            lanes.push(LaneInfo {
                name: name.to_string(),
                branch: short.to_string(),
                exists,
                path,
                head: branch.get().target().map(|o| o.to_string()),
                best_branch: self.best_branch(name),
            });
        }
        lanes.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(lanes)
    }

    /// The lane `name`, if there is one.
    pub fn get(&self, name: &str) -> anyhow::Result<Option<LaneInfo>> {
        Ok(self.list()?.into_iter().find(|l| l.name == name))
    }

    /// Each linked worktree's checked-out ref and its path, read from
    /// `.git/worktrees/<id>/{HEAD,gitdir}`.
    fn worktree_heads(&self) -> anyhow::Result<Vec<(String, PathBuf)>> {
        let mut out = Vec::new();
        let dir = self.repo.path().join("worktrees");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return Ok(out);
        };
        for e in entries.flatten() {
            let admin = e.path();
            let head = read_line(&admin.join("HEAD"));
            let gitdir = read_line(&admin.join("gitdir"));
            let (Some(head), Some(gitdir)) = (head, gitdir) else {
                continue;
            };
            let Some(r) = head.strip_prefix("ref:").map(str::trim) else {
                continue;
            };
            let dotgit = PathBuf::from(gitdir);
            let path = dotgit.parent().map(Path::to_path_buf).unwrap_or(dotgit);
            out.push((r.to_string(), path));
        }
        Ok(out)
    }

    /// The branch the main working tree has checked out (short name).
    pub fn main_branch(&self) -> Option<String> {
        let head = self.repo.head().ok()?;
        head.is_branch()
            .then(|| head.shorthand().map(str::to_string))
            .flatten()
    }

    /// The branch the keeps of lane `name` advance.
    pub fn best_branch(&self, name: &str) -> Option<String> {
        self.repo.config().ok()?.get_string(&config_key(name)).ok()
    }

    /// A commit by any revision git understands.
    pub fn resolve(&self, spec: &str) -> Option<String> {
        self.repo
            .revparse_single(spec)
            .and_then(|o| o.peel_to_commit())
            .map(|c| c.id().to_string())
            .ok()
    }

    /// Where `a` and `b` meet.
    pub fn merge_base(&self, a: &str, b: &str) -> Option<String> {
        let a = git2::Oid::from_str(a).ok()?;
        let b = git2::Oid::from_str(b).ok()?;
        self.repo.merge_base(a, b).ok().map(|o| o.to_string())
    }

    /// How many commits `best` has that `head` does not (the keeps a lane
    /// at `head` is behind by).
    pub fn behind(&self, head: &str, best: &str) -> Option<usize> {
        let head = git2::Oid::from_str(head).ok()?;
        let best = git2::Oid::from_str(best).ok()?;
        self.repo
            .graph_ahead_behind(best, head)
            .ok()
            .map(|(ahead, _)| ahead)
    }

    /// Make lane `name`: `git worktree add -b arx/lane/<name> <path>
    /// <commit>`, then note `best_branch`.
    pub fn add(
        &self,
        name: &str,
        path: &Path,
        commit: &str,
        best_branch: &str,
    ) -> anyhow::Result<()> {
        let branch = format!("{BRANCH_PREFIX}{name}");
        if self
            .repo
            .find_branch(&branch, git2::BranchType::Local)
            .is_ok()
        {
            return Err(Hinted::error(
                format!("there is already a lane {name} (branch {branch})"),
                "choose another name, or remove it first with arx lane rm",
            ));
        }
        if std::fs::symlink_metadata(path).is_ok() {
            return Err(Hinted::error(
                format!("{} already exists", path.display()),
                "remove it, or give the lane another place with --dir",
            ));
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", parent.display()))?;
        }
        self.git(&[
            "worktree",
            "add",
            "--quiet",
            "-b",
            &branch,
            &path.to_string_lossy(),
            commit,
        ])?;
        let mut config = self.repo.config().map_err(git_err)?;
        config
            .set_str(&config_key(name), best_branch)
            .map_err(git_err)?;
        Ok(())
    }

    /// Remove lane `name`: its worktree (`git worktree remove --force`, or
    /// `git worktree prune` when its directory is gone), its branch and its
    /// setting.
    pub fn remove(&self, lane: &LaneInfo) -> anyhow::Result<()> {
        match &lane.path {
            Some(p) if lane.exists => {
                self.git(&["worktree", "remove", "--force", &p.to_string_lossy()])?;
            }
            _ => {
                self.git(&["worktree", "prune"])?;
            }
        }
        if let Ok(mut b) = self.repo.find_branch(&lane.branch, git2::BranchType::Local) {
            b.delete().map_err(git_err)?;
        }
        if let Ok(mut config) = self.repo.config() {
            let _ = config.remove(&config_key(&lane.name));
        }
        Ok(())
    }

    /// Store a lane's branch head under `refname` (its commits that were
    /// never kept, when its working tree is gone).
    pub fn store_ref(&self, refname: &str, commit: &str) -> anyhow::Result<()> {
        let oid = git2::Oid::from_str(commit).map_err(git_err)?;
        self.repo
            .reference(refname, oid, true, "arx: a removed lane's branch")
            .map_err(git_err)?;
        Ok(())
    }

    /// Is `commit` the tip of `branch` (short name) or an ancestor of it?
    pub fn on_branch(&self, commit: &str, branch: &str) -> bool {
        let (Ok(c), Ok(tip)) = (
            git2::Oid::from_str(commit),
            self.repo.refname_to_id(&format!("refs/heads/{branch}")),
        ) else {
            return false;
        };
        c == tip || self.repo.graph_descendant_of(tip, c).unwrap_or(false)
    }

    /// Run git in the main working tree; its error output becomes ours.
    fn git(&self, args: &[&str]) -> anyhow::Result<()> {
        let out = Command::new("git")
            .args(args)
            .current_dir(&self.root)
            .output()
            .map_err(|e| {
                Hinted::error(
                    format!("cannot run git: {e}"),
                    "lanes are made by git itself: install git (2.17 or newer)",
                )
            })?;
        if !out.status.success() {
            anyhow::bail!(
                "git {} failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        Ok(())
    }
}

fn config_key(name: &str) -> String {
    format!("branch.{BRANCH_PREFIX}{name}.arxbest")
}

/// The first line of a small file.
fn read_line(path: &Path) -> Option<String> {
    let text = crate::io::config::read_small(path)?;
    Some(text.lines().next()?.trim().to_string())
}
