//! Landing a round's commit in the working tree: files renamed into place
//! one by one, the index and the branch ref moved last, and everything put
//! back if any step fails. A landing cut off by a kill leaves its plan
//! (`landing.json`) and the old files in its scratch directory inside
//! `.git`; [`RoundRepo::settle_interrupted_landings`] finishes or undoes it.

use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use super::{git_err, Change, RoundRepo, TreeKind};

impl RoundRepo {
    /// Land `commit` (whose parent is `expected`) on the current branch.
    ///
    /// Nothing is written unless the branch still points at `expected` and
    /// every target can be written inside the working tree (no symlink on
    /// the way or at the target, no directory in place of a file). The new
    /// files are then written whole to temporary files inside `.git` and
    /// synced, renamed into place one by one (each rename is atomic, so no
    /// file is ever seen half-written), their index entries are updated to
    /// the commit's blobs, and the branch ref moves last, only if it still
    /// points at `expected`. The old files are moved aside (inside `.git`)
    /// rather than overwritten, so if any step fails, every file, created
    /// directory and the index are put back as they were before the error
    /// is returned. A process killed part-way leaves the branch where it
    /// was.
    pub fn land(
        &self,
        expected: git2::Oid,
        commit: git2::Oid,
        changes: &[Change],
        log_message: &str,
    ) -> anyhow::Result<()> {
        self.land_with(expected, commit, changes, log_message, &mut |_| Ok(()))
    }

    /// [`RoundRepo::land`], calling `fault(step)` before each step that
    /// changes something (every file, the index, the branch ref), so tests
    /// can make any of them fail.
    fn land_with(
        &self,
        expected: git2::Oid,
        commit: git2::Oid,
        changes: &[Change],
        log_message: &str,
        fault: &mut dyn FnMut(usize) -> std::io::Result<()>,
    ) -> anyhow::Result<()> {
        self.check_landing(expected, changes)?;
        let tree = self
            .repo
            .find_commit(commit)
            .map_err(git_err)?
            .tree()
            .map_err(git_err)?;
        // Every new file complete and synced before the first one moves.
        let scratch = tempfile::Builder::new()
            .prefix("arx-round-")
            .tempdir_in(self.repo.path())
            .context("cannot create a temporary directory inside .git")?;
        let staged = self.stage_files(scratch.path(), commit, changes)?;
        self.save_plan(scratch.path(), commit, changes)?;
        // From here on the scratch directory outlives a kill; it is
        // removed once the landing is done or undone.
        let scratch = scratch.keep();
        let landing = Landing {
            tree: &tree,
            expected,
            commit,
            changes,
            scratch: &scratch,
            log_message,
        };
        let mut undo = Undo::default();
        if let Err(e) = self.move_into_place(&landing, staged, &mut undo, fault) {
            return Err(roll_back(e, undo, &scratch));
        }
        let _ = std::fs::remove_dir_all(&scratch);
        Ok(())
    }

    /// Nothing is written unless the branch still points at `expected` and
    /// every target can be written inside the working tree.
    fn check_landing(&self, expected: git2::Oid, changes: &[Change]) -> anyhow::Result<()> {
        let current = self.repo.refname_to_id(&self.branch_ref).map_err(git_err)?;
        if current != expected {
            anyhow::bail!(
                "{} moved while the round was prepared (now at {current})",
                self.branch_name()
            );
        }
        for change in changes {
            let problems =
                crate::io::rounds::tree_path_problems(&self.workdir, &change.path, false);
            if let Some(p) = problems.first() {
                anyhow::bail!("refusing to write: {p}");
            }
        }
        Ok(())
    }

