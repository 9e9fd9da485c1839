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

use super::{arx_in, git_daemon, records, status, sync, try_in, Fleet};
use crate::needs::trial;

/// The class `slow` adds 2.4 (3σ of the noise) to every run.
const SCORE: &str = r#"#!/bin/sh
n=$(cat .noise 2>/dev/null || echo 0)
echo $((n + 1)) > .noise
class=$(git config arx.class)
awk -v v="$(cat v.txt)" -v n="$n" -v class="$class" 'BEGIN {
  split("-1 1 -0.5 0.5 0", noise, " ")
  off = (class == "slow") ? 2.4 : 0
  printf "__RESULT__ {\"m\": %.4f}\n", v + off + noise[(n % 5) + 1]
}'
"#;

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
            ("score.sh", SCORE),
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
        text.contains("class             fast: 2 tries, 0 kept, best 98 at "),
        "{text}"
    );
    assert!(text.contains("class             slow: "), "{text}");
    Ok(())
}
