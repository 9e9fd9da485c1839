//! A fleet machine's candidate replayed onto a keep another machine
//! pushed, under the `sequential` rule: it carries its runs over as
//! evidence, and is kept with runs of its own on the new best that beat
//! it. The metric is `a.txt` + `b.txt` (to be maximised), with a noise of
//! 0 or 1 in turn on machine a's baseline only.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use libtest_mimic::{Failed, Trial};
use serde_json::{json, Value};

use super::{bump, check_fleet, finish, records, status, sync, try_in, Fleet};
use crate::needs::{arx, trial};

pub fn trials() -> Vec<Trial> {
    vec![trial(
        "fleet_a_replayed_candidate_keeps_on_its_carried_runs_and_its_own_on_the_new_best",
        super::git_daemon,
        |_| replayed_with_its_runs(),
    )]
}

const CONFIG: &str = r#"[gates]
execute = false

[objective]
metric = "m"
direction = "max"
command = "sh score.sh"
repeat = 1
baseline_repeat = 4
rule = "sequential"

[fleet]
remote = "origin"
"#;

/// With `$ARX_GATE`, run N (from 0) of a try says it started and waits
/// for `go.N` (or `free`); without it, on machine a, a noise of 0 or 1.
const SCORE: &str = r#"#!/bin/sh
e=0
if [ -n "$ARX_GATE" ]; then
  n=$(ls "$ARX_GATE" | grep -c '^started')
  : > "$ARX_GATE/started.$n"
  while [ ! -e "$ARX_GATE/go.$n" ] && [ ! -e "$ARX_GATE/free" ]; do sleep 0.02; done
elif [ "$(basename "$PWD")" = a ]; then
  n=$(cat ../noise 2>/dev/null || echo 0)
  echo $((n + 1)) > ../noise
  e=$((n % 2))
fi
echo "__RESULT__ {\"m\": $(( $(cat a.txt) + $(cat b.txt) + e ))}"
"#;

fn started(gate: &Path, n: usize) {
    let until = Instant::now() + Duration::from_secs(30);
    while !gate.join(format!("started.{n}")).exists() {
        assert!(Instant::now() < until, "a's run {n} never started");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Machine a tries `a.txt` + 50; after three runs (kept by the rule on
/// the baseline, its record being topped up) machine b pushes a keep of
/// `b.txt` + 100 while a's fourth run runs: a takes b's keep in, is
/// replayed onto it with its four runs, and is kept there with runs of
/// its own (each 152 against b's 102).
fn replayed_with_its_runs() -> Result<(), Failed> {
    let f = Fleet::seeded(false, CONFIG, SCORE);
    let a = f.machine("a", "cpu-x");
    let b = f.machine("b", "cpu-x");
    let (code, r) = try_in(&a, "baseline");
    assert_eq!((code, status(&r)), (0, "baseline".into()), "{r}");
    sync(&b);
    let gate = f.tmp.path().join("gate");
    std::fs::create_dir_all(&gate).unwrap();
    bump(&a, "a.txt", 50);
    let ta = Command::new(arx())
        .args(["--json", "try", "-m", "a up"])
        .current_dir(&a)
        .env_remove("ARX_STATE_DIR")
        .env("NO_COLOR", "1")
        .env("ARX_GATE", &gate)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    for n in 0..3 {
        started(&gate, n);
        std::fs::write(gate.join(format!("go.{n}")), "").unwrap();
    }
    started(&gate, 3);
    bump(&b, "b.txt", 100);
    let (code, rb) = try_in(&b, "b up");
    assert_eq!((code, status(&rb)), (0, "keep".into()), "{rb}");
    std::fs::write(gate.join("free"), "").unwrap();
    let (code, ra, err) = finish(ta);
    assert_eq!((code, status(&ra)), (0, "keep".into()), "{ra}\n{err}");
    assert!(err.contains("another machine kept"), "{err}");
    let journal = records(&a);
    let baseline = journal[0]["ratchet"]["commit"].as_str().unwrap();
    let keep: &Value = journal
        .iter()
        .rev()
        .find(|r| r["ratchet"]["description"] == "a up")
        .unwrap();
    assert_eq!(keep["ratchet"]["kept"], rb["ratchet"]["commit"]);
    assert_eq!(keep["ratchet"]["replayed_from"], json!([baseline]));
    // Four runs of 52 on the baseline (2.5): 49.5 better, carried onto
    // b's keep (102) as 151.5.
    let carried = &keep["ratchet"]["carried"];
    assert_eq!(
        carried["on"],
        json!([baseline, baseline, baseline, baseline])
    );
    assert_eq!(carried["values"], json!([151.5, 151.5, 151.5, 151.5]));
    let own: Vec<f64> = keep["samples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!(own.len() >= 3 && own.iter().all(|x| *x == 152.0), "{own:?}");
    assert_eq!(keep["attempts"].as_array().unwrap().len(), 4 + own.len());
    check_fleet(&f, &[&a, &b]);
    assert_eq!(f.history().len(), 3);
    Ok(())
}
