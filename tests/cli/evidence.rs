//! `arx try` with guard metrics and a held-out check: a candidate whose
//! target improves while a guard or the held-out metric gets worse is set
//! aside, and no output the loop can see carries a held-out value.

use std::path::Path;

use serde_json::Value;

use crate::support::{commit_all, git_in, stderr, stdout_json, Sandbox};

/// The target `m` is `value.txt` plus a jitter; `step` is `step.txt`
/// (plus the jitter times `step_jitter.txt`, when it exists), `mem` a
/// constant; `vram` only when `vram.txt` exists.
const SCORE: &str = r#"#!/bin/sh
v=$(cat value.txt)
s=$(cat step.txt)
n=$(cat .noise 2>/dev/null || echo 0)
echo $((n + 1)) > .noise
case $((n % 5)) in 0) j=0;; 1) j=0.002;; 2) j=-0.002;; 3) j=0.001;; *) j=-0.001;; esac
extra=""
[ -f vram.txt ] && extra=", \"vram\": $(cat vram.txt)"
sj=$(cat step_jitter.txt 2>/dev/null || echo 0)
awk -v v="$v" -v j="$j" -v s="$s" -v sj="$sj" -v x="$extra" 'BEGIN { printf "__RESULT__ {\"m\": %.6f, \"step\": %.4f, \"mem\": 1.5%s}\n", v + j, s + j * sj, x }'
"#;

/// The held-out evaluation: `test_loss` from `test.txt` (1 → 731.58213,
/// 2 → 763.16426), with a line of output of its own.
const HOLDOUT: &str = r#"#!/bin/sh
t=$(cat test.txt)
echo "HOLDOUT-PRIVATE-OUTPUT" >&2
[ "$t" = boom ] && exit 1
awk -v t="$t" 'BEGIN { printf "__RESULT__ {\"test_loss\": %.5f}\n", 700 + t * 31.58213 }'
"#;

const CONFIG: &str = r#"[gates]
execute = false

[objective]
metric = "m"
direction = "min"
command = "sh score.sh"
baseline_repeat = 5
"#;

/// A repository with the experiment committed; the operator's held-out
/// journal in a directory of its own, outside it.
struct Loop {
    sb: Sandbox,
    outside: tempfile::TempDir,
}

impl Loop {
    fn new(extra_config: &str) -> Loop {
        let sb = Sandbox::new();
        sb.write("score.sh", SCORE);
        sb.write("holdout.sh", HOLDOUT);
        sb.write("value.txt", "1.0");
        sb.write("step.txt", "1.0");
        sb.write("test.txt", "1");
        sb.write(".gitignore", ".noise\n");
        sb.write("arx.toml", format!("{CONFIG}{extra_config}"));
        commit_all(sb.path());
        Loop {
            sb,
            outside: tempfile::tempdir().unwrap(),
        }
    }

    fn journal_path(&self) -> std::path::PathBuf {
        self.outside.path().join("held-out.jsonl")
    }

    fn arx(&self) -> assert_cmd::Command {
        let mut cmd = self.sb.arx();
        cmd.env("ARX_HOLDOUT_JOURNAL", self.journal_path());
        cmd
    }

    /// `arx ARGS`: exit code, stdout, stderr.
    fn run(&self, args: &[&str]) -> (i32, String, String) {
        let out = self.arx().args(args).output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr(&out),
        )
    }

    /// `arx --json try ARGS`: exit code and report.
    fn try_json(&self, args: &[&str]) -> (i32, Value) {
        let out = self
            .arx()
            .args(["--json", "try"])
            .args(args)
            .output()
            .unwrap();
        assert!(!out.stdout.is_empty(), "no report: {}", stderr(&out));
        (out.status.code().unwrap_or(-1), stdout_json(&out))
    }
}

fn status(report: &Value) -> &str {
    report["ratchet"]["status"].as_str().unwrap_or("")
}

