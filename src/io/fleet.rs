//! The fleet's door: a git remote several machines share, reached by the
//! git program (fetch and push over whatever the remote's URL names: ssh,
//! `git://`, https, a path), where the best is the remote's branch and a
//! keep is a push that names the value it expects (a compare-and-swap);
//! each machine's records as a commit chain under
//! `refs/arx/fleet/<machine>/records` (its records, its card and its
//! backlog of ideas; fetched under
//! `refs/arx/fleet-remote/`); and what this machine is (its host name, its
//! GPU or CPU model).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use anyhow::{Context, Result};

use crate::error::Hinted;

/// Where the remote's branches are fetched to.
const HEADS: &str = "refs/arx/fleet-remote/heads/";
/// Where the machines' record chains are fetched to.
const MACHINES: &str = "refs/arx/fleet-remote/m/";
/// The file of a chain's commit that holds the machine's records.
pub const RECORDS_FILE: &str = "records.jsonl";
/// The file of a chain's commit that holds the machine's card.
pub const CARD_FILE: &str = "machine.json";
/// The file of a chain's commit that holds the machine's backlog of ideas.
pub const IDEAS_FILE: &str = "ideas.jsonl";

/// A machine's own chain of records, as this clone and the remote name it.
pub fn chain_ref(machine: &str) -> String {
    format!("refs/arx/fleet/{machine}/records")
}

/// An idea's claim, as the remote names it (`name`: the idea's id made a
/// ref's part).
pub fn claim_ref(name: &str) -> String {
    format!("refs/arx/fleet/claims/{name}")
}

/// Where the claims are fetched to.
const CLAIMS: &str = "refs/arx/fleet-remote/m/claims/";

/// A keep waiting for other classes (`confirm_classes`), by its run id,
/// as the remote names it.
pub fn pending_ref(run: &str) -> String {
    format!("refs/arx/fleet/pending/{run}")
}

/// The file of a claim's commit that holds its lease.
pub const LEASE_FILE: &str = "lease.json";

/// What a push came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Push {
    /// Every ref moved, at once.
    Landed,
    /// A ref was not at the value the push expected: nothing moved.
    Lost(String),
    /// The remote did not answer (or refused for another reason): nothing
    /// moved.
    Unreachable(String),
}

/// One ref a push moves: to `commit`, only from `expected` (`None`: only
/// where the ref does not exist yet).
pub struct Update<'a> {
    pub commit: &'a str,
    pub refname: String,
    pub expected: Option<&'a str>,
}

/// The fleet's remote as one working tree reaches it.
#[derive(Clone)]
pub struct Door {
    root: PathBuf,
    pub remote: String,
    pub branch: String,
}

impl Door {
    /// The remote `remote` of the repository at `root`, its best on
    /// `branch`. An unknown remote is an error that says how to add it.
    pub fn open(root: &Path, remote: &str, branch: &str) -> Result<Door> {
        let door = Door {
            root: root.to_path_buf(),
            remote: remote.to_string(),
            branch: branch.to_string(),
        };
        let out = door.git(&["remote", "get-url", remote])?;
        if !out.status.success() {
            return Err(Hinted::error(
                format!("[fleet] remote = {remote:?}: this clone has no such git remote"),
                format!("add it: git remote add {remote} URL (the repository the machines share)"),
            ));
        }
        Ok(door)
    }

    /// The remote's URL, as `git remote get-url` tells it.
    pub fn url(&self) -> String {
        self.git(&["remote", "get-url", &self.remote])
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default()
    }

    fn git(&self, args: &[&str]) -> Result<Output> {
        Command::new("git")
            .args(args)
            .current_dir(&self.root)
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("LC_ALL", "C")
            .output()
            .map_err(|e| {
                Hinted::error(
                    format!("cannot run git: {e}"),
                    "the fleet talks to its remote through git itself: install git",
                )
            })
    }

    /// Fetch the remote's branches and every machine's chain (a chain gone
    /// from the remote is gone here too). `Err` with git's words when the
    /// remote does not answer.
    pub fn fetch(&self) -> Result<std::result::Result<(), String>> {
        let _refs = self.lock_refs()?;
        let out = self.git(&[
            "fetch",
            "--quiet",
            "--no-tags",
            "--prune",
            "--no-write-fetch-head",
            &self.remote,
            &format!("+refs/heads/*:{HEADS}*"),
            &format!("+refs/arx/fleet/*:{MACHINES}*"),
        ])?;
        Ok(if out.status.success() {
            Ok(())
        } else {
            Err(last_line(&out.stderr))
        })
    }

