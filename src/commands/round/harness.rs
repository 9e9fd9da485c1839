//! A round's settings, read from the governing config's `[harness]`:
//! autonomy, denied paths, checks, isolation, and the blocks a round may
//! not change.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::commands::Ctx;
use crate::error::Hinted;
use crate::io::clock::parse_duration;
use crate::io::config::Format;
use crate::kernel::round::{resolve_autonomy, AutonomyState, PatchKind};

/// A check run against a round's scratch checkout (`[[harness.checks]]`).
#[derive(Debug, Clone, Serialize)]
pub struct CheckSpec {
    pub name: String,
    pub command: String,
    pub timeout: Option<Duration>,
    /// Patch kinds that trigger it (empty: every round).
    pub kinds: Vec<PatchKind>,
}

/// Everything about the config that governs rounds.
pub struct Settings {
    pub autonomy: AutonomyState,
    pub deny_paths: Vec<String>,
    pub checks: Vec<CheckSpec>,
    /// `isolate = true`: checks run under bubblewrap, or not at all.
    pub isolate: bool,
    /// More paths hidden from isolated checks (`isolate_hide`).
    pub isolate_hide: Vec<String>,
    /// The governing config file, relative to the repository root.
    pub config_rel: Option<String>,
    pub config_format: Option<Format>,
    /// The live `harness` block.
    pub harness: Map<String, Value>,
    /// The state directory relative to the repository root, when it is
    /// inside the repository (`""`: the root itself).
    pub state_rel: Option<String>,
    /// What a round may not change in the governing config besides the
    /// harness block: a TOML config's protected blocks (`[harness]` and
    /// `[gates]`, see `toml_protected`), a JSON config's `research_gates`.
    pub protected: Map<String, Value>,
}

fn string_list(v: Option<&Value>, what: &str) -> Result<Vec<String>> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| {
                i.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| anyhow::anyhow!("{what} must be a list of strings"))
            })
            .collect(),
        Some(_) => anyhow::bail!("{what} must be a list of strings"),
    }
}

fn parse_checks(v: Option<&Value>) -> Result<Vec<CheckSpec>> {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    let items = v
        .as_array()
        .context("harness.checks must be a list of tables")?;
    let mut checks = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let what = format!("harness.checks[{i}]");
        let obj = item
            .as_object()
            .with_context(|| format!("{what} must be a table"))?;
        let text = |key: &str| obj.get(key).and_then(Value::as_str).map(str::to_string);
        let command = text("command").with_context(|| format!("{what} needs a command"))?;
        let name = text("name").unwrap_or_else(|| command.clone());
        let timeout = match obj.get("timeout") {
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) => {
                Some(parse_duration(&n.to_string(), &format!("{what}.timeout"))?)
            }
            Some(Value::String(s)) => Some(parse_duration(s, &format!("{what}.timeout"))?),
            Some(_) => anyhow::bail!("{what}.timeout must be a duration such as \"10m\""),
        };
        let kinds = string_list(obj.get("kinds"), &format!("{what}.kinds"))?
            .iter()
            .map(|k| {
                k.parse::<PatchKind>().map_err(|_| {
                    anyhow::anyhow!("{what}.kinds: unknown kind {k:?} (markdown, config, code)")
                })
            })
            .collect::<Result<Vec<_>>>()?;
        checks.push(CheckSpec {
            name,
            command,
            timeout,
            kinds,
        });
    }
    Ok(checks)
}

/// Settings from the governing config; `force_auto` is `--auto`.
pub fn settings(ctx: &Ctx, root: &Path, force_auto: bool) -> Result<Settings> {
    let config = ctx.config()?;
    let harness_value = config.grd.get("harness");
    let harness = harness_value
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let bad = |e: anyhow::Error| {
        Hinted::error(
            format!("invalid [harness] settings: {e:#}"),
            "see the README section on arx.toml [harness]",
        )
    };
    let deny_paths = string_list(harness.get("deny_paths"), "harness.deny_paths").map_err(bad)?;
    let checks = parse_checks(harness.get("checks")).map_err(bad)?;
    // A security setting: a value that is not a boolean is an error, never
    // read as "off".
    let isolate = match harness.get("isolate") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(bad(anyhow::anyhow!(
                "harness.isolate must be true or false"
            )))
        }
    };
    let isolate_hide =
        string_list(harness.get("isolate_hide"), "harness.isolate_hide").map_err(bad)?;
    let config_rel = config.path.as_ref().and_then(|p| {
        let abs = if p.is_absolute() {
            p.clone()
        } else {
            ctx.cwd().ok()?.join(p)
        };
        let abs = abs.canonicalize().ok()?;
        let root = root.canonicalize().ok()?;
        abs.strip_prefix(&root)
            .ok()
            .map(|r| r.to_string_lossy().into_owned())
    });
    let protected = protected_blocks(&config, &harness);
    Ok(Settings {
        autonomy: resolve_autonomy(&config.grd, force_auto),
        deny_paths,
        checks,
        isolate,
        isolate_hide,
        config_rel,
        config_format: config.format,
        harness,
        state_rel: relative_inside(&ctx.state_dir()?, root),
        protected,
    })
}

/// The governing config's blocks a round may not change (see
/// [`Settings::protected`]).
fn protected_blocks(
    config: &crate::io::config::Config,
    harness: &Map<String, Value>,
) -> Map<String, Value> {
    use crate::kernel::round::toml_protected;
    match (config.format, &config.path) {
        (Some(Format::Toml), Some(path)) => std::fs::read_to_string(path)
            .ok()
            .and_then(|t| t.parse::<toml::Table>().ok())
            .map(|t| toml_protected(&t))
            .unwrap_or_else(|| {
                let mut m = Map::new();
                m.insert("harness".into(), Value::Object(harness.clone()));
                m
            }),
        (Some(Format::Json), _) => {
            let mut m = Map::new();
            m.insert(
                "research_gates".into(),
                config
                    .grd
                    .get("research_gates")
                    .cloned()
                    .unwrap_or(Value::Null),
            );
            m
        }
        _ => Map::new(),
    }
}

/// `path` relative to `root`, `/`-separated, when it lies inside it once
/// symbolic links are resolved (the part of `path` that does not exist
/// yet is taken as written).
fn relative_inside(path: &Path, root: &Path) -> Option<String> {
    let root = root.canonicalize().ok()?;
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    let resolved = loop {
        if let Ok(p) = existing.canonicalize() {
            break p;
        }
        rest.push(existing.file_name()?.to_os_string());
        existing = existing.parent()?.to_path_buf();
    };
    let full = rest.iter().rev().fold(resolved, |p, part| p.join(part));
    let rel = full.strip_prefix(&root).ok()?;
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    Some(parts?.join("/"))
}
