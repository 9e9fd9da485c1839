//! The ratchet's objective from `arx.toml` `[objective]` and the flags of
//! `arx try` (flags win): the flag group, the file's shape, and the merge
//! into one validated [`Objective`].

use anyhow::Result;
use serde::Deserialize;
use serde_json::Value;

use crate::error::Hinted;
use crate::kernel::holdout::{self, Holdout};
use crate::kernel::objective::{
    validate, Objective, StopRules, DEFAULT_BASELINE_REPEAT, DEFAULT_CONFIDENCE, DEFAULT_REPEAT,
};
use crate::kernel::stats::Direction;
use crate::ops::result_format::ResultFlags;

/// The objective's flags, each overriding its `[objective]` key.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ObjectiveFlags {
    /// The metric to improve ([objective] metric).
    #[arg(long, value_name = "KEY")]
    pub metric: Option<String>,
    /// Which way the metric improves ([objective] direction).
    #[arg(long, value_parser = ["max", "min"])]
    pub direction: Option<String>,
    /// The experiment as one shell command line ([objective] command); or
    /// give it after `--`.
    #[arg(long = "command", value_name = "CMD", conflicts_with = "argv")]
    pub command_line: Option<String>,
    /// Time limit of one run, e.g. 10m ([objective] timeout).
    #[arg(long, value_name = "DURATION")]
    pub timeout: Option<String>,
    /// Runs of each candidate, at least ([objective] repeat).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub repeat: Option<u32>,
    /// Runs of the baseline, to measure the noise ([objective] baseline_repeat).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub baseline_repeat: Option<u32>,
    /// Smallest improvement worth keeping, in metric units ([objective] min_effect).
    #[arg(long, value_name = "X", allow_negative_numbers = true)]
    pub min_effect: Option<f64>,
    /// Confidence of a keep ([objective] confidence).
    #[arg(long, value_name = "C", allow_negative_numbers = true)]
    pub confidence: Option<f64>,
    /// A check that must exit 0 before a keep (repeatable; replaces [objective] checks).
    #[arg(long = "check", value_name = "CMD")]
    pub checks: Vec<String>,
    /// A path or glob no candidate may change (repeatable; replaces [objective] protect).
    #[arg(long = "protect", value_name = "PATTERN")]
    pub protect: Vec<String>,
    /// Stop after this many runs in the segment ([objective.stop] max_runs).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_runs: Option<u64>,
    /// Stop after this many tries in a row not kept ([objective.stop] max_discards_in_a_row).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_discards_in_a_row: Option<u64>,
    /// Stop after this many hours of the segment ([objective.stop] max_hours).
    #[arg(long, value_name = "H", allow_negative_numbers = true)]
    pub max_hours: Option<f64>,
    /// Stop once the best reaches this value ([objective.stop] target).
    #[arg(long, value_name = "X", allow_negative_numbers = true)]
    pub target: Option<f64>,
    #[command(flatten)]
    pub result: ResultFlags,
    /// The experiment's program and arguments (instead of --command).
    #[arg(last = true, value_name = "CMD")]
    pub argv: Vec<String>,
}

