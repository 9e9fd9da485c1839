//! The fleet's merge queue on its remote: a keep that lost the race waits
//! as an entry `refs/arx/fleet/queue/runs/<run>` (its keep commit, on the
//! best it was measured against), and the machine that holds the lead
//! (`refs/arx/fleet/queue/lead`, a lease like a claim's) puts the entries
//! that touch different files on the best as one commit each, to be
//! confirmed together and landed by one push. Fetched with the machines'
//! chains, under `refs/arx/fleet-remote/m/queue/`.

use anyhow::{Context, Result};

use crate::io::fleet::{Door, Push, Update};

/// Where the queue's entries are on the remote.
const RUNS: &str = "refs/arx/fleet/queue/runs/";
/// Where they are fetched to.
const FETCHED_RUNS: &str = "refs/arx/fleet-remote/m/queue/runs/";
/// The lead's ref on the remote, and fetched.
pub const LEAD: &str = "refs/arx/fleet/queue/lead";
const FETCHED_LEAD: &str = "refs/arx/fleet-remote/m/queue/lead";

/// The trailer a batch's commits carry: the best it was confirmed on.
pub const BATCH_TRAILER: &str = "Arx-Batch:";

/// A run's entry, as the remote names it.
pub fn entry_ref(run: &str) -> String {
    format!("{RUNS}{run}")
}

/// One entry waiting: its run id and its commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub run: String,
    pub commit: String,
}

/// The entries as last fetched, oldest commit first (then by run).
pub fn entries(door: &Door) -> Result<Vec<Entry>> {
    let repo = door.repo()?;
    let mut out = Vec::new();
    for r in repo
        .references_glob(&format!("{FETCHED_RUNS}*"))
        .context("cannot list the fleet's queue")?
        .flatten()
    {
        if let (Some(name), Some(id)) = (r.name(), r.target()) {
            let when = repo
                .find_commit(id)
                .map(|c| c.time().seconds())
                .unwrap_or(0);
            let run = name.trim_start_matches(FETCHED_RUNS).to_string();
            out.push((when, run, id.to_string()));
        }
    }
    out.sort();
    Ok(out
        .into_iter()
        .map(|(_, run, commit)| Entry { run, commit })
        .collect())
}

/// The lead as last fetched: its commit.
pub fn lead(door: &Door) -> Option<String> {
    door.resolve(FETCHED_LEAD)
}

/// Push a ref (`commit`; empty: delete it) only from `expected` (`None`:
/// only where it does not exist), and say so in the fetched copy when it
/// landed.
pub fn swap(door: &Door, refname: &str, commit: &str, expected: Option<&str>) -> Result<Push> {
    let pushed = if commit.is_empty() {
        door.delete(refname, expected.unwrap_or(""))?
    } else {
        door.push(&[Update {
            commit,
            refname: refname.to_string(),
            expected,
        }])?
    };
    if pushed == Push::Landed {
        door.mirror(refname, Some(commit).filter(|c| !c.is_empty()))?;
    }
    Ok(pushed)
}

/// The files a commit changes against its first parent.
pub fn changed(door: &Door, commit: &str) -> Result<Vec<String>> {
    let repo = door.repo()?;
    let c = repo.find_commit(git2::Oid::from_str(commit)?)?;
    let parent = c.parent(0).ok().map(|p| p.tree()).transpose()?;
    let tree = c.tree()?;
    let out = between(&repo, parent.as_ref(), Some(&tree));
    out
}

/// The files that differ between two commits.
pub fn changed_between(door: &Door, from: &str, to: &str) -> Result<Vec<String>> {
    let repo = door.repo()?;
    let a = repo.find_commit(git2::Oid::from_str(from)?)?.tree()?;
    let b = repo.find_commit(git2::Oid::from_str(to)?)?.tree()?;
    between(&repo, Some(&a), Some(&b))
}

fn between(
    repo: &git2::Repository,
    a: Option<&git2::Tree<'_>>,
    b: Option<&git2::Tree<'_>>,
) -> Result<Vec<String>> {
    let diff = repo.diff_tree_to_tree(a, b, None)?;
    let mut out = Vec::new();
    for d in diff.deltas() {
        for f in [d.old_file(), d.new_file()] {
            if let Some(p) = f.path().and_then(|p| p.to_str()) {
                if !out.iter().any(|o: &String| o == p) {
                    out.push(p.to_string());
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Whether `ancestor` is `of` or one of its ancestors.
pub fn holds(door: &Door, of: &str, ancestor: &str) -> bool {
    let Ok(repo) = door.repo() else {
        return false;
    };
    match (git2::Oid::from_str(of), git2::Oid::from_str(ancestor)) {
        (Ok(o), Ok(a)) => o == a || repo.graph_descendant_of(o, a).unwrap_or(false),
        _ => false,
    }
}

/// Each member's change (its commit against its parent) put on `onto`
/// in turn, as one commit each with the member's message, author and
/// `trailer` added: the tip, or the paths where one conflicts.
pub fn stack(
    door: &Door,
    onto: &str,
    members: &[String],
    trailer: &str,
) -> Result<std::result::Result<String, Vec<String>>> {
    let repo = door.repo()?;
    let mut tip = repo.find_commit(git2::Oid::from_str(onto)?)?;
    for m in members {
        let c = repo.find_commit(git2::Oid::from_str(m)?)?;
        let base = c.parent(0)?.tree()?;
        let mut merged = repo.merge_trees(&base, &tip.tree()?, &c.tree()?, None)?;
        if merged.has_conflicts() {
            let mut paths = Vec::new();
            for conflict in merged.conflicts()?.flatten() {
                let entry = conflict.our.or(conflict.their).or(conflict.ancestor);
                if let Some(e) = entry {
                    paths.push(String::from_utf8_lossy(&e.path).to_string());
                }
            }
            return Ok(Err(paths));
        }
        let tree = repo.find_tree(merged.write_tree_to(&repo)?)?;
        let message = format!("{}\n{trailer}\n", c.message().unwrap_or("").trim_end());
        let id = repo.commit(None, &c.author(), &c.committer(), &message, &tree, &[&tip])?;
        tip = repo.find_commit(id)?;
    }
    Ok(Ok(tip.id().to_string()))
}

/// The commit on `best`'s first-parent line, back to (not including)
/// `since`, whose message says it keeps run `run` (`Arx-Run: <run>`).
pub fn landed(door: &Door, best: &str, since: &str, run: &str) -> Result<Option<String>> {
    let repo = door.repo()?;
    let needle = format!("Arx-Run: {run}\n");
    let stop = git2::Oid::from_str(since).ok();
    let mut at = Some(repo.find_commit(git2::Oid::from_str(best)?)?);
    // A batch lands on the best its entries were measured against or on a
    // later one: the walk stops there, or after a bounded number of keeps.
    for _ in 0..10_000 {
        let Some(c) = at else { break };
        if Some(c.id()) == stop {
            break;
        }
        if c.message().is_some_and(|m| m.contains(&needle)) {
            return Ok(Some(c.id().to_string()));
        }
        at = c.parent(0).ok();
    }
    Ok(None)
}

/// A commit's message.
pub fn message(door: &Door, commit: &str) -> Result<String> {
    let repo = door.repo()?;
    let c = repo.find_commit(git2::Oid::from_str(commit)?)?;
    Ok(c.message().unwrap_or("").to_string())
}
