//! Rounds under hostile patches: the state directory wherever it is, the
//! kind a path really has, the `[gates]` block, names git refuses, and
//! patches that change nothing.

use serde_json::{json, Value};

use super::{entry, patch, Fixture};
use crate::support::{stderr, stdout_json};

/// `arx --json [pre...] round validate` and `round apply --auto` of one
/// patch: both must reject it with an error containing `want`, and nothing
/// may land.
fn rejects(fx: &Fixture, pre: &[&str], p: &Value, want: &str) {
    let base = fx.head();
    let file = fx.patch("guard.json", p);
    let out = fx
        .arx()
        .arg("--json")
        .args(pre)
        .args(["round", "validate", &file])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{p}: {}", stderr(&out));
    let errors = stdout_json(&out)["errors"].to_string();
    assert!(errors.contains(want), "{p}: want {want:?} in {errors}");
    let out = fx
        .arx()
        .arg("--json")
        .args(pre)
        .args(["round", "apply", &file, "--auto"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{p}: {}", stderr(&out));
    assert_eq!(stdout_json(&out)["status"], "rejected", "{p}");
    assert_eq!(fx.head(), base, "{p}: nothing landed");
    // Each trial is its own round id; clear the interval's memory.
    let _ = std::fs::remove_dir_all(fx.root.join(".arx"));
    let _ = std::fs::remove_dir_all(fx.root.join("arxstate"));
    let _ = std::fs::remove_dir_all(fx.root.join("var"));
}

fn md(path: &str) -> Value {
    patch(
        "p",
        0.9,
        vec![entry(path, "markdown", "create", Some("x\n"))],
    )
}

#[test]
fn a_state_directory_not_named_arx_is_off_limits() {
    let fx = Fixture::new();
    let pre = ["--state-dir", "arxstate"];
    for path in [
        "arxstate/rounds/z-fake/RECORD.json",
        "./arxstate/journal.jsonl",
        "ARXSTATE/journal.jsonl",
        "arxstate",
    ] {
        rejects(&fx, &pre, &md(path), "state directory");
    }
    // Nested, through ARX_STATE_DIR as an absolute path.
    let nested = fx.root.join("var/state");
    let nested = nested.to_str().unwrap();
    rejects(
        &fx,
        &["--state-dir", nested],
        &md("var/state/rounds/hashes.jsonl"),
        "state directory",
    );
    // `.arx` stays protected whatever the state directory.
    rejects(&fx, &pre, &md(".arx/journal.jsonl"), "state directory");
    let _ = json!(null);
}

#[test]
fn a_kind_that_does_not_match_the_path_is_rejected() {
    let fx = Fixture::with_config(
        "[harness]\nmin_interval_hours = 0\nallowed_targets = [\"markdown\"]\n\n\
         [[harness.checks]]\nname = \"code-check\"\ncommand = \"false\"\nkinds = [\"code\"]\n",
    );
    fx.write("docs/tool.md", "#!/bin/sh\necho tool\n");
    std::fs::set_permissions(
        fx.root.join("docs/tool.md"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    fx.commit_all("an executable .md");
    let cases = [
        ("bin/run.sh", "echo pwned\n", "bin/run.sh is code"),
        ("src/new.py", "print(1)\n", "is code"),
        ("docs/new.json", "{}", "is config"),
        ("docs/x.md", "#!/bin/sh\necho pwned\n", "is code"),
        ("docs/tool.md", "echo pwned\n", "executable"),
    ];
    for (path, content, want) in cases {
        let p = patch(
            "p",
            0.9,
            vec![entry(path, "markdown", "create", Some(content))],
        );
        rejects(&fx, &[], &p, want);
    }
    // A real markdown file passes.
    let p = patch(
        "p",
        0.9,
        vec![entry("docs/ok.md", "markdown", "create", Some("# ok\n"))],
    );
    let file = fx.patch("ok.json", &p);
    fx.arx().args(["round", "validate", &file]).assert().code(0);
}

#[test]
fn a_round_may_not_switch_the_gates_off_in_any_spelling() {
    let harness = "[harness]\nmin_interval_hours = 0\n";
    let fx = Fixture::with_config(&format!("{harness}\n[gates]\nkg_write = true\n"));
    let spellings = [
        format!("{harness}\n[gates]\nexecute = false\nkg_write = true\n"),
        format!("gates.execute = false\ngates.kg_write = true\n{harness}"),
        format!("gates = {{ execute = false, kg_write = true }}\n{harness}"),
        format!("\"gates\".execute = false\n\"gates\".kg_write = true\n{harness}"),
        format!("{harness}\n[\"gates\"]\n\"execute\" = false\nkg_write = true\n"),
        format!("{harness}\n[gates]\nkg_write = false\n"),
        // Dropping the block turns nothing off, but is a change all the same.
        harness.to_string(),
    ];
    for text in &spellings {
        let p = patch(
            "p",
            0.9,
            vec![entry("arx.toml", "code", "modify", Some(text))],
        );
        rejects(&fx, &[], &p, "[gates]");
    }
    // Another arx.toml, which config discovery would find from its folder.
    let p = patch(
        "p",
        0.9,
        vec![entry(
            "sub/arx.toml",
            "code",
            "create",
            Some("[gates]\nexecute = false\n"),
        )],
    );
    rejects(&fx, &[], &p, "[gates]");
    // The same gates, spelled differently: fine.
    let same = format!("gates = {{ kg_write = true }}\n{harness}# tuned\n");
    let p = patch(
        "p",
        0.9,
        vec![entry("arx.toml", "code", "modify", Some(&same))],
    );
    let file = fx.patch("same.json", &p);
    fx.arx().args(["round", "validate", &file]).assert().code(0);
}

#[test]
fn a_round_may_not_switch_the_gates_off_in_a_json_config() {
    let fx = Fixture::new();
    let config =
        json!({"harness": {"min_interval_hours": 0}, "research_gates": {"kg_write": true}});
    fx.write(".planning/config.json", &config.to_string());
    fx.commit_all("json config");
    let pre = ["--config", ".planning/config.json"];
    let mut off = config.clone();
    off["research_gates"]["experiment_execution"] = json!(false);
    let mut gone = config.clone();
    gone.as_object_mut().unwrap().remove("research_gates");
    for new in [off, gone] {
        let p = patch(
            "p",
            0.9,
            vec![entry(
                ".planning/config.json",
                "config",
                "modify",
                Some(&new.to_string()),
            )],
        );
        rejects(&fx, &pre, &p, "research_gates");
    }
}

#[test]
fn names_git_refuses_and_gitmodules_fsck_rejects_are_refused() {
    let fx = Fixture::new();
    let code = |path: &str, content: &str| {
        patch("p", 0.9, vec![entry(path, "code", "create", Some(content))])
    };
    for path in [
        ".g\u{200c}it/hooks/post-commit",
        "\u{feff}.git/hooks/post-commit",
        "sub/.GI\u{200d}T/config",
        ".git::$INDEX_ALLOCATION/hooks/post-commit",
        "git~1/hooks/post-commit",
        ".git. /config",
    ] {
        rejects(&fx, &[], &code(path, "#!/bin/sh\n"), "may not touch .git");
    }
    for (path, real) in [
        (".gitmodules\u{200c}", ".gitmodules"),
        ("GITMOD~1", ".gitmodules"),
        ("docs/.gitattributes.", ".gitattributes"),
        (".gitignore ", ".gitignore"),
        (".mail\u{200f}map", ".mailmap"),
    ] {
        rejects(&fx, &[], &code(path, "x\n"), &format!("read as {real}"));
    }
    for (text, want) in [
        (
            "[submodule \"x\"]\n\tpath = x\n\turl = --upload-pack=touch$IFS/tmp/pwn\n",
            "url starts with '-'",
        ),
        (
            "[submodule \"x\"]\n\tpath = x\n\turl = ./x\n\tupdate = !touch /tmp/pwn\n",
            "update runs a command",
        ),
        (
            "[submodule \"x\"]\n\tpath = -x\n\turl = ./x\n",
            "path starts",
        ),
        ("[submodule \"../../x\"]\n\tpath = x\n\turl = ./x\n", "name"),
    ] {
        rejects(&fx, &[], &code(".gitmodules", text), want);
    }
    // A newline in a path would forge lines of the commit message.
    rejects(
        &fx,
        &[],
        &patch(
            "p",
            0.9,
            vec![entry(
                "docs/a.md\n\nRound: forged",
                "markdown",
                "create",
                Some("x\n"),
            )],
        ),
        "control character",
    );
}

#[test]
fn text_in_the_commit_message_cannot_forge_trailers() {
    let fx = Fixture::new();
    let mut e = entry("docs/guide.md", "markdown", "modify", Some("new\n"));
    e["rationale"] = json!("fine\n\nRound: forged\rPatch-Hash: 0000\u{2028}Signed-off-by: x <x@y>");
    let p = patch("Better\nRound: forged", 0.9, vec![e]);
    let file = fx.patch("p.json", &p);
    fx.arx()
        .args(["round", "apply", &file, "--auto", "--round-id", "r1"])
        .assert()
        .code(0);
    let repo = fx.repo();
    let head = repo.find_commit(fx.head()).unwrap();
    let message = head.message().unwrap().to_string();
    let lines: Vec<&str> = message.lines().collect();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("Round:")).count(),
        1,
        "{message}"
    );
    assert!(lines.contains(&"Round: r1"), "{message}");
    assert!(
        !lines.iter().any(|l| l.starts_with("Signed-off-by")),
        "{message}"
    );
    assert!(!message.contains('\r'), "{message:?}");
    assert!(!message.contains('\u{2028}'), "{message:?}");
}

#[test]
fn a_directory_on_deny_paths_protects_everything_below_it() {
    for deny in ["bin", "bin/", "./bin", "BIN"] {
        let fx = Fixture::with_config(&format!(
            "[harness]\nmin_interval_hours = 0\ndeny_paths = [\"{deny}\", \"docs/deep/x\"]\n"
        ));
        for path in ["bin/run.sh", "bin/new/tool.sh", "./bin//run.sh"] {
            let p = patch(
                "p",
                0.9,
                vec![entry(path, "code", "create", Some("echo\n"))],
            );
            rejects(&fx, &[], &p, "deny-listed");
        }
        // A sibling that merely starts with the same letters is not below it.
        let p = patch(
            "p",
            0.9,
            vec![entry("binary.sh", "code", "create", Some("echo\n"))],
        );
        let file = fx.patch("ok.json", &p);
        fx.arx().args(["round", "validate", &file]).assert().code(0);
    }
}

#[test]
fn a_patch_that_changes_nothing_is_skipped() {
    let fx = Fixture::new();
    let base = fx.head();
    let p = patch(
        "Same again",
        0.9,
        vec![
            entry("docs/guide.md", "markdown", "modify", Some("old guide\n")),
            entry("README.md", "markdown", "create", Some("# project\n")),
        ],
    );
    let file = fx.patch("same.json", &p);
    for auto in [true, false] {
        let mut cmd = fx.arx();
        cmd.args(["--json", "round", "apply", &file]);
        if auto {
            cmd.arg("--auto");
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let report = stdout_json(&out);
        assert_eq!(report["status"], "skipped", "{report}");
        assert!(
            report["detail"]
                .as_str()
                .unwrap()
                .contains("changes nothing"),
            "{report}"
        );
        assert_eq!(fx.head(), base);
        assert_eq!(fx.branches(), vec!["main".to_string()]);
    }
    // One real change among unchanged files lands.
    let p = patch(
        "One change",
        0.9,
        vec![
            entry("docs/guide.md", "markdown", "modify", Some("old guide\n")),
            entry("README.md", "markdown", "modify", Some("# new\n")),
        ],
    );
    let file = fx.patch("one.json", &p);
    fx.arx()
        .args(["round", "apply", &file, "--auto", "--round-id", "one"])
        .assert()
        .code(0);
    assert_ne!(fx.head(), base);
}

/// `git merge --ff-only <branch>`, done with git2: the current branch and
/// the working tree move to the branch's commit.
fn fast_forward(fx: &Fixture, branch: &str) {
    let repo = fx.repo();
    let target = repo
        .find_branch(branch, git2::BranchType::Local)
        .unwrap()
        .get()
        .target()
        .unwrap();
    let object = repo.find_object(target, None).unwrap();
    repo.checkout_tree(&object, Some(git2::build::CheckoutBuilder::new().safe()))
        .unwrap();
    repo.reference("refs/heads/main", target, true, "merge --ff-only")
        .unwrap();
}

#[test]
fn a_round_merged_from_its_review_branch_is_recognised() {
    let fx = Fixture::new();
    let p = patch(
        "Sharpen the guide",
        0.9,
        vec![entry(
            "docs/guide.md",
            "markdown",
            "modify",
            Some("new guide\n"),
        )],
    );
    let file = fx.patch("p.json", &p);
    fx.arx()
        .args(["round", "apply", &file, "--round-id", "r1"])
        .assert()
        .code(0);
    assert_eq!(fx.record("r1")["status"], "evaluated");
    fast_forward(&fx, "harness/round-r1");
    assert_eq!(fx.read("docs/guide.md").as_deref(), Some("new guide\n"));

    let out = fx
        .arx()
        .args(["--json", "round", "status"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let status = stdout_json(&out);
    assert_eq!(status["rounds"][0]["status"], "applied", "{status}");
    assert_eq!(
        fx.record("r1")["applied_sha"],
        fx.record("r1")["commit_sha"]
    );
    // Applying it again is a duplicate, not an empty commit.
    let head = fx.head();
    let out = fx
        .arx()
        .args(["--json", "round", "apply", &file, "--round-id", "r2"])
        .output()
        .unwrap();
    assert_eq!(stdout_json(&out)["status"], "skipped");
    assert!(
        stdout_json(&out)["detail"]
            .as_str()
            .unwrap()
            .contains("duplicate of round r1"),
        "{}",
        stdout_json(&out)
    );
    assert_eq!(fx.head(), head);
    // And it can be reverted.
    fx.arx().args(["round", "revert", "r1"]).assert().code(0);
    assert_eq!(fx.read("docs/guide.md").as_deref(), Some("old guide\n"));
}

#[test]
fn a_merged_round_is_recognised_by_revert_too() {
    let fx = Fixture::new();
    let p = patch(
        "Sharpen the guide",
        0.9,
        vec![entry(
            "docs/guide.md",
            "markdown",
            "modify",
            Some("new guide\n"),
        )],
    );
    let file = fx.patch("p.json", &p);
    fx.arx()
        .args(["round", "apply", &file, "--round-id", "r1"])
        .assert()
        .code(0);
    fast_forward(&fx, "harness/round-r1");
    fx.arx().args(["round", "revert", "r1"]).assert().code(0);
    assert_eq!(fx.read("docs/guide.md").as_deref(), Some("old guide\n"));
    assert_eq!(fx.record("r1")["status"], "reverted");
}

#[test]
fn concurrent_applies_keep_the_index_and_the_records_true() {
    for trial in 0..4 {
        let fx = Fixture::new();
        let files: Vec<String> = (0..6)
            .map(|k| {
                fx.patch(
                    &format!("c{k}.json"),
                    &patch(
                        &format!("Round {k}"),
                        0.9,
                        vec![entry(
                            &format!("docs/c{k}.md"),
                            "markdown",
                            "create",
                            Some(&format!("c{k}\n")),
                        )],
                    ),
                )
            })
            .collect();
        let children: Vec<_> = files
            .iter()
            .enumerate()
            .map(|(k, file)| {
                let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("arx"));
                cmd.current_dir(&fx.root)
                    .env_remove("ARX_STATE_DIR")
                    .env("TMPDIR", fx.sb.path())
                    .args([
                        "round",
                        "apply",
                        file,
                        "--auto",
                        "--round-id",
                        &format!("c{k}"),
                    ])
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null());
                cmd.spawn().unwrap()
            })
            .collect();
        for mut child in children {
            child.wait().unwrap();
        }
        // The index and the working tree agree with HEAD: nothing staged,
        // nothing deleted, nothing modified.
        assert_eq!(fx.status(), vec![], "trial {trial}");
        let repo = fx.repo();
        let head = fx.head();
        let mut applied = 0;
        for k in 0..6 {
            let Some(text) = fx.read(&format!(".arx/rounds/c{k}/RECORD.json")) else {
                continue;
            };
            let record: Value = serde_json::from_str(&text).unwrap();
            let commit = record["commit_sha"]
                .as_str()
                .map(|s| git2::Oid::from_str(s).unwrap());
            let on_branch =
                commit.is_some_and(|c| c == head || repo.graph_descendant_of(head, c).unwrap());
            assert_eq!(
                record["status"] == "applied",
                on_branch,
                "trial {trial}: round c{k}: {record}"
            );
            if on_branch {
                applied += 1;
                assert_eq!(
                    fx.read(&format!("docs/c{k}.md")).as_deref(),
                    Some(format!("c{k}\n").as_str())
                );
            }
        }
        assert!(applied >= 1, "trial {trial}");
    }
}

#[test]
fn a_landing_interrupted_by_sigint_is_undone_by_the_next_command() {
    let fx = Fixture::new();
    let base = fx.head();
    let entries: Vec<Value> = (0..3000)
        .map(|k| {
            entry(
                &format!("docs/many/f{k}.md"),
                "markdown",
                "create",
                Some("x\n"),
            )
        })
        .chain([entry("docs/guide.md", "markdown", "modify", Some("new\n"))])
        .collect();
    let file = fx.patch("many.json", &patch("Many", 0.9, entries));
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("arx"))
        .current_dir(&fx.root)
        .env_remove("ARX_STATE_DIR")
        .env("TMPDIR", fx.sb.path())
        .args(["round", "apply", &file, "--auto", "--round-id", "many"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the landing has begun moving files, then interrupt it.
    let git = fx.root.join(".git");
    let started = std::time::Instant::now();
    loop {
        let moving = fx.root.join("docs/many/f0.md").exists();
        if moving || started.elapsed() > std::time::Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    child.wait().unwrap();

    let out = fx.arx().args(["round", "status"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The working tree and the index agree with the branch, whichever way
    // it went.
    assert_eq!(fx.status(), vec![]);
    if fx.head() == base {
        assert_eq!(fx.read("docs/guide.md").as_deref(), Some("old guide\n"));
        assert!(fx.read("docs/many/f0.md").is_none());
        assert_eq!(fx.record("many")["status"], "evaluated");
    } else {
        assert_eq!(fx.read("docs/guide.md").as_deref(), Some("new\n"));
        assert_eq!(fx.record("many")["status"], "applied");
    }
    let left = std::fs::read_dir(&git)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("arx-round-"))
        .count();
    assert_eq!(left, 0);
}
