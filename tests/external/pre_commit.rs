//! The hooks of `.pre-commit-hooks.yaml`, run by the real `pre-commit`
//! tool (PyPI) with `pre-commit try-repo` on a scratch repository. The hooks
//! use `language: system`, so the `arx` under test is put first on `PATH`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use libtest_mimic::{Failed, Trial};

use crate::needs;

/// This checkout: the repository that offers the hooks.
fn hooks_repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn path_with_arx() -> String {
    let bin = needs::arx();
    format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// `pre-commit try-repo <this checkout> HOOK --files FILES` in `repo`.
fn try_repo(pre_commit: &Path, repo: &Path, home: &Path, hook: &str, files: &[&str]) -> Output {
    Command::new(pre_commit)
        .arg("try-repo")
        .arg(hooks_repo())
        .arg(hook)
        .arg("--verbose")
        .arg("--files")
        .args(files)
        .current_dir(repo)
        .env("PATH", path_with_arx())
        .env("PRE_COMMIT_HOME", home)
        // try-repo commits uncommitted changes of the hooks' repository to
        // a shadow copy: an identity for machines without a git config.
        .env("GIT_AUTHOR_NAME", "test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .env_remove("ARX_STATE_DIR")
        .output()
        .expect("running pre-commit")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn git(repo: &Path, args: &[&str]) -> Result<(), Failed> {
    let out = Command::new("git").args(args).current_dir(repo).output()?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("git {args:?}: {}", String::from_utf8_lossy(&out.stderr)).into())
    }
}

fn arx(repo: &Path, args: &[&str]) -> Result<(), Failed> {
    let out = Command::new(needs::arx())
        .args(args)
        .current_dir(repo)
        .env_remove("ARX_STATE_DIR")
        .output()?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("arx {args:?}: {}", String::from_utf8_lossy(&out.stderr)).into())
    }
}

fn scratch() -> Result<(tempfile::TempDir, tempfile::TempDir), Failed> {
    let dir = tempfile::tempdir()?;
    let home = tempfile::tempdir()?;
    let repo = dir.path();
    git(repo, &["init", "-q", "-b", "main"])?;
    git(repo, &["config", "user.email", "test@example.com"])?;
    git(repo, &["config", "user.name", "test"])?;
    git(repo, &["config", "commit.gpgsign", "false"])?;
    std::fs::write(repo.join("README.md"), "scratch\n")?;
    arx(repo, &["init"])?;
    git(repo, &["add", "-A"])?;
    git(repo, &["commit", "-q", "-m", "start"])?;
    Ok((dir, home))
}

fn deadend_check_refuses_a_known_dead_end(pre_commit: &Path) -> Result<(), Failed> {
    let (dir, home) = scratch()?;
    let repo = dir.path();
    arx(
        repo,
        &[
            "deadend",
            "add",
            "BM25 alone reaches recall 0.8",
            "--reason",
            "recall 0.61",
            "--no-gates",
        ],
    )?;
    std::fs::write(
        repo.join("hypotheses.md"),
        "# Next ideas\n- rerank with a cross-encoder\n- bm25 ALONE reaches  recall 0.8\n",
    )?;
    std::fs::write(
        repo.join("candidates.toml"),
        "[[candidate]]\nname = \"rerank\"\nstatement = \"rerank with a cross-encoder\"\n",
    )?;
    git(repo, &["add", "hypotheses.md", "candidates.toml"])?;

    let out = try_repo(
        pre_commit,
        repo,
        home.path(),
        "arx-deadend-check",
        &["hypotheses.md", "candidates.toml"],
    );
    let said = text(&out);
    if out.status.code() != Some(1) || !said.contains("known dead end") {
        return Err(format!("a dead end must fail the hook:\n{said}").into());
    }

    let out = try_repo(
        pre_commit,
        repo,
        home.path(),
        "arx-deadend-check",
        &["candidates.toml"],
    );
    if !out.status.success() {
        return Err(format!("no dead end must pass:\n{}", text(&out)).into());
    }
    Ok(())
}

