use predicates::prelude::*;
use predicates::str::contains;

use crate::support::{json, Sandbox};

const UNION_LINES: &str = "\
.arx/journal.jsonl merge=union
.arx/dead-ends.jsonl merge=union
.arx/knowhow.jsonl merge=union
.arx/findings.jsonl merge=union
.arx/ideas.jsonl merge=union
";

/// A sandbox holding a git repository (built with git2) at `repo/`.
fn repo() -> Sandbox {
    let sb = Sandbox::new();
    sb.git_init("repo");
    sb
}

/// Every file under the sandbox with its bytes, to compare before/after.
fn snapshot(sb: &Sandbox) -> Vec<(String, Vec<u8>)> {
    fn walk(dir: &std::path::Path, base: &std::path::Path, out: &mut Vec<(String, Vec<u8>)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.file_name().is_some_and(|n| n == ".git") {
                continue;
            }
            if path.is_dir() {
                walk(&path, base, out);
            } else {
                let rel = path.strip_prefix(base).unwrap().display().to_string();
                out.push((rel, std::fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(sb.path(), sb.path(), &mut out);
    out.sort();
    out
}

#[test]
fn sets_up_the_repository_root_from_a_subdirectory() {
    let sb = repo();
    std::fs::create_dir_all(sb.path().join("repo/src/deep")).unwrap();
    sb.arx()
        .current_dir(sb.path().join("repo/src/deep"))
        .arg("init")
        .assert()
        .code(0)
        .stdout(
            contains("created  .arx/")
                .and(contains("created  .arx/journal.jsonl"))
                .and(contains("created  src/deep/arx.toml"))
                .and(contains("created  .gitattributes")),
        );
    // The state at the root; arx.toml where the project is: a project
    // in a subdirectory is its own scope.
    assert!(sb.path().join("repo/src/deep/arx.toml").is_file());
    assert!(!sb.path().join("repo/arx.toml").exists());
    assert!(sb.path().join("repo/.arx").is_dir());
    assert_eq!(sb.read("repo/.arx/journal.jsonl"), "");
    assert_eq!(sb.read("repo/.gitattributes"), UNION_LINES);
    assert!(!sb.path().join("repo/src/deep/.arx").exists());

    // git sees the attribute.
    let git = git2::Repository::open(sb.path().join("repo")).unwrap();
    for file in [
        ".arx/journal.jsonl",
        ".arx/dead-ends.jsonl",
        ".arx/knowhow.jsonl",
        ".arx/findings.jsonl",
        ".arx/ideas.jsonl",
    ] {
        let attr = git
            .get_attr(
                std::path::Path::new(file),
                "merge",
                git2::AttrCheckFlags::FILE_THEN_INDEX,
            )
            .unwrap();
        assert_eq!(attr, Some("union"), "{file}");
    }

    // The template is valid configuration with every gate written out, on.
    let config = sb.read("repo/src/deep/arx.toml");
    assert!(config.contains("[gates]"));
    assert!(config.contains("\nexecute = true\n") && config.contains("\nkg_write = true\n"));
    let out = sb
        .arx()
        .current_dir(sb.path().join("repo/src/deep"))
        .args(["gate", "show", "--json"])
        .assert()
        .code(0)
        .stderr("")
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    assert!(v.to_string().contains("arx.toml"), "{v}");
}

#[test]
fn running_twice_changes_nothing() {
    let sb = repo();
    let dir = sb.path().join("repo");
    sb.arx().current_dir(&dir).arg("init").assert().code(0);
    let before = snapshot(&sb);
    let out = sb
        .arx()
        .current_dir(&dir)
        .args(["init", "--json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert_eq!(snapshot(&sb), before);
    let v = json(&out);
    let statuses: Vec<&str> = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["present"; 5]);
    assert_eq!(v["repository"], true);
    sb.arx()
        .current_dir(&dir)
        .arg("init")
        .assert()
        .code(0)
        .stdout(contains("nothing to do"));
}

#[test]
fn keeps_existing_files_and_appends_only_what_is_missing() {
    let sb = repo();
    let dir = sb.path().join("repo");
    // No trailing newline, and one of the three lines already there.
    sb.write(
        "repo/.gitattributes",
        "*.png binary\n.arx/journal.jsonl merge=union\n*.ipynb -diff",
    );
    sb.write("repo/arx.toml", "[gates]\nexecute = false\n");
    sb.write("repo/.arx/journal.jsonl", "{\"keep\": true}\n");
    sb.arx()
        .current_dir(&dir)
        .arg("init")
        .assert()
        .code(0)
        .stdout(
            contains("present  .arx/journal.jsonl")
                .and(contains("present  arx.toml"))
                .and(contains("updated  .gitattributes")),
        );
    assert_eq!(
        sb.read("repo/.gitattributes"),
        "*.png binary\n.arx/journal.jsonl merge=union\n*.ipynb -diff\n\
         .arx/dead-ends.jsonl merge=union\n.arx/knowhow.jsonl merge=union\n\
         .arx/findings.jsonl merge=union\n.arx/ideas.jsonl merge=union\n"
    );
    assert_eq!(sb.read("repo/arx.toml"), "[gates]\nexecute = false\n");
    assert_eq!(sb.read("repo/.arx/journal.jsonl"), "{\"keep\": true}\n");
}

#[test]
fn gitattributes_follow_the_state_directory() {
    let sb = repo();
    let dir = sb.path().join("repo");
    sb.arx()
        .current_dir(&dir)
        .args(["init", "--state-dir", "state/arx"])
        .assert()
        .code(0);
    assert!(sb.path().join("repo/state/arx/journal.jsonl").is_file());
    assert!(!sb.path().join("repo/.arx").exists());
    assert_eq!(
        sb.read("repo/.gitattributes"),
        "state/arx/journal.jsonl merge=union\nstate/arx/dead-ends.jsonl merge=union\n\
         state/arx/knowhow.jsonl merge=union\nstate/arx/findings.jsonl merge=union\n\
         state/arx/ideas.jsonl merge=union\n"
    );

    // A state directory outside the repository cannot be covered.
    let outside = sb.path().join("scratch");
    let other = repo();
    let other_dir = other.path().join("repo");
    sb.arx()
        .current_dir(&other_dir)
        .env("ARX_STATE_DIR", &outside)
        .arg("init")
        .assert()
        .code(0)
        .stdout(contains("skipped  .gitattributes").and(contains("outside")));
    assert!(outside.join("journal.jsonl").is_file());
    assert!(!other_dir.join(".gitattributes").exists());
    assert!(other_dir.join("arx.toml").is_file());
}

#[test]
fn outside_a_repository_sets_up_the_working_directory() {
    let sb = Sandbox::new();
    sb.arx().arg("init").assert().code(0);
    assert!(sb.path().join(".arx/journal.jsonl").is_file());
    assert!(sb.path().join("arx.toml").is_file());
    assert_eq!(sb.read(".gitattributes"), UNION_LINES);
}

#[test]
fn a_file_in_the_way_is_an_error() {
    let sb = Sandbox::new();
    sb.write(".arx", "not a directory");
    sb.arx()
        .arg("init")
        .assert()
        .code(2)
        .stderr(contains("not a directory").and(contains("hint:")));
    assert_eq!(sb.read(".arx"), "not a directory");
    assert!(!sb.path().join("arx.toml").exists());
}

#[test]
fn derived_files_are_ignored_by_git() {
    let sb = repo();
    let dir = sb.path().join("repo");
    sb.arx()
        .current_dir(&dir)
        .args(["init", "--share-journal"])
        .assert()
        .code(0);
    let git = git2::Repository::open(&dir).unwrap();
    for file in [
        ".arx/precision.json",
        ".arx/ratchet-pending.json",
        ".arx/ratchet-aside.json",
        ".arx/ratchet-keep.json",
        ".arx/ratchet-pending-0123abcd.json",
        ".arx/ratchet-aside-0123abcd.json",
        ".arx/claim-l1.json",
        ".arx/try-0123abcd.lock",
        ".arx/keep.lock",
        ".arx/baseline.lock",
        ".arx/claims.lock",
        ".arx/slots/0.lock",
        ".arx/.precision.json.tmp-1234",
        ".arx/.ideas.jsonl.tmp-1234",
        ".arx/live/01a208ed-761d-714f-9415-98e088faa988.json",
    ] {
        assert!(git.is_path_ignored(file).unwrap(), "{file} is not ignored");
    }
    for file in [
        ".arx/journal.jsonl",
        ".arx/dead-ends.jsonl",
        ".arx/knowhow.jsonl",
        ".arx/rounds/x/RECORD.json",
    ] {
        assert!(!git.is_path_ignored(file).unwrap(), "{file} is ignored");
    }
    // A run's cache never shows up as a change.
    sb.arx()
        .current_dir(&dir)
        .args(["run", "--approve", "--", "true"])
        .assert()
        .code(0);
    assert!(dir.join(".arx/precision.json").exists());
    let statuses = git.statuses(None).unwrap();
    let changed: Vec<String> = statuses
        .iter()
        .filter(|s| !s.status().contains(git2::Status::IGNORED))
        .filter_map(|s| s.path().map(str::to_string))
        .collect();
    assert!(
        !changed.iter().any(|p| p.contains("precision")),
        "{changed:?}"
    );
}

#[test]
fn flags_write_the_objective_and_an_existing_one_is_never_rewritten() {
    let sb = repo();
    sb.arx()
        .args([
            "init",
            "--metric",
            "val_loss",
            "--direction",
            "min",
            "--command",
            "python train.py",
            "--protect",
            "eval/**",
            "prepare.py",
            "--check",
            "pytest -q",
        ])
        .assert()
        .code(0);
    let text = sb.read("arx.toml");
    let t: toml::Table = text.parse().unwrap();
    assert_eq!(t["objective"]["metric"].as_str(), Some("val_loss"));
    assert_eq!(t["objective"]["direction"].as_str(), Some("min"));
    assert_eq!(t["objective"]["command"].as_str(), Some("python train.py"));
    assert_eq!(t["objective"]["protect"].as_array().unwrap().len(), 2);
    assert_eq!(t["objective"]["checks"][0].as_str(), Some("pytest -q"));
    assert_eq!(t["gates"]["execute"].as_bool(), Some(true));
    assert!(text.contains("# baseline_repeat = 5"), "{text}");
    // `arx try` reads it: a dry run names the objective.
    let dry = sb
        .arx()
        .args(["--json", "try", "--dry-run"])
        .output()
        .unwrap();
    assert!(
        !String::from_utf8_lossy(&dry.stderr).contains("no metric"),
        "{}",
        String::from_utf8_lossy(&dry.stderr)
    );
    // A second objective is refused, and nothing changes.
    let before = snapshot(&sb);
    sb.arx()
        .args(["init", "--metric", "acc", "--direction", "max"])
        .assert()
        .code(2)
        .stderr(
            predicates::str::contains("already has an [objective]")
                .and(predicates::str::contains("hint:")),
        );
    assert_eq!(snapshot(&sb), before);
}

#[test]
fn without_flags_every_objective_key_is_commented_and_flags_append_to_a_file_without_one() {
    let sb = repo();
    sb.arx().arg("init").assert().code(0);
    let text = sb.read("arx.toml");
    let t: toml::Table = text.parse().unwrap();
    // The objective holds only the default stop rule.
    let objective = t["objective"].as_table().unwrap();
    assert_eq!(objective.keys().collect::<Vec<_>>(), ["stop"], "{text}");
    for key in [
        "metric",
        "direction",
        "command",
        "protect",
        "checks",
        "timeout",
        "max_runs",
    ] {
        assert!(text.contains(&format!("# {key} = ")), "{key}: {text}");
    }
    // A hand-written arx.toml without [objective]: the flags append it.
    sb.write("arx.toml", "[gates]\nexecute = false\n");
    sb.arx()
        .args([
            "--json",
            "init",
            "--metric",
            "acc",
            "--direction",
            "max",
            "--command",
            "./eval.sh",
        ])
        .assert()
        .code(0);
    let t: toml::Table = sb.read("arx.toml").parse().unwrap();
    assert_eq!(t["gates"]["execute"].as_bool(), Some(false));
    assert_eq!(t["objective"]["metric"].as_str(), Some("acc"));
}

#[test]
fn bad_init_flags_are_errors_that_change_nothing() {
    for args in [
        vec!["init", "--metric", "acc"],
        vec!["init", "--metric", "acc", "--direction", "sideways"],
        vec!["init", "--metric", " ", "--direction", "max"],
        vec!["init", "--command", ""],
        vec!["init", "--protect", ""],
    ] {
        let sb = repo();
        sb.arx().args(&args).assert().code(2);
        assert!(!sb.path().join("arx.toml").exists(), "{args:?}");
        assert!(!sb.path().join(".arx").exists(), "{args:?}");
    }
}

#[test]
fn the_state_directory_is_ignored_as_a_whole_unless_the_journal_is_shared() {
    let sb = repo();
    let dir = sb.path().join("repo");
    sb.arx()
        .current_dir(&dir)
        .arg("init")
        .assert()
        .code(0)
        .stdout(contains("state directory ignored by git"));
    // The README's `git add -A`, then a run: git status stays clean.
    crate::support::git_in(&dir, &["add", "-A"]);
    crate::support::git_in(
        &dir,
        &[
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@example.com",
            "commit",
            "-qm",
            "arx",
        ],
    );
    sb.arx()
        .current_dir(&dir)
        .args(["run", "--approve", "--", "true"])
        .assert()
        .code(0);
    assert_eq!(crate::support::git_in(&dir, &["status", "--porcelain"]), "");
    let git = git2::Repository::open(&dir).unwrap();
    assert!(git.is_path_ignored(".arx/journal.jsonl").unwrap());
    // Run again, the choice stands.
    sb.arx().current_dir(&dir).arg("init").assert().code(0);
    assert!(git.is_path_ignored(".arx/journal.jsonl").unwrap());
}
