//! Result formats: experiments that print their numbers their own way
//! (a training script's closing summary block, `METRIC name=value` lines,
//! a line a pattern matches) through `arx try` and `arx run`, unchanged.

use crate::support::{
    committed_repo, git, json, stderr, stdout_json, try_json as try_, try_status as status, Sandbox,
};

/// A stand-in for a training script that ends with a summary block (as
/// karpathy/autoresearch's `train.py` does): a training log, then `---`
/// and `name: value` lines. No `__RESULT__`. Its `val_bpb` is the number
/// in `value.txt` plus a fixed jitter sequence.
const TRAIN: &str = r#"#!/bin/sh
v=$(cat value.txt)
n=$(cat .noise 2>/dev/null || echo 0)
echo $((n + 1)) > .noise
case $((n % 5)) in 0) j=0;; 1) j=0.002;; 2) j=-0.002;; 3) j=0.001;; *) j=-0.001;; esac
for s in 1 2 3; do
  echo "step 0000$s (33.3%) | loss: 3.$s | lrm: 1.00 | dt: 312ms | tok/sec: 1,680,000 | mfu: 39.8%"
done
echo "---"
awk -v v="$v" -v j="$j" 'BEGIN { printf "val_bpb:          %.6f\n", v + j }'
echo "training_seconds: 300.1"
echo "peak_vram_mb:     45060.2"
echo "mfu_percent:      39.80"
echo "num_steps:        953"
"#;

/// The same experiment printing `METRIC name=value` lines (as
/// pi-autoresearch reads them): an early value of the metric, then the
/// final one, which wins.
const PI: &str = r#"#!/bin/sh
v=$(cat value.txt)
n=$(cat .noise 2>/dev/null || echo 0)
echo $((n + 1)) > .noise
case $((n % 5)) in 0) j=0;; 1) j=0.002;; 2) j=-0.002;; 3) j=0.001;; *) j=-0.001;; esac
echo "METRIC val_bpb=9.5"
echo "compiling..."
awk -v v="$v" -v j="$j" 'BEGIN { printf "METRIC val_bpb=%.6f peak_mb=1200\n", v + j }'
"#;

/// The same experiment printing a line of its own shape.
const OWN: &str = r#"#!/bin/sh
v=$(cat value.txt)
n=$(cat .noise 2>/dev/null || echo 0)
echo $((n + 1)) > .noise
case $((n % 5)) in 0) j=0;; 1) j=0.002;; 2) j=-0.002;; 3) j=0.001;; *) j=-0.001;; esac
awk -v v="$v" -v j="$j" 'BEGIN { printf "eval | bits per byte %.6f | done\n", v + j }'
"#;

const CONFIG: &str = r#"[gates]
execute = false

[objective]
metric = "val_bpb"
direction = "min"
command = "sh train.sh"
baseline_repeat = 3
"#;

/// A repository on `main` with `train.sh` (the script given) committed,
/// `value.txt` = 1.0, and `[objective]` with `extra` added.
fn repo(script: &str, extra: &str) -> Sandbox {
    committed_repo(&[
        ("train.sh", script),
        ("value.txt", "1.0"),
        (".gitignore", ".noise\n"),
        ("arx.toml", &format!("{CONFIG}{extra}")),
    ])
}