fn round_validate_checks_staged_patches(pre_commit: &Path) -> Result<(), Failed> {
    let (dir, home) = scratch()?;
    let repo = dir.path();
    std::fs::create_dir(repo.join("rounds"))?;
    std::fs::write(
        repo.join("rounds/good.json"),
        r#"{"summary": "Ask for sources", "confidence": 0.8, "entries": [{"path": "prompts/system.md", "kind": "markdown", "op": "create", "content": "Cite a source.\n", "rationale": "unsupported claims", "evidence_refs": ["journal:1"]}]}"#,
    )?;
    std::fs::write(
        repo.join("rounds/bad.json"),
        r#"{"summary": "", "confidence": 7, "entries": []}"#,
    )?;
    git(repo, &["add", "rounds"])?;

    let out = try_repo(
        pre_commit,
        repo,
        home.path(),
        "arx-round-validate",
        &["rounds/good.json"],
    );
    if !out.status.success() {
        return Err(format!("a valid patch must pass:\n{}", text(&out)).into());
    }
    let out = try_repo(
        pre_commit,
        repo,
        home.path(),
        "arx-round-validate",
        &["rounds/good.json", "rounds/bad.json"],
    );
    let said = text(&out);
    if out.status.success() || !said.contains("invalid") {
        return Err(format!("an invalid patch must fail the hook:\n{said}").into());
    }
    Ok(())
}

/// `git ARGS` in `repo` as a person runs it with the hooks installed:
/// `arx` on PATH, pre-commit's cache in `home`. Its exit status and output.
fn git_hooked(repo: &Path, home: &Path, args: &[&str], editor: Option<&str>) -> (bool, String) {
    let mut cmd = Command::new("git");
    cmd.args(args)
        .current_dir(repo)
        .env("PATH", path_with_arx())
        .env("PRE_COMMIT_HOME", home)
        .env_remove("ARX_STATE_DIR");
    if let Some(editor) = editor {
        cmd.env("GIT_SEQUENCE_EDITOR", editor);
    }
    let out = cmd.output().expect("git");
    (out.status.success(), text(&out))
}

/// The hooks installed in `repo` from this checkout's committed
/// `.pre-commit-hooks.yaml` (at its HEAD), as `pre-commit install` does.
fn install(pre_commit: &Path, repo: &Path, home: &Path, hooks: &[&str]) -> Result<(), Failed> {
    let rev = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(hooks_repo())
        .output()?;
    let rev = String::from_utf8_lossy(&rev.stdout).trim().to_string();
    let mut config = format!(
        "repos:\n- repo: {}\n  rev: {rev}\n  hooks:\n",
        hooks_repo().display()
    );
    for id in hooks {
        config.push_str(&format!("  - id: {id}\n"));
    }
    std::fs::write(repo.join(".pre-commit-config.yaml"), config)?;
    let out = Command::new(pre_commit)
        .arg("install")
        .current_dir(repo)
        .env("PATH", path_with_arx())
        .env("PRE_COMMIT_HOME", home)
        .output()?;
    if !out.status.success() {
        return Err(format!("pre-commit install:\n{}", text(&out)).into());
    }
    Ok(())
}

fn must(step: &str, (ok, said): (bool, String)) -> Result<(), Failed> {
    if ok {
        Ok(())
    } else {
        Err(format!("{step}:\n{said}").into())
    }
}

const GOOD: &str = r#"{"summary": "Ask for sources", "confidence": 0.8, "entries": [{"path": "prompts/system.md", "kind": "markdown", "op": "create", "content": "Cite a source.\n", "rationale": "unsupported claims", "evidence_refs": ["journal:1"]}]}"#;

