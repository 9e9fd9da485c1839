//! `confirm_classes = 2` with two classes whose runs differ by 3σ (the
//! class `slow` adds 2.4, and 5 for each unit in `bump.txt`). A keep on
//! the fast class is held as pending — the fleet's best does not move —
//! until a machine of the slow class measures it on its own class and
//! finds it better; a change the slow class finds worse never becomes
//! the fleet's best.

use std::path::Path;

use libtest_mimic::{Failed, Trial};
use serde_json::Value;

use super::{git, git_daemon, records, status, try_in, Fleet};
use crate::needs::trial;

const SCORE: &str = r#"#!/bin/sh
n=$(cat .noise 2>/dev/null || echo 0)
echo $((n + 1)) > .noise
class=$(git config arx.class)
awk -v v="$(cat v.txt)" -v b="$(cat bump.txt)" -v n="$n" -v class="$class" 'BEGIN {
  split("-1 1 -0.5 0.5 0", noise, " ")
  off = (class == "slow") ? 2.4 + 5 * b : 0
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
confirm_classes = 2
"#;

pub fn trials() -> Vec<Trial> {
    vec![
        trial(
            "fleet_confirm_a_keep_is_pending_until_another_class_finds_it_better",
            git_daemon,
            |_| confirmed(),
        ),
        trial(
            "fleet_confirm_a_keep_another_class_finds_worse_never_becomes_the_best",
            git_daemon,
            |_| refuted(),
        ),
    ]
}

fn serve() -> Fleet {
    Fleet::seeded_with(
        false,
        &[
            ("score.sh", SCORE),
            ("v.txt", "100\n"),
            ("bump.txt", "0\n"),
            ("arx.toml", CONFIG),
            (".gitignore", ".arx/\n.noise\n"),
        ],
    )
}

fn remote(f: &Fleet, args: &[&str]) -> String {
    git(&f.tmp.path().join("served/remote.git"), args)
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name))
        .unwrap()
        .trim()
        .to_string()
}

/// `arx fleet status --fetch`'s keeps waiting for classes.
fn pending_rows(dir: &Path) -> Vec<Value> {
    let out = super::arx_in(dir, &["--json", "fleet", "status", "--fetch"]);
    let st: Value = serde_json::from_slice(&out.stdout).unwrap();
    st["pending"].as_array().cloned().unwrap_or_default()
}

/// The fast class's baseline, then its keep of `v` (and `bump`), held as
/// pending: the fleet's best unmoved, the candidate on the remote under
/// `refs/arx/fleet/pending/<run>`, the working tree back on the best.
/// The keep's run id.
fn pending_keep(f: &Fleet, fast: &Path, (v, bump): (i64, i64)) -> String {
    let (code, r) = try_in(fast, "baseline");
    assert_eq!((code, status(&r)), (0, "baseline".into()), "{r}");
    let best = f.remote_best();
    std::fs::write(fast.join("v.txt"), format!("{v}\n")).unwrap();
    std::fs::write(fast.join("bump.txt"), format!("{bump}\n")).unwrap();
    let (code, r) = try_in(fast, "lower the value");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    assert_eq!(r["ratchet"]["fleet_pending"], true, "{r}");
    assert_eq!(
        f.remote_best(),
        best,
        "a pending keep moved the fleet's best"
    );
    let run = r["run_id"].as_str().unwrap().to_string();
    let pending = remote(f, &["rev-parse", &format!("refs/arx/fleet/pending/{run}")]);
    assert_eq!(remote(f, &["rev-parse", &format!("{pending}^")]), best);
    assert_eq!(read(fast, "v.txt"), "100");
    run
}

/// The slow class measures the fast class's pending keep (about 100.4
/// there against the best's 102.4): better, so the best moves to it.
fn confirmed() -> Result<(), Failed> {
    let f = serve();
    let (fast, slow) = (f.machine("fast", "fast"), f.machine("slow", "slow"));
    let run = pending_keep(&f, &fast, (98, 0));
    let before = f.remote_best();
    // The fleet's status shows it as the fast class's best, pending.
    let waiting = pending_rows(&slow);
    assert_eq!(waiting.len(), 1, "{waiting:?}");
    assert_eq!(waiting[0]["run"], run.as_str());
    assert_eq!(waiting[0]["class"], "fast");
    assert_eq!(waiting[0]["needed"], 1);
    let (code, r) = try_in(&slow, "confirm");
    assert_eq!((code, status(&r)), (0, "keep".into()), "{r}");
    assert!(
        pending_rows(&slow).is_empty(),
        "still pending after it landed"
    );
    assert_eq!(r["ratchet"]["confirms"], run.as_str(), "{r}");
    assert_ne!(
        f.remote_best(),
        before,
        "the confirmed keep is not the best"
    );
    assert_eq!(remote(&f, &["show", "main:v.txt"]), "98");
    assert_eq!(remote(&f, &["rev-parse", "main^"]), before);
    Ok(())
}

/// The fast class's keep also adds 5 on the slow class (about 105.4
/// there): the slow class does not find it better, it is refuted, and the
/// fleet's best stays where it was.
fn refuted() -> Result<(), Failed> {
    let f = serve();
    let (fast, slow) = (f.machine("fast", "fast"), f.machine("slow", "slow"));
    let run = pending_keep(&f, &fast, (98, 1));
    let before = f.remote_best();
    let (code, r) = try_in(&slow, "confirm");
    assert_ne!(status(&r), "keep", "{r}");
    assert_eq!(code, 1, "{r}");
    assert_eq!(f.remote_best(), before, "a refuted keep moved the best");
    assert_eq!(read(&slow, "v.txt"), "100");
    // The try's record is the slow class's verdict on the keep.
    let verdict: Vec<Value> = records(&slow)
        .into_iter()
        .filter(|r| r["ratchet"]["confirms"] == run.as_str())
        .collect();
    assert_eq!(verdict.len(), 1, "{:?}", records(&slow));
    // A refuted keep is not measured again.
    let again = super::arx_in(&slow, &["--json", "try", "-m", "again"]);
    let text = String::from_utf8_lossy(&again.stderr);
    assert!(!text.contains("measuring the keep of run"), "{text}");
    assert_eq!(f.remote_best(), before);
    Ok(())
}
