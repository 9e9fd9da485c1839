//! The ratchet's objective: what `arx try` improves, how it runs the
//! experiment, what it checks and protects, and when it advises to stop.
//! Also the segment identity: changing what is measured (metric, direction,
//! command, checks, protected paths) starts a new segment, because results
//! measured under different rules do not compare.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::contract::ResultFormat;
use super::stats::Direction;

/// Default runs of the baseline (to measure the noise).
pub const DEFAULT_BASELINE_REPEAT: u32 = 5;
/// Default runs of each candidate.
pub const DEFAULT_REPEAT: u32 = 1;
/// Default confidence of a keep: the decision rule's own, tuned by
/// `examples/ratchet_sim.rs` (the rule screens and confirms, so one
/// decision on a null change keeps it under 5% of the time at this level).
pub const DEFAULT_CONFIDENCE: f64 = super::ratchet::DEFAULT_CONFIDENCE;
/// The files an agent keeps for itself (`[objective] notes`): never part
/// of a candidate.
pub const DEFAULT_NOTES: &[&str] = &["NOTES.md"];
/// The largest file a candidate may add or change, in MB
/// (`[objective] max_file_mb`; 0: no limit).
pub const DEFAULT_MAX_FILE_MB: f64 = 50.0;
/// Confidence of the interval reported around a kept commit's value.
pub const INTERVAL_CONFIDENCE: f64 = 0.95;

/// When to stop the loop (each rule optional).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StopRules {
    /// Experiment runs in the segment, the baseline's included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_runs: Option<u64>,
    /// Tries in a row that were not kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_discards_in_a_row: Option<u64>,
    /// Hours since the segment's first run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_hours: Option<f64>,
    /// Stop once the best reaches this value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<f64>,
}

/// A validated objective.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Objective {
    pub metric: String,
    pub direction: Direction,
    /// The experiment: one shell command line when `shell`, else argv.
    pub command: Vec<String>,
    pub shell: bool,
    /// As written (`10m`), parsed by the runner.
    pub timeout: Option<String>,
    pub repeat: u32,
    pub baseline_repeat: u32,
    pub min_effect: f64,
    pub confidence: f64,
    pub checks: Vec<String>,
    pub protect: Vec<String>,
    /// Files an agent keeps for itself (gitignore-style patterns, by
    /// default `NOTES.md`): never part of a candidate, whatever git thinks
    /// of them. Not part of the segment's identity.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The largest file a candidate may hold, in MB (0: no limit). Not
    /// part of the segment's identity.
    #[serde(skip_serializing_if = "is_default_max_file_mb")]
    pub max_file_mb: f64,
    /// Files the experiment reads (gitignore-style, ignored by git or
    /// not), hashed per run: a candidate measured on other inputs than
    /// the best's is not compared. Not part of the segment's identity.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<String>,
    pub stop: StopRules,
    /// Bounds beside the target that a keep must respect.
    pub guards: Vec<super::guard::Guard>,
    /// The held-out check run before a keep.
    pub holdout: Option<super::holdout::Holdout>,
    /// How the experiment prints its metrics (not part of the segment's
    /// identity: the same numbers read another way still compare).
    #[serde(skip_serializing_if = "ResultFormat::is_arx")]
    pub format: ResultFormat,
    /// `seeds = "paired"`: every run is handed a seed, a candidate's the
    /// best's (see [`super::paired`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub paired_seeds: bool,
    /// The result line's key holding per-instance scores
    /// (`[objective] instances`), when the decision pairs instances.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instances: Option<String>,
}

