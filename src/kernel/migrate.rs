//! `arx init --from karpathy|pi|codex`: what another loop's repository
//! says about its objective, read from its files, made into arx's
//! settings, the lines `.gitignore` needs and where that loop's agent
//! reads its instructions. Text in, values out: the command reads the
//! files ([`Loop::files`]) and writes what comes back.

use std::collections::BTreeMap;

use serde_json::Value;

use super::config_text::InitObjective;

/// The loop a repository was set up for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loop {
    Karpathy,
    Pi,
    Codex,
}

/// Where codex-autoresearch keeps its files when not at the root.
pub const CODEX_DIR: &str = "autoresearch-results";

impl Loop {
    pub fn name(self) -> &'static str {
        match self {
            Loop::Karpathy => "karpathy",
            Loop::Pi => "pi",
            Loop::Codex => "codex",
        }
    }

    /// The files this loop's repository may hold that the migration
    /// reads, relative to its root.
    pub fn files(self) -> &'static [&'static str] {
        match self {
            Loop::Karpathy => &[
                "train.py",
                "prepare.py",
                "program.md",
                "results.tsv",
                "pyproject.toml",
                "uv.lock",
            ],
            Loop::Pi => &[
                "autoresearch.sh",
                "autoresearch.checks.sh",
                "autoresearch.jsonl",
                ".auto/log.jsonl",
                "autoresearch.md",
            ],
            Loop::Codex => &[
                "results.tsv",
                "state.json",
                "autoresearch-results/results.tsv",
                "autoresearch-results/state.json",
                "AGENTS.md",
            ],
        }
    }
}

/// What the migration found and decided.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Migration {
    pub objective: InitObjective,
    /// Paths for `.gitignore`: the loop's own output files, which would
    /// otherwise be taken as part of every change.
    pub ignore: Vec<String>,
    /// The night's file to import, relative to the root.
    pub night: Option<String>,
    /// The file the loop's agent reads its instructions from.
    pub agent_file: String,
    /// That file's text with the loop's own keep/discard mechanics taken
    /// out (arx's section goes in their place); `None`: arx's section is
    /// merged into the file as it is (or a new file).
    pub agent_text: Option<String>,
    /// What was decided and from what, one line each.
    pub notes: Vec<String>,
}

/// Why a repository cannot be migrated.
#[derive(Debug, Clone, PartialEq)]
pub struct NotThatLoop {
    pub message: String,
    pub hint: String,
}

/// Metric names that improve upward, when nothing else says which way.
const HIGHER: [&str; 12] = [
    "acc",
    "accuracy",
    "auc",
    "roc_auc",
    "f1",
    "score",
    "reward",
    "bleu",
    "rouge",
    "map",
    "precision",
    "recall",
];

/// Which way `metric` improves by its name alone.
fn direction_by_name(metric: &str) -> &'static str {
    let m = metric.to_lowercase();
    let higher = HIGHER
        .iter()
        .any(|h| m == *h || m.ends_with(&format!("_{h}")) || m.starts_with(&format!("{h}_")));
    if higher {
        "max"
    } else {
        "min"
    }
}

/// Read the repository of `from`; `files` maps the paths of
/// [`Loop::files`] that exist to their text.
pub fn migrate(from: Loop, files: &BTreeMap<String, String>) -> Result<Migration, NotThatLoop> {
    match from {
        Loop::Karpathy => karpathy(files),
        Loop::Pi => pi(files),
        Loop::Codex => codex(files),
    }
}

fn missing(from: Loop, what: &str) -> NotThatLoop {
    NotThatLoop {
        message: format!("this is not a {} loop's repository: no {what}", from.name()),
        hint: "run arx init --from in the loop's repository root, or arx init --metric M --direction D --command CMD".into(),
    }
}

