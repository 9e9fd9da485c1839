//! Configuration: `arx.toml` found from the working directory upward
//! (stopping at the repository root), or the file named by `--config`,
//! TOML or a GRD `.planning/config.json`.
//!
//! Whatever the source, the settings the kernel needs are presented in the
//! reference's JSON shape (`research_gates` ...), so the kernel's tolerant
//! rules apply the same way to both formats.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::{json, Map, Value};

use crate::error::Hinted;
use crate::io::input::{read_text, Source};

/// The configuration file name looked for.
pub const FILE_NAME: &str = "arx.toml";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Toml,
    Json,
}

/// Loaded configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file it came from (`None`: no file, defaults).
    pub path: Option<PathBuf>,
    pub format: Option<Format>,
    /// The settings in the reference's JSON shape.
    pub grd: Value,
    /// What was wrong with the file but could be read past (an unknown
    /// gate, a gate that is not a boolean), for the caller to show.
    pub warnings: Vec<String>,
    /// The `[objective]` table (TOML) or `objective` object (JSON), as
    /// written; `ops::objective` reads it.
    pub objective: Option<Value>,
}

impl Config {
    fn defaults() -> Self {
        Config {
            path: None,
            format: None,
            grd: Value::Object(Map::new()),
            warnings: Vec::new(),
            objective: None,
        }
    }
}

/// The repository root: the nearest ancestor of `start` holding `.git`.
pub fn repo_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| dir.join(".git").exists())
        .map(Path::to_path_buf)
}

/// The root of the repository's main working tree, when `start` lies in
/// one of its linked working trees (a lane, or any `git worktree add`):
/// their `.git` is a file naming a directory under the main repository's
/// `.git/worktrees/`, whose `commondir` leads back to it. `None` in the
/// main working tree, in a submodule, or outside a repository. Read from
/// the files alone: no git process, no library call.
pub fn main_root(start: &Path) -> Option<PathBuf> {
    let root = repo_root(start)?;
    let dotgit = root.join(".git");
    if !std::fs::symlink_metadata(&dotgit).ok()?.is_file() {
        return None;
    }
    // A `.git` file is one short line; refuse anything larger.
    let text = read_small(&dotgit)?;
    let gitdir = text.lines().next()?.strip_prefix("gitdir:")?.trim();
    let gitdir = root.join(gitdir);
    let common = read_small(&gitdir.join("commondir"))?;
    let common = gitdir.join(common.lines().next()?.trim());
    let common = common.canonicalize().ok()?;
    if common.file_name()? != ".git" {
        return None;
    }
    let main = common.parent()?.to_path_buf();
    (main != root.canonicalize().ok()?).then_some(main)
}

/// The whole of a file of at most 4 KiB, as text (git's small files:
/// `.git`, `HEAD`, `gitdir`, `commondir`).
pub(crate) fn read_small(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(4096)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

/// `arx.toml` from `start` upward, not above the repository root; in a
/// linked working tree without one, the main working tree's (so every lane
/// of a repository runs the same objective even when `arx.toml` is not
/// committed).
pub fn discover(start: &Path) -> Option<PathBuf> {
    for dir in start.ancestors() {
        let candidate = dir.join(FILE_NAME);
        if candidate.is_file() {
            return Some(candidate);
        }
        if dir.join(".git").exists() {
            break;
        }
    }
    let candidate = main_root(start)?.join(FILE_NAME);
    candidate.is_file().then_some(candidate)
}

/// Load `explicit`, or the discovered `arx.toml`, or defaults.
pub fn load(explicit: Option<&Path>, cwd: &Path) -> Result<Config> {
    let path = match explicit {
        Some(p) => p.to_path_buf(),
        None => match discover(cwd) {
            Some(p) => p,
            None => return Ok(Config::defaults()),
        },
    };
    let text = read_config_text(&path)?;
    let format = detect_format(&path, &text);
    let mut warnings = Vec::new();
    let (grd, objective) = match format {
        Format::Json => {
            let grd = parse_json(&path, &text)?;
            let objective = grd.get("objective").cloned();
            (grd, objective)
        }
        Format::Toml => {
            let grd = toml_to_grd(&path, &text, &mut warnings)?;
            let objective = parse_toml(&path, &text)?
                .get("objective")
                .map(|t| serde_json::to_value(t).unwrap_or(Value::Null));
            (grd, objective)
        }
    };
    Ok(Config {
        path: Some(path),
        format: Some(format),
        grd,
        warnings,
        objective,
    })
}

fn read_config_text(path: &Path) -> Result<String> {
    if path.is_dir() {
        return Err(Hinted::error(
            format!("config {} is a directory, not a file", path.display()),
            "pass the file, e.g. --config arx.toml or --config .planning/config.json",
        ));
    }
    if !path.exists() {
        return Err(Hinted::error(
            format!("config {}: no such file", path.display()),
            "check the --config path",
        ));
    }
    read_text(&Source::File(path.to_path_buf()), "the config")
}

/// By extension, else by the first non-blank character.
pub fn detect_format(path: &Path, text: &str) -> Format {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("json") => Format::Json,
        Some(e) if e.eq_ignore_ascii_case("toml") => Format::Toml,
        _ if text.trim_start().starts_with('{') => Format::Json,
        _ => Format::Toml,
    }
}

