//! The MCP tools: one entry per tool, each an input struct (its JSON schema
//! is derived from it, its fields named after the command's long flags in
//! snake_case) and the command line it stands for.
//!
//! A tool is a call of this same binary with `--json`, so its result is
//! exactly the command's `--json` output. Adding a tool is one struct, one
//! `impl Tool` and one line in [`table`].

use std::sync::Arc;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Deserialize;

use super::loop_tools;
use crate::kernel::gate::Gate;

/// A JSON object (a tool's schema or arguments).
pub type JsonObject = serde_json::Map<String, serde_json::Value>;

/// What one tool call runs: the arguments after `arx`, and what goes in.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Call {
    /// The subcommand and its flags (`--json` and the server's global flags
    /// are added by the server).
    pub args: Vec<String>,
    /// Text for the command's standard input (none: an empty input).
    pub stdin: Option<String>,
    /// The command takes `--events PATH`; the server follows that file
    /// and reports each event as a progress notification.
    pub events: bool,
    /// The command prints text, not `--json` (`report --markdown`): the
    /// result is that text, and in structured content under this key.
    pub text_key: Option<&'static str>,
    /// The gate the command passes (`execute` before an experiment,
    /// `kg_write` before a dead end is written): only the operator (`arx
    /// mcp --approve`) or the person, asked through the client, can
    /// approve it, never the caller.
    pub gate: Option<Gate>,
    /// The experiment a `run` call runs (its words, and whether through
    /// the shell): it runs only when it is the objective's command or one
    /// `[mcp] commands` lists, or when the person approves it.
    pub command: Option<(Vec<String>, bool)>,
}

/// The list key of a tool that is no listing.
pub const ITEMS: &str = "items";

/// How many items a listing tool returns unless asked for more.
pub const DEFAULT_LIMIT: usize = 20;

/// How a command line is built from a tool's arguments.
pub struct Argv(Vec<String>);

impl Argv {
    pub fn new(words: &[&str]) -> Self {
        Argv(words.iter().map(|w| w.to_string()).collect())
    }

    pub fn opt(mut self, flag: &str, value: Option<impl ToString>) -> Self {
        if let Some(v) = value {
            self.0.push(format!("{flag}={}", v.to_string()));
        }
        self
    }

    pub fn flag(mut self, flag: &str, on: bool) -> Self {
        if on {
            self.0.push(flag.to_string());
        }
        self
    }

    pub fn many(mut self, flag: &str, values: &[String]) -> Self {
        for v in values {
            self.0.push(format!("{flag}={v}"));
        }
        self
    }

    /// Positional words after `--`, so none is read as a flag.
    pub fn rest(mut self, words: &[String]) -> Self {
        self.0.push("--".into());
        self.0.extend(words.iter().cloned());
        self
    }

    pub fn call(self) -> Call {
        Call {
            args: self.0,
            ..Call::default()
        }
    }
}

/// A tool: its name, what it does, and the command line of a call.
pub trait Tool: DeserializeOwned + JsonSchema + 'static {
    const NAME: &'static str;
    const DESCRIPTION: &'static str;
    /// The key under which a command that prints a list (NDJSON or an
    /// array) puts it in the structured result, which must be an object.
    const LIST_KEY: &'static str = ITEMS;
    /// The tool changes nothing (MCP `readOnlyHint`).
    const READ_ONLY: bool = true;
    /// The tool may undo or overwrite work (MCP `destructiveHint`; only
    /// meaningful when not read-only).
    const DESTRUCTIVE: bool = false;
    /// The JSON schema of the structured result (an object; properties
    /// the result always or often has, others allowed).
    fn output_schema() -> serde_json::Value {
        serde_json::json!({"type": "object"})
    }
    /// Arguments the schema cannot say are wrong (a message naming the
    /// fields), checked before anything runs or anyone is asked.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
    fn call(self) -> Call;
}