fn karpathy(files: &BTreeMap<String, String>) -> Result<Migration, NotThatLoop> {
    if !files.contains_key("train.py") {
        return Err(missing(Loop::Karpathy, "train.py"));
    }
    let mut notes = Vec::new();
    let header = files
        .get("results.tsv")
        .and_then(|t| t.lines().next())
        .filter(|h| h.starts_with("commit\t"));
    let metric = header
        .and_then(|h| h.split('\t').nth(1))
        .filter(|m| !m.trim().is_empty())
        .map(|m| m.trim().to_string());
    let metric = match metric {
        Some(m) => {
            notes.push(format!("metric {m}: the second column of results.tsv"));
            m
        }
        None => {
            notes.push("metric val_bpb: karpathy's train.py prints it".into());
            "val_bpb".to_string()
        }
    };
    let program = files.get("program.md").map(String::as_str).unwrap_or("");
    let direction = match said_direction(program) {
        Some(d) => {
            notes.push(format!(
                "direction {d}: program.md says which way is better"
            ));
            d
        }
        None => {
            let d = direction_by_name(&metric);
            notes.push(format!("direction {d}: by the metric's name"));
            d
        }
    };
    let uv = files.contains_key("pyproject.toml") || files.contains_key("uv.lock");
    let command = if uv {
        "uv run train.py"
    } else {
        "python3 train.py"
    };
    let protect: Vec<String> = ["prepare.py", "pyproject.toml", "uv.lock"]
        .iter()
        .filter(|p| files.contains_key(**p))
        .map(|p| p.to_string())
        .collect();
    if !protect.is_empty() {
        notes.push(format!(
            "protected {}: the loop lets its agent change train.py only",
            protect.join(", ")
        ));
    }
    let agent_text = files.get("program.md").map(|t| without_mechanics(t));
    Ok(Migration {
        objective: InitObjective {
            metric: Some(metric),
            direction: Some(direction.into()),
            command: Some(command.into()),
            protect,
            checks: Vec::new(),
            format: Some("summary".into()),
            pattern: None,
            timeout: Some("10m".into()),
            inputs: Vec::new(),
        },
        ignore: vec!["run.log".into(), "results.tsv".into()],
        night: has_rows(files, "results.tsv").then(|| "results.tsv".into()),
        agent_file: "program.md".into(),
        agent_text,
        notes,
    })
}

/// `lower is better` / `higher is better` (or `lowest` / `highest`) in
/// the loop's instructions.
fn said_direction(text: &str) -> Option<&'static str> {
    let t = text.to_lowercase();
    let lower = ["lower is better", "lowest", "minimi"]
        .iter()
        .any(|w| t.contains(w));
    let higher = ["higher is better", "highest", "maximi"]
        .iter()
        .any(|w| t.contains(w));
    match (lower, higher) {
        (true, false) => Some("min"),
        (false, true) => Some("max"),
        _ => None,
    }
}

/// The file has a line after its header (or its comment lines).
fn has_rows(files: &BTreeMap<String, String>, path: &str) -> bool {
    files.get(path).is_some_and(|t| {
        t.lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count()
            >= 2
    })
}

/// Headings of the sections that describe a loop's own mechanics (how
/// it logs, keeps and discards), which arx's section replaces.
const MECHANICS: [&str; 6] = [
    "loop",
    "logging",
    "results",
    "output format",
    "keep",
    "discard",
];

/// `program.md` without its mechanics: every `## ` section whose heading
/// names the loop, its logging, its results or its output format is
/// left out (arx's section takes their place); the task's text stays as
/// written.
pub fn without_mechanics(text: &str) -> String {
    let mut out = String::new();
    let mut dropping = false;
    for line in text.split_inclusive('\n') {
        if let Some(heading) = line.strip_prefix("## ") {
            let h = heading.trim().to_lowercase();
            dropping = MECHANICS.iter().any(|m| h.contains(m));
        } else if line.starts_with("# ") {
            dropping = false;
        }
        if !dropping {
            out.push_str(line);
        }
    }
    out
}

