//! The held-out check run as another local user (docs/evidence.md, "Who
//! can read it"): a user created for the test owns the held-out data and
//! its evaluation in a directory only it can read; the held-out command
//! is `runuser -u USER -- sh eval.sh` (or `sudo -u`), configured in a file
//! outside the repository. Needs root (to create the user) and `useradd`;
//! ignored otherwise.

use std::path::{Path, PathBuf};
use std::process::Command;

use libtest_mimic::{Failed, Trial};

use crate::needs;

const SCORE: &str = r#"#!/bin/sh
v=$(cat value.txt)
n=$(cat .noise 2>/dev/null || echo 0)
echo $((n + 1)) > .noise
case $((n % 3)) in 0) j=0;; 1) j=0.001;; *) j=-0.001;; esac
awk -v v="$v" -v j="$j" 'BEGIN { printf "__RESULT__ {\"m\": %.6f}\n", v + j }'
"#;

/// The evaluation the other user runs: the candidate's `overfit.txt` (in
/// the checkout it runs in) against the secret test split.
const EVAL: &str = r#"#!/bin/sh
echo "evaluated by $(id -un)" >&2
secret=$(cat "$(dirname "$0")/test-split.txt")
o=$(cat overfit.txt)
awk -v s="$secret" -v o="$o" 'BEGIN { printf "__RESULT__ {\"test_loss\": %.5f}\n", s + o }'
"#;

pub fn trials() -> Vec<Trial> {
    vec![needs::trial(
        "heldout_user::the_held_out_check_runs_as_another_user_reading_what_the_loop_cannot",
        switcher,
        run_as_another_user,
    )]
}

/// `runuser` (or `sudo`) when this process can create a user.
fn switcher() -> Result<PathBuf, String> {
    if !nix::unistd::geteuid().is_root() {
        return Err("creating a local user needs root".into());
    }
    let find = |name: &str| {
        ["/usr/sbin", "/usr/bin", "/sbin", "/bin"]
            .iter()
            .map(|d| Path::new(d).join(name))
            .find(|p| p.is_file())
    };
    if find("useradd").is_none() || find("userdel").is_none() {
        return Err("useradd and userdel not found".into());
    }
    find("runuser")
        .or_else(|| find("sudo"))
        .ok_or_else(|| "neither runuser nor sudo found".into())
}

/// The user created for the test, removed when dropped.
struct User(String);

impl User {
    fn create() -> Result<User, Failed> {
        let name = format!("arxho{}", std::process::id() % 100_000);
        let out = Command::new("useradd")
            .args(["--system", "--no-create-home", "--shell", "/bin/sh", &name])
            .output()?;
        if !out.status.success() {
            return Err(format!("useradd: {}", String::from_utf8_lossy(&out.stderr)).into());
        }
        Ok(User(name))
    }
}

impl Drop for User {
    fn drop(&mut self) {
        let _ = Command::new("userdel").arg(&self.0).output();
    }
}

fn sh(dir: &Path, command: &str) -> Result<String, Failed> {
    let out = Command::new("sh")
        .args(["-c", command])
        .current_dir(dir)
        .output()?;
    if !out.status.success() {
        return Err(format!("{command}: {}", String::from_utf8_lossy(&out.stderr)).into());
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn run_as_another_user(switch: &Path) -> Result<(), Failed> {
    let user = User::create()?;
    let tmp = tempfile::tempdir()?;
    let root = tmp.path();
    sh(root, "chmod 755 .")?;
    // The operator's side: data and evaluation only the user can read.
    let data = root.join("heldout");
    std::fs::create_dir(&data)?;
    std::fs::write(data.join("eval.sh"), EVAL)?;
    std::fs::write(data.join("test-split.txt"), "0.73158")?;
    sh(
        root,
        &format!("chown -R {u}:{u} heldout && chmod 700 heldout", u = user.0),
    )?;
    let run_as = if switch.ends_with("sudo") {
        format!("{} -n -u {}", switch.display(), user.0)
    } else {
        format!("{} -u {} --", switch.display(), user.0)
    };
    let held_out_config = root.join("holdout.toml");
    std::fs::write(
        &held_out_config,
        format!(
            "[objective.holdout]\ncommand = \"{run_as} sh {}\"\nmetric = \"test_loss\"\nbaseline_repeat = 2\nrepeat = 1\n",
            data.join("eval.sh").display()
        ),
    )?;
    // A third user (the loop, were it not root) cannot read the data.
    let nobody = Command::new(switch)
        .args(if switch.ends_with("sudo") {
            vec!["-n", "-u", "nobody"]
        } else {
            vec!["-u", "nobody", "--"]
        })
        .args(["cat", &data.join("test-split.txt").display().to_string()])
        .output()?;
    if nobody.status.success() {
        return Err("another user read the held-out data".into());
    }
    // The loop's repository.
    let repo = root.join("repo");
    std::fs::create_dir(&repo)?;
    std::fs::write(repo.join("score.sh"), SCORE)?;
    std::fs::write(repo.join("value.txt"), "1.0")?;
    std::fs::write(repo.join("overfit.txt"), "0")?;
    std::fs::write(repo.join(".gitignore"), ".noise\n")?;
    std::fs::write(
        repo.join("arx.toml"),
        "[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"min\"\ncommand = \"sh score.sh\"\nbaseline_repeat = 3\n",
    )?;
    sh(
        &repo,
        "git init -q -b main && git -c user.name=T -c user.email=t@example.com add -A \
         && git -c user.name=T -c user.email=t@example.com commit -qm start",
    )?;
    let journal = root.join("held-out.jsonl");
    let arx_try = |args: &[&str]| -> Result<(i32, String), Failed> {
        let out = Command::new(needs::arx())
            .args(["--json", "try"])
            .args(args)
            .current_dir(&repo)
            .env("ARX_HOLDOUT_CONFIG", &held_out_config)
            .env("ARX_HOLDOUT_JOURNAL", &journal)
            .env("GIT_AUTHOR_NAME", "T")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "T")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .env_remove("ARX_STATE_DIR")
            .output()?;
        Ok((
            out.status.code().unwrap_or(-1),
            format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        ))
    };
    let (code, out) = arx_try(&[])?;
    if code != 0 {
        return Err(format!("baseline: {out}").into());
    }
    std::fs::write(repo.join("value.txt"), "0.9")?;
    let (code, out) = arx_try(&["-m", "better"])?;
    if code != 0
        || !out.contains("\"holdout\": \"passed\"") && !out.contains("\"holdout\":\"passed\"")
    {
        return Err(format!("keep: {out}").into());
    }
    // Better on the target, overfit on the test split: vetoed.
    std::fs::write(repo.join("value.txt"), "0.8")?;
    std::fs::write(repo.join("overfit.txt"), "0.5")?;
    let (code, out) = arx_try(&["-m", "overfit"])?;
    if code != 1 || !out.contains("the held-out check failed") {
        return Err(format!("veto: {out}").into());
    }
    // The other user ran it; its values reached the operator's journal
    // only.
    let journal = std::fs::read_to_string(&journal)?;
    if !journal.contains(&format!("evaluated by {}", user.0)) || !journal.contains("1.23158") {
        return Err(format!("the operator's journal: {journal}").into());
    }
    let seen = sh(
        &repo,
        "git log -p --all; cat .arx/*.jsonl 2>/dev/null; ls -a",
    )?;
    for secret in ["0.73158", "1.23158", "evaluated by"] {
        if seen.contains(secret) {
            return Err(format!("the loop can read {secret}: {seen}").into());
        }
    }
    Ok(())
}
