//! A lane's candidate replayed onto a best another lane kept, under the
//! `sequential` rule: it carries its runs over as evidence, but a keep
//! also needs three runs of its own on the new best whose mean beats it.
//! The experiment's metric (to be maximised) has a noise of ±0.5 in the
//! main working tree only (where the baseline is measured), none in the
//! lanes, so that what a lane's runs come to is known exactly.

use std::path::{Path, PathBuf};
use std::process::Command as Std;

use serde_json::Value;

use crate::support::{json_lines, stderr, stdout_json, Sandbox};

const CONFIG: &str = r#"[gates]
execute = false

[objective]
metric = "m"
direction = "max"
command = "sh score.sh"
repeat = 1
baseline_repeat = 4
rule = "sequential"
"#;

/// The experiment: `value` (shell lines setting `$v` from `a.txt` and
/// `b.txt`), plus 0 or 1 in turn in the main working tree. With
/// `$ARX_GATE`, run N (from 0) of a try says it started and waits for
/// `go.N` (or `free`).
fn score(value: &str) -> String {
    format!(
        r#"if [ -n "$ARX_GATE" ]; then
  n=$(ls "$ARX_GATE" | grep -c '^started')
  : > "$ARX_GATE/started.$n"
  while [ ! -e "$ARX_GATE/go.$n" ] && [ ! -e "$ARX_GATE/free" ]; do sleep 0.02; done
fi
a=$(cat a.txt); b=$(cat b.txt)
{value}
e=0
if [ "$(basename "$PWD")" = repo ]; then
  n=$(cat ../noise 2>/dev/null || echo 0)
  echo $((n + 1)) > ../noise
  e=$((n % 2))
fi
echo "__RESULT__ {{\"m\": $((v + e))}}"
"#
    )
}

/// The sum: a change of `a.txt` keeps its effect on a best that changed
/// `b.txt`.
const SUM: &str = "v=$((a + b))";

/// The larger: once `b.txt` is larger, a change of `a.txt` below it does
/// nothing.
const MAX: &str = "if [ $a -gt $b ]; then v=$a; else v=$b; fi";

