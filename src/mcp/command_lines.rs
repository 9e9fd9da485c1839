//! Every tool's command line, as the server runs it, parsed by the clap
//! definition of `arx`: from inputs that set every field between them and
//! from a minimal one, each line must parse, name the tool's subcommand,
//! carry each field's value under the flag named after it, and carry no
//! other flag than the server's own (so no builder uses a flag arx does not
//! have, drops a field, or lets a value become a flag such as `--approve`).

use std::collections::BTreeSet;
use std::path::Path;

use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, Parser};
use serde_json::{json, Value};

use super::tools::{table, Call};
use super::{approve, command_line};
use crate::cli::Cli;

/// What one tool is tested with.
struct Case {
    tool: &'static str,
    /// The subcommand's words.
    subcommand: &'static [&'static str],
    /// Inputs that set every field of the tool between them (some fields
    /// exclude each other, as `stderr` and `failure_class` of `measure`).
    full: Vec<Value>,
    /// The fewest fields a call can give.
    minimal: Value,
    /// Inputs whose values look like flags.
    hostile: Vec<Value>,
    /// Fields that are positional words: (field, the argument's id).
    positional: &'static [(&'static str, &'static str)],
    /// Fields that go to the command's standard input.
    stdin: &'static [&'static str],
    /// Flags the tool always gives (by argument id).
    fixed: &'static [&'static str],
}

/// The cases of every tool: the ratchet's, then the others.
fn cases() -> Vec<Case> {
    let mut cases = ratchet_cases();
    cases.extend(run_cases());
    cases.extend(other_cases());
    cases
}