/// One row of the tool table.
pub struct Entry {
    pub name: &'static str,
    pub description: &'static str,
    pub list_key: &'static str,
    pub read_only: bool,
    pub destructive: bool,
    pub schema: fn() -> Arc<JsonObject>,
    pub output_schema: fn() -> Arc<JsonObject>,
    pub parse: fn(serde_json::Value) -> Result<Call, String>,
}

fn schema<T: JsonSchema>() -> Arc<JsonObject> {
    let settings = schemars::generate::SchemaSettings::draft2020_12();
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut object = match serde_json::to_value(schema) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => JsonObject::new(),
    };
    object.remove("$schema");
    object.remove("title");
    Arc::new(object)
}

fn output_schema<T: Tool>() -> Arc<JsonObject> {
    match T::output_schema() {
        serde_json::Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

fn parse<T: Tool>(arguments: serde_json::Value) -> Result<Call, String> {
    let arguments = match arguments {
        serde_json::Value::Null => serde_json::Value::Object(JsonObject::new()),
        other => other,
    };
    let tool = serde_json::from_value::<T>(arguments)
        .map_err(|e| format!("invalid arguments for `{}`: {e}", T::NAME))?;
    tool.check()
        .map_err(|e| format!("invalid arguments for `{}`: {e}", T::NAME))?;
    Ok(tool.call())
}

fn entry<T: Tool>() -> Entry {
    Entry {
        name: T::NAME,
        description: T::DESCRIPTION,
        list_key: T::LIST_KEY,
        read_only: T::READ_ONLY,
        destructive: T::DESTRUCTIVE,
        schema: schema::<T>,
        output_schema: output_schema::<T>,
        parse: parse::<T>,
    }
}

/// Every tool the server offers.
pub fn table() -> Vec<Entry> {
    vec![
        entry::<Try>(),
        entry::<Best>(),
        entry::<Status>(),
        entry::<Log>(),
        entry::<Measure>(),
        entry::<Run>(),
        entry::<Next>(),
        entry::<loop_tools::DeadendCheck>(),
        entry::<loop_tools::FindingRank>(),
        entry::<loop_tools::Report>(),
        entry::<IdeaAdd>(),
        entry::<IdeaList>(),
        entry::<IdeaDrop>(),
        entry::<loop_tools::Restore>(),
        entry::<loop_tools::Show>(),
        entry::<loop_tools::LaneAdd>(),
        entry::<loop_tools::LaneList>(),
        entry::<loop_tools::LaneSync>(),
        entry::<loop_tools::JournalImport>(),
        entry::<loop_tools::FindingList>(),
        entry::<loop_tools::DeadendAdd>(),
        entry::<loop_tools::JournalVerify>(),
        entry::<loop_tools::Ps>(),
        entry::<loop_tools::ReportWrite>(),
    ]
}

/// `arx try`: one ratchet iteration.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Try {
    /// What the change is: the journal's description, the commit subject
    /// (default with `idea`: the idea's statement).
    pub description: Option<String>,
    /// The idea of the backlog this try tests (its id, as `idea_add` and
    /// `idea_list` give it): recorded with the try.
    pub idea: Option<String>,
    /// The family of the change (one word); with `description` and no
    /// `idea`, the try adds its description to the backlog as an idea of
    /// this family.
    pub family: Option<String>,
    /// The experiment, run through /bin/sh -c (default: arx.toml's objective.command).
    pub command: Option<String>,
    /// Runs of the candidate, at least.
    pub repeat: Option<u32>,
    /// Say what would be run, kept or restored; change nothing.
    #[serde(default)]
    pub dry_run: bool,
    /// The decision rule: confirm, strict or mad.
    pub rule: Option<String>,
    /// Start a new segment: measure the baseline again.
    #[serde(default)]
    pub new_segment: bool,
    /// The lane to try in (`arx lane list` names them); default: the
    /// server's working directory.
    pub lane: Option<String>,
    /// The metric to improve (default: arx.toml's).
    pub metric: Option<String>,
    /// max or min (default: arx.toml's).
    pub direction: Option<String>,
    /// Time limit per run, e.g. 90s, 15m, 2h.
    pub timeout: Option<String>,
    /// Smallest improvement worth keeping, in metric units.
    pub min_effect: Option<f64>,
    /// Commands that must exit 0 before a keep.
    #[serde(default)]
    pub check: Vec<String>,
    /// Paths no candidate may change (gitignore-style globs).
    #[serde(default)]
    pub protect: Vec<String>,
    /// Try `idea` again although it was discarded at this parent already
    /// (without it such a try is refused: `refused: a repeat`); needs
    /// `because`.
    #[serde(default)]
    pub retry: bool,
    /// With `retry`: what changed since the idea was tried.
    pub because: Option<String>,
}

impl Tool for Try {
    const NAME: &'static str = "try";
    const DESCRIPTION: &'static str = "One iteration of the keep-if-better ratchet (`arx try`): run the candidate (what changed since the last kept commit), keep it as a commit when it beats the best beyond the noise, otherwise set it aside and undo it. The result's first line is the outcome and the next step; `_meta.exit_code` is 0 keep, baseline or config_change; 1 every discard (`discard`, `discard (inconclusive)`, protected, checks_failed, guard, holdout, pruned, stale, already_in_best), a refusal (`refused: a repeat`: an idea discarded at this parent; call again with `retry` and `because`) or a pause (`paused: declined`, `paused: cancelled`, `paused: no person to ask`: stop and tell the person); 3 only crash or interrupted. The record is the structured content.";
    const READ_ONLY: bool = false;
    const DESTRUCTIVE: bool = true;
    fn output_schema() -> serde_json::Value {
        serde_json::json!({
            "type": "object",
            "properties": {
                "outcome": {"type": "string", "description": "the outcome (the line's first words): keep, discard, discard (inconclusive), crash, paused: declined, ..."},
                "exit": {"type": "integer", "description": "arx's exit code (as _meta.exit_code)"},
                "line": {"type": "string", "description": "what happened, in one line"},
                "next": {"type": "string", "description": "what to do next"},
                "ratchet": {"type": "object", "description": "the ratchet's record: status, best, improvement, noise, ..."},
                "run_id": {"type": "string"}
            }
        })
    }
    fn check(&self) -> Result<(), String> {
        match (self.retry, &self.because, &self.idea) {
            (true, None, _) => {
                Err("`retry` needs `because`: what changed since the idea was tried".into())
            }
            (false, Some(_), _) => {
                Err("`because` is the reason of a `retry`: set `retry` true".into())
            }
            (true, Some(_), None) => {
                Err("`retry` needs `idea`: the id of the idea tried before".into())
            }
            _ => Ok(()),
        }
    }
    fn call(self) -> Call {
        let mut call = Argv::new(&["try"])
            .opt("--description", self.description)
            .opt("--idea", self.idea)
            .opt("--family", self.family)
            .opt("--command", self.command)
            .opt("--repeat", self.repeat)
            .flag("--dry-run", self.dry_run)
            .opt("--rule", self.rule)
            .flag("--new-segment", self.new_segment)
            .opt("--lane", self.lane)
            .opt("--metric", self.metric)
            .opt("--direction", self.direction)
            .opt("--timeout", self.timeout)
            .opt("--min-effect", self.min_effect)
            .many("--check", &self.check)
            .many("--protect", &self.protect)
            .flag("--no-repeat", !self.dry_run)
            .flag("--retry", self.retry)
            .opt("--because", self.because)
            .call();
        call.events = true;
        call.gate = (!self.dry_run).then_some(Gate::Execute);
        call
    }
}

/// `arx best`: the objective's flags that pick the ratchet's segment.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Best {
    /// The metric (default: arx.toml's objective).
    pub metric: Option<String>,
    /// max or min (default: arx.toml's objective).
    pub direction: Option<String>,
}

