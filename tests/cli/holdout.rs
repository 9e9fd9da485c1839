//! The held-out check kept hidden and bounding the total: what reaches an
//! experiment's environment, where the held-out command runs, its seeds
//! and pairing, the veto against the baseline, and `[objective.holdout]`
//! in a file outside the repository.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{commit_all, git_in, stderr, stdout_json, Sandbox};

/// The target `m` is `value.txt` plus a small jitter (a counter outside
/// the repository); every run writes its `ARX_*` variables to
/// `$SPY/experiment.env`.
const SCORE: &str = r#"#!/bin/sh
env | grep '^ARX_' >> "$SPY/experiment.env"
echo --- >> "$SPY/experiment.env"
v=$(cat value.txt)
n=$(cat "$SPY/score.n" 2>/dev/null || echo 0)
echo $((n + 1)) > "$SPY/score.n"
case $((n % 5)) in 0) j=0;; 1) j=0.002;; 2) j=-0.002;; 3) j=0.001;; *) j=-0.001;; esac
awk -v v="$v" -v j="$j" 'BEGIN { printf "__RESULT__ {\"m\": %.6f}\n", v + j }'
"#;

/// The held-out evaluation: `test_loss` is `test.txt` plus a jitter from
/// its own counter (0, +0.002, −0.002, +0.001, −0.001, ...), or with
/// `$SPY/seeded` the seed's last digit / 100 (with `$SPY/seeded-jitter`,
/// the jitter and the seed's last digit / 10000: a weak seed effect). It tells the spy its
/// variables, its seed and its working directory, and writes a file of
/// its own where it runs.
const HOLDOUT: &str = r#"#!/bin/sh
env | grep '^ARX_' >> "$SPY/holdout.env"
echo --- >> "$SPY/holdout.env"
echo "${ARX_SEED:-none}" >> "$SPY/holdout.seeds"
pwd >> "$SPY/holdout.pwd"
echo "copied test data" > leaked-by-holdout.txt
t=$(cat test.txt)
if [ -e "$SPY/constant" ]; then
  printf '__RESULT__ {"test_loss": %s}\n' "$t"
  exit 0
fi
if [ -e "$SPY/seeded" ]; then
  awk -v t="$t" -v s="$ARX_SEED" 'BEGIN { printf "__RESULT__ {\"test_loss\": %.6f}\n", t + (s % 10) / 100 }'
  exit 0
fi
n=$(cat "$SPY/holdout.n" 2>/dev/null || echo 0)
echo $((n + 1)) > "$SPY/holdout.n"
case $((n % 5)) in 0) j=0;; 1) j=0.002;; 2) j=-0.002;; 3) j=0.001;; *) j=-0.001;; esac
# With $SPY/seeded-jitter: the seed's effect and the jitter.
if [ -e "$SPY/seeded-jitter" ]; then
  j=$(awk -v j="$j" -v s="$ARX_SEED" 'BEGIN { printf "%.6f", j + (s % 10) / 10000 }')
fi
awk -v t="$t" -v j="$j" 'BEGIN { printf "__RESULT__ {\"test_loss\": %.6f}\n", t + j }'
"#;

const CONFIG: &str = r#"[gates]
execute = false

[objective]
metric = "m"
direction = "min"
command = "sh score.sh"
baseline_repeat = 5
confidence = 0.95
checks = ["sh check.sh"]
"#;

const HELD_OUT: &str = r#"
[objective.holdout]
command = "sh holdout.sh"
metric = "test_loss"
baseline_repeat = 3
repeat = 2
"#;

/// A repository with the experiment, a check and the held-out command
/// committed; the operator's journal and the spy's files outside it.
struct Loop {
    sb: Sandbox,
    outside: tempfile::TempDir,
}

impl Loop {
    fn new(config: &str) -> Loop {
        let sb = Sandbox::new();
        sb.write("score.sh", SCORE);
        sb.write("holdout.sh", HOLDOUT);
        sb.write(
            "check.sh",
            "env | grep '^ARX_' >> \"$SPY/check.env\"\necho --- >> \"$SPY/check.env\"\n",
        );
        sb.write("value.txt", "1.0");
        sb.write("test.txt", "1");
        sb.write("arx.toml", config);
        commit_all(sb.path());
        let l = Loop {
            sb,
            outside: tempfile::tempdir().unwrap(),
        };
        std::fs::create_dir_all(l.spy()).unwrap();
        l
    }

    fn spy(&self) -> PathBuf {
        self.outside.path().join("spy")
    }

    fn spied(&self, name: &str) -> String {
        std::fs::read_to_string(self.spy().join(name)).unwrap_or_default()
    }

