//! The text of the `arx.toml` that `arx init` writes: the gates, written
//! out with what each does to an unattended loop, and the `[objective]`
//! table, filled from `arx init`'s flags, every other key commented with
//! its default. Text in, text out.

use super::objective::{DEFAULT_BASELINE_REPEAT, DEFAULT_CONFIDENCE, DEFAULT_REPEAT};

/// What `arx init --metric ... --command ...` sets. Empty: every key of
/// `[objective]` is written commented out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InitObjective {
    pub metric: Option<String>,
    /// `max` or `min`.
    pub direction: Option<String>,
    /// One shell command line.
    pub command: Option<String>,
    pub protect: Vec<String>,
    pub checks: Vec<String>,
    /// How the experiment prints its numbers (`arx`, `summary`, `pi`,
    /// `pattern`).
    pub format: Option<String>,
    /// The regular expression of the format `pattern`.
    pub pattern: Option<String>,
    /// The time limit of one run (`10m`).
    pub timeout: Option<String>,
    /// Declared inputs `arx init` proposes: files the command names that
    /// git ignores (see [`named_paths`]).
    pub inputs: Vec<String>,
}

/// The words of a command line that may name a file the experiment reads:
/// an argument (or the value of `--flag=value`) with a `/` or a `.` in it
/// that is not a number, an option, a URL, an absolute path, a path above
/// the directory, or shell syntax. `python train.py --data data/x.csv`
/// names `train.py` and `data/x.csv`. Cheap, not a shell parser: what it
/// misses is not proposed.
pub fn named_paths(command: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in command.split_whitespace() {
        let word = word.trim_matches(|c| c == '\'' || c == '"');
        let word = match word.split_once('=') {
            Some((flag, value)) if flag.starts_with('-') => value,
            Some(_) => continue,
            None => word,
        };
        let word = word.trim_matches(|c| c == '\'' || c == '"');
        let shell = |c: char| "$`*?|;&<>(){}[]~".contains(c);
        if word.is_empty()
            || word.starts_with('-')
            || word.starts_with('/')
            || word.contains("://")
            || word.contains(shell)
            || word.split('/').any(|part| part == "..")
            || word.parse::<f64>().is_ok()
            || !(word.contains('/') || word.contains('.'))
        {
            continue;
        }
        let word = word.trim_start_matches("./").to_string();
        if !word.is_empty() && !out.contains(&word) {
            out.push(word);
        }
    }
    out
}

impl InitObjective {
    pub fn is_empty(&self) -> bool {
        *self == InitObjective::default()
    }
}

/// A TOML string (quoted and escaped).
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

fn list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| quoted(s)).collect();
    format!("[{}]", quoted.join(", "))
}

/// The `[gates]` table: each gate written out (on, as the reference has
/// them), with what it does for a loop nobody watches.
pub fn gates() -> String {
    "\
# Approval gates. A gate that is on pauses its step until a person approves it
# (`--approve`, or yes at a terminal prompt); `--no-gates` turns every gate off for
# one command. A gate is on unless its value is literally `false`.
[gates]
# Before every experiment run. An unattended loop (an agent, a script, CI) cannot
# approve it: each `arx try` then pauses (exit 1, status `paused`) and changes nothing.
execute = true
# Before writing dead ends and knowhow. An unattended loop pauses there too.
kg_write = true
"
    .to_string()
}