impl Tool for Best {
    const NAME: &'static str = "best";
    const DESCRIPTION: &'static str = "The best kept run of the ratchet's segment (`arx best`): value, confidence interval, commit, description. `_meta.exit_code` is 1 before any baseline (call try to measure it).";
    fn call(self) -> Call {
        Argv::new(&["best"])
            .opt("--metric", self.metric)
            .opt("--direction", self.direction)
            .call()
    }
}

/// `arx status`: the objective's flags that pick the ratchet's segment.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Status {
    /// The metric (default: arx.toml's objective).
    pub metric: Option<String>,
    /// max or min (default: arx.toml's objective).
    pub direction: Option<String>,
}

impl Tool for Status {
    const NAME: &'static str = "status";
    const DESCRIPTION: &'static str = "The ratchet's state and the stop advice (`arx status`): tries, kept, discarded, best, and whether a stop rule fired. `_meta.exit_code` is 0 when the loop should stop (a stop rule fired: make no further change, tell the person why, the best and what was tried), 1 to go on. A `metric` the journal has no segment of is an error naming those it has.";
    fn call(self) -> Call {
        Argv::new(&["status"])
            .opt("--metric", self.metric)
            .opt("--direction", self.direction)
            .call()
    }
}

/// `arx log`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Log {
    /// Only the N most recent runs (default 20).
    #[serde(alias = "last")]
    pub limit: Option<usize>,
    /// Only runs of this candidate.
    pub candidate: Option<String>,
}