    /// The remote's best as last fetched.
    pub fn best(&self) -> Option<String> {
        self.resolve(&format!("{HEADS}{}", self.branch))
    }

    /// A ref's commit here.
    pub fn resolve(&self, refname: &str) -> Option<String> {
        let repo = git2::Repository::open(&self.root).ok()?;
        let id = repo.refname_to_id(refname).ok()?;
        Some(id.to_string())
    }

    /// The machines' chains as last fetched: (machine, tip), by name.
    pub fn chains(&self) -> Result<Vec<(String, String)>> {
        let repo = self.repo()?;
        let mut out = Vec::new();
        for r in repo
            .references_glob(&format!("{MACHINES}*/records"))
            .context("cannot list the fleet's chains")?
            .flatten()
        {
            let (Some(name), Some(id)) = (r.name(), r.target()) else {
                continue;
            };
            let machine = name
                .trim_start_matches(MACHINES)
                .trim_end_matches("/records");
            out.push((machine.to_string(), id.to_string()));
        }
        out.sort();
        Ok(out)
    }

    /// A machine's chain tip as last fetched from the remote.
    pub fn fetched_chain(&self, machine: &str) -> Option<String> {
        self.resolve(&format!("{MACHINES}{machine}/records"))
    }

    /// A keep waiting for other classes, by its run id: its commit as
    /// last fetched.
    pub fn fetched_pending(&self, run: &str) -> Option<String> {
        self.resolve(&format!("{MACHINES}pending/{run}"))
    }

    /// The keeps waiting for other classes as last fetched: (run id, its
    /// commit), by run.
    pub fn fetched_pendings(&self) -> Result<Vec<(String, String)>> {
        let repo = self.repo()?;
        let prefix = format!("{MACHINES}pending/");
        let mut out = Vec::new();
        for r in repo
            .references_glob(&format!("{prefix}*"))
            .context("cannot list the fleet's pending keeps")?
            .flatten()
        {
            if let (Some(name), Some(id)) = (r.name(), r.target()) {
                out.push((name.trim_start_matches(&prefix).to_string(), id.to_string()));
            }
        }
        out.sort();
        Ok(out)
    }

    /// After a pending keep's ref was pushed (`Some(commit)`) or deleted
    /// on the remote: the fetched ref says what the remote now holds.
    pub fn pending_moved(&self, run: &str, commit: Option<&str>) -> Result<()> {
        self.mirror(&pending_ref(run), commit)
    }

    /// After a push that moved `refname` on the remote to `commit` (`None`:
    /// deleted it): its fetched copy says what the remote now holds.
    /// Under the lock of the fetched refs, so that no fetch of another
    /// working tree (a lane), begun before the push, writes the older
    /// value over it.
    pub fn mirror(&self, refname: &str, commit: Option<&str>) -> Result<()> {
        let Some(fetched) = fetched_name(refname) else {
            return Ok(());
        };
        let _refs = self.lock_refs()?;
        let repo = self.repo()?;
        match commit {
            Some(c) => {
                repo.reference(&fetched, git2::Oid::from_str(c)?, true, "arx fleet")
                    .with_context(|| format!("cannot set {fetched}"))?;
            }
            None => {
                if let Ok(mut r) = repo.find_reference(&fetched) {
                    r.delete()
                        .with_context(|| format!("cannot delete {fetched}"))?;
                }
            }
        }
        Ok(())
    }

    /// Wait for the lock of this repository's fetched refs
    /// (`arx-fleet.lock` in its git directory, which every working tree
    /// of it shares): one fetch at a time writes them, and no copy of a
    /// push's result is written while one does. Two fetches at once
    /// collide on git's ref locks, and one whose answer is older can
    /// prune a claim the other just fetched.
    fn lock_refs(&self) -> Result<std::fs::File> {
        let path = common_dir(&self.repo()?).join("arx-fleet.lock");
        let mut options = std::fs::OpenOptions::new();
        options.read(true).write(true).create(true);
        let file = super::state::open_no_follow(&mut options, &path)?;
        file.lock()
            .with_context(|| format!("cannot lock {}", path.display()))?;
        Ok(file)
    }

