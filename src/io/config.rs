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
    /// The `[fleet]` table, as written; `ops::fleet` reads it.
    pub fleet: Option<Value>,
}

impl Config {
    fn defaults() -> Self {
        Config {
            path: None,
            format: None,
            grd: Value::Object(Map::new()),
            warnings: Vec::new(),
            objective: None,
            fleet: None,
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

/// `arx.toml` from `start` upward, not above the repository root. In a
/// linked working tree (a lane, or any `git worktree add`) the main working
/// tree's comes first, found the same way from the same place in it, as
/// it is on disk (committed or not): every working tree of a repository
/// shares one state directory, so they decide by one objective. A linked
/// working tree's own `arx.toml` is read only when the main working tree
/// has none.
pub fn discover(start: &Path) -> Option<PathBuf> {
    main_tree_config(start).or_else(|| own_config(start))
}

/// The project's directory in the working tree holding `cwd`: where the
/// `arx.toml` in use (`config`) lies, carried over to this working tree
/// when it was found in the main one (a lane runs in its own). `None`
/// without one, or when it lies outside the repository.
pub fn project_dir(cwd: &Path, config: Option<&Path>) -> Option<PathBuf> {
    let dir = config?.parent()?;
    let root = repo_root(cwd)?;
    let bases = [main_root(cwd), Some(root.clone())];
    for base in bases.into_iter().flatten() {
        let canonical = base.canonicalize().unwrap_or_else(|_| base.clone());
        let found = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        if let Ok(rel) = found
            .strip_prefix(&canonical)
            .or_else(|_| dir.strip_prefix(&base))
        {
            return Some(root.join(rel));
        }
    }
    None
}

/// `arx.toml` from `start` upward within its own working tree.
fn own_config(start: &Path) -> Option<PathBuf> {
    for dir in start.ancestors() {
        let candidate = dir.join(FILE_NAME);
        if candidate.is_file() {
            return Some(candidate);
        }
        if dir.join(".git").exists() {
            break;
        }
    }
    None
}

/// In a linked working tree: the main working tree's `arx.toml`, looked
/// for from the directory that corresponds to `start` upward.
fn main_tree_config(start: &Path) -> Option<PathBuf> {
    let main = main_root(start)?;
    let root = repo_root(start)?;
    let inside = start.strip_prefix(&root).ok()?;
    inside
        .ancestors()
        .map(|rel| main.join(rel).join(FILE_NAME))
        .find(|candidate| candidate.is_file())
}

/// Most differences named in [`checkout_difference`].
const NAMED_DIFFERENCES: usize = 4;

/// In a linked working tree that reads the main working tree's `arx.toml`
/// (`used`), when its own checkout has an `arx.toml` whose settings
/// differ: a warning naming the differences. `None` elsewhere, or when
/// the two differ only in comments and layout.
pub fn checkout_difference(start: &Path, used: &Path) -> Option<String> {
    main_root(start)?;
    let own = own_config(start)?;
    if own == used {
        return None;
    }
    let read = |path: &Path| -> Option<toml::Table> {
        read_small_config(path)?.parse::<toml::Table>().ok()
    };
    let shared = read(used)?;
    let what = format!(
        "{} differs from the main working tree's {}, which every working tree of the repository uses",
        own.display(),
        used.display()
    );
    let Some(here) = read(&own) else {
        return Some(format!("{what} (this one is not valid TOML)"));
    };
    let (mut a, mut b) = (Vec::new(), Vec::new());
    flatten("", &toml::Value::Table(here), &mut a);
    flatten("", &toml::Value::Table(shared), &mut b);
    let a: std::collections::BTreeMap<String, String> = a.into_iter().collect();
    let b: std::collections::BTreeMap<String, String> = b.into_iter().collect();
    let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let differences: Vec<String> = keys
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| {
            let side = |v: Option<&String>| v.map_or_else(|| "unset".to_string(), Clone::clone);
            format!("{k} {} here, {} there", side(a.get(k)), side(b.get(k)))
        })
        .collect();
    if differences.is_empty() {
        return None;
    }
    let more = differences.len().saturating_sub(NAMED_DIFFERENCES);
    let mut named = differences
        .into_iter()
        .take(NAMED_DIFFERENCES)
        .collect::<Vec<_>>()
        .join("; ");
    if more > 0 {
        named.push_str(&format!("; and {more} more"));
    }
    Some(format!("{what}: {named}"))
}

/// A configuration file's text, when it is at most 1 MiB.
fn read_small_config(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(1 << 20)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

/// Every leaf of `value` as `dotted.key` and its TOML text.
fn flatten(prefix: &str, value: &toml::Value, out: &mut Vec<(String, String)>) {
    match value {
        toml::Value::Table(t) => {
            for (k, v) in t {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, v, out);
            }
        }
        leaf => out.push((prefix.to_string(), leaf.to_string())),
    }
}

/// Load `explicit`, or the discovered `arx.toml`, or defaults; with the
/// held-out configuration file of `ARX_HOLDOUT_CONFIG` put in.
pub fn load(explicit: Option<&Path>, cwd: &Path) -> Result<Config> {
    let mut config = load_file(explicit, cwd)?;
    super::holdout::apply_config(&mut config.objective, config.path.as_deref(), cwd)?;
    Ok(config)
}

/// [`load`] without the held-out configuration file.
fn load_file(explicit: Option<&Path>, cwd: &Path) -> Result<Config> {
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
    let (grd, objective, fleet) = match format {
        Format::Json => {
            let grd = parse_json(&path, &text)?;
            let objective = grd.get("objective").cloned();
            let fleet = grd.get("fleet").cloned();
            (grd, objective, fleet)
        }
        Format::Toml => {
            let mut grd = toml_to_grd(&path, &text, &mut warnings)?;
            committed_gates(&path, &mut grd, &mut warnings);
            let table = parse_toml(&path, &text)?;
            let value = |key: &str| {
                table
                    .get(key)
                    .map(|t| serde_json::to_value(t).unwrap_or(Value::Null))
            };
            (grd, value("objective"), value("fleet"))
        }
    };
    Ok(Config {
        path: Some(path),
        format: Some(format),
        grd,
        warnings,
        objective,
        fleet,
    })
}

/// The settings only a person may change: the gates and the MCP server's
/// approval (`[gates]`, `[mcp]`).
const PERSON_ONLY: [&str; 2] = ["research_gates", "mcp"];

/// Gates come from the committed file: when `path` is committed at HEAD of
/// its repository and the working tree's `[gates]` or `[mcp]` differs from
/// the committed one, the committed settings are used and a warning says
/// so, until a person commits the change. An agent editing arx.toml cannot
/// open a gate. A file outside any repository, or not committed yet, is
/// read as it is (nothing committed to hold it to).
fn committed_gates(path: &Path, grd: &mut Value, warnings: &mut Vec<String>) {
    let Some(text) = committed_text(path) else {
        return;
    };
    let mut ignored = Vec::new();
    let Ok(committed) = toml_to_grd(path, &text, &mut ignored) else {
        return;
    };
    let (Some(now), Some(then)) = (grd.as_object_mut(), committed.as_object()) else {
        return;
    };
    let mut changed = Vec::new();
    for key in PERSON_ONLY {
        if now.get(key) == then.get(key) {
            continue;
        }
        changed.push(if key == "mcp" { "[mcp]" } else { "[gates]" });
        match then.get(key) {
            Some(v) => now.insert(key.to_string(), v.clone()),
            None => now.remove(key),
        };
    }
    if !changed.is_empty() {
        warnings.push(format!(
            "{}: the uncommitted change to {} is ignored: gates are read from the committed file (HEAD) until a person commits the change",
            path.display(),
            changed.join(" and ")
        ));
    }
}

/// The text of `path` as committed at HEAD of the repository it lies in.
fn committed_text(path: &Path) -> Option<String> {
    let repo = git2::Repository::discover(path.parent()?).ok()?;
    let workdir = repo.workdir()?.canonicalize().ok()?;
    let rel = path.canonicalize().ok()?;
    let rel = rel.strip_prefix(&workdir).ok()?;
    let tree = repo.head().ok()?.peel_to_tree().ok()?;
    let entry = tree.get_path(rel).ok()?;
    let blob = entry.to_object(&repo).ok()?.peel_to_blob().ok()?;
    String::from_utf8(blob.content().to_vec()).ok()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A repository at `root` with a linked working tree at `lane`.
    fn linked(root: &Path, lane: &Path) {
        let git = |dir: &Path, args: &[&str]| {
            let out = std::process::Command::new("git")
                .args(args)
                .current_dir(dir)
                .env("GIT_AUTHOR_NAME", "t")
                .env("GIT_AUTHOR_EMAIL", "t@e")
                .env("GIT_COMMITTER_NAME", "t")
                .env("GIT_COMMITTER_EMAIL", "t@e")
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("sub/x"), "x").unwrap();
        std::fs::write(root.join(FILE_NAME), "[objective]\ndirection = \"max\"\n").unwrap();
        git(root, &["init", "-q", "-b", "main"]);
        git(root, &["add", "-A"]);
        git(root, &["commit", "-qm", "start"]);
        git(
            root,
            &["worktree", "add", "-q", "-b", "l", lane.to_str().unwrap()],
        );
    }

    #[test]
    fn a_linked_tree_reads_the_main_trees_config_and_names_what_its_own_changes() {
        let dir = tempfile::tempdir().unwrap();
        let (root, lane) = (dir.path().join("repo"), dir.path().join("lane"));
        linked(&root, &lane);
        // The main working tree's, uncommitted, wins from anywhere in the lane.
        std::fs::write(root.join(FILE_NAME), "[objective]\ndirection = \"min\"\n").unwrap();
        let main = root.canonicalize().unwrap().join(FILE_NAME);
        let found = discover(&lane.canonicalize().unwrap().join("sub")).unwrap();
        assert_eq!(found, main);
        let said = checkout_difference(&lane.canonicalize().unwrap(), &found).unwrap();
        assert!(
            said.contains(r#"objective.direction "max" here, "min" there"#),
            "{said}"
        );
        // The same settings, other comments: nothing to say.
        std::fs::write(
            root.join(FILE_NAME),
            "# mine\n[objective]\ndirection = \"max\"\n",
        )
        .unwrap();
        assert_eq!(
            checkout_difference(&lane.canonicalize().unwrap(), &found),
            None
        );
        // The main working tree without one: the lane's own.
        std::fs::remove_file(root.join(FILE_NAME)).unwrap();
        let own = discover(&lane.canonicalize().unwrap()).unwrap();
        assert_eq!(own, lane.canonicalize().unwrap().join(FILE_NAME));
        assert_eq!(
            checkout_difference(&lane.canonicalize().unwrap(), &own),
            None
        );
        // In the main working tree: its own, nothing to compare.
        assert_eq!(checkout_difference(&root, &root.join(FILE_NAME)), None);
    }

    #[test]
    fn an_uncommitted_change_to_the_gates_is_ignored_with_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let (root, lane) = (dir.path().join("repo"), dir.path().join("lane"));
        linked(&root, &lane);
        let file = root.join(FILE_NAME);
        std::fs::write(&file, "[gates]\nexecute = true\n").unwrap();
        let git = |args: &[&str]| {
            let out = std::process::Command::new("git")
                .args(args)
                .current_dir(&root)
                .env("GIT_AUTHOR_NAME", "t")
                .env("GIT_AUTHOR_EMAIL", "t@e")
                .env("GIT_COMMITTER_NAME", "t")
                .env("GIT_COMMITTER_EMAIL", "t@e")
                .output()
                .unwrap();
            assert!(out.status.success());
        };
        git(&["commit", "-qam", "gates on"]);
        let on = |c: &Config| c.grd["research_gates"]["experiment_execution"] == json!(true);
        let c = load(None, &root).unwrap();
        assert!(on(&c) && c.warnings.is_empty(), "{:?}", c.warnings);
        // The agent turns the gate off, and an approval on, uncommitted.
        std::fs::write(&file, "[gates]\nexecute = false\n\n[mcp]\napprove = true\n").unwrap();
        let c = load(None, &root).unwrap();
        assert!(on(&c), "{}", c.grd);
        assert!(c.grd.get("mcp").is_none(), "{}", c.grd);
        assert!(!mcp_approve(&c).unwrap());
        assert!(
            c.warnings
                .iter()
                .any(|w| w.contains("uncommitted change to [gates] and [mcp] is ignored")),
            "{:?}",
            c.warnings
        );
        // A person commits it: it holds.
        git(&["commit", "-qam", "gates off"]);
        let c = load(None, &root).unwrap();
        assert!(!on(&c) && c.warnings.is_empty(), "{:?}", c.warnings);
        // The rest of the file is read as it is.
        std::fs::write(
            &file,
            "[gates]\nexecute = false\n\n[mcp]\napprove = true\n\n[objective]\nmetric = \"x\"\n",
        )
        .unwrap();
        let c = load(None, &root).unwrap();
        assert!(c.warnings.is_empty() && c.objective.is_some());
    }
}
