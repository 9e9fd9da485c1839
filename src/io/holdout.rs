//! The operator's held-out journal: where the held-out check's values and
//! output go, outside the repository and its state directory, one JSON
//! line per measurement ([`Entry`]). `ARX_HOLDOUT_JOURNAL` names it; by
//! default it is `$XDG_STATE_HOME/arx/holdout.jsonl`, else
//! `~/.local/state/arx/holdout.jsonl`. The file is created readable by its
//! owner only.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::error::Hinted;
use crate::kernel::holdout::Entry;

/// The variable that names the journal.
pub const ENV: &str = "ARX_HOLDOUT_JOURNAL";

/// The variable that names the file holding `[objective.holdout]`
/// outside the repository (as `--holdout-config` does).
pub const CONFIG_ENV: &str = "ARX_HOLDOUT_CONFIG";

/// Longest line read back (an entry holds two bounded output tails).
const MAX_LINE: usize = 1 << 20;

/// The journal's path: `ARX_HOLDOUT_JOURNAL`, else the user's state
/// directory.
pub fn path() -> Result<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(p) = var(ENV) {
        return Ok(p);
    }
    if let Some(state) = var("XDG_STATE_HOME").filter(|p| p.is_absolute()) {
        return Ok(state.join("arx").join("holdout.jsonl"));
    }
    match var("HOME") {
        Some(home) => Ok(home.join(".local/state/arx/holdout.jsonl")),
        None => Err(Hinted::error(
            "no place for the held-out journal: neither ARX_HOLDOUT_JOURNAL nor HOME is set",
            format!("set {ENV} to a file outside the repository"),
        )),
    }
}

/// The file `ARX_HOLDOUT_CONFIG` (or `--holdout-config`) names, if set.
pub fn config_path() -> Option<PathBuf> {
    std::env::var_os(CONFIG_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// Put the `[objective.holdout]` table of the held-out configuration file
/// (when `ARX_HOLDOUT_CONFIG` names one) into `objective`, the
/// `[objective]` table of the configuration read from `config_file` (in
/// the repository at or above `cwd`). The file must lie outside the
/// repository, hold `[objective.holdout]` and nothing else, and the
/// repository's configuration must not hold one too.
pub fn apply_config(
    objective: &mut Option<serde_json::Value>,
    config_file: Option<&Path>,
    cwd: &Path,
) -> Result<()> {
    let Some(path) = config_path() else {
        return Ok(());
    };
    let hint = "write the held-out check as [objective.holdout] (command, metric, ...) in a file outside the repository";
    if let Some(root) = super::config::repo_root(cwd) {
        if is_inside(&path, &root) {
            return Err(Hinted::error(
                format!(
                    "the held-out configuration {} is inside the repository, where the agent reads it",
                    path.display()
                ),
                format!(
                    "move it outside {} and point {CONFIG_ENV} (or --holdout-config) at it",
                    root.display()
                ),
            ));
        }
    }
    let text = std::fs::read_to_string(&path).map_err(|e| {
        Hinted::error(
            format!(
                "cannot read the held-out configuration {}: {e}",
                path.display()
            ),
            format!("point {CONFIG_ENV} (or --holdout-config) at a readable TOML file"),
        )
    })?;
    let mut table = super::config::parse_toml(&path, &text)?;
    let holdout = table
        .remove("objective")
        .and_then(|o| match o {
            toml::Value::Table(mut t) if t.len() == 1 => t.remove("holdout"),
            _ => None,
        })
        .filter(|_| table.is_empty());
    let Some(holdout) = holdout else {
        return Err(Hinted::error(
            format!(
                "the held-out configuration {} holds something else than one [objective.holdout] table",
                path.display()
            ),
            hint,
        ));
    };
    let objective = objective.get_or_insert_with(|| serde_json::json!({}));
    let Some(map) = objective.as_object_mut() else {
        return Ok(());
    };
    if map.contains_key("holdout") {
        let repo_file = config_file.map_or_else(|| "arx.toml".into(), |p| p.display().to_string());
        return Err(Hinted::error(
            format!(
                "both {repo_file} and the held-out configuration {} set [objective.holdout]",
                path.display()
            ),
            format!("keep it in one place: remove [objective.holdout] from {repo_file}"),
        ));
    }
    map.insert(
        "holdout".into(),
        serde_json::to_value(holdout).unwrap_or(serde_json::Value::Null),
    );
    Ok(())
}

/// Is `path` (which may not exist yet) under `dir`? Both resolved as far as
/// they exist, so a symlink does not hide where the journal really is.
pub fn is_inside(path: &Path, dir: &Path) -> bool {
    let resolve = |p: &Path| -> PathBuf {
        let mut missing = Vec::new();
        let mut at = p.to_path_buf();
        loop {
            if let Ok(real) = at.canonicalize() {
                return missing
                    .iter()
                    .rev()
                    .fold(real, |acc: PathBuf, m| acc.join(m));
            }
            match (at.file_name().map(|n| n.to_os_string()), at.parent()) {
                (Some(name), Some(parent)) => {
                    missing.push(name);
                    at = parent.to_path_buf();
                }
                _ => return p.to_path_buf(),
            }
        }
    };
    let abs = |p: &Path| {
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            std::env::current_dir().unwrap_or_default().join(p)
        }
    };
    resolve(&abs(path)).starts_with(resolve(&abs(dir)))
}

/// Every entry of the journal, in order; none when it does not exist. A
/// line that does not read as an entry is skipped.
pub fn read(path: &Path) -> Result<Vec<Entry>> {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(e)
                .with_context(|| format!("cannot read the held-out journal {}", path.display()))
        }
    };
    let mut out = Vec::new();
    let mut reader = std::io::BufReader::new(file);
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = std::io::Read::take(&mut reader, MAX_LINE as u64)
            .read_until(b'\n', &mut line)
            .with_context(|| format!("cannot read the held-out journal {}", path.display()))?;
        if n == 0 {
            break;
        }
        if line.last() != Some(&b'\n') && n == MAX_LINE {
            // Too long: skip the rest of it.
            let mut rest = Vec::new();
            reader.read_until(b'\n', &mut rest)?;
            continue;
        }
        if let Ok(e) = serde_json::from_slice::<Entry>(&line) {
            out.push(e);
        }
    }
    Ok(out)
}