fn pi(files: &BTreeMap<String, String>) -> Result<Migration, NotThatLoop> {
    if !files.contains_key("autoresearch.sh") {
        return Err(missing(Loop::Pi, "autoresearch.sh"));
    }
    let mut notes = Vec::new();
    let log = ["autoresearch.jsonl", ".auto/log.jsonl"]
        .into_iter()
        .find(|p| files.contains_key(*p));
    // The last configuration line: a night that re-initialised goes on
    // with its newest metric.
    let config = log.and_then(|p| {
        files[p]
            .lines()
            .rev()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|o| o.get("type").and_then(Value::as_str) == Some("config"))
    });
    let metric = config
        .as_ref()
        .and_then(|c| c.get("metricName")?.as_str())
        .filter(|m| !m.trim().is_empty())
        .map(str::to_string);
    let (metric, direction) = match (metric, log) {
        (Some(m), Some(p)) => {
            let d = match config.as_ref().and_then(|c| c.get("bestDirection")?.as_str()) {
                Some("higher") => "max",
                Some("lower") => "min",
                _ => direction_by_name(&m),
            };
            notes.push(format!("metric {m}, direction {d}: the configuration line of {p}"));
            (m, d)
        }
        _ => {
            return Err(NotThatLoop {
                message: "pi's log (autoresearch.jsonl or .auto/log.jsonl) names no metric".into(),
                hint: "run pi's loop once, or arx init --format pi --metric M --direction D --command ./autoresearch.sh".into(),
            })
        }
    };
    let checks: Vec<String> = files
        .contains_key("autoresearch.checks.sh")
        .then(|| "bash autoresearch.checks.sh".to_string())
        .into_iter()
        .collect();
    let protect: Vec<String> = ["autoresearch.sh", "autoresearch.checks.sh"]
        .iter()
        .filter(|p| files.contains_key(**p))
        .map(|p| p.to_string())
        .collect();
    notes.push(format!(
        "protected {}: the benchmark a candidate is measured with",
        protect.join(", ")
    ));
    let agent_file = if files.contains_key("autoresearch.md") {
        "autoresearch.md"
    } else {
        "AGENTS.md"
    };
    Ok(Migration {
        objective: InitObjective {
            metric: Some(metric),
            direction: Some(direction.into()),
            command: Some("bash autoresearch.sh".into()),
            protect,
            checks,
            format: Some("pi".into()),
            pattern: None,
            timeout: Some("10m".into()),
            inputs: Vec::new(),
        },
        ignore: vec!["autoresearch.jsonl".into(), ".auto/".into()],
        night: log.filter(|p| has_rows(files, p)).map(str::to_string),
        agent_file: agent_file.into(),
        agent_text: None,
        notes,
    })
}

fn codex(files: &BTreeMap<String, String>) -> Result<Migration, NotThatLoop> {
    let dir = if files.contains_key("results.tsv") || files.contains_key("state.json") {
        ""
    } else {
        "autoresearch-results/"
    };
    let results = format!("{dir}results.tsv");
    let state_path = format!("{dir}state.json");
    if !files.contains_key(&results) && !files.contains_key(&state_path) {
        return Err(missing(Loop::Codex, "results.tsv or state.json"));
    }
    let mut notes = Vec::new();
    let state: Option<Value> = files
        .get(&state_path)
        .and_then(|t| serde_json::from_str(t).ok());
    let find = |keys: &[&str]| state.as_ref().and_then(|s| find_text(s, keys));
    // The comment header of its results.tsv, then its state.
    let header = |key: &str| {
        files.get(&results).and_then(|t| {
            t.lines().take_while(|l| l.starts_with('#')).find_map(|l| {
                let (k, v) = l.trim_start_matches('#').split_once(':')?;
                (k.trim() == key).then(|| v.trim().to_string())
            })
        })
    };
    let metric = header("metric")
        .or_else(|| find(&["metric", "metric_name"]))
        .unwrap_or_else(|| "metric".into());
    let said = header("metric_direction").or_else(|| find(&["metric_direction", "direction"]));
    let direction = match said.as_deref().map(str::to_lowercase).as_deref() {
        Some("lower" | "min" | "minimize" | "minimise" | "down") => "min",
        Some("higher" | "max" | "maximize" | "maximise" | "up") => "max",
        _ => direction_by_name(&metric),
    };
    notes.push(format!(
        "metric {metric}, direction {direction}: {}",
        if said.is_some() {
            "the loop's header and state"
        } else {
            "by the metric's name"
        }
    ));
    let command = find(&["verify", "verify_command", "verify_cmd"]);
    let checks: Vec<String> = find(&["guard", "guard_command", "guard_cmd"])
        .into_iter()
        .collect();
    Ok(Migration {
        objective: InitObjective {
            metric: Some(metric),
            direction: Some(direction.into()),
            command,
            protect: Vec::new(),
            checks,
            format: None,
            pattern: None,
            timeout: None,
            inputs: Vec::new(),
        },
        ignore: if dir.is_empty() {
            vec!["results.tsv".into(), "state.json".into()]
        } else {
            vec![dir.to_string()]
        },
        night: has_rows(files, &results).then_some(results),
        agent_file: "AGENTS.md".into(),
        agent_text: None,
        notes,
    })
}