/// A case with no fields.
fn case(tool: &'static str, subcommand: &'static [&'static str]) -> Case {
    Case {
        tool,
        subcommand,
        full: Vec::new(),
        minimal: json!({}),
        hostile: Vec::new(),
        positional: &[],
        stdin: &[],
        fixed: &[],
    }
}

/// The ratchet's tools: try, best, status, log.
fn ratchet_cases() -> Vec<Case> {
    vec![
        Case {
            full: vec![json!({
                "description": "double the learning rate",
                "idea": "i-3f9a2c71e0",
                "family": "lr",
                "command": "python train.py --lr 2e-3",
                "repeat": 3,
                "dry_run": true,
                "rule": "strict",
                "new_segment": true,
                "lane": "gpu0",
                "metric": "val_loss",
                "direction": "min",
                "timeout": "15m",
                "min_effect": 0.01,
                "check": ["cargo test", "ruff check ."],
                "protect": ["data/**", "eval.py"],
                "retry": true,
                "because": "the warmup is longer now",
            })],
            hostile: vec![json!({
                "because": "--approve",
                "retry": true,
                "description": "--approve",
                "command": "--no-gates",
                "check": ["--approve"],
                "rule": "--no-gates",
                "lane": "--approve",
                "idea": "--no-gates",
                "family": "--approve",
            })],
            ..case("try", &["try"])
        },
        Case {
            full: vec![json!({"metric": "acc", "direction": "max"})],
            ..case("best", &["best"])
        },
        Case {
            full: vec![json!({"metric": "acc", "direction": "min"})],
            ..case("status", &["status"])
        },
        Case {
            full: vec![json!({"limit": 3, "candidate": "hybrid"})],
            hostile: vec![json!({"candidate": "--format=tsv"})],
            fixed: &["limit"],
            ..case("log", &["log"])
        },
    ]
}

/// The tools that run an experiment: measure and run.
fn run_cases() -> Vec<Case> {
    vec![
        Case {
            full: vec![
                json!({
                    "metric": "acc",
                    "cmp": ">=",
                    "target": 0.75,
                    "spec": "spec.toml",
                    "exit_code": 137,
                    "stderr": "err.txt",
                    "timed_out": true,
                    "file": "out.txt",
                    "input": "__RESULT__ {\"acc\": 0.8}",
                }),
                json!({"failure_class": "H3", "exit_code": -1, "cmp": "<"}),
            ],
            hostile: vec![json!({"file": "--timed-out", "metric": "--spec=x"})],
            positional: &[("file", "file")],
            stdin: &["input"],
            ..case("measure", &["measure"])
        },
        Case {
            full: vec![json!({
                "command": ["python", "train.py", "--lr", "2e-3"],
                "shell": true,
                "metric": "acc",
                "cmp": ">=",
                "target": 0.8,
                "spec": "spec.toml",
                "hypothesis": "a wider model learns faster",
                "candidate": "wide",
                "tag": ["arch", "width"],
                "timeout": "2h",
                "repeat": 5,
                "confidence": 0.9,
                "force": true,
                "promote": true,
                "stop_on_result": true,
                "no_journal": true,
            })],
            minimal: json!({"command": ["true"]}),
            hostile: vec![json!({
                "command": ["--approve", "--no-gates"],
                "hypothesis": "--approve",
                "tag": ["--no-gates"],
            })],
            positional: &[("command", "command")],
            ..case("run", &["run"])
        },
    ]
}

/// The planning and knowledge tools, and the report.
fn other_cases() -> Vec<Case> {
    vec![
        Case {
            full: vec![
                json!({
                    "candidates": "candidates.toml",
                    "seed": 7,
                    "temperature": 0.05,
                    "model": "aif",
                    "greedy": true,
                }),
                json!({
                    "lane": "gpu0",
                    "seed": 7,
                    "temperature": 0.05,
                    "greedy": true,
                    "explain": true,
                }),
            ],
            minimal: json!({}),
            ..case("next", &["next"])
        },
        Case {
            full: vec![json!({"statement": "raise the learning rate"})],
            minimal: json!({"statement": "x"}),
            hostile: vec![json!({"statement": "--help"})],
            positional: &[("statement", "statement")],
            ..case("deadend_check", &["deadend", "check"])
        },
        Case {
            full: vec![json!({"context": "raise the learning rate", "limit": 3})],
            minimal: json!({"context": "x"}),
            hostile: vec![json!({"context": "--json"})],
            ..case("finding_rank", &["finding", "rank"])
        },
        Case {
            full: vec![json!({"segment": "2", "last": 5})],
            fixed: &["markdown"],
            ..case("report", &["report"])
        },
    ]
    .into_iter()
    .chain(idea_cases())
    .collect()
}

/// The backlog's tools.
fn idea_cases() -> Vec<Case> {
    vec![
        Case {
            full: vec![
                json!({"statement": "halve the learning rate", "family": "lr"}),
                json!({"statement": "again", "retry": "i-3f9a2c71e0", "because": "longer warmup"}),
            ],
            hostile: vec![json!({
                "statement": "--approve",
                "family": "--json",
                "retry": "--no-gates",
                "because": "--help",
            })],
            positional: &[("statement", "statement")],
            ..case("idea_add", &["idea", "add"])
        },
        Case {
            full: vec![json!({"status": "open", "family": "lr", "limit": 5})],
            hostile: vec![json!({"family": "--json"})],
            fixed: &["limit"],
            ..case("idea_list", &["idea", "list"])
        },
        Case {
            full: vec![json!({"id": "i-3f9a2c71e0", "reason": "superseded"})],
            minimal: json!({"id": "i-3f9a2c71e0"}),
            hostile: vec![json!({"id": "--help", "reason": "--approve"})],
            positional: &[("id", "id")],
            ..case("idea_drop", &["idea", "drop"])
        },
    ]
    .into_iter()
    .chain(loop_cases())
    .collect()
}

/// The loop's other tools: restore, show, lanes, import, findings.
fn loop_cases() -> Vec<Case> {
    vec![
        Case {
            full: vec![json!({"run_id": "01a22625"})],
            hostile: vec![json!({"run_id": "--help"})],
            positional: &[("run_id", "run_id")],
            ..case("restore", &["restore"])
        },
        Case {
            full: vec![json!({"run_id": "01a22625"})],
            minimal: json!({"run_id": "01a22625"}),
            hostile: vec![json!({"run_id": "--approve"})],
            positional: &[("run_id", "run_id")],
            ..case("show", &["show"])
        },
        Case {
            full: vec![json!({"names": ["a", "b"]})],
            hostile: vec![json!({"names": ["--dir=/"]})],
            positional: &[("names", "names")],
            ..case("lane_add", &["lane", "add"])
        },
        case("lane_list", &["lane", "list"]),
        Case {
            full: vec![json!({"name": "a", "theirs": true})],
            hostile: vec![json!({"name": "--theirs"})],
            positional: &[("name", "name")],
            ..case("lane_sync", &["lane", "sync"])
        },
        Case {
            full: vec![
                json!({"file": "results.tsv", "from": "karpathy", "metric": "val_bpb", "direction": "min"}),
            ],
            minimal: json!({"file": "results.tsv", "from": "pi"}),
            hostile: vec![json!({"file": "--help", "from": "codex"})],
            positional: &[("file", "file")],
            ..case("journal_import", &["journal", "import"])
        },
        Case {
            full: vec![json!({"kind": "todo", "status": "active", "limit": 3})],
            hostile: vec![json!({"kind": "todo"})],
            fixed: &["limit"],
            ..case("finding_list", &["finding", "list"])
        },
    ]
    .into_iter()
    .chain(memory_cases())
    .collect()
}

/// The tools of the loop's memory and machinery: dead ends, the journal's
/// check, the live runs, the report's files.
fn memory_cases() -> Vec<Case> {
    vec![
        Case {
            full: vec![json!({
                "statement": "raise the learning rate",
                "reason": "diverges",
                "evidence_level": "deterministic",
                "iteration": 4,
            })],
            minimal: json!({"statement": "x", "reason": "y"}),
            hostile: vec![json!({"statement": "--approve", "reason": "--no-gates"})],
            positional: &[("statement", "statement")],
            ..case("deadend_add", &["deadend", "add"])
        },
        Case {
            full: vec![json!({"file": "other/journal.jsonl"})],
            hostile: vec![json!({"file": "--help"})],
            positional: &[("file", "file")],
            ..case("journal_verify", &["journal", "verify"])
        },
        case("ps", &["ps"]),
        Case {
            full: vec![json!({
                "html": "report.html",
                "refresh": 30,
                "svg": "chart.svg",
                "junit": "runs.xml",
                "segment": "all",
                "last": 5,
            })],
            minimal: json!({}),
            hostile: vec![json!({"html": "--approve", "svg": "--no-gates"})],
            // Naming no file: the page at .arx/report.html.
            fixed: &["html"],
            ..case("report_write", &["report"])
        },
    ]
}

/// The server's global flags in these tests, and their argument ids.
const GLOBAL: [&str; 3] = [
    "--state-dir=/srv/state",
    "--config=/srv/arx.toml",
    "--now=2026-01-02T03:04:05Z",
];
const GLOBAL_IDS: [&str; 3] = ["state_dir", "config", "now"];

/// The words of a JSON value as they should reach the command.
fn words(value: &Value) -> Vec<String> {
    match value {
        Value::String(s) => vec![s.clone()],
        Value::Array(items) => items.iter().flat_map(words).collect(),
        other => vec![other.to_string()],
    }
}

/// The flags a call gives whatever its fields: the tool's fixed ones, the
/// server's global ones, and those of its output, events and approval.
fn fixed_flags(case: &Case, call: &Call, events: bool, approved: bool) -> BTreeSet<String> {
    let mut expected: BTreeSet<String> = case.fixed.iter().map(|s| s.to_string()).collect();
    expected.extend(GLOBAL_IDS.map(String::from));
    expected.insert("color".into());
    if call.text_key.is_none() {
        expected.insert("json".into());
    }
    if events {
        expected.extend(["events".into(), "heartbeat".into()]);
    }
    if approved {
        expected.insert("approve".into());
    }
    // A try that runs refuses a repeat unless retried.
    if case.tool == "try" && call.gate.is_some() {
        expected.insert("no_repeat".into());
    }
    expected
}

/// The case's subcommand, word by word: its definition and its matches.
fn leaf<'a>(
    case: &Case,
    command: &'a clap::Command,
    matches: &'a ArgMatches,
    shown: &str,
) -> (&'a clap::Command, &'a ArgMatches) {
    let mut leaf_command = command;
    let mut leaf: &ArgMatches = matches;
    for word in case.subcommand {
        let (name, sub) = leaf
            .subcommand()
            .unwrap_or_else(|| panic!("{shown}: no subcommand {word}"));
        assert_eq!(name, *word, "{shown}");
        leaf = sub;
        leaf_command = leaf_command.find_subcommand(word).unwrap();
    }
    assert!(leaf.subcommand().is_none(), "{shown}: a deeper subcommand");
    (leaf_command, leaf)
}

