//! Like with like: machines of two classes whose runs differ by 3σ (the
//! experiment adds an offset on the class `slow`, read from the clone's
//! `git config arx.class`). A candidate is compared only with the best as
//! measured on its own machine's class; a best from the other class is
//! measured again here first. The metric is lowered (`direction = "min"`):
//! the number in `v.txt`, the class's offset and a noise that cycles with
//! the clone's runs (σ ≈ 0.79).

use std::path::{Path, PathBuf};

use libtest_mimic::{Failed, Trial};
use serde_json::Value;

use super::{
    arx_in, check_fleet, class_offset_run, finish, git_daemon, records, spawn_try, status, sync,
    try_in, Fleet,
};
use crate::needs::trial;

/// The class `slow` adds 2.4 (3σ of the noise) to every run.
fn score() -> String {
    format!("#!/bin/sh\n{}", class_offset_run("2.4", &[]))
}

const CONFIG: &str = r#"[gates]
execute = false

[objective]
metric = "m"
direction = "min"
command = "sh score.sh"
repeat = 3
baseline_repeat = 5

[fleet]
remote = "origin"
"#;

pub fn trials() -> Vec<Trial> {
    vec![
        trial(
            "fleet_classes_a_null_change_never_keeps_on_a_raw_cross_class_comparison",
            git_daemon,
            |_| null_change_on_the_fast_class(),
        ),
        trial(
            "fleet_classes_the_slow_class_keeps_against_its_own_measure_of_the_best",
            git_daemon,
            |_| slow_class_keeps(),
        ),
        trial(
            "fleet_classes_a_best_is_measured_again_with_fewer_runs_once_an_offset_is_shared",
            git_daemon,
            |_| shorter_remeasure(),
        ),
        trial(
            "fleet_a_leading_candidate_is_replayed_as_soon_as_another_machine_keeps",
            git_daemon,
            |_| replayed_mid_try(),
        ),
    ]
}

/// The remote (`v.txt` at 100) served, with `confirm` as `[fleet]
/// confirm_classes` when given.
fn serve(confirm: Option<u32>) -> Fleet {
    let config = match confirm {
        Some(n) => format!("{CONFIG}confirm_classes = {n}\n"),
        None => CONFIG.to_string(),
    };
    Fleet::seeded_with(
        false,
        &[
            ("score.sh", &score()),
            ("v.txt", "100\n"),
            ("notes.txt", "notes\n"),
            ("arx.toml", config.as_str()),
            (".gitignore", ".arx/\n.noise\n"),
        ],
    )
}

fn set_value(dir: &Path, v: i64) {
    std::fs::write(dir.join("v.txt"), format!("{v}\n")).unwrap();
}

/// The journal's records of `status` whose class is `class`.
fn of(dir: &Path, status: &str, class: &str) -> Vec<Value> {
    records(dir)
        .into_iter()
        .filter(|r| r["ratchet"]["status"] == status && r["ratchet"]["class"] == class)
        .collect()
}

fn machines(f: &Fleet) -> (PathBuf, PathBuf) {
    (f.machine("fast", "fast"), f.machine("slow", "slow"))
}

/// The slow class measures the baseline (about 102.4); the fast class
/// tries a change that does nothing (about 100 there). Compared raw, the
/// fast class's runs beat the slow class's best by 3σ and the change is
/// kept; compared with the best as the fast class measures it, it is not.
fn null_change_on_the_fast_class() -> Result<(), Failed> {
    let f = serve(None);
    let (fast, slow) = machines(&f);
    let (code, r) = try_in(&slow, "baseline");
    assert_eq!((code, status(&r)), (0, "baseline".into()), "{r}");
    let best = f.remote_best();
    std::fs::write(fast.join("notes.txt"), "notes, reworded\n").unwrap();
    let (code, r) = try_in(&fast, "reword the notes");
    assert_ne!(status(&r), "keep", "a null change kept: {r}");
    assert_ne!(code, 0, "{r}");
    assert_eq!(f.remote_best(), best, "the fleet's best moved");
    // The best was measured on the fast class first, and the try was
    // compared with that.
    let again = of(&fast, "remeasure", "fast");
    assert_eq!(again.len(), 1, "{:?}", records(&fast));
    assert_eq!(r["ratchet"]["slot_best"]["slot"], "fast", "{r}");
    let on_fast = r["ratchet"]["slot_best"]["value"].as_f64().unwrap();
    assert!((on_fast - 100.0).abs() < 1.0, "{r}");
    // Every run record carries its machine's class.
    assert_eq!(of(&fast, "baseline", "slow").len(), 1);
    Ok(())
}