impl Objective {
    /// The segment's identity: a short hash of what decides whether two
    /// results compare (metric, direction, command, checks, protected paths,
    /// guards and the held-out check; the last two only when set, so a
    /// segment without them keeps its id).
    pub fn segment_id(&self) -> String {
        let mut identity = serde_json::json!({
            "metric": self.metric,
            "direction": self.direction,
            "command": self.command,
            "shell": self.shell,
            "checks": self.checks,
            "protect": self.protect,
        });
        if !self.guards.is_empty() {
            let texts: Vec<&str> = self.guards.iter().map(|g| g.text.as_str()).collect();
            identity["guards"] = serde_json::json!(texts);
        }
        if let Some(h) = &self.holdout {
            identity["holdout"] = serde_json::json!({
                "command": h.command,
                "shell": h.shell,
                "metric": h.metric,
                "direction": h.direction,
            });
        }
        if self.paired_seeds {
            identity["seeds"] = serde_json::json!("paired");
        }
        // Per-instance scores are measured too: the baseline must have
        // them. Without them the identity is what it always was.
        if let Some(key) = &self.instances {
            identity["instances"] = serde_json::json!(key);
        }
        let digest = Sha256::digest(identity.to_string().as_bytes());
        digest[..8].iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Is `value` better than `than` in the objective's direction?
    pub fn better(&self, value: f64, than: f64) -> bool {
        match self.direction {
            Direction::Max => value > than,
            Direction::Min => value < than,
        }
    }

    /// `a − b` signed so that positive means `a` is better.
    pub fn gain(&self, a: f64, b: f64) -> f64 {
        match self.direction {
            Direction::Max => a - b,
            Direction::Min => b - a,
        }
    }
}

fn is_default_max_file_mb(mb: &f64) -> bool {
    *mb == DEFAULT_MAX_FILE_MB
}

/// Check the numbers of an objective; the message names the key.
pub fn validate(o: &Objective) -> Result<(), String> {
    if o.metric.trim().is_empty() {
        return Err("metric must not be empty".into());
    }
    if o.command.is_empty() || o.command.iter().all(|c| c.trim().is_empty()) {
        return Err("command must not be empty".into());
    }
    if o.repeat == 0 {
        return Err("repeat must be at least 1".into());
    }
    if o.baseline_repeat == 0 {
        return Err("baseline_repeat must be at least 1".into());
    }
    if !(o.min_effect.is_finite() && o.min_effect >= 0.0) {
        return Err(format!(
            "min_effect must be a finite number >= 0 (got {})",
            o.min_effect
        ));
    }
    if !(o.confidence > 0.5 && o.confidence < 1.0) {
        return Err(format!(
            "confidence must be between 0.5 and 1 (got {})",
            o.confidence
        ));
    }
    if let Some(h) = o.stop.max_hours {
        if !(h.is_finite() && h > 0.0) {
            return Err(format!(
                "stop.max_hours must be a positive number (got {h})"
            ));
        }
    }
    if let Some(t) = o.stop.target {
        if !t.is_finite() {
            return Err(format!("stop.target must be a finite number (got {t})"));
        }
    }
    if o.checks.iter().any(|c| c.trim().is_empty()) {
        return Err("checks must not contain an empty command".into());
    }
    if o.protect.iter().any(|p| p.trim().is_empty()) {
        return Err("protect must not contain an empty pattern".into());
    }
    if !(o.max_file_mb.is_finite() && o.max_file_mb >= 0.0) {
        return Err(format!(
            "max_file_mb must be a finite number >= 0 (got {})",
            o.max_file_mb
        ));
    }
    if o.inputs.iter().any(|p| p.trim().is_empty()) {
        return Err("inputs must not contain an empty pattern".into());
    }
    if o.notes.iter().any(|p| p.trim().is_empty()) {
        return Err("notes must not contain an empty pattern".into());
    }
    if let Some(h) = &o.holdout {
        validate_holdout(h)?;
    }
    if let Some(key) = &o.instances {
        if key.trim().is_empty() {
            return Err("instances must name a key of the result line".into());
        }
        if *key == o.metric {
            return Err(format!(
                "instances must name another key than the metric ({key} is the metric)"
            ));
        }
    }
    Ok(())
}

/// What a run that printed results but not `metric` tells: the keys it
/// did print, and the closest of them when one is a likely misspelling
/// (`; it printed loss, val_loss (did you mean val_loss?)`); empty when it
/// printed none.
pub fn missing_metric_note<'k>(metric: &str, printed: impl IntoIterator<Item = &'k str>) -> String {
    printed_keys(metric, printed)
        .map(|keys| format!("; it printed {keys}"))
        .unwrap_or_default()
}

/// [`missing_metric_note`] for a run read in `format`: the format's name
/// and the keys it found (`; the summary format found loss, val_bpb2 (did
/// you mean val_bpb2?)`), or what it looked for when it found none. The
/// default format's note is [`missing_metric_note`]'s.
pub fn unreported_note<'k>(
    format: &ResultFormat,
    metric: &str,
    printed: impl IntoIterator<Item = &'k str>,
) -> String {
    if format.is_arx() {
        return missing_metric_note(metric, printed);
    }
    match printed_keys(metric, printed) {
        Some(keys) => format!("; the {} format found {keys}", format.name()),
        None => format!(
            "; the {} format found no {}",
            format.name(),
            format.looks_for()
        ),
    }
}

