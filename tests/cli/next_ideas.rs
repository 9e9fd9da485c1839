//! `arx next` without `--candidates`: the backlog's open ideas ranked from
//! the ratchet's record. The journal and the backlog are written as arx
//! writes them, so each test states the record it ranks from.

use serde_json::{json, Value};

use crate::support::{commit_all, json, stderr, Sandbox};

const NOW: &str = "2026-11-21T12:00:00Z";

/// An `add` line of the backlog.
fn idea(id: &str, family: &str, statement: &str) -> Value {
    json!({"type": "add", "id": id, "at": "2026-11-21T09:00:00Z",
           "statement": statement, "family": family})
}

/// A try record of the segment `s`, measured against `parent`.
fn try_record(
    n: u32,
    status: &str,
    parent: &str,
    idea: Option<&str>,
    family: &str,
    text: &str,
) -> Value {
    let mut ratchet = json!({
        "segment": "s", "status": status, "description": text,
        "metric": "loss", "direction": "minimize", "rule": "noise",
        "kept": parent, "parent": parent, "family": family,
    });
    if let Some(id) = idea {
        ratchet["idea"] = json!(id);
    }
    match status {
        "keep" => {
            ratchet["commit"] = json!(format!("k{n}"));
            ratchet["improvement"] = json!(0.1);
        }
        "discard" => ratchet["improvement"] = json!(-0.01),
        _ => {}
    }
    json!({
        "run_id": format!("run-{n}"),
        "started_at": format!("2026-11-21T10:{:02}:00Z", n % 60),
        "ended_at": format!("2026-11-21T10:{:02}:30Z", n % 60),
        "command": ["sh", "train.sh"], "exit_code": 0,
        "metrics": {"loss": 1.0}, "attempts": [{"exit_code": 0}],
        "ratchet": ratchet,
    })
}

fn baseline() -> Value {
    let mut r = try_record(0, "baseline", "k0", None, "unsorted", "baseline");
    r["ratchet"]["family"] = Value::Null;
    r
}

fn lines(values: &[Value]) -> String {
    values.iter().map(|v| format!("{v}\n")).collect()
}

fn setup(sb: &Sandbox, journal: &[Value], ideas: &[Value]) {
    sb.write(".arx/journal.jsonl", lines(journal));
    sb.write(".arx/ideas.jsonl", lines(ideas));
}