/// The `[objective]` table: the keys `o` sets, then every other key
/// commented out with its default.
pub fn objective(o: &InitObjective) -> String {
    let prints = match o.format.as_deref() {
        Some("summary") => "its closing summary block, `---` then `name: value` lines",
        Some("pi") => "`METRIC name=value` lines",
        Some("pattern") => "lines `pattern` matches, one named group per metric",
        _ => "`__RESULT__ {\"<metric>\": value}`",
    };
    let mut s =
        format!("\n# What `arx try` improves. The experiment prints {prints}.\n[objective]\n");
    let mut key = |set: Option<String>, name: &str, example: &str, what: &str| match set {
        Some(v) => s.push_str(&format!("{name} = {v}\n")),
        None => s.push_str(&format!("# {name} = {example}  # {what}\n")),
    };
    key(
        o.metric.as_deref().map(quoted),
        "metric",
        "\"val_loss\"",
        "the result's key to improve (required)",
    );
    key(
        o.direction.as_deref().map(quoted),
        "direction",
        "\"min\"",
        "\"min\" or \"max\": which way is better (required)",
    );
    key(
        o.command.as_deref().map(quoted),
        "command",
        "\"python train.py\"",
        "the experiment, through /bin/sh -c; or a list of words (required)",
    );
    key(
        (!o.protect.is_empty()).then(|| list(&o.protect)),
        "protect",
        "[\"eval/**\"]",
        "paths no candidate may change (default: none)",
    );
    if !o.inputs.is_empty() {
        let value = format!(
            "{}  # files the command names that git ignores: hashed per run, a candidate \
             measured on others than the best's is not compared",
            list(&o.inputs)
        );
        key(Some(value), "inputs", "", "");
    }
    key(
        (!o.checks.is_empty()).then(|| list(&o.checks)),
        "checks",
        "[\"pytest -q\"]",
        "commands that must exit 0 before a keep (default: none)",
    );
    key(
        o.format.as_deref().map(quoted),
        "format",
        "\"summary\"",
        "how the experiment prints its numbers: arx, summary, pi or pattern (default: arx)",
    );
    if let Some(p) = &o.pattern {
        key(Some(quoted(p)), "pattern", "", "");
    }
    key(
        o.timeout.as_deref().map(quoted),
        "timeout",
        "\"30m\"",
        "time limit of one run (default: none)",
    );
    s.push_str(&format!(
        "\
         # repeat = {DEFAULT_REPEAT}  # runs of each candidate, at least\n\
         # baseline_repeat = {DEFAULT_BASELINE_REPEAT}  # runs of the baseline, which measure the noise\n\
         # min_effect = 0.0  # smallest improvement worth keeping, in metric units\n\
         # confidence = {DEFAULT_CONFIDENCE}  # a change no better than the best is kept 1 - confidence of the time\n\
         # rule = \"sequential\"  # the decision rule: sequential, confirm, strict or mad\n\
         # prune = \"median\"  # end hopeless runs from their __PROGRESS__ lines (default: never)\n\
         # slots = 4  # at most this many experiments at once, or a list of values (default: no limit)\n\
         # slot_env = \"CUDA_VISIBLE_DEVICES\"  # each experiment's slot value goes here\n\
         # launcher = [\"srun\", \"--gres=gpu:1\", \"--\"]  # start every experiment through it\n\
         # guards = [\"peak_vram_gb <= 40\", \"step_time_s <= 1.05 * baseline\"]  # bounds a keep must respect (default: none)\n\
         \n\
         # Stop rules: `arx status` exits 0 once one fires, and the agent stops and\n\
         # reports. Without one the loop never ends by itself: `arx init` writes one.\n\
         [objective.stop]\n\
         max_discards_in_a_row = {DEFAULT_MAX_DISCARDS_IN_A_ROW}  # tries without a keep (docs/ratchet.md: sizing it)\n\
         # max_runs = 200\n\
         # max_hours = 8.0\n\
         # target = 0.95\n\
         \n\
         # A held-out check before every keep; its values go to the operator only.\n\
         # Keep it out of this file, where the agent reads it: in a file of its own\n\
         # outside the repository, named by ARX_HOLDOUT_CONFIG (docs/evidence.md).\n\
         # [objective.holdout]\n\
         # command = \"python eval_holdout.py\"\n\
         # metric = \"test_loss\"\n"
    ));
    s
}

/// The stop rule `arx init` writes: this many tries in a row without a
/// keep end the loop (docs/ratchet.md says how to size it).
pub const DEFAULT_MAX_DISCARDS_IN_A_ROW: u32 = 20;