    /// Every new file written whole and synced in `scratch` (named by its
    /// change's position), with the commit's mode.
    fn stage_files(
        &self,
        scratch: &Path,
        commit: git2::Oid,
        changes: &[Change],
    ) -> anyhow::Result<Vec<(usize, std::path::PathBuf)>> {
        let mut staged = Vec::new();
        for (i, change) in changes.iter().enumerate() {
            let Some(bytes) = &change.content else {
                continue;
            };
            // The commit's blob as checkout writes it (line endings).
            let bytes = self.to_worktree(&change.path, &self.to_blob(&change.path, bytes));
            let tmp = scratch.join(i.to_string());
            {
                use std::io::Write;
                let mut f = std::fs::File::create(&tmp).with_context_path(&tmp)?;
                f.write_all(&bytes).with_context_path(&tmp)?;
                f.sync_all().with_context_path(&tmp)?;
            }
            if self.tree_kind(commit, &change.path)? == TreeKind::Executable {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755))
                    .with_context_path(&tmp)?;
            }
            staged.push((i, tmp));
        }
        Ok(staged)
    }

    /// The plan, so that the next arx command can undo a landing cut off
    /// by a kill (or finish it, once the branch has moved): what each
    /// target was, the directories that will be created, the index.
    fn save_plan(
        &self,
        scratch: &Path,
        commit: git2::Oid,
        changes: &[Change],
    ) -> anyhow::Result<()> {
        let plan = Plan {
            commit: commit.to_string(),
            changes: changes
                .iter()
                .map(|c| PlannedChange {
                    path: c.path.clone(),
                    existed: std::fs::symlink_metadata(self.workdir.join(&c.path)).is_ok(),
                    writes: c.content.is_some(),
                })
                .collect(),
            created_dirs: self.missing_dirs(changes),
        };
        let index_path = self.repo.path().join("index");
        match std::fs::read(&index_path) {
            Ok(bytes) => crate::io::rounds::write_bytes_atomic(&scratch.join(INDEX_COPY), &bytes)
                .with_context_path(&scratch.join(INDEX_COPY))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context_path(&index_path),
        }
        let plan_path = scratch.join(PLAN_FILE);
        crate::io::rounds::write_bytes_atomic(&plan_path, &serde_json::to_vec(&plan)?)
            .with_context_path(&plan_path)?;
        Ok(())
    }

    /// The directories the changes' files need that do not exist yet,
    /// deepest first.
    fn missing_dirs(&self, changes: &[Change]) -> Vec<String> {
        let mut dirs = std::collections::BTreeSet::new();
        for change in changes.iter().filter(|c| c.content.is_some()) {
            let mut dir = Path::new(&change.path).parent();
            while let Some(d) = dir.filter(|d| !d.as_os_str().is_empty()) {
                if self.workdir.join(d).exists() {
                    break;
                }
                dirs.insert(d.to_string_lossy().into_owned());
                dir = d.parent();
            }
        }
        let mut dirs: Vec<String> = dirs.into_iter().collect();
        dirs.sort_by_key(|d| std::cmp::Reverse(d.matches('/').count()));
        dirs
    }

    /// Finish or undo landings cut off by a kill (their scratch directories
    /// inside `.git` still hold a plan). A landing whose commit is on the
    /// current branch had done everything: its scratch directory goes.
    /// Any other is undone: the old files are put back, the files it
    /// created removed, with the directories it created, and the index
    /// restored. Returns one line per landing, naming the files restored.
    /// Call it under the round lock ([`RoundRepo::lock_rounds`]), so that
    /// no landing in progress is taken for an interrupted one.
    pub fn settle_interrupted_landings(&self) -> anyhow::Result<Vec<String>> {
        let mut reports = Vec::new();
        let git_dir = self.repo.path().to_path_buf();
        let entries = std::fs::read_dir(&git_dir)
            .with_context(|| format!("cannot list {}", git_dir.display()))?;
        for entry in entries.flatten() {
            let name = entry.file_name();
            if !name.to_string_lossy().starts_with("arx-round-")
                || !entry.file_type().is_ok_and(|t| t.is_dir())
            {
                continue;
            }
            let scratch = entry.path();
            let plan: Plan = match std::fs::read(scratch.join(PLAN_FILE)) {
                Ok(bytes) => serde_json::from_slice(&bytes).with_context(|| {
                    format!("{} is not valid", scratch.join(PLAN_FILE).display())
                })?,
                // No plan: cut off before anything moved, or kept on
                // purpose after a failed undo (the message named it).
                Err(_) => {
                    let kept_old_files = std::fs::read_dir(&scratch).is_ok_and(|mut d| {
                        d.any(|e| {
                            e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with("old-"))
                        })
                    });
                    if !kept_old_files {
                        let _ = std::fs::remove_dir_all(&scratch);
                    }
                    continue;
                }
            };
            let commit = git2::Oid::from_str(&plan.commit).map_err(git_err)?;
            if self.contains(commit) {
                let _ = std::fs::remove_dir_all(&scratch);
                reports.push(format!(
                    "an interrupted landing of {commit} had completed; its leftovers were removed"
                ));
                continue;
            }
            reports.push(self.undo_landing(&scratch, &plan, commit)?);
        }
        Ok(reports)
    }

    /// Undo the interrupted landing of `commit` that `plan` and `scratch`
    /// describe; the line that says what was put back.
    fn undo_landing(
        &self,
        scratch: &Path,
        plan: &Plan,
        commit: git2::Oid,
    ) -> anyhow::Result<String> {
        let mut restored = Vec::new();
        let mut removed = Vec::new();
        for (i, change) in plan.changes.iter().enumerate().rev() {
            let target = self.workdir.join(&change.path);
            let backup = scratch.join(format!("old-{i}"));
            let staged = scratch.join(i.to_string());
            let here = std::fs::symlink_metadata(&target).is_ok();
            if std::fs::symlink_metadata(&backup).is_ok() {
                if here {
                    std::fs::remove_file(&target).with_context_path(&target)?;
                }
                std::fs::rename(&backup, &target).with_context_path(&target)?;
                restored.push(change.path.clone());
            } else if change.writes && !change.existed && here && !staged.exists() {
                std::fs::remove_file(&target).with_context_path(&target)?;
                removed.push(change.path.clone());
            }
        }
        for dir in &plan.created_dirs {
            let _ = std::fs::remove_dir(self.workdir.join(dir));
        }
        let index_copy = scratch.join(INDEX_COPY);
        if let Ok(bytes) = std::fs::read(&index_copy) {
            let index_path = self.repo.path().join("index");
            crate::io::rounds::write_bytes_atomic(&index_path, &bytes)
                .with_context_path(&index_path)?;
        }
        std::fs::remove_dir_all(scratch).with_context_path(scratch)?;
        restored.reverse();
        removed.reverse();
        let list = |paths: &[String]| {
            if paths.is_empty() {
                "none".to_string()
            } else {
                paths.join(", ")
            }
        };
        Ok(format!(
            "an interrupted landing of {commit} was undone: restored {} ({}); removed {} new ({}); the index was put back",
            restored.len(),
            list(&restored),
            removed.len(),
            list(&removed)
        ))
    }

    /// The landing proper: old files moved aside into the scratch
    /// directory, new ones renamed in, the index written, the branch ref
    /// moved. Each step is recorded in `undo` once done.
    fn move_into_place(
        &self,
        landing: &Landing<'_>,
        staged: Vec<(usize, std::path::PathBuf)>,
        undo: &mut Undo,
        fault: &mut dyn FnMut(usize) -> std::io::Result<()>,
    ) -> anyhow::Result<()> {
        // The fault hook sees the steps numbered from 0.
        let mut steps = 0..;
        let mut next_step = || fault(steps.next().expect("unbounded"));
        let mut staged = staged.into_iter().peekable();
        for (i, change) in landing.changes.iter().enumerate() {
            let target = self.workdir.join(&change.path);
            next_step().with_context_path(&target)?;
            // The old file, if any, is moved aside (a deletion ends here).
            move_aside(&target, &landing.scratch.join(format!("old-{i}")), undo)?;
            if let Some((_, tmp)) = staged.next_if(|(j, _)| *j == i) {
                move_in(&tmp, &target, undo)?;
            }
        }
        let index_path = self.repo.path().join("index");
        next_step().with_context_path(&index_path)?;
        self.write_index(landing, &index_path, undo)?;
        next_step().context("cannot move the branch")?;
        self.repo
            .reference_matching(
                &self.branch_ref,
                landing.commit,
                true,
                landing.expected,
                landing.log_message,
            )
            .map_err(|e| {
                anyhow::anyhow!(
                    "the branch moved while the round was applied: {}",
                    e.message()
                )
            })?;
        Ok(())
    }

    /// The index entries of the changed paths set to the commit's blobs
    /// and modes, the old index kept in `undo`.
    fn write_index(
        &self,
        landing: &Landing<'_>,
        index_path: &Path,
        undo: &mut Undo,
    ) -> anyhow::Result<()> {
        match std::fs::read(index_path) {
            Ok(bytes) => undo.index = Some((index_path.to_path_buf(), Some(bytes))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                undo.index = Some((index_path.to_path_buf(), None))
            }
            Err(e) => {
                return Err(
                    anyhow::Error::new(e).context(format!("cannot read {}", index_path.display()))
                )
            }
        }
        // Read from disk again: the copy libgit2 keeps may be older than the
        // file (another process may have written it), and writing a stale
        // index back would undo its changes.
        let mut index = self.repo.index().map_err(git_err)?;
        index.read(true).map_err(git_err)?;
        for change in landing.changes {
            let path = Path::new(&change.path);
            match &change.content {
                Some(_) => {
                    // The stat data of the file just written, the blob and
                    // mode of the commit (content filters such as autocrlf
                    // must not make the index differ from the commit).
                    index.add_path(path).map_err(git_err)?;
                    let in_tree = landing.tree.get_path(path).map_err(git_err)?;
                    if let Some(mut entry) = index.get_path(path, 0) {
                        let mode = in_tree.filemode() as u32;
                        if entry.id != in_tree.id() || entry.mode != mode {
                            entry.id = in_tree.id();
                            entry.mode = mode;
                            index.add(&entry).map_err(git_err)?;
                        }
                    }
                }
                None => {
                    let _ = index.remove_path(path);
                }
            }
        }
        index.write().map_err(git_err)?;
        Ok(())
    }
}

