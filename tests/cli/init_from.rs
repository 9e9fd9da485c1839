//! `arx init --from karpathy|pi|codex` in another loop's repository, and
//! `arx init --format`.

use crate::support::{commit_all, git, stderr, stdout_json, Sandbox};

/// karpathy's layout: train.py printing the summary block, prepare.py,
/// program.md with the task and the loop's mechanics, and the night's
/// results.tsv (untracked), run.log left by the last run.
fn karpathy() -> Sandbox {
    let sb = Sandbox::new();
    sb.write(
        "train.py",
        "v = float(open('value.txt').read())\nprint('step 1 | loss 3.2')\nprint('---')\n\
         print(f'val_bpb:          {v:.6f}')\nprint('training_seconds: 300.1')\n",
    );
    sb.write("value.txt", "1.0");
    sb.write("prepare.py", "# data and the evaluation\n");
    sb.write(
        "program.md",
        "# research\n\nImprove the model in train.py; the lowest val_bpb wins.\n\n\
         ## What you can change\n\nOnly train.py. Never prepare.py.\n\n\
         ## Logging results\n\nAppend a row to results.tsv.\n\n\
         ## The experiment loop\n\nRun it, keep the commit when better, else git reset.\n",
    );
    sb.write(".gitignore", "AGENTS.md\n");
    commit_all(sb.path());
    let head = git(&sb, &["rev-parse", "--short=7", "HEAD"]);
    sb.write(
        "results.tsv",
        format!(
            "commit\tval_bpb\tmemory_gb\tstatus\tdescription\n{head}\t1.000000\t3.0\tkeep\tbaseline\n\
             1234567\t1.100000\t3.0\tdiscard\tworse\n"
        ),
    );
    sb.write("run.log", "the last run\n");
    sb
}

#[test]
fn from_karpathy_writes_the_objective_ignores_the_output_imports_and_rewrites_program_md() {
    let sb = karpathy();
    let out = sb
        .arx()
        .args(["--json", "init", "--from", "karpathy"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = stdout_json(&out);
    let config: toml::Table = sb.read("arx.toml").parse().unwrap();
    let o = &config["objective"];
    assert_eq!(o["metric"].as_str(), Some("val_bpb"));
    assert_eq!(o["direction"].as_str(), Some("min"));
    assert_eq!(o["command"].as_str(), Some("python3 train.py"));
    assert_eq!(o["format"].as_str(), Some("summary"));
    assert_eq!(o["timeout"].as_str(), Some("10m"));
    assert_eq!(o["protect"].as_array().unwrap().len(), 1);
    let ignore = sb.read(".gitignore");
    assert!(
        ignore.contains("/run.log\n") && ignore.contains("/results.tsv\n"),
        "{ignore}"
    );
    // The night, imported.
    let journal = sb.journal();
    assert_eq!(journal.len(), 2, "{report}");
    assert!(
        journal.iter().all(|r| r["ratchet"]["imported"].is_object()),
        "{journal:?}"
    );
    // program.md: the task kept, the mechanics replaced by arx's loop,
    // which says how arx reads train.py.
    let program = sb.read("program.md");
    assert!(program.contains("the lowest val_bpb wins") && program.contains("Never prepare.py."));
    assert!(
        !program.contains("git reset") && !program.contains("Append a row"),
        "{program}"
    );
    assert!(
        program.contains("## Research loop (arx)") && program.contains("closing summary block")
    );
    assert!(!program.contains("__RESULT__ {"), "{program}");
    assert!(report["decided"].as_array().unwrap().len() >= 2, "{report}");
    // Run again: nothing new.
    let again = sb
        .arx()
        .args(["init", "--from", "karpathy"])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2), "{}", stderr(&again));
    assert!(stderr(&again).contains("already has an [objective]"));
    assert_eq!(sb.journal().len(), 2);
}

#[test]
fn a_migrated_karpathy_loop_runs_its_first_try() {
    // train.py's summary block, printed by sh (no Python needed): the
    // command flag wins over what the files say.
    let sb = karpathy();
    sb.write(
        "train.sh",
        "echo 'step 1 | loss 3.2'; echo ---; echo \"val_bpb:          $(cat value.txt)\"\n",
    );
    sb.arx()
        .args(["init", "--from", "karpathy", "--command", "sh train.sh"])
        .assert()
        .success();
    assert!(sb.read("arx.toml").contains("command = \"sh train.sh\""));
    let config = sb
        .read("arx.toml")
        .replace("execute = true", "execute = false");
    sb.write("arx.toml", config);
    git(&sb, &["add", "-A"]);
    git(&sb, &["commit", "-qm", "arx"]);
    let out = sb.arx().args(["--json", "try"]).output().unwrap();
    let report = stdout_json(&out);
    assert_eq!(
        report["ratchet"]["status"],
        "baseline",
        "{report}\n{}",
        stderr(&out)
    );
    // run.log and results.tsv are still there: ignored, never a change.
    assert_eq!(sb.read("run.log"), "the last run\n");
    assert!(sb.read("results.tsv").contains("baseline"));
}