fn round_validate_passes_a_valid_patch_in_a_rebase_a_merge_and_detached(
    pre_commit: &Path,
) -> Result<(), Failed> {
    let (dir, home) = scratch()?;
    let (repo, home) = (dir.path(), home.path());
    install(pre_commit, repo, home, &["arx-round-validate"])?;
    std::fs::create_dir(repo.join("rounds"))?;
    std::fs::write(repo.join("rounds/p.json"), GOOD)?;
    git(repo, &["add", "-A"])?;
    must(
        "a first commit",
        git_hooked(repo, home, &["commit", "-qm", "hooks"], None),
    )?;
    let edit = |n: u32| {
        std::fs::write(
            repo.join("rounds/p.json"),
            GOOD.replace("0.8", &format!("0.{n}")),
        )
    };
    // A commit on a detached HEAD, and the run a pull-request job makes.
    git(repo, &["checkout", "-q", "--detach"])?;
    edit(7)?;
    must(
        "detached commit",
        git_hooked(repo, home, &["commit", "-qam", "detached"], None),
    )?;
    let out = Command::new(pre_commit)
        .args(["run", "--all-files"])
        .current_dir(repo)
        .env("PATH", path_with_arx())
        .env("PRE_COMMIT_HOME", home)
        .output()?;
    if !out.status.success() {
        return Err(format!("pre-commit run --all-files, detached:\n{}", text(&out)).into());
    }
    git(repo, &["checkout", "-q", "main"])?;
    // The conclusion of a conflicted merge.
    git(repo, &["checkout", "-q", "-b", "side"])?;
    std::fs::write(repo.join("README.md"), "side\n")?;
    git(repo, &["commit", "-qam", "side"])?;
    git(repo, &["checkout", "-q", "main"])?;
    std::fs::write(repo.join("README.md"), "main\n")?;
    git(repo, &["commit", "-qam", "main"])?;
    let (merged, _) = git_hooked(repo, home, &["merge", "-q", "side"], None);
    if merged {
        return Err("the merge must conflict".into());
    }
    std::fs::write(repo.join("README.md"), "both\n")?;
    edit(6)?;
    git(repo, &["add", "-A"])?;
    must(
        "merge commit",
        git_hooked(repo, home, &["commit", "-q", "--no-edit"], None),
    )?;
    // An amend at a stop of an interactive rebase.
    edit(5)?;
    must(
        "a commit",
        git_hooked(repo, home, &["commit", "-qam", "tune"], None),
    )?;
    must(
        "rebase -i",
        git_hooked(
            repo,
            home,
            &["rebase", "-q", "-i", "HEAD~1"],
            Some("sed -i -e 1s/^pick/edit/"),
        ),
    )?;
    edit(4)?;
    git(repo, &["add", "-A"])?;
    must(
        "amend at a rebase stop",
        git_hooked(repo, home, &["commit", "-q", "--amend", "--no-edit"], None),
    )?;
    must(
        "rebase --continue",
        git_hooked(repo, home, &["rebase", "--continue"], None),
    )?;
    // Two staged patches, one bad: the failure names its file.
    std::fs::write(
        repo.join("rounds/bad.json"),
        r#"{"summary": "", "confidence": 7, "entries": []}"#,
    )?;
    edit(3)?;
    git(repo, &["add", "-A"])?;
    let (ok, said) = git_hooked(repo, home, &["commit", "-qm", "two"], None);
    if ok || !said.contains("in rounds/bad.json") {
        return Err(format!("a bad patch must fail the hook, named:\n{said}").into());
    }
    Ok(())
}

fn protect_check_refuses_a_persons_commit_to_a_protected_path(
    pre_commit: &Path,
) -> Result<(), Failed> {
    let (dir, home) = scratch()?;
    let (repo, home) = (dir.path(), home.path());
    std::fs::write(
        repo.join("arx.toml"),
        "[objective]\nmetric = \"acc\"\ndirection = \"max\"\ncommand = \"python3 train.py\"\nprotect = [\"prepare.py\"]\n",
    )?;
    std::fs::write(repo.join("prepare.py"), "SEED = 1\n")?;
    std::fs::write(repo.join("train.py"), "print(1)\n")?;
    git(repo, &["add", "-A"])?;
    git(repo, &["commit", "-qm", "project"])?;
    install(pre_commit, repo, home, &["arx-protect-check"])?;
    git(repo, &["add", ".pre-commit-config.yaml"])?;
    must(
        "the hooks' config",
        git_hooked(repo, home, &["commit", "-qm", "hooks"], None),
    )?;
    std::fs::write(repo.join("train.py"), "print(2)\n")?;
    must(
        "an unprotected change",
        git_hooked(repo, home, &["commit", "-qam", "train"], None),
    )?;
    std::fs::write(repo.join("prepare.py"), "SEED = 2\n")?;
    let (ok, said) = git_hooked(repo, home, &["commit", "-qam", "seed"], None);
    if ok || !said.contains("prepare.py: protected by [objective] protect") {
        return Err(format!("a protected path must fail the hook, named:\n{said}").into());
    }
    Ok(())
}

pub fn trials() -> Vec<Trial> {
    vec![
        needs::trial(
            "pre_commit::deadend_check_refuses_a_known_dead_end",
            needs::pre_commit,
            deadend_check_refuses_a_known_dead_end,
        ),
        needs::trial(
            "pre_commit::round_validate_checks_staged_patches",
            needs::pre_commit,
            round_validate_checks_staged_patches,
        ),
        needs::trial(
            "pre_commit::round_validate_passes_a_valid_patch_in_a_rebase_a_merge_and_detached",
            needs::pre_commit,
            round_validate_passes_a_valid_patch_in_a_rebase_a_merge_and_detached,
        ),
        needs::trial(
            "pre_commit::protect_check_refuses_a_persons_commit_to_a_protected_path",
            needs::pre_commit,
            protect_check_refuses_a_persons_commit_to_a_protected_path,
        ),
    ]
}