impl Tool for Log {
    const NAME: &'static str = "log";
    const DESCRIPTION: &'static str = "Journaled runs, newest last (`arx log`): the last 20 unless `limit`, under `runs`; `show` gives one run in full.";
    const LIST_KEY: &'static str = "runs";
    fn output_schema() -> serde_json::Value {
        serde_json::json!({"type": "object", "properties": {"runs": {"type": "array"}}})
    }
    fn call(self) -> Call {
        Argv::new(&["log"])
            .opt("--limit", Some(self.limit.unwrap_or(DEFAULT_LIMIT)))
            .opt("--candidate", self.candidate)
            .call()
    }
}

/// `arx measure`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Measure {
    /// Metric key.
    pub metric: Option<String>,
    /// Comparator: >=, >, <=, <, ==.
    pub cmp: Option<String>,
    /// Target value.
    pub target: Option<f64>,
    /// Metric spec file, TOML or JSON.
    pub spec: Option<String>,
    /// Exit code of the experiment.
    pub exit_code: Option<i64>,
    /// File holding the experiment's stderr, classified into a failure class.
    pub stderr: Option<String>,
    /// Failure class when stderr is not at hand: H2, H3, H4 or none.
    pub failure_class: Option<String>,
    /// The run timed out.
    #[serde(default)]
    pub timed_out: bool,
    /// File holding the experiment's stdout.
    pub file: Option<String>,
    /// The experiment's stdout as text (instead of `file`).
    pub input: Option<String>,
}

impl Tool for Measure {
    const NAME: &'static str = "measure";
    const DESCRIPTION: &'static str = "The verdict of an experiment's output against a metric spec (`arx measure`): supported, refuted or inconclusive. Give the output as `file` or as `input` text.";
    fn call(self) -> Call {
        let mut argv = Argv::new(&["measure"])
            .opt("--metric", self.metric)
            .opt("--cmp", self.cmp)
            .opt("--target", self.target)
            .opt("--spec", self.spec)
            .opt("--exit-code", self.exit_code)
            .opt("--stderr", self.stderr)
            .opt("--failure-class", self.failure_class)
            .flag("--timed-out", self.timed_out);
        if let Some(file) = self.file {
            argv = argv.rest(&[file]);
        }
        let mut call = argv.call();
        call.stdin = self.input;
        call
    }
}