/// The other format a run's output looks like, when it was read in the
/// default format and printed no result at all: its name and the keys it
/// finds (the first six, joined). The format that finds `metric` first;
/// else the first that finds anything.
pub fn other_format(
    format: &ResultFormat,
    printed_any: bool,
    metric: &str,
    output: &str,
) -> Option<(&'static str, String)> {
    if !format.is_arx() || printed_any {
        return None;
    }
    let found: Vec<(&'static str, Vec<String>)> = [ResultFormat::Summary, ResultFormat::Pi]
        .iter()
        .map(|f| {
            let x = super::contract::extract(f, output.as_bytes());
            let keys = x.metrics.iter().map(|(k, _)| k.to_string()).collect();
            (f.name(), keys)
        })
        .filter(|(_, keys): &(&str, Vec<String>)| !keys.is_empty())
        .collect();
    let (name, keys) = found
        .iter()
        .find(|(_, keys)| keys.iter().any(|k| k == metric))
        .or(found.first())?;
    Some((
        name,
        keys.iter().take(6).cloned().collect::<Vec<_>>().join(", "),
    ))
}

/// A run read in the default format that printed no result at all, whose
/// output (`output`, its tail) another format reads: that format named,
/// with what it found and the setting to write (`; it printed no
/// __RESULT__ line, but looks like format = "summary" (val_bpb found):
/// set it under [objective] in arx.toml`). Empty otherwise. The format
/// that finds `metric` is named first; else the first that finds anything.
pub fn other_format_note(
    format: &ResultFormat,
    printed_any: bool,
    metric: &str,
    output: &str,
) -> String {
    let Some((name, shown)) = other_format(format, printed_any, metric, output) else {
        return String::new();
    };
    format!(
        "; it printed no __RESULT__ line, but looks like format = \"{name}\" ({shown} found): \
         set format = \"{name}\" under [objective] in arx.toml"
    )
}

/// The keys printed, the first dozen, and the one `metric` is likely a
/// misspelling of; `None` when there are none.
fn printed_keys<'k>(metric: &str, printed: impl IntoIterator<Item = &'k str>) -> Option<String> {
    let keys: Vec<&str> = printed.into_iter().collect();
    if keys.is_empty() {
        return None;
    }
    let shown = keys.iter().take(12).copied().collect::<Vec<_>>().join(", ");
    let more = if keys.len() > 12 { ", …" } else { "" };
    let close = keys
        .iter()
        .map(|k| (edit_distance(&metric.to_lowercase(), &k.to_lowercase()), *k))
        .filter(|(d, k)| *d <= (k.chars().count().max(metric.chars().count()) / 3).max(1))
        .min_by_key(|(d, _)| *d);
    Some(match close {
        Some((_, k)) => format!("{shown}{more} (did you mean {k}?)"),
        None => format!("{shown}{more}"),
    })
}

/// Edits (insert, delete, replace a character) from `a` to `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