#[test]
fn a_guard_that_gets_worse_vetoes_a_better_target() {
    let l = Loop::new("guards = [\"step <= 1.05 * best\", \"mem <= 40\"]\n");
    assert_eq!(l.try_json(&[]).0, 0);
    // Better, and the step time within its bound: kept.
    l.sb.write("value.txt", "0.9");
    l.sb.write("step.txt", "1.03");
    let (code, report) = l.try_json(&["-m", "a little slower"]);
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    let kept = git_in(l.sb.path(), &["rev-parse", "HEAD"]);
    // Better again, but the step time 1.5 against a bound of 1.05 × 1.03.
    l.sb.write("value.txt", "0.8");
    l.sb.write("step.txt", "1.5");
    let (code, out, err) = l.run(&["try", "-m", "much slower"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.lines().any(|l| l.starts_with("guard: m 0.7998 ")),
        "{out}"
    );
    assert!(
        out.contains(
            "guard `step <= 1.05 * best` broken: step 1.5 against a bound of 1.0815, best 1.03"
        ),
        "{out}"
    );
    assert_eq!(git_in(l.sb.path(), &["rev-parse", "HEAD"]), kept);
    assert_eq!(l.sb.read("step.txt"), "1.03");
    let rec = l.sb.journal().pop().unwrap();
    assert_eq!(rec["ratchet"]["status"], "guard");
    assert_eq!(rec["ratchet"]["guard"]["metric"], "step");
    assert_eq!(rec["ratchet"]["guard"]["value"], 1.5);
    // A discarded try to the folds: counted, and restorable.
    let (_, st, _) = l.run(&["--json", "status"]);
    let st: Value = serde_json::from_str(&st).unwrap();
    assert_eq!(
        (st["discards"].as_u64(), st["guard"].as_u64()),
        (Some(1), Some(1)),
        "{st}"
    );
    let (_, log, _) = l.run(&["log"]);
    assert!(log.contains("guard"), "{log}");
    let (_, report, _) = l.run(&["--json", "report"]);
    assert!(report.contains("\"guard\""), "{report}");
    assert_eq!(l.run(&["restore"]).0, 0);
    assert_eq!(l.sb.read("step.txt"), "1.5");
}

#[test]
fn a_guard_relative_to_the_baseline_bounds_the_total_of_the_keeps() {
    let l = Loop::new("guards = [\"step <= 1.05 * baseline\"]\n");
    assert_eq!(l.try_json(&[]).0, 0);
    // 4% slower than the baseline: within 1.05 × 1.0, kept.
    l.sb.write("value.txt", "0.9");
    l.sb.write("step.txt", "1.04");
    let (code, report) = l.try_json(&["-m", "a little slower"]);
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
    // 4% slower again: within 1.05 × the best (1.092), not within
    // 1.05 × the baseline.
    l.sb.write("value.txt", "0.8");
    l.sb.write("step.txt", "1.0816");
    let (code, out, err) = l.run(&["try", "-m", "slower again"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(
            "guard `step <= 1.05 * baseline` broken: step 1.0816 against a bound of 1.05, baseline 1"
        ),
        "{out}"
    );
    let rec = l.sb.journal().pop().unwrap();
    assert_eq!(rec["ratchet"]["status"], "guard");
    assert_eq!(rec["ratchet"]["guard"]["baseline"], 1.0);
    assert!(rec["ratchet"]["guard"]["best"].is_null());
}

#[test]
fn a_guard_holds_only_when_the_candidate_is_shown_within_its_bound() {
    let l = Loop::new("guards = [\"step <= 1.05 * baseline\"]\n");
    // The step time varies by up to ±0.05 a run.
    l.sb.write("step_jitter.txt", "25");
    git_in(l.sb.path(), &["add", "-A"]);
    git_in(l.sb.path(), &["commit", "-qm", "a noisy step time"]);
    assert_eq!(l.try_json(&[]).0, 0);
    // 3% slower: under the bound on average, by less than the noise can
    // tell. The burden of proof is on the candidate: not kept.
    l.sb.write("value.txt", "0.9");
    l.sb.write("step.txt", "1.03");
    let (code, out, err) = l.run(&["try", "-m", "a little slower"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("guard `step <= 1.05 * baseline` not shown within its bound (the noise cannot tell): step 1.0"),
        "{out}"
    );
    assert_eq!(l.sb.journal().pop().unwrap()["ratchet"]["status"], "guard");
    // 5% faster: shown within, kept.
    l.sb.write("value.txt", "0.9");
    l.sb.write("step.txt", "0.95");
    let (code, report) = l.try_json(&["-m", "a little faster"]);
    assert_eq!((code, status(&report)), (0, "keep"), "{report}");
}

#[test]
fn an_absolute_guard_bounds_the_candidates_mean() {
    let l = Loop::new("guards = [\"vram <= 40\"]\n");
    l.sb.write("vram.txt", "30");
    git_in(l.sb.path(), &["add", "-A"]);
    git_in(l.sb.path(), &["commit", "-qm", "vram"]);
    assert_eq!(l.try_json(&[]).0, 0);
    l.sb.write("value.txt", "0.9");
    l.sb.write("vram.txt", "41");
    let (code, report) = l.try_json(&[]);
    assert_eq!((code, status(&report)), (1, "guard"), "{report}");
    assert_eq!(report["ratchet"]["guard"]["bound"], 40.0);
    assert_eq!(report["ratchet"]["guard"]["value"], 41.0);
}

#[test]
fn a_guard_metric_the_experiment_does_not_print_is_no_keep_and_loses_nothing() {
    let l = Loop::new("guards = [\"vram <= 40\"]\n");
    let (code, _, err) = l.run(&["try"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("the baseline printed no vram"), "{err}");
    l.sb.write("value.txt", "0.9");
    let (code, out, err) = l.run(&["try", "-m", "better"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("guard `vram <= 40`: the candidate's runs did not print vram"),
        "{out}"
    );
    let rec = l.sb.journal().pop().unwrap();
    assert_eq!(rec["ratchet"]["status"], "guard");
    assert_eq!(rec["ratchet"]["guard"]["missing"], "candidate");
    assert_eq!(l.sb.read("value.txt"), "1.0");
    assert_eq!(l.run(&["restore"]).0, 0);
    assert_eq!(l.sb.read("value.txt"), "0.9");
}

#[test]
fn a_guard_that_does_not_parse_is_an_error_naming_its_position() {
    let l = Loop::new("guards = [\"mem <= 40\", \"step <= 1.05 * bst\"]\n");
    l.sb.write("value.txt", "0.9");
    let (code, out, err) = l.run(&["try"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains(
            "guards[2] \"step <= 1.05 * bst\", column 16: expected `best` or `baseline` after `*`"
        ),
        "{err}"
    );
    assert!(err.contains("hint:"), "{err}");
    for bad in ["\"mem == 4\"", "\"mem <=\"", "1"] {
        l.sb.write("arx.toml", format!("{CONFIG}guards = [{bad}]\n"));
        let (code, _, err) = l.run(&["status"]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("guards"), "{bad}: {err}");
    }
    // Nothing ran, nothing was journaled.
    assert!(l.sb.journal().is_empty());
    assert_eq!(l.sb.read("value.txt"), "0.9");
}

const HELD_OUT: &str = r#"
[objective.holdout]
command = "sh holdout.sh"
metric = "test_loss"
"#;

/// Every way a held-out value could be written (731.58213, 763.16426).
fn held_out_spellings() -> Vec<String> {
    let mut out = Vec::new();
    for x in [731.58213_f64, 763.16426] {
        for dp in 1..=5 {
            out.push(format!("{x:.dp$}"));
        }
    }
    out.push("HOLDOUT-PRIVATE-OUTPUT".into());
    out
}

/// Every file under `dir`, as text.
fn files_under(dir: &Path, out: &mut Vec<(String, String)>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, out);
        } else if let Ok(bytes) = std::fs::read(&p) {
            out.push((
                p.display().to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            ));
        }
    }
}

#[test]
fn a_worse_held_out_metric_vetoes_the_keep_and_its_value_is_shown_nowhere_the_loop_sees() {
    let l = Loop::new(HELD_OUT);
    let mut seen: Vec<(String, String)> = Vec::new();
    let mut tell = |what: &str, (code, out, err): (i32, String, String)| {
        seen.push((format!("{what} stdout"), out.clone()));
        seen.push((format!("{what} stderr"), err.clone()));
        (code, out, err)
    };
    let (code, _, err) = tell("baseline", l.run(&["try"]));
    assert_eq!(code, 0, "{err}");
    // Better on the target, the held-out metric unchanged: kept.
    l.sb.write("value.txt", "0.9");
    let (code, out, err) = tell("keep", l.run(&["--json", "try", "-m", "better"]));
    assert_eq!(code, 0, "{out}{err}");
    let keep: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(keep["ratchet"]["status"], "keep");
    assert_eq!(keep["ratchet"]["holdout"], "passed");
    // Better on the target, worse on the held-out metric: set aside.
    l.sb.write("value.txt", "0.8");
    l.sb.write("test.txt", "2");
    let (code, out, err) = tell("holdout", l.run(&["try", "-m", "overfit"]));
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.lines().any(|l| l.starts_with("holdout: m 0.7998 ")),
        "{out}"
    );
    assert!(
        out.contains("the held-out check failed \u{2192} set aside"),
        "{out}"
    );
    assert_eq!(l.sb.read("test.txt"), "1");
    let (code, out, _) = tell("holdout json", {
        l.sb.write("value.txt", "0.8");
        l.sb.write("test.txt", "2");
        l.run(&["--json", "try", "-m", "overfit again"])
    });
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (status(&report), report["ratchet"]["holdout"].as_str()),
        ("holdout", Some("failed"))
    );
    let run = report["run_id"].as_str().unwrap_or_default().to_string();
    // The same try over MCP, and the tools an agent reads with.
    #[allow(unused_mut)]
    let mut over_mcp: Vec<(String, String)> = Vec::new();
    #[cfg(feature = "mcp")]
    {
        let journal = l.journal_path();
        let mut mcp = crate::mcp::Session::start_with(&l.sb, &[("ARX_HOLDOUT_JOURNAL", &journal)]);
        l.sb.write("value.txt", "0.8");
        l.sb.write("test.txt", "2");
        let tried = mcp.call(
            "try",
            serde_json::json!({"description": "overfit over MCP"}),
        );
        assert_eq!(
            tried["structuredContent"]["ratchet"]["status"], "holdout",
            "{tried}"
        );
        assert_eq!(tried["_meta"]["exit_code"], 1, "{tried}");
        over_mcp.push(("mcp try".into(), tried.to_string()));
        for tool in ["log", "report", "status", "best"] {
            let answer = mcp.call(tool, serde_json::json!({}));
            over_mcp.push((format!("mcp {tool}"), answer.to_string()));
        }
    }
    // Everything the loop can read.
    for args in [
        &["log"][..],
        &["log", "--format", "tsv"],
        &["--json", "log"],
        &["show", &run],
        &["--json", "show", &run],
        &["report"],
        &["--json", "report"],
        &["report", "--markdown"],
        &["status"],
        &["--json", "status"],
        &["best"],
        &["--json", "best"],
    ] {
        tell(&args.join(" "), l.run(args));
    }
    seen.extend(over_mcp);
    // The working tree and the state directory under it (not the
    // held-out command itself, which prints the marker).
    let mut files = Vec::new();
    files_under(l.sb.path(), &mut files);
    let git_dir = l.sb.path().join(".git").display().to_string();
    let script = l.sb.path().join("holdout.sh").display().to_string();
    assert!(files.iter().any(|(p, _)| p.contains(".arx")));
    seen.extend(
        files
            .into_iter()
            .filter(|(p, _)| !p.starts_with(&git_dir) && *p != script),
    );
    // Every commit and change (the held-out command's own source aside).
    let history = git_in(l.sb.path(), &["log", "-p", "--all", "--format=%H %B"]);
    let history: Vec<&str> = history
        .lines()
        .filter(|l| !l.contains("echo \"HOLDOUT"))
        .collect();
    seen.push(("git history".into(), history.join("\n")));
    for (what, text) in &seen {
        for s in held_out_spellings() {
            assert!(!text.contains(&s), "{what} carries {s}:\n{text}");
        }
    }
    // The operator reads it: the journal and `arx report --holdout`.
    let journal = std::fs::read_to_string(l.journal_path()).unwrap();
    assert!(
        journal.contains("763.16426") && journal.contains("HOLDOUT-PRIVATE-OUTPUT"),
        "{journal}"
    );
    let (code, out, err) = l.run(&["report", "--holdout"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("failed") && out.contains("763.16426") && out.contains("731.58213"),
        "{out}"
    );
    let (_, out, _) = l.run(&["--json", "report", "--holdout"]);
    let held: Value = serde_json::from_str(&out).unwrap();
    let kinds: Vec<&str> = held["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    let tries = if cfg!(feature = "mcp") { 4 } else { 3 };
    assert_eq!(kinds.len(), 1 + tries, "{kinds:?}");
    assert!(kinds[1..].iter().all(|k| *k == "candidate"), "{kinds:?}");
    assert_eq!(held["entries"][0]["values"].as_array().unwrap().len(), 5);
}

#[test]
fn a_held_out_command_that_crashes_or_prints_nothing_is_no_keep() {
    let l = Loop::new(HELD_OUT);
    assert_eq!(l.try_json(&[]).0, 0);
    l.sb.write("value.txt", "0.9");
    l.sb.write("test.txt", "boom");
    let (code, out, err) = l.run(&["try"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("the held-out check failed: its command crashed"),
        "{out}"
    );
    assert!(!err.contains("HOLDOUT-PRIVATE-OUTPUT"), "{err}");
    let rec = l.sb.journal().pop().unwrap();
    assert_eq!(rec["ratchet"]["status"], "holdout");
    assert_eq!(rec["ratchet"]["holdout"], "crashed");
    // A held-out metric missing.
    l.sb.write(
        "arx.toml",
        format!("{CONFIG}{}", HELD_OUT.replace("test_loss", "test_acc")),
    );
    git_in(l.sb.path(), &["commit", "-qam", "another held-out metric"]);
    let (code, _, err) = l.run(&["try"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("the held-out check printed no metric on the baseline"),
        "{err}"
    );
    l.sb.write("value.txt", "0.9");
    let (code, out, _) = l.run(&["try"]);
    // No reference: the first that passes becomes it; this one prints none.
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("its command printed no metric"), "{out}");
}

#[test]
fn the_held_out_command_is_protected_and_its_journal_kept_out_of_the_repository() {
    let l = Loop::new(HELD_OUT);
    assert_eq!(l.try_json(&[]).0, 0);
    l.sb.write("holdout.sh", "echo '__RESULT__ {\"test_loss\": 0}'\n");
    let (code, report) = l.try_json(&[]);
    assert_eq!((code, status(&report)), (1, "protected"), "{report}");
    let inside = l.sb.path().join("notes/held-out.jsonl");
    let out =
        l.sb.arx()
            .env("ARX_HOLDOUT_JOURNAL", &inside)
            .args(["try"])
            .output()
            .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("inside the repository"),
        "{}",
        stderr(&out)
    );
    assert!(!inside.exists());
}

#[test]
fn a_dry_run_lists_the_guards_and_that_a_held_out_check_runs_never_what_it_runs() {
    let l = Loop::new(&format!(
        "guards = [\"step <= 1.05 * best\", \"mem <= 40\"]\n{HELD_OUT}"
    ));
    // Before the baseline, and with a candidate against a best.
    for baseline in [true, false] {
        if !baseline {
            l.sb.write("value.txt", "1.0");
            assert_eq!(l.try_json(&[]).0, 0);
        }
        l.sb.write("value.txt", "0.9");
        let (code, json, err) = l.run(&["--json", "try", "--dry-run"]);
        assert_eq!(code, 0, "{err}");
        let dry: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(dry["baseline_needed"], baseline, "{dry}");
        assert_eq!(
            dry["keep_needs"]["guards"],
            serde_json::json!(["step <= 1.05 * best", "mem <= 40"]),
            "{dry}"
        );
        assert_eq!(dry["keep_needs"]["holdout"], true, "{dry}");
        let (code, human, err) = l.run(&["try", "--dry-run"]);
        assert_eq!(code, 0, "{err}");
        for text in [&human, &json] {
            for line in [
                "guard `step <= 1.05 * best`: a keep needs it to hold beside m",
                "guard `mem <= 40`: a keep needs it to hold beside m",
                "held-out check: yes",
            ] {
                assert!(text.contains(line), "{line}: {text}");
            }
            // What the held-out check runs and reads is the operator's.
            for secret in ["holdout.sh", "test_loss", "test.txt"] {
                assert!(!text.contains(secret), "{secret}: {text}");
            }
        }
        if baseline {
            assert!(human.contains("and its held-out check"), "{human}");
        }
    }
    // Without guards or a held-out check, the dry run says none.
    let plain = Loop::new("");
    let (_, json, _) = plain.run(&["--json", "try", "--dry-run"]);
    let dry: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(dry["keep_needs"]["guards"], serde_json::json!([]));
    assert_eq!(dry["keep_needs"]["holdout"], false);
    assert!(!json.contains("held-out check"), "{json}");
}