/// Parse the command line the server runs for `call` (approved or not)
/// and check it against `input`; panics with the line on any mismatch.
fn check(case: &Case, input: &Value, mut call: Call, approved: bool) {
    if approved {
        approve(&mut call);
    }
    let events = call
        .events
        .then_some(Path::new("/tmp/arx-events/events.ndjson"));
    let line = command_line(&GLOBAL.map(String::from), &call, events);
    let argv: Vec<&str> = std::iter::once("arx")
        .chain(line.iter().map(String::as_str))
        .collect();
    let shown = format!("{}: {input} -> {argv:?}", case.tool);
    if let Err(e) = Cli::try_parse_from(&argv) {
        panic!("{shown}\narx does not parse it:\n{e}");
    }
    let mut command = Cli::command();
    command.build();
    let matches = command
        .clone()
        .try_get_matches_from(&argv)
        .unwrap_or_else(|e| panic!("{shown}\n{e}"));
    // The subcommand, word by word.
    let (leaf_command, leaf) = leaf(case, &command, &matches, &shown);

    // Every field, under the flag named after it (or its positional word).
    let mut expected = fixed_flags(case, &call, events.is_some(), approved);
    let fields = input.as_object().expect("an input is an object");
    for (field, value) in fields {
        if case.stdin.contains(&field.as_str()) {
            assert_eq!(call.stdin.as_deref(), value.as_str(), "{shown}: {field}");
            continue;
        }
        let long = field.replace('_', "-");
        let arg = match case.positional.iter().find(|(f, _)| f == field) {
            Some((_, id)) => leaf_command
                .get_arguments()
                .find(|a| a.get_id() == id && a.is_positional()),
            None => leaf_command.get_arguments().find(|a| {
                a.get_long() == Some(long.as_str())
                    || a.get_all_aliases()
                        .is_some_and(|all| all.contains(&long.as_str()))
            }),
        };
        let arg = arg.unwrap_or_else(|| {
            panic!(
                "{shown}: field `{field}` has no flag --{long} in `arx {}` (nor a positional word)",
                case.subcommand.join(" ")
            )
        });
        let id = arg.get_id().as_str();
        assert_eq!(
            leaf.value_source(id),
            Some(ValueSource::CommandLine),
            "{shown}: `{field}` is not given as {id}"
        );
        if value != &Value::Bool(true) {
            let got: Vec<String> = leaf
                .get_raw(id)
                .map(|raw| raw.map(|v| v.to_string_lossy().into_owned()).collect())
                .unwrap_or_default();
            assert_eq!(got, words(value), "{shown}: the value of `{field}`");
        }
        expected.insert(id.to_string());
    }
    // Nothing else: no flag a field did not ask for.
    let given: BTreeSet<String> = leaf_command
        .get_arguments()
        .map(|a| a.get_id().as_str())
        .filter(|id| leaf.value_source(id) == Some(ValueSource::CommandLine))
        .map(String::from)
        .collect();
    assert_eq!(given, expected, "{shown}: the flags given");
}