/// `[objective]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ObjectiveFile {
    metric: Option<String>,
    direction: Option<String>,
    command: Option<CommandSpec>,
    timeout: Option<String>,
    repeat: Option<u32>,
    baseline_repeat: Option<u32>,
    min_effect: Option<f64>,
    confidence: Option<f64>,
    #[serde(default)]
    checks: Vec<String>,
    #[serde(default)]
    protect: Vec<String>,
    /// Files an agent keeps for itself (default `NOTES.md`).
    notes: Option<Vec<String>>,
    /// The largest file a candidate may hold, in MB (default 50).
    max_file_mb: Option<f64>,
    /// Files the experiment reads, hashed per run.
    #[serde(default)]
    inputs: Vec<String>,
    #[serde(default)]
    stop: StopFile,
    /// Bounds beside the target (`peak_vram_gb <= 40`): a list of strings,
    /// checked by [`guards`] so that a value of another type is named.
    guards: Option<Value>,
    /// The held-out check at keep.
    holdout: Option<HoldoutFile>,
    /// How the experiment prints its metrics.
    format: Option<String>,
    pattern: Option<String>,
    /// The result line's key of per-instance scores.
    instances: Option<String>,
    /// Read by `arx try --rule`'s default.
    rule: Option<String>,
    /// Read by `arx try --prune`'s default.
    prune: Option<String>,
    /// Read by `arx try --progress-step`'s default.
    progress_step: Option<String>,
    /// Read by [`crate::ops::placement::resolve`].
    #[allow(dead_code)]
    slots: Option<Value>,
    #[allow(dead_code)]
    slot_env: Option<Value>,
    #[allow(dead_code)]
    launcher: Option<Value>,
    /// `"paired"`: checked by [`paired_seeds`].
    seeds: Option<Value>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct StopFile {
    max_runs: Option<u64>,
    max_discards_in_a_row: Option<u64>,
    max_hours: Option<f64>,
    target: Option<f64>,
}

/// `[objective.holdout]` read alone, so that its error names its own table
/// and its own keys (not `[objective]`'s).
fn holdout_table(h: &Value) -> Result<HoldoutFile> {
    serde_json::from_value(h.clone()).map_err(|e| {
        Hinted::error(
            format!("invalid [objective.holdout]: {e}"),
            "[objective.holdout] needs command and metric (the held-out metric's name); \
             direction, repeat, baseline_repeat, max_repeat, margin and protect are optional",
        )
    })
}

/// `[objective.holdout]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HoldoutFile {
    command: CommandSpec,
    metric: String,
    direction: Option<String>,
    repeat: Option<u32>,
    baseline_repeat: Option<u32>,
    /// The most held-out runs the sequential check takes a side.
    max_repeat: Option<u32>,
    /// How much worse than the best a candidate may be, in metric units.
    margin: Option<f64>,
    /// More paths no candidate may change (the command's files are found
    /// in it).
    #[serde(default)]
    protect: Vec<String>,
}

/// `command = "uv run train.py"` (through the shell) or
/// `command = ["uv", "run", "train.py"]` (argv).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum CommandSpec {
    Line(String),
    Argv(Vec<String>),
}

const HINT: &str = "set it in arx.toml under [objective], or pass it as a flag of arx try";

/// `prune` and `progress_step` from `[objective]`, if set (an invalid
/// table is reported by [`resolve`]).
pub fn file_prune(file: Option<&Value>) -> (Option<String>, Option<String>) {
    let file: ObjectiveFile = file
        .and_then(|v| serde_json::from_value(v.clone()).ok())
        .unwrap_or_default();
    (file.prune, file.progress_step)
}

