//! One idea, one lane: `arx next --lane` gives ideas under a lock, so
//! lanes asking at once are never given the same one, and `arx try --idea`
//! refuses an idea in flight in another lane.

use std::sync::{Arc, Barrier};

use crate::support::{commit_all, stderr, Sandbox};

const SCORE: &str = r#"#!/bin/sh
echo "__RESULT__ {\"m\": $(cat value.txt)}"
"#;

const CONFIG: &str = r#"[gates]
execute = false

[objective]
metric = "m"
direction = "min"
command = "sh score.sh"
repeat = 1
baseline_repeat = 1
rule = "strict"
"#;

fn repo(ideas: usize) -> (Sandbox, Vec<String>) {
    let sb = Sandbox::new();
    for (name, text) in [
        ("score.sh", SCORE),
        ("value.txt", "10"),
        ("arx.toml", CONFIG),
        (".gitignore", ".arx/\n"),
    ] {
        sb.write(name, text);
    }
    commit_all(sb.path());
    let ids = (0..ideas)
        .map(|i| {
            let out = sb
                .arx()
                .args(["idea", "add", "--family", "f", &format!("idea number {i}")])
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", stderr(&out));
            String::from_utf8(out.stdout).unwrap().trim().to_string()
        })
        .collect();
    (sb, ids)
}

#[test]
fn lanes_asking_at_once_are_never_given_one_idea() {
    let (sb, _) = repo(8);
    let sb = Arc::new(sb);
    const LANES: usize = 4;
    const ROUNDS: usize = 12;
    let barrier = Arc::new(Barrier::new(LANES));
    let handles: Vec<_> = (0..LANES)
        .map(|l| {
            let (sb, barrier) = (Arc::clone(&sb), Arc::clone(&barrier));
            std::thread::spawn(move || {
                (0..ROUNDS)
                    .map(|_| {
                        barrier.wait();
                        // Greedy: every lane wants the same best idea.
                        let out = sb
                            .arx()
                            .args(["next", "--greedy", "--lane", &format!("l{l}")])
                            .output()
                            .unwrap();
                        assert!(out.status.success(), "{}", stderr(&out));
                        String::from_utf8(out.stdout).unwrap().trim().to_string()
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let given: Vec<Vec<String>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    for round in 0..ROUNDS {
        let mut ids: Vec<&str> = given.iter().map(|g| g[round].as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), LANES, "round {round}: {given:?}");
    }
}

#[test]
fn a_try_of_an_idea_another_lane_holds_is_refused_naming_the_lane() {
    let (sb, ids) = repo(2);
    let out = sb
        .arx()
        .args(["next", "--greedy", "--lane", "a"])
        .output()
        .unwrap();
    let given = String::from_utf8(out.stdout).unwrap().trim().to_string();
    assert!(ids.contains(&given), "{given}");
    sb.write("value.txt", "9");
    let out = sb.arx().args(["try", "--idea", &given]).output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("idea {given} is in flight in lane a")),
        "{err}"
    );
    assert!(
        err.contains(&format!("arx try --idea {given} --retry --because TEXT")),
        "{err}"
    );
    assert!(sb.journal().is_empty(), "nothing ran");
    assert_eq!(sb.read("value.txt"), "9", "nothing changed");
    // With a reason, it runs here as well, said as a warning.
    let out = sb
        .arx()
        .args([
            "try",
            "--idea",
            &given,
            "--retry",
            "--because",
            "a second measure",
        ])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("tried here as well (--retry): a second measure"),
        "{err}"
    );
    // --retry needs its reason.
    let out = sb
        .arx()
        .args(["try", "--idea", &given, "--retry"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