/// `arx run`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// The experiment command and its arguments.
    pub command: Vec<String>,
    /// Run the command through /bin/sh -c (give it as one string).
    #[serde(default)]
    pub shell: bool,
    /// Metric key.
    pub metric: Option<String>,
    /// Comparator: >=, >, <=, <, ==.
    pub cmp: Option<String>,
    /// Target value.
    pub target: Option<f64>,
    /// Metric spec file, TOML or JSON.
    pub spec: Option<String>,
    /// The hypothesis this run tests.
    pub hypothesis: Option<String>,
    /// Name of the candidate experiment.
    pub candidate: Option<String>,
    /// Tags for the journal.
    #[serde(default)]
    pub tag: Vec<String>,
    /// Time limit, e.g. 90s, 15m, 2h.
    pub timeout: Option<String>,
    /// Run N times and judge the mean with a confidence interval.
    pub repeat: Option<u32>,
    /// Confidence level of the interval (with repeat).
    pub confidence: Option<f64>,
    /// Run even when the hypothesis is a known dead end.
    #[serde(default)]
    pub force: bool,
    /// Record a deterministic refutation in the dead-end registry.
    #[serde(default)]
    pub promote: bool,
    /// End the experiment once its result line is in.
    #[serde(default)]
    pub stop_on_result: bool,
    /// Do not write the journal.
    #[serde(default)]
    pub no_journal: bool,
}

impl Tool for Run {
    const NAME: &'static str = "run";
    const DESCRIPTION: &'static str = "Run an experiment (`arx run`): gate, verdict against the metric spec, journal. It runs the objective's command or one the operator lists (`[mcp] commands`); any other command runs only when the person approves it. `_meta.exit_code` is 0 supported, 1 refuted (or paused at the gate, or a known dead end), 3 inconclusive.";
    const READ_ONLY: bool = false;
    fn call(self) -> Call {
        let mut call = Argv::new(&["run"])
            .flag("--shell", self.shell)
            .opt("--metric", self.metric)
            .opt("--cmp", self.cmp)
            .opt("--target", self.target)
            .opt("--spec", self.spec)
            .opt("--hypothesis", self.hypothesis)
            .opt("--candidate", self.candidate)
            .many("--tag", &self.tag)
            .opt("--timeout", self.timeout)
            .opt("--repeat", self.repeat)
            .opt("--confidence", self.confidence)
            .flag("--force", self.force)
            .flag("--promote", self.promote)
            .flag("--stop-on-result", self.stop_on_result)
            .flag("--no-journal", self.no_journal)
            .rest(&self.command)
            .call();
        call.events = true;
        call.gate = Some(Gate::Execute);
        call.command = Some((self.command, self.shell));
        call
    }
}

/// `arx next`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Next {
    /// Candidates file: TOML `[[candidate]]` tables or a JSON array.
    /// Without it, the open ideas of the backlog are ranked.
    pub candidates: Option<String>,
    /// The lane asking (ideas only): never given an idea in flight in
    /// another lane.
    pub lane: Option<String>,
    /// Seed of the pick.
    pub seed: Option<u64>,
    /// Selection temperature.
    pub temperature: Option<f64>,
    /// Model of expected free energy: lrs or aif (with candidates).
    pub model: Option<String>,
    /// Take the lowest expected free energy instead of sampling.
    #[serde(default)]
    pub greedy: bool,
    /// Say what the scores mean (`legend`, beside every idea's scores).
    #[serde(default)]
    pub explain: bool,
}

impl Tool for Next {
    const NAME: &'static str = "next";
    const DESCRIPTION: &'static str = "The next idea to try (`arx next`): the backlog's open ideas ranked from the ratchet's record, the chosen id in `idea`, with its statement, family and scores; ideas already discarded at the same parent or in flight in another lane are left out, with the reason. With `candidates`, picks among the candidates of a file by expected free energy instead. With `explain`, `legend` says what each score means. `_meta.exit_code` is 1 when nothing is left (add ideas with `idea_add`).";
    // It marks the idea it gives as in flight.
    const READ_ONLY: bool = false;
    fn call(self) -> Call {
        Argv::new(&["next"])
            .opt("--candidates", self.candidates)
            .opt("--lane", self.lane)
            .opt("--seed", self.seed)
            .opt("--temperature", self.temperature)
            .opt("--model", self.model)
            .flag("--greedy", self.greedy)
            .flag("--explain", self.explain)
            .call()
    }
}