#[test]
fn every_tool_has_a_case_and_its_full_inputs_set_every_field() {
    let table = table();
    let cases = cases();
    let tools: BTreeSet<&str> = table.iter().map(|e| e.name).collect();
    let tested: BTreeSet<&str> = cases.iter().map(|c| c.tool).collect();
    assert_eq!(
        tools, tested,
        "tools without a case, or cases without a tool"
    );
    for case in &cases {
        let entry = table.iter().find(|e| e.name == case.tool).unwrap();
        let schema = (entry.schema)();
        let fields: BTreeSet<&str> = schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let set: BTreeSet<&str> = case
            .full
            .iter()
            .flat_map(|input| input.as_object().unwrap().keys().map(String::as_str))
            .collect();
        assert_eq!(
            set, fields,
            "{}: the full inputs must set every field",
            case.tool
        );
        let required: BTreeSet<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let minimal: BTreeSet<&str> = case
            .minimal
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(minimal, required, "{}: the minimal input", case.tool);
    }
}

#[test]
fn every_tool_line_parses_as_its_command_with_its_values() {
    let table = table();
    for case in cases() {
        let entry = table.iter().find(|e| e.name == case.tool).unwrap();
        let inputs = case
            .full
            .iter()
            .chain([&case.minimal])
            .chain(case.hostile.iter());
        for input in inputs {
            let call = (entry.parse)(input.clone())
                .unwrap_or_else(|e| panic!("{}: {input}: {e}", case.tool));
            check(&case, input, call.clone(), false);
            if call.gate.is_some() {
                check(&case, input, call, true);
            }
        }
    }
}

#[test]
fn only_calls_that_run_an_experiment_are_gated() {
    let gated = |tool: &str, input: Value| {
        let table = table();
        let entry = table.iter().find(|e| e.name == tool).unwrap();
        (entry.parse)(input).unwrap().gate.is_some()
    };
    assert!(gated("try", json!({})));
    assert!(!gated("try", json!({"dry_run": true})));
    assert!(gated("run", json!({"command": ["true"]})));
    // Writing a dead end passes the kg_write gate, the person's too.
    let table = table();
    let add = table.iter().find(|e| e.name == "deadend_add").unwrap();
    let call = (add.parse)(json!({"statement": "x", "reason": "y"})).unwrap();
    assert_eq!(call.gate, Some(crate::kernel::gate::Gate::KgWrite));
    for tool in [
        "best",
        "status",
        "log",
        "measure",
        "report",
        "ps",
        "journal_verify",
    ] {
        assert!(!gated(tool, json!({})), "{tool}");
    }
}
