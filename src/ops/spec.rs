//! The metric spec a command judges by: the shared flag group
//! (`--metric`, `--cmp`, `--target`, `--spec`) and how flags and a spec file
//! combine into one validated [`MetricSpec`].

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::error::Hinted;
use crate::io::spec::{load_spec_file, SpecFile, Target};
use crate::kernel::contract::{validate_metric_spec, MetricSpec};

/// The spec flags, flattened into every command that judges a metric.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SpecFlags {
    /// Metric key to judge (overrides the spec file).
    #[arg(long, value_name = "KEY")]
    pub metric: Option<String>,
    /// Comparator: >=, <=, >, < or == (overrides the spec file).
    #[arg(long, value_name = "OP", allow_hyphen_values = true)]
    pub cmp: Option<String>,
    /// Target value, a finite number (overrides the spec file).
    #[arg(long, value_name = "X", allow_hyphen_values = true)]
    pub target: Option<String>,
    /// Metric spec file, TOML or JSON: metric_key, comparator, target and an
    /// optional hypothesis.
    #[arg(long, value_name = "FILE")]
    pub spec: Option<PathBuf>,
}

impl SpecFlags {
    /// Was any part of a spec given?
    pub fn given(&self) -> bool {
        self.metric.is_some() || self.cmp.is_some() || self.target.is_some() || self.spec.is_some()
    }

    pub fn as_args(&self) -> SpecArgs<'_> {
        SpecArgs {
            metric: self.metric.as_deref(),
            cmp: self.cmp.as_deref(),
            target: self.target.as_deref(),
            spec: self.spec.as_deref(),
        }
    }

    /// The validated spec and the spec file's hypothesis.
    pub fn resolve(&self) -> Result<(MetricSpec, Option<String>)> {
        resolve_spec(self.as_args())
    }
}

/// The spec flags of `arx run`, whose `--spec` help names the hypothesis
/// a run carries; otherwise [`SpecFlags`].
#[derive(Debug, Clone, Default)]
pub struct RunSpecFlags(pub SpecFlags);

const RUN_SPEC_HELP: &str =
    "Metric spec file, TOML or JSON (metric_key, comparator, target, hypothesis)";

impl std::ops::Deref for RunSpecFlags {
    type Target = SpecFlags;
    fn deref(&self) -> &SpecFlags {
        &self.0
    }
}

impl clap::FromArgMatches for RunSpecFlags {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        SpecFlags::from_arg_matches(matches).map(RunSpecFlags)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }
}

impl clap::Args for RunSpecFlags {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        SpecFlags::augment_args(cmd).mut_arg("spec", |a| a.help(RUN_SPEC_HELP))
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        SpecFlags::augment_args_for_update(cmd).mut_arg("spec", |a| a.help(RUN_SPEC_HELP))
    }
}

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
