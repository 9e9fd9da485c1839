//! `[harness] isolate = true`: round checks confined by bubblewrap.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use git2::{IndexAddOption, Repository, Signature};
use libtest_mimic::{Failed, Trial};
use serde_json::Value;

use crate::needs;

pub fn trials() -> Vec<Trial> {
    vec![
        needs::trial(
            "isolation::a_confined_check_cannot_reach_the_repository_the_system_or_the_network",
            needs::bwrap,
            contained,
        ),
        needs::trial(
            "isolation::a_confined_check_that_hangs_is_ended_by_its_timeout",
            needs::bwrap,
            timeout,
        ),
    ]
}

struct Repo {
    _dir: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
    scratch: PathBuf,
}

fn check(cond: bool, what: impl FnOnce() -> String) -> Result<(), Failed> {
    if cond {
        Ok(())
    } else {
        Err(what().into())
    }
}

/// A repository with `arx.toml` (auto rounds, isolated checks) whose one
/// check is `command` (`{real}` and `{outside}` filled in), with the probe
/// script at its root.
fn repo(command: &str, timeout: Option<&str>) -> Result<Repo, Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let base = dir.path().canonicalize().map_err(|e| e.to_string())?;
    let root = base.join("repo");
    let outside = base.join("outside");
    let scratch = base.join("tmp");
    for d in [&root, &outside, &scratch] {
        std::fs::create_dir_all(d).map_err(|e| e.to_string())?;
    }
    std::fs::write(outside.join("victim.txt"), "untouched\n").map_err(|e| e.to_string())?;
    // The probe goes into the repository, so the check runs it from its
    // scratch checkout: arx's own checkout may lie under a path the
    // sandbox hides (`/tmp`).
    let probe = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/isolation/probe.sh");
    std::fs::copy(&probe, root.join("probe.sh")).map_err(|e| e.to_string())?;
    let command = command
        .replace("{real}", &root.display().to_string())
        .replace(
            "{outside}",
            &outside.join("victim.txt").display().to_string(),
        );
    let timeout = timeout.map_or(String::new(), |t| format!("timeout = \"{t}\"\n"));
    let config = format!(
        "[harness]\nautonomy = \"auto\"\nmin_interval_hours = 0\nisolate = true\n\n\
         [[harness.checks]]\nname = \"probe\"\ncommand = {command:?}\n{timeout}"
    );
    std::fs::write(root.join("arx.toml"), config).map_err(|e| e.to_string())?;
    std::fs::write(root.join("guide.md"), "old\n").map_err(|e| e.to_string())?;
    std::fs::write(root.join(".gitignore"), ".arx/\n").map_err(|e| e.to_string())?;
    let git = Repository::init(&root).map_err(|e| e.to_string())?;
    let mut index = git.index().map_err(|e| e.to_string())?;
    index
        .add_all(["*"].iter(), IndexAddOption::DEFAULT, None)
        .map_err(|e| e.to_string())?;
    index.write().map_err(|e| e.to_string())?;
    let tree = git
        .find_tree(index.write_tree().map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let sig = Signature::now("Test", "test@example.com").map_err(|e| e.to_string())?;
    git.commit(Some("HEAD"), &sig, &sig, "initial", &tree, &[])
        .map_err(|e| e.to_string())?;
    let patch = serde_json::json!({
        "summary": "Sharpen the guide",
        "confidence": 0.9,
        "entries": [{
            "path": "guide.md", "kind": "markdown", "op": "modify", "content": "new\n",
            "rationale": "clearer", "evidence_refs": ["finding-1"],
        }],
    });
    std::fs::write(base.join("patch.json"), patch.to_string()).map_err(|e| e.to_string())?;
    Ok(Repo {
        _dir: dir,
        root,
        outside,
        scratch,
    })
}

fn apply(repo: &Repo, bwrap: &Path) -> Result<Output, Failed> {
    Command::new(needs::arx())
        .current_dir(&repo.root)
        .env("ARX_BWRAP", bwrap)
        .env("TMPDIR", &repo.scratch)
        .env_remove("ARX_STATE_DIR")
        .args(["--json", "--now", "2026-03-01T10:00:00Z", "round", "apply"])
        .arg(
            repo.root
                .parent()
                .unwrap_or(Path::new("/"))
                .join("patch.json"),
        )
        .output()
        .map_err(|e| Failed::from(format!("running arx: {e}")))
}

fn contained(bwrap: &Path) -> Result<(), Failed> {
    let repo = repo("sh probe.sh '{real}' '{outside}'", None)?;
    let out = apply(&repo, bwrap)?;
    let err = String::from_utf8_lossy(&out.stderr);
    check(out.status.code() == Some(0), || {
        format!(
            "exit {:?}: {err}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout)
        )
    })?;
    let rec: Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    check(rec["status"] == "applied", || format!("{rec}"))?;
    // The probe passed: nothing visible from inside. And from outside:
    // no hook, the outside file and the user's home untouched.
    for hook in ["pre-commit", "post-commit"] {
        let path = repo.root.join(".git/hooks").join(hook);
        check(!path.exists(), || format!("{} was planted", path.display()))?;
    }
    let victim = std::fs::read_to_string(repo.outside.join("victim.txt")).unwrap_or_default();
    check(victim == "untouched\n", || {
        format!("outside file now {victim:?}")
    })?;
    let guide = std::fs::read_to_string(repo.root.join("guide.md")).unwrap_or_default();
    check(guide == "new\n", || {
        format!("the round landed: guide.md is {guide:?}")
    })?;
    Ok(())
}

fn timeout(bwrap: &Path) -> Result<(), Failed> {
    // The check leaves a grandchild behind in its own session; the timeout
    // must still end everything (bubblewrap dies with arx's signal and
    // takes the sandbox's process namespace with it).
    let repo = repo("(sleep 317 &) ; sleep 317", Some("2s"))?;
    let start = std::time::Instant::now();
    let out = apply(&repo, bwrap)?;
    let took = start.elapsed();
    let rec: Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    check(out.status.code() == Some(1), || format!("{rec}"))?;
    check(rec["status"] == "rejected", || format!("{rec}"))?;
    let detail = rec["eval_report"]["checks"][0]["detail"].to_string();
    check(detail.contains("timed out"), || detail.clone())?;
    check(took.as_secs() < 60, || format!("took {took:?}"))?;
    // No sleep of ours is left (the sandbox's namespace is gone).
    let ps = Command::new("sh")
        .args([
            "-c",
            "ps -eo args 2>/dev/null | grep -c '^sleep 317$' || true",
        ])
        .output()
        .map_err(|e| e.to_string())?;
    let left = String::from_utf8_lossy(&ps.stdout).trim().to_string();
    check(left == "0" || left.is_empty(), || {
        format!("{left} sleeps left")
    })?;
    Ok(())
}
