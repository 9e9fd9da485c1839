//! `arx measure`: the verdict of an experiment's stdout against a metric spec.

use std::io::{self, Write};

use anyhow::{Context, Result};
use serde::Serialize;

use super::{verdict_exit, verdict_next, Ctx};
use crate::cli::MeasureArgs;
use crate::error::Exit;
use crate::io::input::Source;
use crate::io::process::TIMEOUT_EXIT_CODE;
use crate::kernel::contract::{MetricSpec, Metrics};
use crate::kernel::failure::FailureClass;
use crate::kernel::outcome::explain_unreported;
use crate::kernel::promote::approach_hash;
use crate::kernel::verdict::{measure, should_promote_dead_end, ExperimentResult, VerdictRecord};
use crate::ops::result_format;
use crate::ops::scan::{classify_source, extract};
use crate::output::{dim, verdict_style, Report};

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
    /// Why the `__RESULT__` line that was there gave no metrics.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_rejected: Option<String>,
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
            match &self.result_rejected {
                Some(reason) => write!(out, " {d}({reason}){d:#}")?,
                None => write!(out, " {d}(no __RESULT__ metrics found){d:#}")?,
            }
        }
        writeln!(out)
    }
}

pub fn run(ctx: &Ctx, args: &MeasureArgs) -> Result<Exit> {
    let (spec, hypothesis) = args.spec.resolve()?;
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
    let format = result_format::for_output(&args.result, ctx.config()?.objective.as_ref())?;
    let found = extract(&Source::from_arg(args.file.as_deref()), &format)?;
    if let Some(note) = found.extracted.ignored_note() {
        crate::output::warn(format_args!("{}", format.ignored_warning(&note)));
    }
    if let Some(reason) = &found.rejected {
        crate::output::warn(format_args!("no metrics: {reason}"));
    }
    let result = ExperimentResult {
        metrics: found.extracted.metrics,
        exit_code,
        failure_class,
    };
    let mut record = measure(&spec, &result);
    explain_unreported(&mut record, &format, &spec.metric_key, &result.metrics);
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
        result_rejected: found.rejected,
    };
    ctx.out.emit(&report)?;
    let v = report.record.verdict;
    ctx.answer(&format!("{v}: {}", report.record.detail), verdict_next(v));
    Ok(verdict_exit(v))
}