/// A whole new `arx.toml`.
pub fn config(o: &InitObjective) -> String {
    format!(
        "# arx configuration. Every key: docs/reference/config.md in arx's sources,\n\
         # the page \"Configuration: arx.toml\".\n\n{}{}",
        gates(),
        objective(o)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> toml::Table {
        text.parse::<toml::Table>().expect("valid TOML")
    }

    #[test]
    fn without_flags_every_objective_key_is_commented_and_the_gates_are_written() {
        let text = config(&InitObjective::default());
        let t = parse(&text);
        assert_eq!(t["gates"]["execute"].as_bool(), Some(true));
        assert_eq!(t["gates"]["kg_write"].as_bool(), Some(true));
        // Only the default stop rule is set: the loop can end.
        let objective = t["objective"].as_table().unwrap();
        assert_eq!(objective.keys().collect::<Vec<_>>(), ["stop"], "{text}");
        assert_eq!(
            t["objective"]["stop"]["max_discards_in_a_row"].as_integer(),
            Some(i64::from(DEFAULT_MAX_DISCARDS_IN_A_ROW))
        );
        for key in [
            "metric",
            "direction",
            "command",
            "protect",
            "checks",
            "timeout",
            "repeat",
            "baseline_repeat",
            "min_effect",
            "confidence",
            "rule",
            "prune",
            "slots",
            "slot_env",
            "launcher",
            "guards",
            "max_runs",
            "max_hours",
            "target",
        ] {
            assert!(text.contains(&format!("# {key} = ")), "{key}:\n{text}");
        }
        // Uncommenting every key gives a table arx reads.
        let all: String = text
            .lines()
            .map(|l| {
                l.strip_prefix("# ")
                    .filter(|r| r.contains(" = ") || r.starts_with('['))
                    .unwrap_or(l)
            })
            .collect::<Vec<_>>()
            .join("\n");
        let t = parse(&all);
        assert_eq!(t["objective"]["baseline_repeat"].as_integer(), Some(5));
        assert_eq!(t["objective"]["stop"]["max_runs"].as_integer(), Some(200));
        assert_eq!(
            t["objective"]["holdout"]["metric"].as_str(),
            Some("test_loss")
        );
        assert_eq!(t["objective"]["guards"].as_array().map(Vec::len), Some(2));
    }

    #[test]
    fn the_paths_a_command_names_are_its_file_like_arguments() {
        assert_eq!(named_paths("python train.py"), ["train.py"]);
        assert_eq!(
            named_paths("python train.py --data data/x.csv --lr 0.003 --out=out/ckpt.bin"),
            ["train.py", "data/x.csv", "out/ckpt.bin"]
        );
        assert!(named_paths("sh -c 'cat $F' | tee /tmp/log ../up.txt https://x.org/a").is_empty());
        assert_eq!(
            named_paths("./run.sh './eval/set.txt'"),
            ["run.sh", "eval/set.txt"]
        );
    }

    #[test]
    fn flags_fill_the_objective_quoted() {
        let o = InitObjective {
            metric: Some("val \"bpb\"".into()),
            direction: Some("min".into()),
            command: Some("uv run train.py --tag 'a b'".into()),
            protect: vec!["prepare.py".into(), "eval/**".into()],
            checks: vec!["pytest -q".into()],
            ..InitObjective::default()
        };
        let t = parse(&config(&o));
        let obj = &t["objective"];
        assert_eq!(obj["metric"].as_str(), Some("val \"bpb\""));
        assert_eq!(obj["direction"].as_str(), Some("min"));
        assert_eq!(obj["command"].as_str(), Some("uv run train.py --tag 'a b'"));
        assert_eq!(obj["protect"].as_array().unwrap().len(), 2);
        assert_eq!(obj["checks"][0].as_str(), Some("pytest -q"));
        assert!(obj.get("timeout").is_none());
    }
}