/// What one landing moves where.
struct Landing<'a> {
    tree: &'a git2::Tree<'a>,
    /// The branch's commit the landing starts from.
    expected: git2::Oid,
    commit: git2::Oid,
    changes: &'a [Change],
    /// Where the staged files wait and the old ones are moved aside.
    scratch: &'a Path,
    log_message: &'a str,
}

/// The old file at `target`, if any, moved to `backup`.
fn move_aside(target: &Path, backup: &Path, undo: &mut Undo) -> anyhow::Result<()> {
    match std::fs::symlink_metadata(target) {
        Ok(_) => {
            std::fs::rename(target, backup).with_context_path(target)?;
            undo.steps.push(UndoStep::MovedAside {
                target: target.to_path_buf(),
                backup: backup.to_path_buf(),
            });
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(anyhow::Error::new(e).context(format!("cannot read {}", target.display()))),
    }
}

/// The staged file `tmp` renamed to `target`, its missing directories
/// created first.
fn move_in(tmp: &Path, target: &Path, undo: &mut Undo) -> anyhow::Result<()> {
    if let Some(parent) = target.parent() {
        let mut missing = Vec::new();
        let mut dir = parent;
        while !dir.exists() {
            missing.push(dir.to_path_buf());
            match dir.parent() {
                Some(up) => dir = up,
                None => break,
            }
        }
        std::fs::create_dir_all(parent).with_context_path(parent)?;
        undo.steps
            .extend(missing.into_iter().rev().map(UndoStep::CreatedDir));
    }
    std::fs::rename(tmp, target).with_context_path(target)?;
    undo.steps.push(UndoStep::Created(target.to_path_buf()));
    Ok(())
}

/// A failed landing: every file, directory and the index put back as they
/// were; the error says whether that worked.
fn roll_back(e: anyhow::Error, undo: Undo, scratch: &Path) -> anyhow::Error {
    let unrestored = undo.roll_back();
    if unrestored.is_empty() {
        let _ = std::fs::remove_dir_all(scratch);
        return e.context("the round was not applied; the working tree and index are as they were");
    }
    // Keep the old contents where the message says they are; the
    // plan goes, so no later command undoes anything twice.
    let _ = std::fs::remove_file(scratch.join(PLAN_FILE));
    e.context(format!(
        "the round was not applied, and {} could not be put back (the old contents are in {}): {}",
        if unrestored.len() == 1 {
            "one path"
        } else {
            "some paths"
        },
        scratch.display(),
        unrestored.join("; ")
    ))
}

/// The plan of a landing, in its scratch directory.
const PLAN_FILE: &str = "landing.json";
/// The index as it was before a landing, in its scratch directory.
const INDEX_COPY: &str = "index.orig";

/// What a landing is about to do, saved before the first file moves.
#[derive(Serialize, Deserialize)]
struct Plan {
    commit: String,
    changes: Vec<PlannedChange>,
    /// Directories that did not exist, deepest first.
    created_dirs: Vec<String>,
}

#[derive(Serialize, Deserialize)]
struct PlannedChange {
    path: String,
    /// Something was at the path before the landing.
    existed: bool,
    /// The landing writes a file there (else it deletes).
    writes: bool,
}

/// What a landing changed so far, to be put back if a later step fails.
#[derive(Default)]
struct Undo {
    steps: Vec<UndoStep>,
    /// The index file and its bytes before the landing (`None`: no index).
    index: Option<(std::path::PathBuf, Option<Vec<u8>>)>,
}

enum UndoStep {
    /// The old file at `target` was moved to `backup`.
    MovedAside {
        target: std::path::PathBuf,
        backup: std::path::PathBuf,
    },
    /// A new file was renamed to this path.
    Created(std::path::PathBuf),
    /// This directory did not exist.
    CreatedDir(std::path::PathBuf),
}

impl Undo {
    /// Undo the steps, last first, and restore the index; returns what
    /// could not be restored.
    fn roll_back(self) -> Vec<String> {
        let mut failed = Vec::new();
        for step in self.steps.into_iter().rev() {
            let result = match &step {
                UndoStep::Created(path) => std::fs::remove_file(path),
                UndoStep::MovedAside { target, backup } => std::fs::rename(backup, target),
                // Only if empty: anything else put there is not ours.
                UndoStep::CreatedDir(dir) => std::fs::remove_dir(dir),
            };
            if let Err(e) = result {
                let path = match &step {
                    UndoStep::Created(p) | UndoStep::CreatedDir(p) => p,
                    UndoStep::MovedAside { target, .. } => target,
                };
                failed.push(format!("{}: {e}", path.display()));
            }
        }
        if let Some((path, bytes)) = self.index {
            let result = match bytes {
                Some(bytes) => crate::io::rounds::write_bytes_atomic(&path, &bytes),
                None => std::fs::remove_file(&path).or_else(|e| {
                    if e.kind() == std::io::ErrorKind::NotFound {
                        Ok(())
                    } else {
                        Err(e)
                    }
                }),
            };
            if let Err(e) = result {
                failed.push(format!("{}: {e}", path.display()));
            }
        }
        failed
    }
}

trait PathContext<T> {
    fn with_context_path(self, path: &Path) -> anyhow::Result<T>;
}

impl<T> PathContext<T> for std::io::Result<T> {
    fn with_context_path(self, path: &Path) -> anyhow::Result<T> {
        self.map_err(|e| anyhow::Error::new(e).context(format!("cannot write {}", path.display())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use git2::Repository;
    use std::collections::BTreeMap;

    /// A repository on branch `main` with one commit of `files`.
    fn repo_with(files: &[(&str, &str)]) -> (tempfile::TempDir, RoundRepo) {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init(dir.path()).unwrap();
        repo.set_head("refs/heads/main").unwrap();
        let mut index = repo.index().unwrap();
        for (path, text) in files {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(&full, text).unwrap();
            index.add_path(Path::new(path)).unwrap();
        }
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let sig = git2::Signature::new("t", "t@example.com", &git2::Time::new(0, 0)).unwrap();
        repo.commit(Some("HEAD"), &sig, &sig, "base", &tree, &[])
            .unwrap();
        let round = RoundRepo::open(dir.path()).unwrap();
        (dir, round)
    }

    /// Every file and directory under `root` (outside `.git`) with its
    /// contents, the index bytes, the branch and any scratch directory left
    /// inside `.git`.
    /// Files (`None` for a directory), index bytes, branch, scratch dirs.
    type Snapshot = (BTreeMap<String, Option<Vec<u8>>>, Vec<u8>, String, usize);

    fn snapshot(root: &Path) -> Snapshot {
        fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Option<Vec<u8>>>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                let rel = path.strip_prefix(root).unwrap().display().to_string();
                if rel == ".git" {
                    continue;
                }
                if path.is_dir() {
                    out.insert(rel, None);
                    walk(root, &path, out);
                } else {
                    out.insert(rel, Some(std::fs::read(&path).unwrap()));
                }
            }
        }
        let mut files = BTreeMap::new();
        walk(root, root, &mut files);
        let git = root.join(".git");
        let index = std::fs::read(git.join("index")).unwrap();
        let branch = std::fs::read_to_string(git.join("refs/heads/main")).unwrap();
        let scratch = std::fs::read_dir(&git)
            .unwrap()
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                name.to_string_lossy().starts_with("arx-round-")
            })
            .count();
        (files, index, branch, scratch)
    }

    #[test]
    fn a_landing_that_fails_at_any_step_puts_everything_back() {
        let (dir, repo) = repo_with(&[
            ("a.txt", "old a\n"),
            ("b.txt", "old b\n"),
            ("d/e.txt", "old e\n"),
        ]);
        let changes = vec![
            Change {
                path: "a.txt".into(),
                content: Some(b"new a\n".to_vec()),
            },
            Change {
                path: "b.txt".into(),
                content: None,
            },
            Change {
                path: "new/deep/c.txt".into(),
                content: Some(b"new c\n".to_vec()),
            },
            Change {
                path: "d/e.txt".into(),
                content: Some(b"new e\n".to_vec()),
            },
        ];
        let commit = repo.build_commit(repo.head, &changes, "round", 0).unwrap();
        let before = snapshot(dir.path());
        // One step per change, then the index, then the branch.
        let steps = changes.len() + 2;
        for fail_at in 0..steps {
            let err = repo
                .land_with(repo.head, commit, &changes, "round", &mut |step| {
                    if step == fail_at {
                        Err(std::io::Error::other("injected"))
                    } else {
                        Ok(())
                    }
                })
                .unwrap_err();
            let message = format!("{err:#}");
            assert!(message.contains("injected"), "{message}");
            assert!(message.contains("as they were"), "{message}");
            assert_eq!(snapshot(dir.path()), before, "failure at step {fail_at}");
        }
        repo.land(repo.head, commit, &changes, "round").unwrap();
        assert!(repo.settle_interrupted_landings().unwrap().is_empty());
        let (files, _, branch, scratch) = snapshot(dir.path());
        assert_eq!(files["a.txt"].as_deref(), Some(&b"new a\n"[..]));
        assert!(!files.contains_key("b.txt"));
        assert_eq!(files["new/deep/c.txt"].as_deref(), Some(&b"new c\n"[..]));
        assert_eq!(files["d/e.txt"].as_deref(), Some(&b"new e\n"[..]));
        assert_eq!(branch.trim(), commit.to_string());
        assert_eq!(scratch, 0);
    }

    #[test]
    fn a_landing_killed_at_any_step_is_undone_by_the_next_command() {
        let (dir, repo) = repo_with(&[
            ("a.txt", "old a\n"),
            ("b.txt", "old b\n"),
            ("d/e.txt", "old e\n"),
        ]);
        let changes = vec![
            Change {
                path: "a.txt".into(),
                content: Some(b"new a\n".to_vec()),
            },
            Change {
                path: "b.txt".into(),
                content: None,
            },
            Change {
                path: "new/deep/c.txt".into(),
                content: Some(b"new c\n".to_vec()),
            },
            Change {
                path: "d/e.txt".into(),
                content: Some(b"new e\n".to_vec()),
            },
        ];
        let commit = repo.build_commit(repo.head, &changes, "round", 0).unwrap();
        let before = snapshot(dir.path());
        let steps = changes.len() + 2;
        for killed_at in 0..steps {
            // A kill: the process stops at this step and nothing it would
            // have done on the way out happens.
            let landing = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let _ = repo.land_with(repo.head, commit, &changes, "round", &mut |step| {
                    if step == killed_at {
                        panic!("killed");
                    }
                    Ok(())
                });
            }));
            assert!(landing.is_err());
            let next = RoundRepo::open(dir.path()).unwrap();
            let reports = next.settle_interrupted_landings().unwrap();
            assert_eq!(reports.len(), 1, "{reports:?}");
            assert!(reports[0].contains("undone"), "{reports:?}");
            if killed_at >= 2 {
                assert!(reports[0].contains("a.txt"), "{reports:?}");
            }
            assert_eq!(snapshot(dir.path()), before, "killed at step {killed_at}");
        }
    }
}