fn next_json(sb: &Sandbox, extra: &[&str]) -> (i32, Value, String) {
    let out = sb
        .arx()
        .args(["--json", "--now", NOW, "next", "--greedy"])
        .args(extra)
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    (
        code,
        json(&out.stdout),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A family with keeps ranks above a family with only discards at equal
/// tries; the chosen id is printed alone.
#[test]
fn ranking_follows_the_record() {
    let sb = Sandbox::new();
    let mut journal = vec![baseline()];
    let mut parent = "k0".to_string();
    for (n, (family, status)) in [
        ("batch", "discard"),
        ("init", "discard"),
        ("batch", "keep"),
        ("init", "discard"),
        ("batch", "keep"),
        ("init", "discard"),
        ("batch", "discard"),
        ("init", "discard"),
    ]
    .into_iter()
    .enumerate()
    {
        let n = n as u32 + 1;
        journal.push(try_record(
            n,
            status,
            &parent,
            None,
            family,
            &format!("{family} change {n}"),
        ));
        if status == "keep" {
            parent = format!("k{n}");
        }
    }
    setup(
        &sb,
        &journal,
        &[
            idea("i-00000000a1", "init", "orthogonal init of the embeddings"),
            idea("i-00000000b2", "batch", "batch size 96"),
        ],
    );
    let out = sb
        .arx()
        .args(["--now", NOW, "next", "--greedy"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "i-00000000b2\n");
    let (code, j, _) = next_json(&sb, &[]);
    assert_eq!(code, 0);
    assert_eq!(j["idea"], "i-00000000b2");
    assert_eq!(j["statement"], "batch size 96");
    assert_eq!(j["family"], "batch");
    assert_eq!(j["scores"]["tries"], 4);
    assert_eq!(j["scores"]["keeps"], 2);
    for key in [
        "keep_rate",
        "a",
        "b",
        "gain",
        "cost",
        "precision",
        "epistemic",
        "pragmatic",
        "g",
    ] {
        assert!(j["scores"][key].is_number(), "{key}: {j}");
    }
    let ideas = j["ideas"].as_array().unwrap();
    assert_eq!(ideas.len(), 2);
    assert!(ideas[0]["scores"]["g"].as_f64() < ideas[1]["scores"]["g"].as_f64());
    assert_eq!(j["parent"], "k5");
    assert_eq!(j["segment_tries"], 8);
}

/// An untried family has epistemic value: among families that the record
/// cannot tell apart, the one never tried ranks first.
#[test]
fn an_untried_family_has_epistemic_value() {
    let sb = Sandbox::new();
    let mut journal = vec![baseline()];
    for n in 1..=6u32 {
        let family = if n % 2 == 0 { "opt" } else { "arch" };
        journal.push(try_record(
            n,
            "discard",
            "k0",
            None,
            family,
            &format!("change {n}"),
        ));
    }
    setup(
        &sb,
        &journal,
        &[
            idea("i-00000000a1", "opt", "adamw betas 0.9 0.95"),
            idea("i-00000000b2", "arch", "two more layers"),
            idea("i-00000000c3", "data", "dedupe the training set"),
        ],
    );
    let (code, j, err) = next_json(&sb, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(j["idea"], "i-00000000c3", "{j}");
    assert_eq!(j["scores"]["tries"], 0);
    let tried = &j["ideas"][1]["scores"];
    assert!(
        j["scores"]["epistemic"].as_f64() > tried["epistemic"].as_f64(),
        "{j}"
    );
}

fn guard_setup(sb: &Sandbox, extra_ideas: &[Value]) {
    let journal = vec![
        baseline(),
        try_record(
            1,
            "discard",
            "k0",
            Some("i-00000000d0"),
            "opt",
            "raise the learning rate to 0.04",
        ),
    ];
    let mut ideas = vec![idea(
        "i-00000000d0",
        "opt",
        "raise the learning rate to 0.04",
    )];
    ideas.extend_from_slice(extra_ideas);
    setup(sb, &journal, &ideas);
}

/// The same statement discarded at the same parent is left out, and
/// `--explain` says why; exit 1 with a hint when nothing else is left.
#[test]
fn the_same_statement_at_the_same_parent_is_left_out() {
    let sb = Sandbox::new();
    guard_setup(
        &sb,
        &[idea(
            "i-00000000e1",
            "opt",
            "Raise the learning rate to 0.04",
        )],
    );
    let out = sb
        .arx()
        .args(["--now", NOW, "next", "--explain"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("i-00000000e1"), "{text}");
    assert!(
        text.contains("left out: discarded at the same parent k0 by run-1"),
        "{text}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("arx: no open idea left: 1 already discarded"),
        "{err}"
    );
    assert!(
        err.contains("hint:") && err.contains("--retry ID --because"),
        "{err}"
    );
    let (code, j, _) = next_json(&sb, &[]);
    assert_eq!(code, 1);
    assert!(j["idea"].is_null());
    assert_eq!(j["ideas"][0]["left_out"]["reason"], "repeat");
    assert_eq!(j["ideas"][0]["left_out"]["run_id"], "run-1");
    assert_eq!(j["ideas"][0]["left_out"]["by"], "statement");
}

/// A new value of the parameter, a new parent, or a retry with a reason is
/// never left out.
#[test]
fn new_value_new_parent_or_retry_is_not_a_repeat() {
    // Another value.
    let sb = Sandbox::new();
    guard_setup(
        &sb,
        &[idea(
            "i-00000000e1",
            "opt",
            "raise the learning rate to 0.02",
        )],
    );
    assert_eq!(next_json(&sb, &[]).1["idea"], "i-00000000e1");
    // A retry with a reason.
    let sb = Sandbox::new();
    let mut retry = idea("i-00000000e2", "opt", "raise the learning rate to 0.04");
    retry["retry_of"] = json!("i-00000000d0");
    retry["because"] = json!("warmup added since");
    guard_setup(&sb, &[retry]);
    assert_eq!(next_json(&sb, &[]).1["idea"], "i-00000000e2");
    // A new parent: something was kept since.
    let sb = Sandbox::new();
    let journal = vec![
        baseline(),
        try_record(
            1,
            "discard",
            "k0",
            Some("i-00000000d0"),
            "opt",
            "raise the learning rate to 0.04",
        ),
        try_record(2, "keep", "k0", None, "data", "dedupe"),
    ];
    setup(
        &sb,
        &journal,
        &[
            idea("i-00000000d0", "opt", "raise the learning rate to 0.04"),
            idea("i-00000000e3", "opt", "raise the learning rate to 0.04"),
        ],
    );
    let (code, j, err) = next_json(&sb, &[]);
    assert_eq!((code, &j["idea"]), (0, &json!("i-00000000e3")), "{err}");
}

/// Exit 1 with the hint to add ideas when the backlog has none open.
#[test]
fn nothing_open_is_a_no_with_a_hint() {
    let sb = Sandbox::new();
    setup(&sb, &[baseline()], &[]);
    let run = sb.arx().args(["--now", NOW, "next"]).assert().code(1);
    let err = stderr(run);
    assert!(err.contains("arx: no open idea in the backlog"), "{err}");
    assert!(
        err.contains("hint: add ideas with `arx idea add STATEMENT`"),
        "{err}"
    );
}

/// `--lane`: an idea given to another lane is in flight there until it is
/// tried, and is never given again meanwhile.
#[test]
fn a_lane_is_never_given_an_idea_in_flight_in_another() {
    let sb = Sandbox::new();
    setup(
        &sb,
        &[baseline()],
        &[
            idea("i-00000000a1", "opt", "adamw"),
            idea("i-00000000b2", "opt", "lion"),
        ],
    );
    let (code, a, _) = next_json(&sb, &["--lane", "gpu0"]);
    assert_eq!(code, 0);
    assert_eq!(a["idea"], "i-00000000a1");
    let (code, b, _) = next_json(&sb, &["--lane", "gpu1"]);
    assert_eq!(code, 0);
    assert_eq!(b["idea"], "i-00000000b2", "{b}");
    let flying = b["ideas"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["idea"] == "i-00000000a1")
        .unwrap();
    assert_eq!(
        flying["left_out"],
        json!({"reason": "in_flight", "lane": "gpu0"})
    );
    // A third lane finds every idea in flight.
    let (code, _, err) = next_json(&sb, &["--lane", "gpu2"]);
    assert_eq!(code, 1);
    assert!(err.contains("2 in flight"), "{err}");
    // Once gpu0's idea is tried (and discarded) its claim lapses: the
    // other is still gpu1's, so nothing is left for gpu2.
    let mut journal = vec![baseline()];
    journal.push(try_record(
        1,
        "discard",
        "k0",
        Some("i-00000000a1"),
        "opt",
        "adamw",
    ));
    sb.write(".arx/journal.jsonl", lines(&journal));
    let (code, j, _) = next_json(&sb, &["--lane", "gpu2"]);
    assert_eq!(code, 1, "{j}");
    // A day later the claims have lapsed.
    let out = sb
        .arx()
        .args([
            "--json",
            "--now",
            "2026-11-22T13:00:00Z",
            "next",
            "--greedy",
            "--lane",
            "gpu2",
        ])
        .output()
        .unwrap();
    assert_eq!(json(&out.stdout)["idea"], "i-00000000b2");
    // A bad lane name is an error.
    sb.arx().args(["next", "--lane", "../x"]).assert().code(2);
}

/// The fold is cached beside the journal, extended by the lines appended
/// since, and rebuilt when the journal no longer matches.
#[test]
fn the_fold_is_cached_and_extended() {
    let sb = Sandbox::new();
    let journal = vec![baseline(), try_record(1, "discard", "k0", None, "opt", "a")];
    setup(&sb, &journal, &[idea("i-00000000a1", "opt", "adamw")]);
    assert_eq!(next_json(&sb, &[]).1["fold"], "rebuilt");
    assert!(sb.path().join(".arx/steer.json").is_file());
    assert_eq!(next_json(&sb, &[]).1["fold"], "cached");
    let mut more = journal.clone();
    more.push(try_record(2, "discard", "k0", None, "opt", "b"));
    sb.write(".arx/journal.jsonl", lines(&more));
    let (_, j, _) = next_json(&sb, &[]);
    assert_eq!(
        (j["fold"].as_str(), j["segment_tries"].as_u64()),
        (Some("extended"), Some(2))
    );
    // Rewritten (a merge, a hand edit): rebuilt, not extended.
    more.remove(1);
    sb.write(".arx/journal.jsonl", lines(&more));
    let (_, j, _) = next_json(&sb, &[]);
    assert_eq!(
        (j["fold"].as_str(), j["segment_tries"].as_u64()),
        (Some("rebuilt"), Some(1))
    );
}

/// With `--candidates`, `--lane` is refused; without, `--model` is.
#[test]
fn flags_of_the_other_mode_are_refused() {
    let sb = Sandbox::new();
    let file = sb.write("c.toml", "[[candidate]]\nname = \"a\"\nstatement = \"x\"\n");
    sb.arx()
        .args(["next", "--lane", "gpu0", "--candidates"])
        .arg(&file)
        .assert()
        .code(2);
    sb.arx().args(["next", "--model", "aif"]).assert().code(2);
}

/// The loop through the real commands: `arx next` gives an idea, `arx try
/// --idea` discards it, the same statement added again is left out, and a
/// retry with a reason is given.
#[test]
fn the_loop_next_try_retry_through_the_commands() {
    let sb = Sandbox::new();
    sb.write(
        "score.sh",
        "echo \"__RESULT__ {\\\"m\\\": $(cat value.txt)}\"\n",
    );
    sb.write("value.txt", "10");
    sb.write(".gitignore", ".arx/\n");
    sb.write(
        "arx.toml",
        "[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"min\"\n\
         command = \"sh score.sh\"\nrepeat = 1\nbaseline_repeat = 1\nrule = \"strict\"\n",
    );
    commit_all(sb.path());
    let arx = |args: &[&str]| sb.arx().args(args).output().unwrap();
    let stdout = |o: &std::process::Output| String::from_utf8_lossy(&o.stdout).trim().to_string();
    assert_eq!(arx(&["try", "-m", "baseline"]).status.code(), Some(0));
    let first = stdout(&arx(&[
        "idea",
        "add",
        "--family",
        "value",
        "raise the value to 12",
    ]));
    let next = arx(&["next"]);
    assert_eq!(
        (next.status.code(), stdout(&next)),
        (Some(0), first.clone())
    );
    sb.write("value.txt", "12");
    assert_eq!(arx(&["try", "--idea", &first]).status.code(), Some(1));
    // The same change in other words' case, as a new idea: left out.
    let again = stdout(&arx(&[
        "idea",
        "add",
        "--family",
        "value",
        "Raise the value to 12",
    ]));
    let next = arx(&["next", "--explain"]);
    assert_eq!(next.status.code(), Some(1), "{}", stdout(&next));
    assert!(stdout(&next).contains(&again), "{}", stdout(&next));
    assert!(stdout(&next).contains("left out: discarded at the same parent"));
    // Another value is a new idea; a retry with a reason is given too.
    let other = stdout(&arx(&[
        "idea",
        "add",
        "--family",
        "value",
        "raise the value to 11",
    ]));
    let out = arx(&["--json", "next", "--greedy"]);
    assert_eq!(json(&out.stdout)["idea"], other.as_str());
    arx(&["idea", "drop", &other]);
    let retry = stdout(&arx(&[
        "idea",
        "add",
        "--retry",
        &first,
        "--because",
        "the scorer changed",
    ]));
    let out = arx(&["--json", "next"]);
    assert_eq!(
        json(&out.stdout)["idea"],
        retry.as_str(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json(&out.stdout)["scores"]["tries"], 1);
}