    /// Which of `commits` this repository lacks.
    pub fn missing(&self, commits: &[String]) -> Result<Vec<String>> {
        let repo = self.repo()?;
        Ok(commits
            .iter()
            .filter(|c| {
                git2::Oid::from_str(c)
                    .and_then(|id| repo.find_commit(id))
                    .is_err()
            })
            .cloned()
            .collect())
    }

    /// A commit's first parent (`None` for a root commit); an error when
    /// the commit is not in this repository.
    pub fn parent_of(&self, commit: &str) -> Result<Option<String>> {
        let repo = self.repo()?;
        let c = repo
            .find_commit(git2::Oid::from_str(commit)?)
            .with_context(|| format!("commit {commit} is not in this repository"))?;
        Ok(c.parent_id(0).ok().map(|p| p.to_string()))
    }

    /// The working tree's files as `commit` has them (files it lacks
    /// removed); the branch and the index are left alone.
    pub fn restore_tree(&self, commit: &str) -> Result<()> {
        let source = format!("--source={commit}");
        let out = self.git(&["restore", &source, "--worktree", "--", ":/"])?;
        anyhow::ensure!(
            out.status.success(),
            "cannot put the pending keep {commit} in the working tree: {}",
            last_line(&out.stderr)
        );
        Ok(())
    }

    /// The claims as last fetched: (the claim's ref name part, its commit),
    /// by name.
    pub fn claims(&self) -> Result<Vec<(String, String)>> {
        let repo = self.repo()?;
        let mut out = Vec::new();
        for r in repo
            .references_glob(&format!("{CLAIMS}*"))
            .context("cannot list the fleet's claims")?
            .flatten()
        {
            if let (Some(name), Some(id)) = (r.name(), r.target()) {
                out.push((name.trim_start_matches(CLAIMS).to_string(), id.to_string()));
            }
        }
        out.sort();
        Ok(out)
    }

    /// A claim's lease text, from its commit.
    pub fn read_lease(&self, commit: &str) -> Result<Option<Vec<u8>>> {
        let repo = self.repo()?;
        let tree = repo.find_commit(git2::Oid::from_str(commit)?)?.tree()?;
        Ok(tree
            .get_name(LEASE_FILE)
            .and_then(|e| repo.find_blob(e.id()).ok())
            .map(|b| b.content().to_vec()))
    }

    /// A claim's commit holding `lease` (no parent, no ref moves).
    pub fn build_lease(&self, lease: &[u8]) -> Result<String> {
        let repo = self.repo()?;
        let mut tree = repo.treebuilder(None)?;
        tree.insert(LEASE_FILE, repo.blob(lease)?, 0o100644)?;
        let tree = repo.find_tree(tree.write()?)?;
        let sig = git2::Signature::now("arx", "arx@localhost")?;
        let id = repo.commit(None, &sig, &sig, "arx: fleet claim", &tree, &[])?;
        Ok(id.to_string())
    }

    /// After a claim's push landed (`commit`) or its release (`None`): the
    /// fetched ref says what the remote now holds.
    pub fn claimed(&self, name: &str, commit: Option<&str>) -> Result<()> {
        self.mirror(&claim_ref(name), commit)
    }

    /// Delete `refname` on the remote only while it is at `expected`.
    pub fn delete(&self, refname: &str, expected: &str) -> Result<Push> {
        let lease = format!("--force-with-lease={refname}:{expected}");
        let spec = format!(":{refname}");
        let out = self.git(&["push", "--porcelain", &lease, &self.remote, &spec])?;
        Ok(outcome(&out))
    }

    /// The files of a chain's commit: the records' text and the card's.
    pub fn read_chain(&self, tip: &str) -> Result<(Vec<u8>, Option<Vec<u8>>)> {
        let repo = self.repo()?;
        let commit = repo
            .find_commit(git2::Oid::from_str(tip)?)
            .with_context(|| format!("the fleet's chain commit {tip} is missing"))?;
        let tree = commit.tree()?;
        let blob = |name: &str| -> Option<Vec<u8>> {
            let e = tree.get_name(name)?;
            let b = repo.find_blob(e.id()).ok()?;
            Some(b.content().to_vec())
        };
        Ok((blob(RECORDS_FILE).unwrap_or_default(), blob(CARD_FILE)))
    }