fn parse_json(path: &Path, text: &str) -> Result<Value> {
    let value: Value = serde_json::from_str(text)
        .with_context(|| format!("config {} is not valid JSON", path.display()))?;
    if !value.is_object() {
        anyhow::bail!("config {} must hold a JSON object", path.display());
    }
    Ok(value)
}

/// Parse TOML text into a table, with the file named in errors.
pub fn parse_toml(path: &Path, text: &str) -> Result<toml::Table> {
    text.parse::<toml::Table>()
        .map_err(|e| anyhow::anyhow!("{}", e.to_string().trim_end()))
        .with_context(|| format!("{} is not valid TOML", path.display()))
}

/// Map arx.toml onto the reference shape: `[gates] execute`, `kg_write`
/// become `research_gates.experiment_execution`, `kg_write`.
fn toml_to_grd(path: &Path, text: &str, warnings: &mut Vec<String>) -> Result<Value> {
    let table = parse_toml(path, text)?;
    let mut grd = Map::new();
    match table.get("gates") {
        None => {}
        Some(toml::Value::Table(gates)) => {
            let mut rg = Map::new();
            for (key, value) in gates {
                let grd_key = match key.as_str() {
                    "execute" => "experiment_execution",
                    "kg_write" => "kg_write",
                    other => {
                        warnings.push(format!(
                            "{}: unknown gate `{other}` in [gates] (gates are execute and kg_write)",
                            path.display()
                        ));
                        continue;
                    }
                };
                if !value.is_bool() {
                    warnings.push(format!(
                        "{}: gates.{key} = {value} is not a boolean; the gate stays on (only `false` turns it off)",
                        path.display()
                    ));
                }
                rg.insert(grd_key.to_string(), json!(value));
            }
            grd.insert("research_gates".into(), Value::Object(rg));
        }
        Some(other) => warnings.push(format!(
            "{}: `gates` should be a table, found {}; gates stay on",
            path.display(),
            other.type_str()
        )),
    }
    // The harness block keeps the reference's key names; the kernel reads it
    // with the reference's tolerance.
    if let Some(harness) = table.get("harness") {
        grd.insert(
            "harness".into(),
            serde_json::to_value(harness).unwrap_or(Value::Null),
        );
    }
    // `[mcp]`: the server's settings (see [`mcp_approve`]).
    if let Some(mcp) = table.get("mcp") {
        grd.insert(
            "mcp".into(),
            serde_json::to_value(mcp).unwrap_or(Value::Null),
        );
    }
    Ok(Value::Object(grd))
}

/// `[mcp] approve` (TOML) or `mcp.approve` (JSON): the operator approves
/// the `execute` gate for every call of the MCP server. Off when absent; a
/// value that is not a boolean is an error, never read as either.
pub fn mcp_approve(config: &Config) -> Result<bool> {
    let Some(mcp) = config.grd.get("mcp") else {
        return Ok(false);
    };
    let where_ = config
        .path
        .as_ref()
        .map_or_else(|| "the config".to_string(), |p| p.display().to_string());
    let Some(table) = mcp.as_object() else {
        return Err(Hinted::error(
            format!("{where_}: `mcp` must be a table"),
            "write it as [mcp] with approve = true or false",
        ));
    };
    match table.get("approve") {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(Hinted::error(
            format!("{where_}: mcp.approve = {other} is not a boolean"),
            "write approve = true (the operator approves every experiment the server runs) or false",
        )),
    }
}