/// The objective from `file` (the config's `[objective]`, if any) and the
/// flags; also the file's `rule`, if set.
pub fn resolve(
    flags: &ObjectiveFlags,
    file: Option<&Value>,
) -> Result<(Objective, Option<String>)> {
    if let Some(h) = file.and_then(|v| v.get("holdout")) {
        holdout_table(h)?;
    }
    let file: ObjectiveFile = match file {
        None => ObjectiveFile::default(),
        Some(v) => serde_json::from_value(v.clone()).map_err(|e| {
            Hinted::error(
                format!("invalid [objective]: {e}"),
                "keys are metric, direction, command, timeout, repeat, baseline_repeat, min_effect, confidence, checks, protect, notes, max_file_mb, inputs, guards, instances (a string: the result line's key of per-instance scores), format, pattern, rule, prune, progress_step, slots, slot_env, launcher, seeds, [objective.stop] max_runs, max_discards_in_a_row, max_hours, target and [objective.holdout] command, metric, direction, repeat, baseline_repeat, max_repeat, margin, protect",
            )
        })?,
    };
    let metric =
        flags.metric.clone().or(file.metric).ok_or_else(|| {
            Hinted::error("no metric to improve: the objective has no metric", HINT)
        })?;
    let direction = flags
        .direction
        .clone()
        .or(file.direction)
        .ok_or_else(|| Hinted::error("the objective has no direction (min or max)", HINT))?;
    let direction: Direction = direction.parse().map_err(|e: String| {
        Hinted::error(
            format!("invalid [objective] direction: {e}"),
            "direction = \"min\" when lower is better, \"max\" when higher is",
        )
    })?;
    let (command, shell) = if !flags.argv.is_empty() {
        (flags.argv.clone(), false)
    } else if let Some(line) = &flags.command_line {
        (vec![line.clone()], true)
    } else {
        match file.command {
            Some(CommandSpec::Line(line)) => (vec![line], true),
            Some(CommandSpec::Argv(argv)) => (argv, false),
            None => {
                return Err(Hinted::error(
                    "the objective has no command to run",
                    "set command in [objective], or pass --command CMD or -- CMD ARGS...",
                ))
            }
        }
    };
    let guards = guards(file.guards.as_ref())?;
    let mut protect = if flags.protect.is_empty() {
        file.protect
    } else {
        flags.protect.clone()
    };
    let holdout = file
        .holdout
        .map(|h| holdout(h, direction, &mut protect))
        .transpose()?;
    let format = crate::ops::result_format::resolve(
        &flags.result,
        file.format.as_deref(),
        file.pattern.as_deref(),
    )?;
    let paired_seeds = paired_seeds(file.seeds.as_ref())?;
    let objective = Objective {
        format,
        paired_seeds,
        metric,
        direction,
        command,
        shell,
        timeout: flags.timeout.clone().or(file.timeout),
        repeat: flags.repeat.or(file.repeat).unwrap_or(DEFAULT_REPEAT),
        baseline_repeat: flags
            .baseline_repeat
            .or(file.baseline_repeat)
            .unwrap_or(DEFAULT_BASELINE_REPEAT),
        min_effect: flags.min_effect.or(file.min_effect).unwrap_or(0.0),
        confidence: flags
            .confidence
            .or(file.confidence)
            .unwrap_or(DEFAULT_CONFIDENCE),
        checks: if flags.checks.is_empty() {
            file.checks
        } else {
            flags.checks.clone()
        },
        protect,
        notes: file.notes.unwrap_or_else(|| {
            crate::kernel::objective::DEFAULT_NOTES
                .iter()
                .map(|n| n.to_string())
                .collect()
        }),
        inputs: file.inputs,
        max_file_mb: file
            .max_file_mb
            .unwrap_or(crate::kernel::objective::DEFAULT_MAX_FILE_MB),
        stop: StopRules {
            max_runs: flags.max_runs.or(file.stop.max_runs),
            max_discards_in_a_row: flags
                .max_discards_in_a_row
                .or(file.stop.max_discards_in_a_row),
            max_hours: flags.max_hours.or(file.stop.max_hours),
            target: flags.target.or(file.stop.target),
        },
        guards,
        holdout,
        instances: file.instances,
    };
    validate(&objective).map_err(|e| {
        // A held-out setting has no flag and may live outside arx.toml.
        let hint = match e.starts_with("holdout.") {
            true => "set it under [objective.holdout], in arx.toml or the --holdout-config file",
            false => HINT,
        };
        Hinted::error(format!("invalid objective: {e}"), hint)
    })?;
    Ok((objective, file.rule))
}

/// `guards` as written: a list of strings, each a guard that parses.
fn guards(value: Option<&Value>) -> Result<Vec<crate::kernel::guard::Guard>> {
    let texts: Vec<String> = match value {
        None => Vec::new(),
        Some(v) => serde_json::from_value(v.clone()).map_err(|_| {
            Hinted::error(
                format!("invalid [objective] guards: expected a list of strings, got {v}"),
                "guards = [\"peak_vram_gb <= 40\", \"step_time_s <= 1.05 * baseline\"]",
            )
        })?,
    };
    crate::kernel::guard::parse_all(&texts).map_err(|e| {
        Hinted::error(
            format!("invalid [objective] guards: {e}"),
            "a guard is METRIC OP BOUND, OP one of <=, <, >=, >, BOUND a number or one relative to the baseline or the best: `peak_vram_gb <= 40`, `step_time_s <= 1.05 * baseline`",
        )

    })
}