    /// The backlog's text of a chain's commit (empty when it has none: a
    /// chain published by an arx before ideas travelled).
    pub fn read_chain_ideas(&self, tip: &str) -> Result<Vec<u8>> {
        let repo = self.repo()?;
        let commit = repo
            .find_commit(git2::Oid::from_str(tip)?)
            .with_context(|| format!("the fleet's chain commit {tip} is missing"))?;
        let tree = commit.tree()?;
        Ok(tree
            .get_name(IDEAS_FILE)
            .and_then(|e| repo.find_blob(e.id()).ok())
            .map(|b| b.content().to_vec())
            .unwrap_or_default())
    }

    /// A chain's next commit (on `parent`), holding `records`, `card` and
    /// `ideas`; no ref moves.
    pub fn build_chain(
        &self,
        parent: Option<&str>,
        records: &[u8],
        card: &[u8],
        ideas: &[u8],
    ) -> Result<String> {
        let repo = self.repo()?;
        let mut tree = repo.treebuilder(None)?;
        tree.insert(RECORDS_FILE, repo.blob(records)?, 0o100644)?;
        tree.insert(CARD_FILE, repo.blob(card)?, 0o100644)?;
        tree.insert(IDEAS_FILE, repo.blob(ideas)?, 0o100644)?;
        let tree = repo.find_tree(tree.write()?)?;
        let sig = git2::Signature::now("arx", "arx@localhost")?;
        let parents: Vec<git2::Commit<'_>> = parent
            .map(|p| repo.find_commit(git2::Oid::from_str(p)?))
            .transpose()?
            .into_iter()
            .collect();
        let refs: Vec<&git2::Commit<'_>> = parents.iter().collect();
        let id = repo.commit(None, &sig, &sig, "arx: fleet records", &tree, &refs)?;
        Ok(id.to_string())
    }

    /// Point `refname` here at `commit` (a fetched ref after a push that
    /// moved it on the remote, or this machine's own chain).
    pub fn set_ref(&self, refname: &str, commit: &str) -> Result<()> {
        let repo = self.repo()?;
        repo.reference(refname, git2::Oid::from_str(commit)?, true, "arx fleet")
            .with_context(|| format!("cannot set {refname}"))?;
        Ok(())
    }

