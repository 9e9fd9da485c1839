//! `arx round` where CI runs it: a bare remote, and clones made as
//! `actions/checkout` makes them (no git identity, `GITHUB_*` set, no
//! state directory): the rounds come from the repository itself.

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

use assert_cmd::Command;
use serde_json::{json, Value};

use crate::support::{stderr, stdout_json, Sandbox};

const T0: &str = "2026-03-01T10:00:00Z";
const T0_1H: &str = "2026-03-01T11:00:00Z";
const T0_25H: &str = "2026-03-02T11:00:00Z";
const T0_50H: &str = "2026-03-03T12:00:00Z";

/// A bare remote `origin.git`, a developer's clone `dev` (with an
/// identity) holding the project, and an empty home for the runner.
struct Ci {
    sb: Sandbox,
    home: PathBuf,
}

impl Ci {
    fn new(config: &str) -> Ci {
        let sb = Sandbox::new();
        let home = sb.path().join("home");
        std::fs::create_dir_all(&home).unwrap();
        let ci = Ci { sb, home };
        ci.git(".", &["init", "-q", "--bare", "-b", "main", "origin.git"]);
        ci.git(".", &["clone", "-q", "origin.git", "dev"]);
        ci.git("dev", &["config", "user.name", "Dev"]);
        ci.git("dev", &["config", "user.email", "dev@example.com"]);
        ci.write("dev", "README.md", "# project\n");
        ci.write("dev", "docs/notes.md", "notes F\n");
        ci.write("dev", ".gitignore", ".arx/\n");
        ci.write("dev", "arx.toml", config);
        ci.git("dev", &["add", "-A"]);
        ci.git("dev", &["commit", "-qm", "start"]);
        ci.git("dev", &["push", "-q", "origin", "main"]);
        ci
    }

    fn dir(&self, rel: &str) -> PathBuf {
        self.sb.path().join(rel)
    }

