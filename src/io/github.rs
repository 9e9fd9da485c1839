//! GitHub Actions, as a step sees it: whether arx runs under it
//! (`GITHUB_ACTIONS=true`), and the job's step summary
//! (`$GITHUB_STEP_SUMMARY`, a Markdown file steps append to).

use std::io::Write;

use anyhow::{Context, Result};

/// Is this a GitHub Actions step?
pub fn in_actions() -> bool {
    std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true")
}

/// Append `markdown` to the step summary, when the job has one (nothing
/// otherwise).
pub fn append_step_summary(markdown: &str) -> Result<()> {
    let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) else {
        return Ok(());
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("cannot write the step summary {}", path.to_string_lossy()))?;
    file.write_all(markdown.as_bytes())
        .with_context(|| format!("cannot write the step summary {}", path.to_string_lossy()))
}
