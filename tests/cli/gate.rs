use predicates::prelude::*;
use predicates::str::contains;

use crate::support::{json, stdout_json, Sandbox};

fn check(sb: &Sandbox, args: &[&str], code: i32) -> serde_json::Value {
    stdout_json(
        sb.arx()
            .args(["gate", "check", "--json"])
            .args(args)
            .assert()
            .code(code),
    )
}

#[test]
fn gates_are_on_by_default() {
    let sb = Sandbox::new();
    let v = check(&sb, &["execute"], 1);
    assert_eq!(v["proceed"], false);
    assert_eq!(v["pending_gate"], "execute");
    let v = check(&sb, &["execute", "--approved"], 0);
    assert_eq!(v["pending_gate"], serde_json::Value::Null);
    check(&sb, &["kg_write", "--no-gates"], 0);
    sb.arx()
        .args(["gate", "check", "execute"])
        .assert()
        .code(1)
        .stdout(contains("paused").and(contains("execute")));
}

#[test]
fn arx_toml_is_found_upward_and_stops_at_the_git_root() {
    let sb = Sandbox::new();
    sb.write("arx.toml", "[gates]\nexecute = false\n");
    std::fs::create_dir_all(sb.path().join("a/b")).unwrap();
    let out = sb
        .arx()
        .current_dir(sb.path().join("a/b"))
        .args(["gate", "check", "execute", "--json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert_eq!(json(&out)["on"], false);

    // A repository root below the file hides it.
    std::fs::create_dir_all(sb.path().join("a/.git")).unwrap();
    sb.arx()
        .current_dir(sb.path().join("a/b"))
        .args(["gate", "check", "execute"])
        .assert()
        .code(1);
}

#[test]
fn tolerant_values_keep_the_gate_on_with_a_warning() {
    let sb = Sandbox::new();
    sb.write("arx.toml", "[gates]\nexecute = 0\nkg_write = \"false\"\n");
    let out = sb
        .arx()
        .args(["gate", "show", "--json"])
        .assert()
        .code(0)
        .stderr(contains("warning"))
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    assert_eq!(v["gates"]["execute"], true);
    assert_eq!(v["gates"]["kg_write"], true);
}

#[test]
fn grd_json_config() {
    let sb = Sandbox::new();
    let cfg = sb.write(
        ".planning/config.json",
        r#"{"research_gates": {"experiment_execution": false, "kg_write": true}}"#,
    );
    let out = sb
        .arx()
        .args(["gate", "show", "--json", "--config"])
        .arg(&cfg)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    assert_eq!(v["gates"]["execute"], false);
    assert_eq!(v["gates"]["kg_write"], true);
    // A non-object research_gates is ignored.
    let cfg = sb.write("c.json", r#"{"research_gates": "bogus"}"#);
    sb.arx()
        .args(["gate", "check", "execute", "--config"])
        .arg(&cfg)
        .assert()
        .code(1);
}

#[test]
fn unknown_gate_and_bad_configs_exit_2() {
    let sb = Sandbox::new();
    sb.arx()
        .args(["gate", "check", "deploy"])
        .assert()
        .code(2)
        .stderr(contains("arx: error:"));
    let bad = [
        ("bad.toml", "[gates\nexecute = false"),
        ("bad.json", "{\"research_gates\": "),
        ("list.json", "[1, 2]"),
    ];
    for (name, text) in bad {
        let p = sb.write(name, text);
        sb.arx()
            .args(["gate", "show", "--config"])
            .arg(&p)
            .assert()
            .code(2)
            .stderr(contains("arx: error:").and(contains(name)));
    }
    sb.arx()
        .args(["gate", "show", "--config", "missing.toml"])
        .assert()
        .code(2)
        .stderr(contains("no such file"));
    std::fs::create_dir_all(sb.path().join("dir.toml")).unwrap();
    sb.arx()
        .args(["gate", "show", "--config", "dir.toml"])
        .assert()
        .code(2)
        .stderr(contains("directory"));
}

/// Every command that writes dead ends, knowhow or crystallized policies
/// passes the `kg_write` gate: paused without approval, through with
/// `--approve`, `--no-gates` or the gate turned off.
#[test]
fn the_kg_write_gate_guards_every_knowledge_write() {
    let writes: [&[&str]; 4] = [
        &["deadend", "add", "idea A", "--reason", "r"],
        &["knowhow", "add", "idea B", "--content", "c"],
        &["policy", "crystallize"],
        &[
            "deadend",
            "promote",
            "--statement",
            "idea C",
            "--verdict",
            "v.json",
        ],
    ];
    let refuted = r#"{"verdict": "refuted", "strategy": "deterministic", "evidence_level": "deterministic", "detail": "acc=0.5 >= 0.8 → fail"}"#;
    for args in writes {
        let sb = Sandbox::new();
        sb.write("v.json", refuted);
        let out = sb.arx().args(args).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stdout}");
        assert!(
            stdout.contains("pending gate kg_write"),
            "{args:?}: {stdout}"
        );
        assert!(!sb.path().join(".arx/dead-ends.jsonl").exists(), "{args:?}");
        assert!(!sb.path().join(".arx/knowhow.jsonl").exists(), "{args:?}");
        for pass in ["--approve", "--no-gates", "--approved"] {
            sb.arx().args(args).arg(pass).assert().code(0);
        }
        let sb = Sandbox::new();
        sb.write("v.json", refuted);
        sb.write("arx.toml", "[gates]\nkg_write = false\n");
        sb.arx().args(args).assert().code(0);
    }
    // `arx run --promote` pauses before the experiment runs.
    let sb = Sandbox::new();
    sb.write("arx.toml", "[gates]\nexecute = false\n");
    sb.arx()
        .args(["run", "--promote", "--hypothesis", "h"])
        .args(["--metric", "acc", "--cmp", ">=", "--target", "0.8"])
        .args([
            "--",
            "sh",
            "-c",
            "touch ran; echo '__RESULT__ {\"acc\": 0.5}'",
        ])
        .assert()
        .code(1)
        .stdout(predicates::str::contains("pending gate kg_write"));
    assert!(!sb.path().join("ran").exists());
    sb.arx()
        .args(["run", "--promote", "--approve", "--hypothesis", "h"])
        .args(["--metric", "acc", "--cmp", ">=", "--target", "0.8"])
        .args(["--", "sh", "-c", "echo '__RESULT__ {\"acc\": 0.5}'"])
        .assert()
        .code(1);
    assert!(sb.read(".arx/dead-ends.jsonl").contains("\"h\""));
}