    /// After a push that landed: the fetched refs say what the remote now
    /// holds.
    pub fn landed(&self, machine: &str, updates: &[Update<'_>]) -> Result<()> {
        for u in updates {
            if u.refname == format!("refs/heads/{}", self.branch) || u.refname == chain_ref(machine)
            {
                self.mirror(&u.refname, Some(u.commit))?;
            }
        }
        Ok(())
    }

    /// Push every update at once (`--atomic`), each only from the value it
    /// expects (`--force-with-lease`): all land or none.
    pub fn push(&self, updates: &[Update<'_>]) -> Result<Push> {
        let mut args: Vec<String> = vec!["push".into(), "--atomic".into(), "--porcelain".into()];
        for u in updates {
            args.push(format!(
                "--force-with-lease={}:{}",
                u.refname,
                u.expected.unwrap_or("")
            ));
        }
        args.push(self.remote.clone());
        for u in updates {
            args.push(format!("{}:{}", u.commit, u.refname));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = self.git(&args)?;
        Ok(outcome(&out))
    }

    /// A setting of this clone's git configuration (`arx.machine`,
    /// `arx.class`): what one machine's clone says of itself without
    /// changing the shared `arx.toml`.
    pub fn local_setting(&self, key: &str) -> Option<String> {
        let repo = git2::Repository::open(&self.root).ok()?;
        let value = repo.config().ok()?.get_string(key).ok()?;
        Some(value.trim().to_string()).filter(|v| !v.is_empty())
    }

    pub(crate) fn repo(&self) -> Result<git2::Repository> {
        git2::Repository::open(&self.root).context("cannot open the repository")
    }
}

/// The branch HEAD is on, for the fleet's default.
pub fn current_branch(root: &Path) -> Option<String> {
    let repo = git2::Repository::open(root).ok()?;
    let head = repo.head().ok()?;
    head.shorthand().map(str::to_string)
}

/// This machine's host name.
pub fn host_name() -> String {
    nix::unistd::gethostname()
        .ok()
        .map(|h| h.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// What names this machine's hardware: the GPUs `nvidia-smi` lists (when
/// it answers) and `/proc/cpuinfo`'s text.
pub fn hardware() -> (Option<String>, Option<String>) {
    let gpus = Command::new("nvidia-smi")
        .args(["--query-gpu=name", "--format=csv,noheader"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
    let cpu = std::fs::read_to_string("/proc/cpuinfo").ok().or_else(|| {
        Command::new("sysctl")
            .args(["-n", "machdep.cpu.brand_string"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| format!("model name: {}", String::from_utf8_lossy(&o.stdout)))
    });
    (gpus, cpu)
}

/// A lock for this working tree's fleet sync (`fleet.lock` in the state
/// directory): one sync at a time builds and pushes the machine's chain.
pub struct SyncLock {
    _file: std::fs::File,
}

/// Wait for the fleet's sync lock of the state directory `state`.
pub fn lock_sync(state: &Path) -> Result<SyncLock> {
    super::state::ensure_dir(state)?;
    let path = state.join("fleet.lock");
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true);
    let file = super::state::open_no_follow(&mut options, &path)?;
    file.lock()
        .with_context(|| format!("cannot lock {}", path.display()))?;
    Ok(SyncLock { _file: file })
}

/// The git directory every working tree of `repo` shares: a linked
/// working tree's own git directory names it in its `commondir` file.
fn common_dir(repo: &git2::Repository) -> PathBuf {
    let own = repo.path();
    match std::fs::read_to_string(own.join("commondir")) {
        Ok(text) => own.join(text.trim()),
        Err(_) => own.to_path_buf(),
    }
}

/// Where a fetch puts the remote's `refname` here: its branches and
/// everything under `refs/arx/fleet/` (`None`: a ref no fetch copies).
fn fetched_name(refname: &str) -> Option<String> {
    if let Some(branch) = refname.strip_prefix("refs/heads/") {
        return Some(format!("{HEADS}{branch}"));
    }
    refname
        .strip_prefix("refs/arx/fleet/")
        .map(|rest| format!("{MACHINES}{rest}"))
}

/// What git's push said: landed, lost (a ref not where it was expected),
/// or unreachable.
fn outcome(out: &Output) -> Push {
    if out.status.success() {
        return Push::Landed;
    }
    let said = String::from_utf8_lossy(&out.stdout);
    let rejected = said.lines().find(|l| {
        l.starts_with('!')
            && (l.contains("stale info")
                || l.contains("fetch first")
                || l.contains("non-fast-forward")
                || l.contains("already exists")
                || l.contains("atomic"))
    });
    match rejected {
        Some(line) => Push::Lost(line.trim_start_matches('!').trim().to_string()),
        None => Push::Unreachable(last_line(&out.stderr)),
    }
}

fn last_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .unwrap_or("git failed")
        .trim_start_matches("fatal: ")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::git::testing::git;

    #[test]
    fn a_commits_parent_is_told_and_a_commit_not_here_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        git(root, &["init", "--quiet", "-b", "main"]);
        git(root, &["commit", "--quiet", "--allow-empty", "-m", "one"]);
        let first = git(root, &["rev-parse", "HEAD"]);
        git(root, &["commit", "--quiet", "--allow-empty", "-m", "two"]);
        let second = git(root, &["rev-parse", "HEAD"]);
        git(root, &["remote", "add", "origin", "/nowhere"]);
        let door = Door::open(root, "origin", "main").unwrap();
        assert_eq!(door.parent_of(&second).unwrap(), Some(first.clone()));
        assert_eq!(door.parent_of(&first).unwrap(), None);
        let absent = "0123456789abcdef0123456789abcdef01234567";
        let err = door.parent_of(absent).unwrap_err().to_string();
        assert!(err.contains("not in this repository"), "{err}");
        assert!(door.parent_of("not a commit").is_err());
    }
}