/// `arx idea add`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IdeaAdd {
    /// The idea: one change, in words (at most 4 KiB); with `retry`, the
    /// retried idea's statement by default.
    pub statement: Option<String>,
    /// Its family: one word, e.g. lr, batch, init (default: the family of
    /// the most similar idea, or `unsorted`).
    pub family: Option<String>,
    /// An idea tried before to try again (its id); needs `because`.
    pub retry: Option<String>,
    /// With `retry`: what changed since it was tried.
    pub because: Option<String>,
}

impl Tool for IdeaAdd {
    const NAME: &'static str = "idea_add";
    const DESCRIPTION: &'static str = "Add an idea to the backlog (`arx idea add`), which outlives the agent's context: write each idea down as it comes. The result is the idea with its `id`, which `try` takes as `idea`; a warning says when the same idea was tried already.";
    const READ_ONLY: bool = false;
    fn call(self) -> Call {
        let argv = Argv::new(&["idea", "add"])
            .opt("--family", self.family)
            .opt("--retry", self.retry)
            .opt("--because", self.because);
        match self.statement {
            Some(s) => argv.rest(&[s]).call(),
            None => argv.call(),
        }
    }
}

/// `arx idea list`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IdeaList {
    /// Only ideas with this status: open, in_flight, tried or dropped.
    pub status: Option<String>,
    /// Only ideas of this family.
    pub family: Option<String>,
    /// The last N ideas (default 20).
    pub limit: Option<usize>,
}

impl Tool for IdeaList {
    const NAME: &'static str = "idea_list";
    const DESCRIPTION: &'static str = "The backlog of ideas (`arx idea list`), oldest first, the last 20 unless `limit`: each idea's id, statement, family and status (open, in_flight in a lane, tried with each try's run id and outcome, dropped), under `ideas`.";
    const LIST_KEY: &'static str = "ideas";
    fn output_schema() -> serde_json::Value {
        serde_json::json!({"type": "object", "properties": {"ideas": {"type": "array"}}})
    }
    fn call(self) -> Call {
        Argv::new(&["idea", "list"])
            .opt("--status", self.status)
            .opt("--family", self.family)
            .opt("--limit", Some(self.limit.unwrap_or(DEFAULT_LIMIT)))
            .call()
    }
}

/// `arx idea drop`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IdeaDrop {
    /// The idea's id.
    pub id: String,
    /// Why it is dropped.
    pub reason: Option<String>,
}