/// `[objective.holdout]`'s own rules.
fn validate_holdout(h: &super::holdout::Holdout) -> Result<(), String> {
    if h.command.is_empty() || h.command.iter().all(|c| c.trim().is_empty()) {
        return Err("holdout.command must not be empty".into());
    }
    if h.metric.trim().is_empty() {
        return Err("holdout.metric must not be empty".into());
    }
    if h.repeat == 0 || h.baseline_repeat == 0 {
        return Err("holdout.repeat and holdout.baseline_repeat must be at least 1".into());
    }
    if h.max_repeat < h.repeat {
        return Err("holdout.max_repeat must be at least holdout.repeat".into());
    }
    if h.margin.is_some_and(|m| !(m.is_finite() && m >= 0.0)) {
        return Err("holdout.margin must be a number of at least 0 (metric units)".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn objective() -> Objective {
        Objective {
            metric: "val_bpb".into(),
            direction: Direction::Min,
            command: vec!["uv run train.py".into()],
            shell: true,
            timeout: None,
            repeat: 1,
            baseline_repeat: 5,
            min_effect: 0.0,
            confidence: 0.95,
            checks: vec![],
            protect: vec!["prepare.py".into()],
            notes: vec!["NOTES.md".into()],
            max_file_mb: DEFAULT_MAX_FILE_MB,
            inputs: vec![],
            stop: StopRules::default(),
            guards: vec![],
            holdout: None,
            format: ResultFormat::default(),
            paired_seeds: false,
            instances: None,
        }
    }

    #[test]
    fn a_summary_block_or_metric_lines_name_their_format() {
        let arx = ResultFormat::Arx;
        let summary = "step 1 | loss 3.2\n---\nval_bpb:          0.9958\ntraining_seconds: 300.1\n";
        let note = other_format_note(&arx, false, "val_bpb", summary);
        assert!(
            note.contains("looks like format = \"summary\" (val_bpb, training_seconds found)"),
            "{note}"
        );
        let pi = "METRIC total_ms=12.5\nMETRIC val_bpb=1.0\n";
        assert!(other_format_note(&arx, false, "val_bpb", pi).contains("format = \"pi\""));
        // Printed something arx read, or read in another format already,
        // or nothing another format reads: no note.
        assert_eq!(other_format_note(&arx, true, "val_bpb", summary), "");
        assert_eq!(
            other_format_note(&ResultFormat::Pi, false, "val_bpb", summary),
            ""
        );
        assert_eq!(
            other_format_note(&arx, false, "val_bpb", "loss went down\n"),
            ""
        );
    }

    #[test]
    fn the_segment_changes_with_what_is_measured_and_not_with_budgets() {
        let o = objective();
        let id = o.segment_id();
        assert_eq!(id.len(), 16);
        let mut same = o.clone();
        same.repeat = 3;
        same.stop.max_runs = Some(10);
        same.timeout = Some("5m".into());
        same.format = ResultFormat::Summary;
        assert_eq!(same.segment_id(), id);
        // Without guards or a held-out check, the identity is what it was
        // before either existed: a journal's segments keep their ids.
        let before = serde_json::json!({
            "metric": o.metric, "direction": o.direction, "command": o.command,
            "shell": o.shell, "checks": o.checks, "protect": o.protect,
        });
        let digest = Sha256::digest(before.to_string().as_bytes());
        let before: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(id, before);
        for change in [
            |o: &mut Objective| o.metric = "loss".into(),
            |o: &mut Objective| o.direction = Direction::Max,
            |o: &mut Objective| o.command = vec!["python train.py".into()],
            |o: &mut Objective| o.checks = vec!["pytest".into()],
            |o: &mut Objective| o.protect = vec![],
            |o: &mut Objective| o.guards = vec![crate::kernel::guard::parse("vram <= 40").unwrap()],
            |o: &mut Objective| {
                o.holdout = Some(crate::kernel::holdout::Holdout {
                    command: vec!["sh test.sh".into()],
                    shell: true,
                    metric: "test_loss".into(),
                    direction: Direction::Min,
                    repeat: 1,
                    baseline_repeat: 3,
                    max_repeat: 20,
                    margin: None,
                })
            },
        ] {
            let mut other = o.clone();
            change(&mut other);
            assert_ne!(other.segment_id(), id);
        }
    }

    #[test]
    fn direction_decides_what_is_better() {
        let mut o = objective();
        assert!(o.better(0.9, 1.0));
        assert_eq!(o.gain(0.9, 1.0), 0.09999999999999998);
        o.direction = Direction::Max;
        assert!(!o.better(0.9, 1.0));
        assert!(o.gain(0.9, 1.0) < 0.0);
    }

    #[test]
    fn bad_numbers_are_named() {
        let mut o = objective();
        o.confidence = 1.5;
        assert!(validate(&o).unwrap_err().contains("confidence"));
        let mut o = objective();
        o.min_effect = -1.0;
        assert!(validate(&o).unwrap_err().contains("min_effect"));
        let mut o = objective();
        o.baseline_repeat = 0;
        assert!(validate(&o).unwrap_err().contains("baseline_repeat"));
        let mut o = objective();
        o.metric = " ".into();
        assert!(validate(&o).unwrap_err().contains("metric"));
        assert!(validate(&objective()).is_ok());
    }

    #[test]
    fn a_metric_not_printed_names_what_was_and_the_close_one() {
        let note = missing_metric_note("val_los", ["loss", "val_loss", "lr"]);
        assert_eq!(
            note,
            "; it printed loss, val_loss, lr (did you mean val_loss?)"
        );
        assert_eq!(
            missing_metric_note("accuracy", ["loss", "lr"]),
            "; it printed loss, lr"
        );
        assert_eq!(missing_metric_note("m", []), "");
        assert_eq!(
            missing_metric_note("M", ["m", "x"]),
            "; it printed m, x (did you mean m?)"
        );
    }

    #[test]
    fn a_metric_not_found_in_another_format_names_the_format() {
        assert_eq!(
            unreported_note(&ResultFormat::Summary, "val_bpb", ["val_bpc", "loss"]),
            "; the summary format found val_bpc, loss (did you mean val_bpc?)"
        );
        assert_eq!(
            unreported_note(&ResultFormat::Pi, "loss", []),
            "; the pi format found no METRIC name=value lines"
        );
        assert_eq!(
            unreported_note(&ResultFormat::Arx, "loss", ["acc"]),
            "; it printed acc"
        );
    }
}
