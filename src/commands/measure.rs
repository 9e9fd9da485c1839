//! `arx measure`: the verdict of an experiment's stdout against a metric spec.

use std::io::{self, Write};
use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

use super::classify::classify_source;
use super::parse::scan_metrics;
use super::{verdict_exit, Ctx};
use crate::cli::MeasureArgs;
use crate::error::{Exit, Hinted};
use crate::io::input::Source;
use crate::io::spec::{load_spec_file, SpecFile, Target};
use crate::kernel::contract::{validate_metric_spec, MetricSpec, Metrics};
use crate::kernel::failure::FailureClass;
use crate::kernel::promote::approach_hash;
use crate::kernel::verdict::{measure, should_promote_dead_end, ExperimentResult, VerdictRecord};
use crate::output::{dim, verdict_style, Report};

/// Exit code the reference runner records for a timed-out run.
pub const TIMEOUT_EXIT_CODE: i64 = 124;

/// A metric spec as given on the command line: flags and/or a spec file.
#[derive(Debug, Clone, Copy, Default)]
pub struct SpecArgs<'a> {
    pub metric: Option<&'a str>,
    pub cmp: Option<&'a str>,
    pub target: Option<&'a str>,
    pub spec: Option<&'a Path>,
}

/// Merge the spec file with the flags (flags win) and validate it.
/// Returns the spec and the file's hypothesis, if any.
pub fn resolve_spec(args: SpecArgs<'_>) -> Result<(MetricSpec, Option<String>)> {
    let file = match args.spec {
        Some(p) => load_spec_file(p)?,
        None => SpecFile::default(),
    };
    let metric_key = args.metric.map(str::to_string).or(file.metric_key);
    let comparator = args.cmp.map(str::to_string).or(file.comparator);
    let target = match (args.target, file.target) {
        (Some(text), _) => Some(text.trim().parse::<f64>().map_err(|_| {
            Hinted::error(
                format!("invalid metric spec: target must be a number (got {text:?})"),
                "pass a finite number, e.g. --target 0.8",
            )
        })?),
        (None, Some(Target::Number(x))) => Some(x),
        (None, Some(Target::Other(v))) => {
            return Err(Hinted::error(
                format!("invalid metric spec: target must be a number (got {v})"),
                "write the target as a number, e.g. target = 0.8",
            ))
        }
        (None, None) => None,
    };
    let missing: Vec<&str> = [
        ("metric_key", metric_key.is_none()),
        ("comparator", comparator.is_none()),
        ("target", target.is_none()),
    ]
    .into_iter()
    .filter_map(|(name, absent)| absent.then_some(name))
    .collect();
    let (Some(metric_key), Some(comparator), Some(target)) = (metric_key, comparator, target)
    else {
        return Err(Hinted::error(
            format!("incomplete metric spec: missing {}", missing.join(", ")),
            "pass --metric KEY --cmp OP --target X, or --spec FILE",
        ));
    };
    let spec = validate_metric_spec(&metric_key, &comparator, target).map_err(|e| {
        Hinted::error(
            format!("invalid metric spec: {e}"),
            "a spec needs a non-empty metric key, one of >= <= > < ==, and a finite target",
        )
    })?;
    Ok((spec, file.hypothesis))
}

/// The full measurement: the kernel's verdict record plus what it was based on.
#[derive(Debug, Serialize)]
pub struct MeasureReport {
    #[serde(flatten)]
    pub record: VerdictRecord,
    pub metrics: Metrics,
    pub spec: MetricSpec,
    pub exit_code: i64,
    pub failure_class: FailureClass,
    pub timed_out: bool,
    /// May this verdict promote a dead end (a deterministic refutation)?
    pub promotable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hypothesis: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approach_hash: Option<String>,
}

impl Report for MeasureReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let s = verdict_style(self.record.verdict);
        let d = dim();
        write!(
            out,
            "{s}{}{s:#}: {}",
            self.record.verdict, self.record.detail
        )?;
        if self.metrics.is_empty() && self.exit_code == 0 {
            write!(out, " {d}(no __RESULT__ metrics found){d:#}")?;
        }
        writeln!(out)
    }
}

pub fn run(ctx: &Ctx, args: &MeasureArgs) -> Result<Exit> {
    let (spec, hypothesis) = resolve_spec(SpecArgs {
        metric: args.metric.as_deref(),
        cmp: args.cmp.as_deref(),
        target: args.target.as_deref(),
        spec: args.spec.as_deref(),
    })?;
    let failure_class = match (&args.failure_class, &args.stderr) {
        (Some(c), _) => c.parse::<FailureClass>().map_err(anyhow::Error::msg)?,
        (None, Some(path)) => {
            classify_source(&Source::File(path.clone()), args.timed_out)
                .context("cannot classify --stderr")?
                .0
        }
        (None, None) => {
            if args.timed_out {
                FailureClass::H4
            } else {
                FailureClass::None
            }
        }
    };
    let exit_code = args
        .exit_code
        .unwrap_or(if args.timed_out { TIMEOUT_EXIT_CODE } else { 0 });
    let metrics = scan_metrics(&Source::from_arg(args.file.as_deref()))?;
    let result = ExperimentResult {
        metrics,
        exit_code,
        failure_class,
    };
    let record = measure(&spec, &result);
    let report = MeasureReport {
        promotable: should_promote_dead_end(&record),
        approach_hash: hypothesis.as_deref().map(approach_hash),
        hypothesis,
        record,
        metrics: result.metrics,
        spec,
        exit_code,
        failure_class,
        timed_out: args.timed_out,
    };
    ctx.out.emit(&report)?;
    Ok(verdict_exit(report.record.verdict))
}