    fn write(&self, dir: &str, rel: &str, text: &str) {
        let path = self.dir(dir).join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// git as the runner has it: no global or system configuration.
    fn git(&self, dir: &str, args: &[&str]) -> String {
        let out = StdCommand::new("git")
            .args(args)
            .current_dir(self.dir(dir))
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", &self.home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env_remove("GIT_AUTHOR_NAME")
            .env_remove("GIT_AUTHOR_EMAIL")
            .env_remove("GIT_COMMITTER_NAME")
            .env_remove("GIT_COMMITTER_EMAIL")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// A fresh clone, as a CI job checks the repository out (the whole
    /// history, and the remote's branches as `origin/...`).
    fn checkout(&self, name: &str) {
        self.git(".", &["clone", "-q", "origin.git", name]);
    }

    /// arx in `dir` as a runner runs it.
    fn arx(&self, dir: &str) -> Command {
        Command::from_std(self.std_arx(dir))
    }

    fn std_arx(&self, dir: &str) -> StdCommand {
        let mut cmd = StdCommand::new(env!("CARGO_BIN_EXE_arx"));
        cmd.current_dir(self.dir(dir))
            .env_remove("ARX_STATE_DIR")
            .env("NO_COLOR", "1")
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", &self.home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("TMPDIR", self.sb.path())
            .env("CI", "true")
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_WORKSPACE", self.dir(dir))
            .env("GITHUB_REPOSITORY", "owner/project")
            .env("GITHUB_SHA", "0000000000000000000000000000000000000000")
            .env_remove("GITHUB_STEP_SUMMARY")
            .env_remove("GIT_AUTHOR_NAME")
            .env_remove("GIT_AUTHOR_EMAIL")
            .env_remove("GIT_COMMITTER_NAME")
            .env_remove("GIT_COMMITTER_EMAIL")
            .env_remove("EMAIL");
        cmd
    }

    fn patch(&self, name: &str, content: &str) -> String {
        let patch = json!({
            "summary": format!("notes: {content}"),
            "confidence": 0.9,
            "entries": [{
                "path": "docs/notes.md",
                "kind": "markdown",
                "op": "modify",
                "content": content,
                "rationale": "clearer notes",
                "evidence_refs": ["finding-1"],
            }],
        });
        let path = self.sb.path().join("patches").join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, patch.to_string()).unwrap();
        path.to_string_lossy().into_owned()
    }

    fn apply(&self, dir: &str, now: &str, args: &[&str]) -> (i32, Value, String) {
        let out = self
            .arx(dir)
            .args(["--json", "--now", now, "round", "apply"])
            .args(args)
            .output()
            .unwrap();
        let code = out.status.code().unwrap_or(-1);
        let report = if out.stdout.is_empty() {
            Value::Null
        } else {
            stdout_json(&out)
        };
        (code, report, stderr(&out))
    }

    fn status(&self, dir: &str, now: &str) -> Value {
        let out = self
            .arx(dir)
            .args(["--json", "--now", now, "round", "status"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout_json(&out)
    }
}

fn head(ci: &Ci, dir: &str) -> String {
    ci.git(dir, &["rev-parse", "HEAD"])
}

#[test]
fn a_fresh_clone_knows_the_rounds_landed_before_it() {
    let ci = Ci::new("[harness]\nmin_interval_hours = 24\n");
    let p1 = ci.patch("p1.json", "notes G\n");
    let (code, r, err) = ci.apply("dev", T0, &[&p1, "--auto", "--round-id", "r1"]);
    assert_eq!((code, r["status"].as_str()), (0, Some("applied")), "{err}");
    ci.git("dev", &["push", "-q", "origin", "main"]);

    ci.checkout("ci");
    assert!(!ci.dir("ci/.arx").exists());
    // Status lists the round, and the interval runs from it.
    let status = ci.status("ci", T0_1H);
    let rounds = status["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 1, "{status}");
    assert_eq!(rounds[0]["round_id"], "r1");
    assert_eq!(rounds[0]["status"], "applied");
    assert_eq!(rounds[0]["patch_hash"], r["patch_hash"]);
    assert_eq!(status["allowed_now"], false, "{status}");
    // Another round an hour later is too soon.
    let p2 = ci.patch("p2.json", "notes H\n");
    let (code, r2, err) = ci.apply("ci", T0_1H, &[&p2, "--auto"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(r2["status"], "skipped");
    assert!(r2["detail"].as_str().unwrap().contains("too soon"), "{r2}");
    // The same patch again, later, is a duplicate of r1.
    let before = head(&ci, "ci");
    let (code, r3, err) = ci.apply("ci", T0_25H, &[&p1, "--auto"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(r3["status"], "skipped", "{r3}");
    assert!(
        r3["detail"]
            .as_str()
            .unwrap()
            .contains("duplicate of round r1"),
        "{r3}"
    );
    assert_eq!(head(&ci, "ci"), before);
    // The round can be reverted there, with the identity the job gives.
    let out = ci
        .arx("ci")
        .args(["--json", "--now", T0_25H, "round", "revert", "r1"])
        .env("GIT_AUTHOR_NAME", "Job")
        .env("GIT_AUTHOR_EMAIL", "job@example.com")
        .env("GIT_COMMITTER_NAME", "Job")
        .env("GIT_COMMITTER_EMAIL", "job@example.com")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout_json(&out)["status"], "reverted");
    assert_eq!(
        std::fs::read_to_string(ci.dir("ci/docs/notes.md")).unwrap(),
        "notes F\n"
    );
    // Another fresh clone after the push sees it reverted.
    ci.git("ci", &["push", "-q", "origin", "main"]);
    ci.checkout("ci2");
    let status = ci.status("ci2", T0_50H);
    assert_eq!(status["rounds"][0]["status"], "reverted", "{status}");
}

#[test]
fn a_review_branch_on_the_remote_is_a_round_awaiting_review() {
    let ci = Ci::new("[harness]\nmin_interval_hours = 24\n");
    let p1 = ci.patch("p1.json", "notes G\n");
    let (code, r, err) = ci.apply("dev", T0, &[&p1, "--round-id", "r1"]);
    assert_eq!(
        (code, r["status"].as_str()),
        (0, Some("evaluated")),
        "{err}"
    );
    ci.git("dev", &["push", "-q", "origin", "harness/round-r1"]);
    ci.checkout("ci");
    let status = ci.status("ci", T0_1H);
    assert_eq!(status["rounds"][0]["round_id"], "r1", "{status}");
    assert_eq!(status["rounds"][0]["status"], "evaluated");
    assert_eq!(status["allowed_now"], false);
}

#[test]
fn too_soon_is_decided_before_a_clash_of_ids() {
    let ci = Ci::new("[harness]\nmin_interval_hours = 24\n");
    let p1 = ci.patch("p1.json", "notes G\n");
    let p2 = ci.patch("p2.json", "notes H\n");
    let (code, r, err) = ci.apply("dev", T0, &[&p1, "--auto"]);
    assert_eq!((code, r["status"].as_str()), (0, Some("applied")), "{err}");
    // The same second: the same default id.
    let (code, r, err) = ci.apply("dev", T0, &[&p2, "--auto"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(r["status"], "skipped");
    assert!(r["detail"].as_str().unwrap().contains("too soon"), "{r}");
}

#[test]
fn concurrent_applies_take_turns() {
    for interval in [24, 0] {
        let ci = Ci::new(&format!("[harness]\nmin_interval_hours = {interval}\n"));
        let patches = [
            ci.patch("a.json", "notes A\n"),
            ci.patch("b.json", "notes B\n"),
        ];
        let children: Vec<_> = patches
            .iter()
            .map(|p| {
                ci.std_arx("dev")
                    .args(["--json", "--now", T0, "round", "apply", p, "--auto"])
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let outs: Vec<_> = children
            .into_iter()
            .map(|c| c.wait_with_output().unwrap())
            .collect();
        let mut results: Vec<(Option<i32>, String)> = outs
            .iter()
            .map(|o| {
                let err = stderr(o);
                assert!(!err.contains(".lock"), "a raw lock error: {err}");
                let status = if o.stdout.is_empty() {
                    String::new()
                } else {
                    stdout_json(o)["status"].as_str().unwrap_or("").to_string()
                };
                (o.status.code(), format!("{status} {err}"))
            })
            .collect();
        results.sort();
        let applied = results
            .iter()
            .filter(|r| r.1.starts_with("applied"))
            .count();
        assert_eq!(applied, 1, "{results:?}");
        let loser = results
            .iter()
            .find(|r| !r.1.starts_with("applied"))
            .unwrap();
        if interval > 0 {
            assert_eq!(loser.0, Some(0), "{results:?}");
            assert!(loser.1.starts_with("skipped"), "{results:?}");
        } else {
            assert_eq!(loser.0, Some(2), "{results:?}");
            assert!(loser.1.contains("already exists"), "{results:?}");
        }
    }
}

#[test]
fn no_identity_is_an_error_and_the_environment_wins_over_config() {
    let ci = Ci::new("[harness]\nmin_interval_hours = 0\n");
    ci.checkout("ci");
    let p = ci.patch("p.json", "notes G\n");
    let before = head(&ci, "ci");
    let (code, _, err) = ci.apply("ci", T0, &[&p, "--auto"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no git identity"), "{err}");
    assert!(err.contains("git config user.name"), "{err}");
    assert_eq!(head(&ci, "ci"), before);
    assert!(!Path::new(&ci.dir("ci"))
        .join(".git/refs/heads/harness")
        .exists());
    // Config, and the environment over it, as git has it.
    ci.git("ci", &["config", "user.name", "Config"]);
    ci.git("ci", &["config", "user.email", "config@example.com"]);
    let out = ci
        .arx("ci")
        .args(["--json", "--now", T0, "round", "apply", &p, "--auto"])
        .env("GIT_AUTHOR_NAME", "Env Author")
        .env("GIT_AUTHOR_EMAIL", "author@example.com")
        .env("GIT_COMMITTER_NAME", "Env Committer")
        .env("GIT_COMMITTER_EMAIL", "committer@example.com")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        ci.git("ci", &["log", "-1", "--format=%an <%ae>|%cn <%ce>"]),
        "Env Author <author@example.com>|Env Committer <committer@example.com>"
    );
}

#[test]
fn a_read_only_checkout_can_show_status_and_dry_run() {
    let ci = Ci::new("[harness]\nmin_interval_hours = 0\n");
    let p1 = ci.patch("p1.json", "notes G\n");
    let (code, _, err) = ci.apply("dev", T0, &[&p1, "--auto", "--round-id", "r1"]);
    assert_eq!(code, 0, "{err}");
    let p2 = ci.patch("p2.json", "notes H\n");
    let setup = "mount --bind dev dev && mount -o remount,bind,ro dev && cd dev";
    for args in [
        "--json round status".to_string(),
        format!("--json round apply '{p2}' --dry-run"),
        format!(
            "--json --state-dir '{}' round status",
            ci.dir("home").display()
        ),
    ] {
        let Some(out) = crate::support::in_namespace(&ci.sb, setup, &args) else {
            return;
        };
        assert_eq!(out.status.code(), Some(0), "{args}: {}", stderr(&out));
    }
}

/// A patch committed inside the checkout (as a workflow's patch is).
fn patch_in(ci: &Ci, dir: &str, rel: &str, path: &str, content: &str) -> String {
    let patch = json!({
        "summary": "a change",
        "confidence": 0.9,
        "entries": [{
            "path": path,
            "kind": "markdown",
            "op": "modify",
            "content": content,
            "rationale": "because",
            "evidence_refs": ["finding-1"],
        }],
    });
    ci.write(dir, rel, &patch.to_string());
    rel.to_string()
}

#[test]
fn under_github_actions_reasons_become_annotations_and_a_summary() {
    let config = "[harness]\nmin_interval_hours = 0\ndeny_paths = [\"README.md\"]\n\n[[harness.checks]]\nname = \"lint\"\ncommand = \"echo 'notes: line too long' >&2; exit 1\"\n";
    let ci = Ci::new(config);
    ci.checkout("ci");
    let summary = ci.dir("summary.md");
    // A failed check, with --json.
    let p = patch_in(&ci, "ci", "patches/p.json", "docs/notes.md", "notes G\n");
    let out = ci
        .arx("ci")
        .args([
            "--json",
            "--now",
            T0,
            "round",
            "apply",
            &p,
            "--auto",
            "--round-id",
            "r1",
        ])
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("GIT_AUTHOR_NAME", "Job")
        .env("GIT_AUTHOR_EMAIL", "job@example.com")
        .env("GIT_COMMITTER_NAME", "Job")
        .env("GIT_COMMITTER_EMAIL", "job@example.com")
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(stdout_json(&out)["status"], "rejected");
    assert!(err.contains("arx: check lint: running"), "{err}");
    assert!(
        err.contains("::error file=patches/p.json,title=arx round r1%3A check lint failed::exit 1"),
        "{err}"
    );
    assert!(err.contains("arx: round r1 rejected:"), "{err}");
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.contains("### arx round `r1`: rejected"), "{md}");
    assert!(md.contains("| lint | **failed** (exit 1) |"), "{md}");
    // A denied path.
    let p = patch_in(&ci, "ci", "patches/q.json", "README.md", "# new\n");
    let out = ci
        .arx("ci")
        .args([
            "--json",
            "--now",
            T0_1H,
            "round",
            "apply",
            &p,
            "--round-id",
            "r2",
        ])
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("::error file=patches/q.json,title=arx round r2%3A rejected::entries[0] (README.md): path is deny-listed"),
        "{err}"
    );
    assert!(std::fs::read_to_string(&summary)
        .unwrap()
        .contains("round `r2`: rejected"));
    let p = patch_in(&ci, "ci", "patches/r.json", "docs/notes.md", "notes Z\n");
    // Outside Actions: no workflow commands.
    let out = ci
        .arx("ci")
        .args(["--now", T0_50H, "round", "apply", &p, "--dry-run"])
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    assert!(!stderr(&out).contains("::"), "{}", stderr(&out));
}

#[test]
fn under_github_actions_an_error_is_an_annotation() {
    let ci = Ci::new("[harness]\nmin_interval_hours = 0\n");
    ci.checkout("ci");
    let p = patch_in(&ci, "ci", "patches/p.json", "docs/notes.md", "notes G\n");
    let summary = ci.dir("summary.md");
    let out = ci
        .arx("ci")
        .args(["--json", "--now", T0, "round", "apply", &p, "--auto"])
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("::error file=patches/p.json,title=arx round%3A error::no git identity"),
        "{err}"
    );
    assert!(std::fs::read_to_string(&summary)
        .unwrap()
        .contains("no git identity"));
}

/// `arx round validate FILE` in `dir`: its exit code and stdout.
fn validate(ci: &Ci, dir: &str, file: &str) -> (i32, String) {
    let out = ci
        .arx(dir)
        .args(["round", "validate", file])
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out)),
    )
}

#[test]
fn validate_works_in_a_merge_a_rebase_and_on_a_detached_head() {
    let ci = Ci::new("[harness]\nmin_interval_hours = 0\n");
    let p = patch_in(&ci, "dev", "patches/p.json", "docs/notes.md", "notes G\n");
    ci.git("dev", &["add", "patches"]);
    ci.git("dev", &["commit", "-qm", "a patch"]);
    // Detached.
    ci.git("dev", &["checkout", "-q", "--detach"]);
    let (code, said) = validate(&ci, "dev", &p);
    assert_eq!(code, 0, "detached: {said}");
    ci.git("dev", &["checkout", "-q", "main"]);
    // A conflicted merge, resolved, not yet concluded.
    ci.git("dev", &["checkout", "-q", "-b", "side"]);
    ci.write("dev", "README.md", "# side\n");
    ci.git("dev", &["commit", "-qam", "side"]);
    ci.git("dev", &["checkout", "-q", "main"]);
    ci.write("dev", "README.md", "# main\n");
    ci.git("dev", &["commit", "-qam", "main"]);
    let merge = StdCommand::new("git")
        .args(["merge", "-q", "side"])
        .current_dir(ci.dir("dev"))
        .output()
        .unwrap();
    assert!(!merge.status.success(), "the merge must conflict");
    ci.write("dev", "README.md", "# both\n");
    ci.git("dev", &["add", "README.md"]);
    let (code, said) = validate(&ci, "dev", &p);
    assert_eq!(code, 0, "merging: {said}");
    ci.git("dev", &["commit", "-qm", "merged"]);
    ci.write("dev", "README.md", "# after\n");
    ci.git("dev", &["commit", "-qam", "after"]);
    // A stop of an interactive rebase.
    let rebase = StdCommand::new("git")
        .args(["rebase", "-q", "-i", "HEAD~1"])
        .env("GIT_SEQUENCE_EDITOR", "sed -i -e 1s/^pick/edit/")
        .current_dir(ci.dir("dev"))
        .output()
        .unwrap();
    assert!(
        rebase.status.success(),
        "{}",
        String::from_utf8_lossy(&rebase.stderr)
    );
    let (code, said) = validate(&ci, "dev", &p);
    assert_eq!(code, 0, "rebasing: {said}");
    // An invalid patch names its file.
    let bad = patch_in(&ci, "dev", "patches/bad.json", "README.md", "");
    std::fs::write(
        ci.dir("dev").join(&bad),
        r#"{"summary": "", "confidence": 7, "entries": []}"#,
    )
    .unwrap();
    let (code, said) = validate(&ci, "dev", &bad);
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("in patches/bad.json"), "{said}");
}

#[test]
fn a_file_changed_since_the_patchs_base_is_refused_with_both_changes() {
    let ci = Ci::new("[harness]\nmin_interval_hours = 0\n");
    let base = head(&ci, "dev");
    let with_base = |name: &str, content: &str, base: &str| {
        let path = ci.patch(name, content);
        let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        v["base"] = json!(base);
        std::fs::write(&path, v.to_string()).unwrap();
        path
    };
    let p = with_base("p.json", "notes F\nnotes G\n", &base);
    // A person commits a line to the file since.
    ci.write("dev", "docs/notes.md", "notes F\na person's fix\n");
    ci.git("dev", &["commit", "-qam", "fix the notes"]);
    let after = head(&ci, "dev");
    let (code, r, err) = ci.apply("dev", T0, &[&p, "--auto", "--round-id", "r1"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(r["status"], "rejected");
    let errors = r["errors"].to_string();
    assert!(
        errors.contains("changed since the patch's base"),
        "{errors}"
    );
    assert!(errors.contains("+a person's fix"), "{errors}");
    assert!(errors.contains("+notes G"), "{errors}");
    assert_eq!(head(&ci, "dev"), after);
    assert_eq!(
        std::fs::read_to_string(ci.dir("dev/docs/notes.md")).unwrap(),
        "notes F\na person's fix\n"
    );
    // Written against the current commit, it lands.
    let q = with_base("q.json", "notes F\na person's fix\nnotes G\n", &after);
    let (code, r, err) = ci.apply("dev", T0_1H, &[&q, "--auto", "--round-id", "r2"]);
    assert_eq!((code, r["status"].as_str()), (0, Some("applied")), "{err}");
    // A base the clone does not have is an error that says so.
    let z = with_base("z.json", "x\n", "0123456789abcdef0123456789abcdef01234567");
    let (code, _, err) = ci.apply("dev", T0_25H, &[&z, "--auto"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not a commit of this repository"), "{err}");
}

#[test]
fn patches_go_through_the_repositorys_line_ending_rules() {
    let ci = Ci::new("[harness]\nmin_interval_hours = 0\n");
    ci.write("dev", ".gitattributes", "*.md text eol=crlf\n");
    ci.write("dev", "docs/notes.md", "notes F\r\n");
    ci.git("dev", &["add", "-A"]);
    ci.git("dev", &["commit", "-qm", "crlf notes"]);
    assert_eq!(ci.git("dev", &["status", "--porcelain"]), "");
    for (id, content, blob) in [
        ("r1", "notes F\r\nnotes G\r\n", "notes F\nnotes G\n"),
        (
            "r2",
            "notes F\nnotes G\nnotes H\n",
            "notes F\nnotes G\nnotes H\n",
        ),
    ] {
        let p = ci.patch(&format!("{id}.json"), content);
        let (code, r, err) = ci.apply("dev", T0, &[&p, "--auto", "--round-id", id]);
        assert_eq!(
            (code, r["status"].as_str()),
            (0, Some("applied")),
            "{id}: {err}"
        );
        assert_eq!(
            ci.git("dev", &["show", "HEAD:docs/notes.md"]),
            blob.trim_end()
        );
        assert_eq!(
            std::fs::read(ci.dir("dev/docs/notes.md")).unwrap(),
            blob.replace('\n', "\r\n").into_bytes()
        );
        assert_eq!(ci.git("dev", &["status", "--porcelain"]), "", "{id}");
    }
}

#[test]
fn protect_check_refuses_protected_files_and_names_them() {
    let ci = Ci::new(
        "[objective]\nmetric = \"acc\"\ndirection = \"max\"\ncommand = \"true\"\nprotect = [\"prepare.py\", \"eval/**\"]\n",
    );
    let out = ci
        .arx("dev")
        .args([
            "round",
            "protect-check",
            "prepare.py",
            "src/model.py",
            "eval/data/x.csv",
        ])
        .output()
        .unwrap();
    let (said, err) = (
        String::from_utf8_lossy(&out.stdout).to_string(),
        stderr(&out),
    );
    assert_eq!(out.status.code(), Some(1), "{said}{err}");
    assert!(said.contains("refused: prepare.py: protected"), "{said}");
    assert!(said.contains("refused: eval/data/x.csv"), "{said}");
    assert!(!said.contains("src/model.py"), "{said}");
    assert!(
        err.contains("the next arx try would set this change aside"),
        "{err}"
    );
    // From a subdirectory, a path is read from there.
    std::fs::create_dir_all(ci.dir("dev/eval")).unwrap();
    let out = ci
        .arx("dev/eval")
        .args(["--json", "round", "protect-check", "data/y.csv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout_json(&out)["protected"], json!(["eval/data/y.csv"]));
    let out = ci
        .arx("dev")
        .args(["round", "protect-check", "src/model.py", "README.md"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // No objective: nothing is protected.
    let plain = Ci::new("[harness]\nmin_interval_hours = 0\n");
    let out = plain
        .arx("dev")
        .args(["round", "protect-check", "prepare.py"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}