#[test]
fn from_pi_and_codex_read_their_configuration() {
    let sb = Sandbox::new();
    sb.write("autoresearch.sh", "echo METRIC ms=5\n");
    sb.write("autoresearch.checks.sh", "true\n");
    commit_all(sb.path());
    let head = git(&sb, &["rev-parse", "--short=7", "HEAD"]);
    sb.write(
        ".auto/log.jsonl",
        format!(
            "{{\"type\":\"config\",\"name\":\"speed\",\"metricName\":\"ms\",\"bestDirection\":\"lower\"}}\n\
             {{\"run\":1,\"commit\":\"{head}\",\"metric\":5,\"metrics\":{{}},\"status\":\"keep\",\"description\":\"baseline\",\"timestamp\":1700000000000,\"segment\":0}}\n"
        ),
    );
    sb.arx().args(["init", "--from", "pi"]).assert().success();
    let config: toml::Table = sb.read("arx.toml").parse().unwrap();
    let o = &config["objective"];
    assert_eq!(o["metric"].as_str(), Some("ms"));
    assert_eq!(o["format"].as_str(), Some("pi"));
    assert_eq!(o["checks"][0].as_str(), Some("bash autoresearch.checks.sh"));
    assert!(sb.read(".gitignore").contains("/.auto/"));
    assert!(sb.read("AGENTS.md").contains("`METRIC name=value` lines"));
    assert_eq!(sb.journal().len(), 1);

    let sb = Sandbox::new();
    sb.write("eval.sh", "echo '__RESULT__ {\"roc_auc\": 0.8}'\n");
    commit_all(sb.path());
    let head = git(&sb, &["rev-parse", "--short=7", "HEAD"]);
    sb.write(
        "results.tsv",
        format!(
            "# metric_direction: higher\n# metric: roc_auc\niteration\tcommit\tmetric\tdelta\tstatus\tdescription\n\
             0\t{head}\t0.800000\t0.0\tbaseline\tstart\n"
        ),
    );
    sb.write("state.json", r#"{"verify": "sh eval.sh", "guard": "true"}"#);
    sb.arx()
        .args(["init", "--from", "codex"])
        .assert()
        .success();
    let config: toml::Table = sb.read("arx.toml").parse().unwrap();
    let o = &config["objective"];
    assert_eq!(o["metric"].as_str(), Some("roc_auc"));
    assert_eq!(o["direction"].as_str(), Some("max"));
    assert_eq!(o["command"].as_str(), Some("sh eval.sh"));
    assert_eq!(o["checks"][0].as_str(), Some("true"));
    assert!(sb.read("AGENTS.md").contains("## Research loop (arx)"));

    // Not that loop's repository: exit 2, nothing written.
    let sb = Sandbox::new();
    let out = sb
        .arx()
        .args(["init", "--from", "karpathy"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no train.py") && stderr(&out).contains("hint:"));
    assert!(!sb.path().join("arx.toml").exists());
}

#[test]
fn init_format_writes_the_format_and_a_pattern_needs_its_regex() {
    let sb = Sandbox::new();
    sb.arx()
        .args([
            "init",
            "--metric",
            "val_bpb",
            "--direction",
            "min",
            "--format",
            "summary",
        ])
        .assert()
        .success();
    let config: toml::Table = sb.read("arx.toml").parse().unwrap();
    assert_eq!(config["objective"]["format"].as_str(), Some("summary"));
    assert!(sb
        .read("arx.toml")
        .contains("prints its closing summary block"));

    let sb = Sandbox::new();
    let out = sb
        .arx()
        .args(["init", "--format", "pattern"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--pattern"));
    sb.arx()
        .args(["init", "--pattern", "bpb (?P<val_bpb>[0-9.]+)"])
        .assert()
        .success();
    let config: toml::Table = sb.read("arx.toml").parse().unwrap();
    assert_eq!(config["objective"]["format"].as_str(), Some("pattern"));
    assert_eq!(
        config["objective"]["pattern"].as_str(),
        Some("bpb (?P<val_bpb>[0-9.]+)")
    );
}
