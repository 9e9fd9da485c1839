//! Metric spec files (TOML or JSON): the verdict contract a hypothesis
//! carries, as written by people or agents. Only reads and shapes the file;
//! validation is the kernel's.

use std::path::Path;

use anyhow::{Context, Result};
use serde::Deserialize;

use crate::io::config::{detect_format, parse_toml, Format};
use crate::io::input::{read_text, Source};

/// A metric spec file (TOML or JSON). Every field may also come from flags.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecFile {
    #[serde(alias = "metric")]
    pub metric_key: Option<String>,
    #[serde(alias = "cmp")]
    pub comparator: Option<String>,
    pub target: Option<Target>,
    #[serde(alias = "statement")]
    pub hypothesis: Option<String>,
}

/// A target as written in a spec file: a number, or something else to reject.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Target {
    Number(f64),
    Other(serde_json::Value),
}

/// Read a spec file, TOML or JSON.
pub fn load_spec_file(path: &Path) -> Result<SpecFile> {
    let source = Source::File(path.to_path_buf());
    let text = read_text(&source, "the metric spec")?;
    let what = || format!("invalid metric spec {}", path.display());
    match detect_format(path, &text) {
        Format::Json => serde_json::from_str(&text).with_context(what),
        Format::Toml => {
            let table = parse_toml(path, &text)?;
            table.try_into().with_context(what)
        }
    }
}