/// The first non-empty string under one of `keys`, at any depth.
fn find_text(v: &Value, keys: &[&str]) -> Option<String> {
    match v {
        Value::Object(map) => keys
            .iter()
            .find_map(|k| map.get(*k)?.as_str().filter(|s| !s.trim().is_empty()))
            .map(str::to_string)
            .or_else(|| map.values().find_map(|x| find_text(x, keys))),
        Value::Array(items) => items.iter().find_map(|x| find_text(x, keys)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn karpathy_reads_the_metric_from_results_and_keeps_the_task_of_program_md() {
        let program =
            "# the task\nMake the model better.\n\n## What you may change\nOnly train.py.\n\n\
                       ## Logging results\nAppend a row to results.tsv.\n\n## The experiment loop\n\
                       Run, and keep when the lowest so far, else git reset.\n";
        let f = files(&[
            ("train.py", ""),
            ("prepare.py", ""),
            ("pyproject.toml", ""),
            ("program.md", program),
            ("results.tsv", "commit\tval_bpb\tmemory_gb\tstatus\tdescription\nabc1234\t1.0\t3\tkeep\tbaseline\n"),
        ]);
        let m = migrate(Loop::Karpathy, &f).unwrap();
        let o = &m.objective;
        assert_eq!(o.metric.as_deref(), Some("val_bpb"));
        assert_eq!(o.direction.as_deref(), Some("min"));
        assert_eq!(o.command.as_deref(), Some("uv run train.py"));
        assert_eq!(o.format.as_deref(), Some("summary"));
        assert_eq!(o.timeout.as_deref(), Some("10m"));
        assert_eq!(o.protect, ["prepare.py", "pyproject.toml"]);
        assert_eq!(m.ignore, ["run.log", "results.tsv"]);
        assert_eq!(m.night.as_deref(), Some("results.tsv"));
        let text = m.agent_text.unwrap();
        assert!(
            text.contains("Make the model better.") && text.contains("Only train.py."),
            "{text}"
        );
        assert!(
            !text.contains("git reset") && !text.contains("Append a row"),
            "{text}"
        );
        assert!(migrate(Loop::Karpathy, &files(&[("program.md", "")])).is_err());
    }

    #[test]
    fn pi_takes_its_last_configuration_and_its_checks() {
        let log = "{\"type\":\"config\",\"name\":\"a\",\"metricName\":\"ms\",\"bestDirection\":\"lower\"}\n\
                   {\"run\":1,\"commit\":\"abc1234\",\"metric\":5,\"status\":\"keep\"}\n\
                   {\"type\":\"config\",\"name\":\"b\",\"metricName\":\"score\",\"bestDirection\":\"higher\"}\n";
        let f = files(&[
            ("autoresearch.sh", ""),
            ("autoresearch.checks.sh", ""),
            (".auto/log.jsonl", log),
        ]);
        let m = migrate(Loop::Pi, &f).unwrap();
        assert_eq!(m.objective.metric.as_deref(), Some("score"));
        assert_eq!(m.objective.direction.as_deref(), Some("max"));
        assert_eq!(m.objective.format.as_deref(), Some("pi"));
        assert_eq!(m.objective.checks, ["bash autoresearch.checks.sh"]);
        assert_eq!(m.night.as_deref(), Some(".auto/log.jsonl"));
        assert_eq!(m.agent_file, "AGENTS.md");
        assert!(migrate(Loop::Pi, &files(&[("autoresearch.sh", "")])).is_err());
    }

    #[test]
    fn codex_reads_its_header_and_state() {
        let tsv = "# metric_direction: higher\n# metric: roc_auc\niteration\tcommit\tmetric\tdelta\tstatus\tdescription\n\
                   0\tabc1234\t0.8\t0\tbaseline\tstart\n";
        let state = r#"{"config": {"verify": "python eval.py", "guard": "pytest -q"}}"#;
        let f = files(&[("results.tsv", tsv), ("state.json", state)]);
        let m = migrate(Loop::Codex, &f).unwrap();
        assert_eq!(m.objective.metric.as_deref(), Some("roc_auc"));
        assert_eq!(m.objective.direction.as_deref(), Some("max"));
        assert_eq!(m.objective.command.as_deref(), Some("python eval.py"));
        assert_eq!(m.objective.checks, ["pytest -q"]);
        assert_eq!(m.ignore, ["results.tsv", "state.json"]);
        assert_eq!(m.night.as_deref(), Some("results.tsv"));
        // Under its results directory, nothing in the header: by the name.
        let f = files(&[(
            "autoresearch-results/results.tsv",
            "iteration\tcommit\tmetric\n",
        )]);
        let m = migrate(Loop::Codex, &f).unwrap();
        assert_eq!(m.objective.direction.as_deref(), Some("min"));
        assert_eq!(m.ignore, ["autoresearch-results/"]);
        assert_eq!(m.night, None);
    }
}