/// The held-out check's settings; its files join `protect`: its own
/// `protect`, and every word of its command that names a relative path (a
/// word with a `/` or a `.` that is not an option or a number, before any
/// redirection or pipe), so no
/// candidate can change the evaluation it is held out by.
fn holdout(h: HoldoutFile, objective: Direction, protect: &mut Vec<String>) -> Result<Holdout> {
    let direction = match h.direction {
        None => objective,
        Some(d) => d.parse().map_err(|e: String| {
            Hinted::error(
                format!("invalid [objective.holdout] direction: {e}"),
                "leave it out to use the objective's direction",
            )
        })?,
    };
    let (command, shell) = match h.command {
        CommandSpec::Line(line) => (vec![line], true),
        CommandSpec::Argv(argv) => (argv, false),
    };
    // Up to a redirection or a pipe: what it writes is not its own file.
    let words = command
        .iter()
        .flat_map(|c| c.split_whitespace())
        .take_while(|w| !w.contains(['>', '|']));
    let files = words
        .map(|w| w.trim_matches(|c| c == '"' || c == '\''))
        .filter(|w| (w.contains('/') || w.contains('.')) && !w.starts_with(['-', '/', '$', '~']))
        .filter(|w| w.parse::<f64>().is_err() && !w.contains(['=', '|', '>', '<', ';', '&']))
        .map(|w| w.trim_start_matches("./").to_string());
    for f in h.protect.into_iter().chain(files) {
        if !f.trim().is_empty() && !protect.contains(&f) {
            protect.push(f);
        }
    }
    Ok(Holdout {
        command,
        shell,
        metric: h.metric,
        direction,
        repeat: h.repeat.unwrap_or(holdout::DEFAULT_REPEAT),
        baseline_repeat: h
            .baseline_repeat
            .unwrap_or(holdout::DEFAULT_BASELINE_REPEAT),
        max_repeat: h.max_repeat.unwrap_or(holdout::DEFAULT_MAX_REPEAT),
        margin: h.margin,
    })
}

