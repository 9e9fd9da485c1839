//! The flags of `arx report`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

/// Which segments a report covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegmentChoice {
    /// One segment, by its number (1 is the journal's first).
    Number(usize),
    /// Every segment.
    All,
}

fn segment_choice(text: &str) -> Result<SegmentChoice, String> {
    if text == "all" {
        return Ok(SegmentChoice::All);
    }
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(SegmentChoice::Number(n)),
        _ => Err(format!(
            "{text:?} is not a segment: give its number (1, 2, ...) or `all`"
        )),
    }
}

/// What the chart's x axis counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ChartX {
    /// Run number.
    Run,
    /// Hours since the first run.
    Time,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Write the progress chart to FILE (SVG).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,

    /// Write a self-contained HTML page to FILE: chart, summary, run table,
    /// rounds, dead ends.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// Make the HTML page reload itself every SECONDS (a page left open
    /// follows the loop live).
    #[arg(long, value_name = "SECONDS", requires = "html", value_parser = clap::value_parser!(u64).range(1..))]
    pub refresh: Option<u64>,

    /// Print the summary and the last runs as Markdown (for
    /// $GITHUB_STEP_SUMMARY and pull-request comments).
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,

    /// Write every run as a JUnit test case to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,

    /// Narrow the report to ratchet segment N, or summarize `all` of them
    /// (default: every run, the latest segment summarized).
    #[arg(long, value_name = "N|all", value_parser = segment_choice)]
    pub segment: Option<SegmentChoice>,

    /// How many last runs (and dead ends, rounds) to list.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub last: usize,

    /// The chart's x axis.
    #[arg(long = "x", value_enum, value_name = "AXIS", default_value_t = ChartX::Run)]
    pub x_axis: ChartX,

    /// Print the held-out check's values and output from the operator's
    /// held-out journal (ARX_HOLDOUT_JOURNAL), which nothing else shows.
    #[arg(long, conflicts_with_all = ["svg", "html", "markdown", "junit", "segment"])]
    pub holdout: bool,
}