/// Append `entry` as one line (the directory made when missing; the file
/// created readable by its owner only), synced.
pub fn append(path: &Path, entry: &Entry) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.create(true).append(true).read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options
        .open(path)
        .with_context(|| format!("cannot write the held-out journal {}", path.display()))?;
    // After a torn last line (a writer killed mid-line), start a new one.
    let torn = {
        use std::io::{Read, Seek, SeekFrom};
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        let mut last = [b'\n'];
        if len > 0 {
            file.seek(SeekFrom::Start(len - 1))
                .and_then(|_| file.read_exact(&mut last))
                .ok();
        }
        last[0] != b'\n'
    };
    let mut line = if torn { vec![b'\n'] } else { Vec::new() };
    line.extend(serde_json::to_vec(entry)?);
    line.push(b'\n');
    file.write_all(&line)
        .and_then(|()| file.sync_data())
        .with_context(|| format!("cannot write the held-out journal {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_is_decided_on_resolved_paths() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(repo.join("sub")).unwrap();
        assert!(is_inside(&repo.join("sub/new/h.jsonl"), &repo));
        assert!(!is_inside(&dir.path().join("h.jsonl"), &repo));
        #[cfg(unix)]
        {
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(repo.join("sub"), &link).unwrap();
            assert!(is_inside(&link.join("h.jsonl"), &repo));
        }
    }

    #[test]
    fn a_torn_or_foreign_line_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a/b/h.jsonl");
        assert!(read(&p).unwrap().is_empty());
        let e: Entry = serde_json::from_value(serde_json::json!({
            "at": "t", "state": "/r", "segment": "s", "run_id": "x", "kind": "baseline",
            "metric": "m", "direction": "min", "values": [1.0], "verdict": "passed", "exit_code": 0
        }))
        .unwrap();
        append(&p, &e).unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&p)
            .unwrap()
            .write_all(b"not json\n{\"torn\": ")
            .unwrap();
        append(&p, &e).unwrap();
        assert_eq!(read(&p).unwrap().len(), 2);
    }
}