/// The fast class measures the baseline (about 100); the slow class
/// lowers the value by 2 (2.5σ): about 100.4 there, worse than the fast
/// class's 100 when compared raw, better than the best as the slow class
/// measures it (about 102.4).
fn slow_class_keeps() -> Result<(), Failed> {
    let f = serve(None);
    let (fast, slow) = machines(&f);
    let (code, r) = try_in(&fast, "baseline");
    assert_eq!((code, status(&r)), (0, "baseline".into()), "{r}");
    set_value(&slow, 98);
    let (code, r) = try_in(&slow, "lower the value by 2");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    assert_eq!(f.remote_best(), r["ratchet"]["commit"].as_str().unwrap());
    assert_eq!(of(&slow, "remeasure", "slow").len(), 1);
    assert_eq!(r["ratchet"]["slot_best"]["slot"], "slow", "{r}");
    // The fast class takes the slow class's best up and measures it again
    // on its own class before it compares a candidate with it.
    sync(&fast);
    std::fs::write(fast.join("notes.txt"), "notes, reworded\n").unwrap();
    let (_, r) = try_in(&fast, "reword the notes");
    assert_ne!(status(&r), "keep", "a null change kept: {r}");
    assert_eq!(of(&fast, "remeasure", "fast").len(), 1);
    // Each class's best and the fleet's best as each class measured it:
    // about 98 on the fast class, 100.4 on the slow one.
    let kept = f.remote_best();
    let st = arx_in(&fast, &["--json", "fleet", "status"]);
    let st: Value = serde_json::from_slice(&st.stdout).unwrap();
    let class = |name: &str| -> Value {
        let all = st["classes"].as_array().unwrap();
        all.iter().find(|c| c["class"] == name).cloned().unwrap()
    };
    let near = |v: &Value, x: f64| v.as_f64().is_some_and(|v| (v - x).abs() < 1.0);
    for (name, value) in [("fast", 98.0), ("slow", 100.4)] {
        let c = class(name);
        assert_eq!(c["commit"], kept.as_str(), "{st}");
        assert!(near(&c["fleet_best"], value), "{name}: {st}");
    }
    // The report groups the segment by class the same way.
    let out = arx_in(&fast, &["--json", "report"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let classes = report["segments"][0]["classes"].as_array().cloned();
    let classes = classes.unwrap_or_else(|| panic!("no classes: {report}"));
    for (name, value) in [("fast", 98.0), ("slow", 100.4)] {
        let c = classes.iter().find(|c| c["class"] == name).unwrap();
        assert!(near(&c["fleet_best"], value), "{name}: {report}");
    }
    // The best (kept on the slow class) against the baseline (measured on
    // the fast class): on the slow class, never raw.
    let best = &report["segments"][0]["best"];
    assert_eq!(best["baseline_on_slot"]["slot"], "slow", "{best}");
    assert!(near(&best["change"], -2.0), "{best}");
    let text = arx_in(&fast, &["report"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        // The fast class measured the best again 3 times (not 5): the
        // baseline on both classes told the offset in part.
        text.contains("class             fast: 2 tries, 0 kept, best 98.333 at "),
        "{text}"
    );
    assert!(text.contains("class             slow: "), "{text}");
    Ok(())
}

/// The samples of a record.
fn samples(r: &Value) -> Vec<f64> {
    let all = r["samples"].as_array().cloned().unwrap_or_default();
    all.iter().filter_map(Value::as_f64).collect()
}

/// The baseline, measured on the fast class, is measured again on the slow
/// class (5 runs: nothing links the classes yet) before the slow class's
/// keep. That shared commit tells the offset between the classes in part;
/// when the fast class takes the slow class's best up, it measures it
/// again with fewer runs than `baseline_repeat`, the offset counting for
/// the rest, and still compares like with like.
fn shorter_remeasure() -> Result<(), Failed> {
    let f = serve(None);
    let (fast, slow) = machines(&f);
    let (code, r) = try_in(&fast, "baseline");
    assert_eq!((code, status(&r)), (0, "baseline".into()), "{r}");
    set_value(&slow, 98);
    let (code, r) = try_in(&slow, "lower the value by 2");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    let first = of(&slow, "remeasure", "slow");
    assert_eq!(first.len(), 1, "{first:?}");
    assert_eq!(samples(&first[0]).len(), 5, "{first:?}");
    sync(&fast);
    std::fs::write(fast.join("notes.txt"), "notes, reworded\n").unwrap();
    let (_, r) = try_in(&fast, "reword the notes");
    assert_ne!(status(&r), "keep", "a null change kept: {r}");
    let again = of(&fast, "remeasure", "fast");
    assert_eq!(again.len(), 1, "{again:?}");
    let n = samples(&again[0]).len();
    assert!((1..5).contains(&n), "{n} runs: {again:?}");
    // The best as the fast class measures it: about 98 (its runs here, and
    // its runs on the slow class moved by the offset of about 2.4).
    assert_eq!(r["ratchet"]["slot_best"]["slot"], "fast", "{r}");
    let on_fast = r["ratchet"]["slot_best"]["value"].as_f64().unwrap();
    assert!((on_fast - 98.0).abs() < 1.0, "{r}");
    Ok(())
}

/// The metric (lowered): `v.txt` plus `w.txt` and the noise of
/// [`class_offset_run`]. A run that finds `hold` in the clone removes it and waits
/// (at most 30 s) until `go` is there.
const HELD_SCORE: &str = r#"#!/bin/sh
n=$(cat .noise 2>/dev/null || echo 0)
echo $((n + 1)) > .noise
if [ -f hold ]; then
  rm hold
  i=0
  while [ ! -f go ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
fi
awk -v v="$(cat v.txt)" -v w="$(cat w.txt)" -v n="$n" 'BEGIN {
  split("-1 1 -0.5 0.5 0", noise, " ")
  printf "__RESULT__ {\"m\": %.4f}\n", v + w + noise[(n % 5) + 1]
}'
"#;

/// Machine `a` measures a candidate that leads after its first run; while
/// that run is held, machine `b` keeps. `a` does not go on measuring
/// against a best that is gone (to keep, lose the push's race, and be
/// measured again): it fetches the fleet's best between two runs and
/// replays its candidate onto it at once.
fn replayed_mid_try() -> Result<(), Failed> {
    let f = Fleet::seeded_with(
        false,
        &[
            ("score.sh", HELD_SCORE),
            ("v.txt", "100\n"),
            ("w.txt", "100\n"),
            ("arx.toml", CONFIG),
            (".gitignore", ".arx/\n.noise\nhold\ngo\n"),
        ],
    );
    let (a, b) = (f.machine("a", "c"), f.machine("b", "c"));
    let (code, r) = try_in(&a, "baseline");
    assert_eq!((code, status(&r)), (0, "baseline".into()), "{r}");
    let baseline = f.remote_best();
    sync(&b);
    std::fs::write(a.join("v.txt"), "97\n").unwrap();
    std::fs::write(b.join("w.txt"), "98\n").unwrap();
    std::fs::write(a.join("hold"), "").unwrap();
    let barrier = f.tmp.path().join("barrier");
    std::fs::create_dir_all(&barrier).unwrap();
    let held = spawn_try(&a, "lower v by 3", &barrier, 1);
    let t = std::time::Instant::now();
    while a.join("hold").exists() {
        assert!(t.elapsed().as_secs() < 60, "a's first run never started");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let (code, rb) = try_in(&b, "lower w by 2");
    std::fs::write(a.join("go"), "").unwrap();
    let (ca, ra, ea) = finish(held);
    assert_eq!((code, status(&rb)), (0, "keep".into()), "{rb}");
    let b_kept = rb["ratchet"]["commit"].as_str().unwrap().to_string();
    assert_eq!((ca, status(&ra)), (0, "keep".into()), "{ra}\n{ea}");
    assert!(
        ea.contains("the candidate leads after 1 run and the best moved"),
        "{ea}"
    );
    assert_eq!(ra["ratchet"]["kept"], b_kept.as_str(), "{ra}");
    let from = ra["ratchet"]["replayed_from"].as_array().cloned();
    assert_eq!(from, Some(vec![Value::from(baseline)]), "{ra}");
    check_fleet(&f, &[&a, &b]);
    Ok(())
}