/// Baseline, keep and discard, as with `__RESULT__` lines; every record
/// says the format its numbers came in.
fn baseline_keep_discard(sb: &Sandbox, format: &str, flags: &[&str]) {
    let (code, report, err) = try_(sb, flags);
    assert_eq!((code, status(&report)), (0, "baseline"), "{report}\n{err}");
    let baseline = &sb.journal()[0];
    assert_eq!(
        baseline["samples"].as_array().unwrap().len(),
        3,
        "{baseline}"
    );
    let value = baseline["metrics"]["val_bpb"].as_f64().unwrap();
    assert!((value - 1.0).abs() < 0.003, "{baseline}");

    let kept = git(sb, &["rev-parse", "HEAD"]);
    sb.write("value.txt", "0.9");
    let args = [flags, &["-m", "lower value"]].concat();
    let (code, report, err) = try_(sb, &args);
    assert_eq!((code, status(&report)), (0, "keep"), "{report}\n{err}");
    assert_ne!(git(sb, &["rev-parse", "HEAD"]), kept);

    let kept = git(sb, &["rev-parse", "HEAD"]);
    sb.write("value.txt", "1.2");
    let args = [flags, &["-m", "higher value"]].concat();
    let (code, report, err) = try_(sb, &args);
    assert_eq!((code, status(&report)), (1, "discard"), "{report}\n{err}");
    assert_eq!(git(sb, &["rev-parse", "HEAD"]), kept);
    assert_eq!(sb.read("value.txt"), "0.9");

    let journal = sb.journal();
    let statuses: Vec<&str> = journal
        .iter()
        .map(|r| r["ratchet"]["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["baseline", "keep", "discard"]);
    for r in &journal {
        assert_eq!(r["result_format"], format, "{r}");
    }
    // The best and the log read the numbers as they read any others.
    let best = stdout_json(sb.arx().args(["--json", "best"]).assert().success());
    assert!(
        (best["value"].as_f64().unwrap() - 0.9).abs() < 0.01,
        "{best}"
    );
}

#[test]
fn a_training_script_summary_block_goes_through_try_unchanged() {
    let sb = repo(TRAIN, "format = \"summary\"\n");
    baseline_keep_discard(&sb, "summary", &[]);
    // The other numbers of the block are kept as metrics, the log's not.
    let r = &sb.journal()[1];
    assert_eq!(r["metrics"]["peak_vram_mb"], 45060.2, "{r}");
    assert_eq!(r["metrics"]["num_steps"], 953.0, "{r}");
    assert!(r["metrics"].get("loss").is_none(), "{r}");
}

#[test]
fn pi_metric_lines_go_through_try_and_the_last_value_wins() {
    let sb = repo(PI, "format = \"pi\"\n");
    baseline_keep_discard(&sb, "pi", &[]);
    assert_eq!(sb.journal()[0]["metrics"]["peak_mb"], 1200.0);
}

#[test]
fn a_pattern_with_named_groups_reads_any_line_and_the_flag_picks_the_format() {
    let sb = repo(OWN, "pattern = 'bits per byte (?P<val_bpb>[0-9.]+)'\n");
    baseline_keep_discard(&sb, "pattern", &[]);
    // `--result-format` wins over the file: the summary format finds
    // nothing in this output, and says what it looked for.
    sb.write("value.txt", "0.8");
    let out = sb
        .arx()
        .args(["try", "--result-format", "summary", "-m", "x"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(
        text.contains("crash: no val_bpb reported; the summary format found no name: value lines after a line ---"),
        "{text}"
    );
    assert_eq!(sb.read("value.txt"), "0.9");
}

#[test]
fn a_format_that_finds_no_metric_is_a_crash_naming_the_format_and_what_it_found() {
    // The block has no val_bpb: the baseline's first run is a crash.
    let script = TRAIN.replace("val_bpb:  ", "val_bpc:  ");
    let sb = repo(&script, "format = \"summary\"\n");
    let out = sb.arx().arg("try").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(3), "{text}{}", stderr(&out));
    let line = text
        .lines()
        .find(|l| l.starts_with("crash:"))
        .unwrap_or_default();
    assert!(line.contains("reported no val_bpb"), "{line}");
    assert!(
        line.contains("the summary format found val_bpc, training_seconds"),
        "{line}"
    );
    assert!(line.contains("(did you mean val_bpc?)"), "{line}");

    // Output with no METRIC line at all: the line says what pi looks for.
    let sb = repo(TRAIN, "format = \"pi\"\n");
    let out = sb.arx().arg("try").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(
        text.contains("the pi format found no METRIC name=value lines"),
        "{text}"
    );
}

#[test]
fn a_summary_value_that_is_not_a_number_is_ignored_and_said() {
    let script = TRAIN.replace(
        "echo \"num_steps:        953\"",
        "echo \"num_steps:        953\"\necho \"device:           cuda\"",
    );
    let sb = repo(&script, "format = \"summary\"\n");
    let (code, report, err) = try_(&sb, &[]);
    assert_eq!((code, status(&report)), (0, "baseline"), "{report}\n{err}");
    assert!(
        err.contains("the summary format ignored values that are not numbers: device (\"cuda\")"),
        "{err}"
    );
    assert!(sb.journal()[0]["metrics"].get("device").is_none());
    // Said once for the try, not once per run of the baseline.
    assert_eq!(err.matches("ignored values").count(), 1, "{err}");
}

#[test]
fn bad_format_settings_are_errors_at_config_load_naming_the_problem() {
    // Each with how to fix it: a pattern's own problem in the pattern.
    let fix_the_regex = "hint: fix the regular expression of [objective] pattern as the error says";
    let cases = [
        (
            "format = \"tsv\"\n",
            "unknown result format \"tsv\"",
            "hint: set [objective] format to arx, pi, summary or pattern",
        ),
        (
            "format = \"pattern\"\n",
            "the format \"pattern\" needs a pattern",
            "hint: set [objective] format to arx, pi, summary or pattern; a pattern names",
        ),
        (
            "pattern = 'loss (?P<val_bpb[0-9.]+)'\n",
            "the pattern does not compile",
            fix_the_regex,
        ),
        (
            "pattern = 'loss (?P<val_bpb>[0-9.]+'\n",
            "unclosed group",
            fix_the_regex,
        ),
        (
            "pattern = 'loss ([0-9.]+)'\n",
            "has no named group",
            "hint: name the group of each metric in [objective] pattern: (?P<val_bpb>[0-9.]+)",
        ),
        (
            "format = \"pi\"\npattern = 'x(?P<a>1)'\n",
            "a pattern is read only by the format \"pattern\", not \"pi\"",
            "hint: remove [objective] format, or set it to pattern",
        ),
    ];
    for (extra, said, hint) in cases {
        let sb = repo(TRAIN, extra);
        let out = sb.arx().arg("try").output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{extra}: {err}");
        assert!(err.contains(said), "{extra}: {err}");
        assert!(err.contains(hint), "{extra}: {err}");
        // Nothing ran, nothing was written.
        assert!(!sb.path().join(".noise").exists(), "{extra}");
        assert!(sb.journal().is_empty(), "{extra}");
    }
    // The same from the flag: the hint names the flag.
    let sb = repo(TRAIN, "");
    let out = sb
        .arx()
        .args(["try", "--result-pattern", "loss (?P<val_bpb>[0-9.]+"])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("hint: fix the regular expression of --result-pattern as the error says"),
        "{err}"
    );
    // A format name the flag does not know is a usage error.
    sb.arx()
        .args(["try", "--result-format", "tsv"])
        .assert()
        .code(2);
}

#[test]
fn run_reads_pi_lines_with_the_flag_and_names_the_format_when_the_metric_is_missing() {
    let sb = Sandbox::new();
    let spec = ["--metric", "acc", "--cmp", ">=", "--target", "0.8"];
    let out = sb
        .arx()
        .args(["--json", "run", "--approve", "--result-format", "pi"])
        .args(spec)
        .args([
            "--",
            "sh",
            "-c",
            "echo 'METRIC acc=0.5'; echo 'METRIC acc=0.9'",
        ])
        .assert()
        .code(0);
    let v = json(&out.get_output().stdout);
    assert_eq!(v["verdict"]["verdict"], "supported", "{v}");
    assert_eq!(v["metrics"]["acc"], 0.9);
    assert_eq!(sb.journal()[0]["result_format"], "pi");

    let out = sb
        .arx()
        .args(["--json", "run", "--approve", "--result-format", "pi"])
        .args(spec)
        .args(["--", "sh", "-c", "echo 'METRIC loss=0.5'"])
        .assert()
        .code(3);
    let v = json(&out.get_output().stdout);
    assert_eq!(
        v["verdict"]["detail"],
        "metric \"acc\" not reported; the pi format found loss"
    );

    // The default format's record carries no format and its detail is the
    // reference's.
    let out = sb
        .arx()
        .args(["--json", "run", "--approve"])
        .args(spec)
        .args(["--", "sh", "-c", "echo 'METRIC acc=0.9'"])
        .assert()
        .code(3);
    let v = json(&out.get_output().stdout);
    assert_eq!(v["verdict"]["detail"], "metric \"acc\" not reported");
    assert!(sb.journal()[2].get("result_format").is_none());

    // `[objective] format` is the default of arx run too.
    sb.write("arx.toml", "[objective]\nformat = \"summary\"\n");
    let out = sb
        .arx()
        .args(["--json", "run", "--approve"])
        .args(spec)
        .args(["--", "sh", "-c", "echo ---; echo 'acc: 0.85'"])
        .assert()
        .code(0);
    let v = json(&out.get_output().stdout);
    assert_eq!(v["metrics"]["acc"], 0.85, "{v}");
}

#[test]
fn parse_and_measure_read_a_format_from_the_flag_or_the_config() {
    let sb = Sandbox::new();
    let log = "step 1 | loss: 3.2\n---\nval_bpb: 0.9979\ndevice: cuda\n";
    sb.write("out.log", log);
    let out = sb
        .arx()
        .args(["parse", "--result-format", "summary", "out.log"])
        .assert()
        .code(0);
    assert_eq!(
        json(&out.get_output().stdout),
        serde_json::json!({"val_bpb": 0.9979})
    );
    assert!(
        stderr(out.get_output()).contains("ignored values that are not numbers: device (\"cuda\")"),
        "{}",
        stderr(out.get_output())
    );
    // The default format finds nothing in it.
    sb.arx().args(["parse", "out.log"]).assert().code(1);
    // A pattern on the command line.
    let out = sb
        .arx()
        .args([
            "parse",
            "--result-pattern",
            r"loss: (?P<loss>\S+)",
            "out.log",
        ])
        .assert()
        .code(0);
    assert_eq!(
        json(&out.get_output().stdout),
        serde_json::json!({"loss": 3.2})
    );

    sb.write("arx.toml", "[objective]\nformat = \"summary\"\n");
    let spec = ["--metric", "val_bpb", "--cmp", "<=", "--target", "1.0"];
    let out = sb
        .arx()
        .args(["--json", "measure"])
        .args(spec)
        .arg("out.log")
        .assert()
        .code(0);
    assert_eq!(json(&out.get_output().stdout)["verdict"], "supported");
    let out = sb
        .arx()
        .args([
            "--json", "measure", "--metric", "acc", "--cmp", ">=", "--target", "1",
        ])
        .arg("out.log")
        .assert()
        .code(3);
    assert_eq!(
        json(&out.get_output().stdout)["detail"],
        "metric \"acc\" not reported; the summary format found val_bpb"
    );
    // A bad format in the config is an error here too.
    sb.write("arx.toml", "[objective]\nformat = \"jsonl\"\n");
    let out = sb.arx().args(["parse", "out.log"]).assert().code(2);
    assert!(stderr(out.get_output()).contains("unknown result format \"jsonl\""));
}

#[test]
fn a_summary_block_read_as_the_default_format_names_format_summary() {
    // karpathy's train.py under arx's default format: no __RESULT__ line,
    // but a summary block, which the crash names with the setting to add.
    let sb = repo(TRAIN, "");
    let out = sb.arx().arg("try").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(3), "{text}{}", stderr(&out));
    let line = text
        .lines()
        .find(|l| l.starts_with("crash:"))
        .unwrap_or_default();
    assert!(line.contains("reported no val_bpb"), "{line}");
    assert!(
        line.contains("looks like format = \"summary\" (val_bpb, training_seconds"),
        "{line}"
    );
    assert!(
        line.contains("set format = \"summary\" under [objective]"),
        "{line}"
    );

    // pi's METRIC lines name format = "pi".
    let sb = repo(PI, "");
    let out = sb.arx().arg("try").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        text.contains("looks like format = \"pi\" (val_bpb"),
        "{text}"
    );
}

#[test]
fn run_under_the_default_format_says_which_format_the_output_looks_like() {
    let sb = repo(TRAIN, "");
    let out = sb
        .arx()
        .args([
            "run",
            "--no-gates",
            "--metric",
            "val_bpb",
            "--cmp",
            "<=",
            "--target",
            "2",
        ])
        .args(["--", "sh", "train.sh"])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(
        err.contains("looks like format = \"summary\" (val_bpb, training_seconds")
            && err.contains("pass --result-format summary"),
        "{err}"
    );
    // Read in that format, nothing is said.
    let out = sb
        .arx()
        .args([
            "run",
            "--no-gates",
            "--result-format",
            "summary",
            "--metric",
            "val_bpb",
        ])
        .args(["--cmp", "<=", "--target", "2", "--", "sh", "train.sh"])
        .output()
        .unwrap();
    assert!(!stderr(&out).contains("looks like"), "{}", stderr(&out));
}