impl Tool for IdeaDrop {
    const NAME: &'static str = "idea_drop";
    const DESCRIPTION: &'static str = "Drop an idea of the backlog (`arx idea drop`): no longer proposed; its tries stay in the journal.";
    const READ_ONLY: bool = false;
    const DESTRUCTIVE: bool = true;
    fn call(self) -> Call {
        Argv::new(&["idea", "drop"])
            .opt("--reason", self.reason)
            .rest(&[self.id])
            .call()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(name: &str, args: serde_json::Value) -> Result<Call, String> {
        let table = table();
        let entry = table.iter().find(|e| e.name == name).unwrap();
        (entry.parse)(args)
    }

    #[test]
    fn try_maps_its_fields_to_the_long_flags() {
        let c = call(
            "try",
            json!({"description": "x", "command": "sh -c 'echo'", "repeat": 2, "dry_run": true, "lane": "a"}),
        )
        .unwrap();
        assert_eq!(
            c.args,
            [
                "try",
                "--description=x",
                "--command=sh -c 'echo'",
                "--repeat=2",
                "--dry-run",
                "--lane=a"
            ]
        );
        assert!(c.events);
    }

    #[test]
    fn a_value_that_looks_like_a_flag_stays_a_value() {
        let c = call("deadend_check", json!({"statement": "--force"})).unwrap();
        assert_eq!(c.args, ["deadend", "check", "--", "--force"]);
        let c = call("try", json!({"description": "-m"})).unwrap();
        assert_eq!(c.args, ["try", "--description=-m", "--no-repeat"]);
    }

    #[test]
    fn finding_rank_takes_a_context() {
        let c = call(
            "finding_rank",
            json!({"context": "raise the lr", "limit": 3}),
        )
        .unwrap();
        assert_eq!(
            c.args,
            ["finding", "rank", "--context=raise the lr", "--limit=3"]
        );
        assert!(call("finding_rank", json!({})).is_err());
    }

    #[test]
    fn report_is_markdown_text() {
        let c = call("report", json!({"segment": "all", "last": 5})).unwrap();
        assert_eq!(
            c.args,
            ["report", "--markdown", "--segment=all", "--last=5"]
        );
        assert_eq!(c.text_key, Some("markdown"));
    }

    #[test]
    fn log_takes_a_limit_of_20_by_default() {
        let c = call("log", json!({"limit": 3})).unwrap();
        assert_eq!(c.args, ["log", "--limit=3"]);
        let c = call("log", json!({"last": 3})).unwrap();
        assert_eq!(c.args, ["log", "--limit=3"], "`last` is the old name");
        let c = call("log", json!(null)).unwrap();
        assert_eq!(c.args, ["log", "--limit=20"]);
        let c = call("idea_list", json!({})).unwrap();
        assert_eq!(c.args, ["idea", "list", "--limit=20"]);
    }

    #[test]
    fn a_try_refuses_a_repeat_unless_retried_with_a_reason() {
        let c = call("try", json!({"idea": "i-1"})).unwrap();
        assert_eq!(c.args, ["try", "--idea=i-1", "--no-repeat"]);
        let c = call("try", json!({"idea": "i-1", "retry": true, "because": "b"})).unwrap();
        assert_eq!(
            c.args,
            ["try", "--idea=i-1", "--no-repeat", "--retry", "--because=b"]
        );
        let e = call("try", json!({"idea": "i-1", "retry": true})).unwrap_err();
        assert!(e.contains("`retry` needs `because`"), "{e}");
        assert!(call("try", json!({"because": "b"})).is_err());
        assert!(call("try", json!({"retry": true, "because": "b"})).is_err());
    }

    #[test]
    fn every_tool_has_annotations_and_an_object_output_schema() {
        for e in table() {
            assert_eq!(
                (e.output_schema)().get("type"),
                Some(&json!("object")),
                "{}",
                e.name
            );
        }
        let find = |n: &str| table().into_iter().find(|e| e.name == n).unwrap();
        assert!(find("status").read_only && !find("try").read_only);
        assert!(find("try").destructive && !find("idea_add").destructive);
    }

    #[test]
    fn unknown_and_mistyped_arguments_are_refused() {
        let e = call("log", json!({"lmit": 3})).unwrap_err();
        assert!(e.contains("lmit"), "{e}");
        assert!(call("try", json!({"repeat": "two"})).is_err());
        assert!(call("deadend_check", json!({})).is_err());
        assert!(call("best", json!({"metrc": "acc"})).is_err());
    }

    #[test]
    fn every_schema_is_an_object_with_snake_case_properties() {
        for e in table() {
            let s = (e.schema)();
            assert_eq!(s.get("type"), Some(&json!("object")), "{}", e.name);
            let props = s.get("properties").and_then(|p| p.as_object());
            for key in props.into_iter().flat_map(|p| p.keys()) {
                assert!(
                    key.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                    "{}: {key}",
                    e.name
                );
            }
        }
        let s = (table()[0].schema)();
        let props = s["properties"].as_object().unwrap();
        for key in ["description", "command", "repeat", "dry_run"] {
            assert!(props.contains_key(key), "{key}");
        }
    }

    #[test]
    fn measure_passes_its_input_on_stdin() {
        let c = call("measure", json!({"metric": "acc", "cmp": ">=", "target": 0.5, "input": "__RESULT__ {\"acc\": 1}"})).unwrap();
        assert_eq!(c.stdin.as_deref(), Some("__RESULT__ {\"acc\": 1}"));
        assert_eq!(
            c.args,
            ["measure", "--metric=acc", "--cmp=>=", "--target=0.5"]
        );
    }
}