fn git_in(dir: &Path, args: &[&str]) -> String {
    let out = Std::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A repository measuring `value`, its baseline measured, with lanes a and
/// b.
struct Repo {
    sb: Sandbox,
}

impl Repo {
    fn new(value: &str) -> Repo {
        let r = Repo { sb: Sandbox::new() };
        std::fs::create_dir(r.root()).unwrap();
        for (name, text) in [
            ("score.sh", score(value).as_str()),
            ("a.txt", "1\n"),
            ("b.txt", "1\n"),
            ("arx.toml", CONFIG),
            (".gitignore", ".arx/\n"),
        ] {
            std::fs::write(r.root().join(name), text).unwrap();
        }
        let root = r.root();
        git_in(&root, &["init", "-q", "-b", "main"]);
        git_in(&root, &["config", "user.email", "t@example.com"]);
        git_in(&root, &["config", "user.name", "T"]);
        git_in(&root, &["add", "-A"]);
        git_in(&root, &["commit", "-qm", "start"]);
        let out = r.arx(&root, &["--json", "try", "-m", "baseline"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let out = r.arx(&root, &["lane", "add", "a", "b"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        r
    }

    fn root(&self) -> PathBuf {
        self.sb.path().join("repo")
    }

    fn lane(&self, name: &str) -> PathBuf {
        self.sb.path().join("repo.lanes").join(name)
    }

    fn arx(&self, dir: &Path, args: &[&str]) -> std::process::Output {
        self.sb.arx().current_dir(dir).args(args).output().unwrap()
    }

    fn journal(&self) -> Vec<Value> {
        json_lines(std::fs::read(self.root().join(".arx/journal.jsonl")).unwrap_or_default())
    }

    /// Lane a tries `a.txt` at 51; after its first three runs (kept by
    /// the rule on the baseline, topping its record up) lane b keeps
    /// `b.txt` at 101 while a's fourth runs: a is replayed onto b's keep
    /// with its four runs. a's try's exit code, report and progress.
    fn a_replayed_onto_b(&self) -> (i32, Value, String) {
        let gate = self.sb.path().join("gate");
        std::fs::create_dir(&gate).unwrap();
        std::fs::write(self.lane("a").join("a.txt"), "51\n").unwrap();
        let a = Std::new(assert_cmd::cargo::cargo_bin("arx"))
            .args(["--json", "try", "-m", "a up"])
            .current_dir(self.lane("a"))
            .env_remove("ARX_STATE_DIR")
            .env("NO_COLOR", "1")
            .env("ARX_GATE", &gate)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let started = |n: usize| {
            let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
            while !gate.join(format!("started.{n}")).exists() {
                assert!(
                    std::time::Instant::now() < until,
                    "a's run {n} never started"
                );
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        };
        for n in 0..3 {
            started(n);
            std::fs::write(gate.join(format!("go.{n}")), "").unwrap();
        }
        started(3);
        std::fs::write(self.lane("b").join("b.txt"), "101\n").unwrap();
        let out = self.arx(&self.lane("b"), &["--json", "try", "-m", "b up"]);
        let report = stdout_json(&out);
        assert_eq!(
            (out.status.code(), report["ratchet"]["status"].as_str()),
            (Some(0), Some("keep")),
            "{}",
            stderr(&out)
        );
        std::fs::write(gate.join("free"), "").unwrap();
        let out = a.wait_with_output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            stdout_json(&out),
            stderr(&out),
        )
    }
}

/// a's change keeps its effect on b's best: a is kept on the run it
/// carried and its own runs on the new best, which its record holds
/// (the carried run told apart, with the best it was measured on).
#[test]
fn a_replayed_lane_keeps_on_its_carried_runs_and_three_of_its_own_on_the_new_best() {
    let r = Repo::new(SUM);
    let (code, report, err) = r.a_replayed_onto_b();
    assert_eq!(
        (code, report["ratchet"]["status"].as_str()),
        (0, Some("keep")),
        "{err}"
    );
    let journal = r.journal();
    let baseline = journal[0]["ratchet"]["commit"].as_str().unwrap();
    let keep = journal.last().unwrap();
    let b_keep = &journal[journal.len() - 2];
    assert_eq!(keep["ratchet"]["kept"], b_keep["ratchet"]["commit"]);
    assert_eq!(
        keep["ratchet"]["replayed_from"],
        serde_json::json!([baseline])
    );
    // Four runs on the baseline (52 against 2.5: 49.5 better), carried
    // onto b's best (102) as 151.5.
    let carried = &keep["ratchet"]["carried"];
    assert_eq!(
        carried["on"],
        serde_json::json!([baseline, baseline, baseline, baseline]),
        "{keep}"
    );
    assert_eq!(
        carried["values"],
        serde_json::json!([151.5, 151.5, 151.5, 151.5]),
        "{keep}"
    );
    assert_eq!(carried["fresh_runs"], 3);
    // Its record: its own runs on the new best, at least three, each 152.
    let own: Vec<f64> = keep["samples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!(own.len() >= 3, "{keep}");
    assert!(own.iter().all(|x| *x == 152.0), "{own:?}");
    assert_eq!(keep["attempts"].as_array().unwrap().len(), 4 + own.len());
    let notes = report["notes"].to_string();
    assert!(
        notes.contains("replayed with its runs: 4 carried from"),
        "{notes}"
    );
    assert_eq!(
        std::fs::read_to_string(r.root().join("a.txt")).unwrap(),
        "51\n"
    );
}

/// a's change does nothing on b's best: the rule would keep it on all its
/// runs (the carried one is far better), but its own runs on the new best
/// do not beat it, so it is discarded, and its line says why.
#[test]
fn a_replayed_lane_whose_own_runs_do_not_beat_the_new_best_is_discarded() {
    let r = Repo::new(MAX);
    let (code, report, err) = r.a_replayed_onto_b();
    assert_eq!(
        (code, report["ratchet"]["status"].as_str()),
        (1, Some("discard")),
        "{report}\n{err}"
    );
    assert!(
        err.contains("its runs on the new best (") && err.contains("do not beat it (101.0000)"),
        "{err}"
    );
    let keep = r.journal().last().unwrap().clone();
    assert_eq!(
        keep["ratchet"]["carried"]["values"],
        serde_json::json!([150.5, 150.5, 150.5, 150.5])
    );
    // The best is b's keep; a's change was set aside.
    assert_eq!(
        std::fs::read_to_string(r.root().join("b.txt")).unwrap(),
        "101\n"
    );
    assert_eq!(
        std::fs::read_to_string(r.root().join("a.txt")).unwrap(),
        "1\n"
    );
}