/// `[objective] seeds`: absent (no seeds handed to the runs) or
/// `"paired"`; anything else is an error that names the key.
fn paired_seeds(value: Option<&Value>) -> Result<bool> {
    match value {
        None => Ok(false),
        Some(Value::String(s)) if s == "paired" => Ok(true),
        Some(other) => Err(Hinted::error(
            format!("invalid [objective] seeds: {other} (the one value accepted is \"paired\")"),
            "seeds = \"paired\" hands every run a seed (ARX_SEED, {seed}) and pairs a candidate's runs with the best's; leave it out for unseeded runs",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn flags_win_over_the_file() {
        let file = json!({"metric": "val_bpb", "direction": "min", "command": "uv run train.py",
            "repeat": 2, "checks": ["pytest -q"], "stop": {"max_runs": 200, "target": 0.95}});
        let flags = ObjectiveFlags {
            repeat: Some(3),
            target: Some(0.9),
            ..ObjectiveFlags::default()
        };
        let (o, rule) = resolve(&flags, Some(&file)).unwrap();
        assert_eq!(o.metric, "val_bpb");
        assert_eq!(o.direction, Direction::Min);
        assert_eq!(o.command, vec!["uv run train.py".to_string()]);
        assert!(o.shell);
        assert_eq!(o.repeat, 3);
        assert_eq!(o.baseline_repeat, DEFAULT_BASELINE_REPEAT);
        assert_eq!(o.checks, vec!["pytest -q".to_string()]);
        assert_eq!(o.stop.max_runs, Some(200));
        assert_eq!(o.stop.target, Some(0.9));
        assert_eq!(rule, None);
    }

    #[test]
    fn argv_after_the_separator_runs_without_a_shell() {
        let flags = ObjectiveFlags {
            metric: Some("acc".into()),
            direction: Some("max".into()),
            argv: vec!["python".into(), "train.py".into()],
            ..ObjectiveFlags::default()
        };
        let (o, _) = resolve(&flags, None).unwrap();
        assert!(!o.shell);
        assert_eq!(o.command.len(), 2);
    }

    #[test]
    fn missing_and_unknown_keys_are_errors_that_name_them() {
        let err = resolve(&ObjectiveFlags::default(), None).unwrap_err();
        assert!(err.to_string().contains("no metric"), "{err}");
        let file = json!({"metric": "m", "direction": "min", "command": "x", "metrik": 1});
        let err = resolve(&ObjectiveFlags::default(), Some(&file)).unwrap_err();
        assert!(err.to_string().contains("metrik"), "{err}");
        let file = json!({"metric": "m", "direction": "up", "command": "x"});
        let err = resolve(&ObjectiveFlags::default(), Some(&file)).unwrap_err();
        assert!(err.to_string().contains("direction"), "{err}");
        let file = json!({"metric": "m", "direction": "min"});
        let err = resolve(&ObjectiveFlags::default(), Some(&file)).unwrap_err();
        assert!(err.to_string().contains("no command"), "{err}");
        let file = json!({"metric": "m", "direction": "min", "command": "x", "confidence": 2});
        let err = resolve(&ObjectiveFlags::default(), Some(&file)).unwrap_err();
        assert!(err.to_string().contains("confidence"), "{err}");
        for bad in [json!("pairs"), json!(true), json!(1), json!(["paired"])] {
            let file = json!({"metric": "m", "direction": "min", "command": "x", "seeds": bad});
            let err = resolve(&ObjectiveFlags::default(), Some(&file)).unwrap_err();
            assert!(err.to_string().contains("seeds"), "{err}");
        }
        let file = json!({"metric": "m", "direction": "min", "command": "x", "seeds": "paired"});
        assert!(
            resolve(&ObjectiveFlags::default(), Some(&file))
                .unwrap()
                .0
                .paired_seeds
        );
    }

    #[test]
    fn guards_and_the_holdout_are_read_and_its_files_protected() {
        let file = json!({"metric": "loss", "direction": "min", "command": "python train.py",
            "protect": ["prepare.py"], "guards": ["vram <= 40", "step <= 1.05 * best"],
            "holdout": {"command": "python eval/holdout.py --split test 0.5 > out.txt", "metric": "test_loss"}});
        let (o, _) = resolve(&ObjectiveFlags::default(), Some(&file)).unwrap();
        assert_eq!(o.guards.len(), 2);
        assert_eq!(o.guards[1].metric, "step");
        let h = o.holdout.as_ref().unwrap();
        assert_eq!(
            (h.direction, h.repeat, h.baseline_repeat, h.margin),
            (Direction::Min, 3, 5, None)
        );
        assert_eq!(o.protect, vec!["prepare.py", "eval/holdout.py"]);
        let file = json!({"metric": "m", "direction": "min", "command": "x",
            "guards": ["vram <= 40", "step <= 1.05 * bst"]});
        let err = resolve(&ObjectiveFlags::default(), Some(&file)).unwrap_err();
        assert!(
            err.to_string().contains("guards[2]") && err.to_string().contains("column 16"),
            "{err}"
        );
        let file = json!({"metric": "m", "direction": "min", "command": "x",
            "holdout": {"command": "y"}});
        let err = resolve(&ObjectiveFlags::default(), Some(&file)).unwrap_err();
        // The error names the held-out table, whose `metric` is missing,
        // not `[objective]`, which has one.
        assert!(
            err.to_string().contains("invalid [objective.holdout]")
                && err.to_string().contains("metric"),
            "{err}"
        );
    }
}