    fn journal_path(&self) -> PathBuf {
        self.outside.path().join("held-out.jsonl")
    }

    fn journal(&self) -> Vec<Value> {
        std::fs::read_to_string(self.journal_path())
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    fn arx(&self) -> assert_cmd::Command {
        let mut cmd = self.sb.arx();
        cmd.env("ARX_HOLDOUT_JOURNAL", self.journal_path())
            .env("SPY", self.spy());
        cmd
    }

    /// `arx --json try ARGS`: exit code, report and stderr.
    fn try_json(&self, args: &[&str]) -> (i32, Value, String) {
        let out = self
            .arx()
            .args(["--json", "try"])
            .args(args)
            .output()
            .unwrap();
        assert!(!out.stdout.is_empty(), "no report: {}", stderr(&out));
        (
            out.status.code().unwrap_or(-1),
            stdout_json(&out),
            stderr(&out),
        )
    }
}

fn status(report: &Value) -> &str {
    report["ratchet"]["status"].as_str().unwrap_or("")
}

#[test]
fn no_variable_arx_uses_internally_reaches_an_experiment_a_check_or_the_held_out_command() {
    let l = Loop::new(CONFIG);
    let held_out = l.outside.path().join("heldout.toml");
    std::fs::write(&held_out, HELD_OUT).unwrap();
    let run = |args: &[&str]| {
        let mut cmd = l.arx();
        cmd.env("ARX_HOLDOUT_CONFIG", &held_out)
            .env("ARX_FAILPOINT", "no-such-point")
            .env("ARX_PORTABLE", "1")
            .env("ARX_BWRAP", "/nonexistent/bwrap")
            .env("ARX_STATE_DIR", l.sb.path().join(".arx"));
        cmd.args(["--json", "try"]).args(args).output().unwrap()
    };
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    l.sb.write("value.txt", "0.9");
    let out = run(&["-m", "better"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout_json(&out)["ratchet"]["holdout"], "passed");
    for file in ["experiment.env", "check.env", "holdout.env"] {
        let seen = l.spied(file);
        assert!(seen.contains("---"), "{file} was not written");
        for internal in [
            "ARX_HOLDOUT_JOURNAL",
            "ARX_HOLDOUT_CONFIG",
            "ARX_FAILPOINT",
            "ARX_PORTABLE",
            "ARX_BWRAP",
            "ARX_STATE_DIR",
        ] {
            assert!(!seen.contains(internal), "{file} saw {internal}:\n{seen}");
        }
        for path in [l.journal_path(), held_out.clone()] {
            let path = path.display().to_string();
            assert!(!seen.contains(&path), "{file} saw {path}: {seen}");
        }
    }
    // What a run is documented to get, it gets.
    assert!(l.spied("experiment.env").contains("ARX_RUN_ID="));
}

#[test]
fn the_held_out_command_runs_in_a_throwaway_checkout_outside_the_working_tree() {
    let l = Loop::new(&format!("{CONFIG}{HELD_OUT}"));
    assert_eq!(l.try_json(&[]).0, 0);
    l.sb.write("value.txt", "0.9");
    let (code, report, err) = l.try_json(&["-m", "better"]);
    assert_eq!((code, status(&report)), (0, "keep"), "{report}{err}");
    // A veto: worse on the held-out metric.
    l.sb.write("value.txt", "0.8");
    l.sb.write("test.txt", "2");
    let (code, report, err) = l.try_json(&["-m", "overfit"]);
    assert_eq!((code, status(&report)), (1, "holdout"), "{report}{err}");
    // What it wrote stayed in its checkout: not in the working tree, the
    // kept commit, or the set-aside candidate.
    assert!(!l.sb.path().join("leaked-by-holdout.txt").exists());
    let kept = git_in(l.sb.path(), &["ls-tree", "-r", "--name-only", "HEAD"]);
    assert!(!kept.contains("leaked-by-holdout"), "{kept}");
    let refs = git_in(
        l.sb.path(),
        &["for-each-ref", "--format=%(refname)", "refs/arx/"],
    );
    for r in refs.lines() {
        let files = git_in(l.sb.path(), &["ls-tree", "-r", "--name-only", r]);
        assert!(!files.contains("leaked-by-holdout"), "{r}: {files}");
    }
    // It ran in the measured tree (the candidate's test.txt), elsewhere,
    // and that place is gone.
    let repo = l.sb.path().canonicalize().unwrap();
    let places: Vec<String> = l.spied("holdout.pwd").lines().map(String::from).collect();
    let journaled: usize = l
        .journal()
        .iter()
        .map(|e| e["values"].as_array().unwrap().len())
        .sum();
    assert_eq!(places.len(), journaled, "{places:?}");
    for p in &places {
        let p = Path::new(p);
        assert!(!p.starts_with(&repo), "{}", p.display());
        assert!(!p.exists(), "{} was left behind", p.display());
    }
    let journal = l.journal();
    let last = journal.last().unwrap();
    assert_eq!(last["verdict"], "failed", "{last}");
    assert!(last["values"][0].as_f64().unwrap() > 1.9, "{last}");
}

#[test]
fn held_out_runs_take_the_paired_seeds_and_pair_with_the_best() {
    let l = Loop::new(&format!("{CONFIG}seeds = \"paired\"\n{HELD_OUT}"));
    std::fs::write(l.spy().join("seeded"), "").unwrap();
    let (code, base, err) = l.try_json(&[]);
    assert_eq!(code, 0, "{err}");
    let seeds: Vec<String> = l.spied("holdout.seeds").lines().map(String::from).collect();
    assert_eq!(seeds.len(), 3, "{seeds:?}");
    assert!(seeds.iter().all(|s| s != "none"), "{seeds:?}");
    // The baseline's held-out runs take the baseline's seeds.
    let run_seeds: Vec<String> = base["ratchet"]["seeds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(seeds, run_seeds[..3].to_vec(), "{base}");
    l.sb.write("value.txt", "0.9");
    let (code, report, err) = l.try_json(&["-m", "better"]);
    assert_eq!((code, status(&report)), (0, "keep"), "{report}{err}");
    // The candidate's two runs pair with the baseline's first two.
    let all: Vec<String> = l.spied("holdout.seeds").lines().map(String::from).collect();
    assert_eq!(all[3..].to_vec(), seeds[..2].to_vec());
    let journal = l.journal();
    assert_eq!(journal.len(), 2);
    assert_eq!(journal[1]["seeds"].as_array().unwrap().len(), 2);
    assert_eq!(journal[1]["verdict"], "passed");
    // No noise 0 over runs that vary: no warning.
    assert!(!err.contains("same value"), "{err}");
}

#[test]
fn a_held_out_command_that_ignores_its_seed_is_warned_about() {
    let l = Loop::new(&format!("{CONFIG}seeds = \"paired\"\n{HELD_OUT}"));
    std::fs::write(l.spy().join("constant"), "").unwrap();
    let (code, _, err) = l.try_json(&[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "the held-out check of the baseline printed the same value at 3 different seeds"
        ),
        "{err}"
    );
    assert!(err.contains("ARX_SEED"), "{err}");
    // Never its value.
    assert!(!err.contains("test_loss"), "{err}");
}

#[test]
fn small_held_out_losses_cannot_pile_up_past_the_baseline() {
    // Each candidate better on the target and a little worse on the
    // held-out set: within the noise of the best, not of the baseline.
    let l = Loop::new(&format!("{CONFIG}{HELD_OUT}margin = 0.01\n"));
    assert_eq!(l.try_json(&[]).0, 0);
    l.sb.write("value.txt", "0.9");
    l.sb.write("test.txt", "1.0003");
    let (code, report, err) = l.try_json(&["-m", "a little worse held out"]);
    assert_eq!((code, status(&report)), (0, "keep"), "{report}{err}");
    l.sb.write("value.txt", "0.8");
    l.sb.write("test.txt", "1.004");
    let (code, report, err) = l.try_json(&["-m", "a little worse again"]);
    assert_eq!((code, status(&report)), (1, "holdout"), "{report}{err}");
    let journal = l.journal();
    let last = journal.last().unwrap();
    assert_eq!(last["worse_than"], "baseline", "{last}");
    // Against a margin of 0.01 from the best alone it would have passed.
    let best: f64 = last["best"].as_array().unwrap()[0].as_f64().unwrap();
    let mean: f64 = last["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .sum::<f64>()
        / last["values"].as_array().unwrap().len() as f64;
    assert!(mean - best < 0.01, "{last}");
}

#[test]
fn a_candidate_not_shown_within_the_harm_bound_gets_more_runs_and_the_baseline_too() {
    // The held-out noise is about 0.0016 (the jitter), so the harm bound
    // is about that much: a candidate 0.0015 worse is neither shown
    // worse nor shown within it by 2 runs against 3 (the one-look rule
    // passed it). The check runs more, the baseline's runs grow to
    // match (journaled once, under the baseline's run), and at most
    // `max_repeat` runs a side decide.
    let l = Loop::new(&format!("{CONFIG}{HELD_OUT}max_repeat = 8\n"));
    assert_eq!(l.try_json(&[]).0, 0);
    l.sb.write("value.txt", "0.9");
    l.sb.write("test.txt", "1.0015");
    let (code, report, err) = l.try_json(&["-m", "worse held out, by about its noise"]);
    assert_eq!((code, status(&report)), (1, "holdout"), "{report}{err}");
    assert!(
        err.contains("held-out check of the candidate (2 to 8 runs)"),
        "{err}"
    );
    assert!(
        !err.contains("test_loss") && !err.contains("1.0015"),
        "{err}"
    );
    let journal = l.journal();
    let kinds: Vec<&str> = journal
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    let baseline_runs: usize = journal
        .iter()
        .filter(|e| e["kind"] == "baseline")
        .map(|e| e["values"].as_array().unwrap().len())
        .sum();
    let last = journal.last().unwrap();
    let runs = last["values"].as_array().unwrap().len();
    assert!(runs > 2 && runs <= 8, "{last}");
    assert!(
        kinds.iter().filter(|k| **k == "baseline").count() >= 2,
        "{kinds:?}"
    );
    assert!(baseline_runs >= runs, "{baseline_runs} {runs}");
    assert_eq!(journal[1]["run_id"], journal[0]["run_id"]);
    assert_eq!(last["verdict"], "failed", "{last}");
    // The next try reuses the baseline's runs: none again until it needs
    // more than it has.
    let before = l.spied("holdout.pwd").lines().count();
    l.sb.write("test.txt", "1");
    l.sb.write("value.txt", "0.85");
    let (code, report, err) = l.try_json(&["-m", "as good held out"]);
    assert_eq!((code, status(&report)), (0, "keep"), "{report}{err}");
    let journal = l.journal();
    let added: usize = journal
        .iter()
        .filter(|e| e["kind"] == "baseline")
        .map(|e| e["values"].as_array().unwrap().len())
        .sum::<usize>()
        - baseline_runs;
    let cand = journal.last().unwrap()["values"].as_array().unwrap().len();
    assert_eq!(
        l.spied("holdout.pwd").lines().count() - before,
        cand + added
    );
    assert!(baseline_runs + added <= 8);
}

#[test]
fn under_paired_seeds_more_runs_of_the_baseline_take_new_seeds_and_the_candidate_pairs() {
    let l = Loop::new(&format!(
        "{CONFIG}seeds = \"paired\"\n{HELD_OUT}max_repeat = 8\n"
    ));
    std::fs::write(l.spy().join("seeded-jitter"), "").unwrap();
    assert_eq!(l.try_json(&[]).0, 0);
    l.sb.write("value.txt", "0.9");
    l.sb.write("test.txt", "1.0015");
    let (code, report, err) = l.try_json(&["-m", "worse held out, by about its noise"]);
    assert_eq!(code, 1, "{report}{err}");
    let journal = l.journal();
    let seeds = |e: &Value| -> Vec<u64> {
        e["seeds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .collect()
    };
    let baseline: Vec<u64> = journal
        .iter()
        .filter(|e| e["kind"] == "baseline")
        .flat_map(seeds)
        .collect();
    let mut distinct = baseline.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), baseline.len(), "{baseline:?}");
    let cand = seeds(journal.last().unwrap());
    assert!(cand.len() > 2, "{journal:?}");
    // The candidate's runs took the baseline's seeds, in order.
    assert_eq!(cand[..], baseline[..cand.len()]);
}

#[test]
fn a_max_repeat_below_repeat_is_an_error_naming_the_key() {
    let l = Loop::new(&format!("{CONFIG}{HELD_OUT}max_repeat = 1\n"));
    let out = l.arx().args(["try"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("holdout.max_repeat"),
        "{}",
        stderr(&out)
    );
    assert!(l.spied("experiment.env").is_empty());
}

#[test]
fn a_margin_is_read_and_a_negative_one_is_an_error_naming_the_key() {
    let l = Loop::new(&format!("{CONFIG}{HELD_OUT}margin = 0.5\n"));
    let out = l.arx().args(["try", "--dry-run"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    l.sb.write("arx.toml", format!("{CONFIG}{HELD_OUT}margin = -0.1\n"));
    let out = l.arx().args(["try"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("holdout.margin"), "{}", stderr(&out));
    // The hint points at the held-out table, which has no flag.
    assert!(
        stderr(&out).contains("hint: set it under [objective.holdout]"),
        "{}",
        stderr(&out)
    );
    assert!(l.spied("experiment.env").is_empty());
}

#[test]
fn the_held_out_check_can_live_in_a_file_outside_the_repository() {
    let l = Loop::new(CONFIG);
    let file = l.outside.path().join("heldout.toml");
    std::fs::write(&file, HELD_OUT).unwrap();
    // ARX_HOLDOUT_CONFIG names it.
    let out = l
        .arx()
        .env("ARX_HOLDOUT_CONFIG", &file)
        .args(["--json", "try"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(l.journal().len(), 1);
    assert_eq!(l.journal()[0]["kind"], "baseline");
    // So does --holdout-config.
    l.sb.write("value.txt", "0.9");
    let out = l
        .arx()
        .args(["--json", "--holdout-config"])
        .arg(&file)
        .args(["try", "-m", "better"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout_json(&out)["ratchet"]["holdout"], "passed");
    let candidates = |j: Vec<Value>| j.iter().filter(|e| e["kind"] == "candidate").count();
    assert_eq!(candidates(l.journal()), 1);
    // The repository shows nothing of it.
    let dry = l
        .arx()
        .env("ARX_HOLDOUT_CONFIG", &file)
        .args(["--json", "try", "--dry-run"])
        .output()
        .unwrap();
    assert_eq!(stdout_json(&dry)["keep_needs"]["holdout"], true);
    // Inside the repository, or set in both places: exit 2, nothing run.
    let inside = l.sb.write("notes/heldout.toml", HELD_OUT);
    let out = l
        .arx()
        .env("ARX_HOLDOUT_CONFIG", &inside)
        .args(["try"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("inside the repository"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(l.sb.path().join("notes")).unwrap();
    l.sb.write("arx.toml", format!("{CONFIG}{HELD_OUT}"));
    git_in(
        l.sb.path(),
        &["commit", "-qam", "held out in the repository"],
    );
    let out = l
        .arx()
        .env("ARX_HOLDOUT_CONFIG", &file)
        .args(["try"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("both"), "{}", stderr(&out));
    // A file with anything else in it: exit 2.
    std::fs::write(&file, "[objective]\nmetric = \"m\"\n").unwrap();
    l.sb.write("arx.toml", CONFIG);
    git_in(l.sb.path(), &["commit", "-qam", "held out outside again"]);
    let out = l
        .arx()
        .env("ARX_HOLDOUT_CONFIG", &file)
        .args(["status"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[cfg(feature = "mcp")]
#[test]
fn mcp_run_runs_the_objectives_command_a_listed_one_or_none_without_the_person() {
    let l = Loop::new(&format!(
        "{CONFIG}{HELD_OUT}\n[mcp]\ncommands = [[\"sh\", \"listed.sh\"]]\n"
    ));
    l.sb.write("listed.sh", "echo '__RESULT__ {\"m\": 1}'\n");
    commit_all(l.sb.path());
    let spy = l.spy();
    let journal = l.journal_path();
    let mut mcp =
        crate::mcp::Session::start_with(&l.sb, &[("SPY", &spy), ("ARX_HOLDOUT_JOURNAL", &journal)]);
    // The gate is off (execute = false), yet a command nobody listed does
    // not run: the person is asked, and this client cannot ask.
    for (command, shell) in [
        (serde_json::json!(["cat", "arx.toml"]), false),
        (serde_json::json!(["sh holdout.sh"]), true),
        (serde_json::json!(["sh", "-c", "sh score.sh"]), false),
    ] {
        let ran = mcp.call(
            "run",
            serde_json::json!({"command": command, "shell": shell, "metric": "m", "cmp": "<=", "target": 5}),
        );
        assert_eq!(ran["_meta"]["exit_code"], 1, "{ran}");
        assert_eq!(
            ran["structuredContent"]["outcome"], "paused: no person to ask",
            "{ran}"
        );
        for secret in ["test_loss", "objective.holdout"] {
            assert!(!ran.to_string().contains(secret), "{ran}");
        }
    }
    assert!(l.sb.journal().is_empty());
    assert!(l.spied("holdout.seeds").is_empty());
    // The objective's command, and one `[mcp] commands` lists, run.
    for (command, shell) in [
        (serde_json::json!(["sh score.sh"]), true),
        (serde_json::json!(["sh", "score.sh"]), false),
        (serde_json::json!(["sh", "listed.sh"]), false),
    ] {
        let ran = mcp.call(
            "run",
            serde_json::json!({"command": command, "shell": shell, "metric": "m", "cmp": "<=", "target": 5}),
        );
        assert_ne!(
            ran["structuredContent"]["outcome"], "paused: no person to ask",
            "{ran}"
        );
        assert_eq!(ran["_meta"]["exit_code"], 0, "{ran}");
    }
    assert_eq!(l.sb.journal().len(), 3);
}
