//! `arx init --from karpathy|pi|codex`: the loop's files read, its
//! objective made arx's (`kernel::migrate`), its output files ignored by
//! git, arx's loop written where that loop's agent reads, and its night
//! imported as `arx journal import` does.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};

use super::{Item, Status};
use crate::cli::{ImportArgs, ImportFrom};
use crate::commands::Ctx;
use crate::error::Hinted;
use crate::io::rounds::write_bytes_atomic;
use crate::io::state::{append_lines, read_text_if_any, refuse_symlinks};
use crate::kernel::agents;
use crate::kernel::config_text::InitObjective;
use crate::kernel::gate::{resolve_gates, Gate};
use crate::kernel::migrate::{migrate, Loop, Migration};

/// The largest file of the loop that is read (a night of many thousand
/// rows is a few MiB).
const MAX_BYTES: u64 = 64 << 20;

fn loop_of(from: ImportFrom) -> Loop {
    match from {
        ImportFrom::Karpathy => Loop::Karpathy,
        ImportFrom::Pi => Loop::Pi,
        ImportFrom::Codex => Loop::Codex,
    }
}

/// Read the loop's files under `root` and decide; the flags in
/// `objective` win over what the files say (protected paths and checks
/// are added), and it becomes the objective to write.
pub(super) fn read(
    root: &Path,
    from: ImportFrom,
    objective: &mut InitObjective,
) -> Result<Migration> {
    let lp = loop_of(from);
    let mut files = BTreeMap::new();
    for rel in lp.files() {
        let path = root.join(rel);
        if std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() > MAX_BYTES) {
            anyhow::bail!("{} is larger than {} MiB", path.display(), MAX_BYTES >> 20);
        }
        if let Some(text) = read_text_if_any(&path)? {
            files.insert(rel.to_string(), text);
        }
    }
    let mut m = migrate(lp, &files).map_err(|e| Hinted::error(e.message, e.hint))?;
    let o = &mut m.objective;
    if objective.metric.is_some() {
        o.metric = objective.metric.clone();
        o.direction = objective.direction.clone();
    }
    if objective.command.is_some() {
        o.command = objective.command.clone();
    }
    for p in &objective.protect {
        if !o.protect.contains(p) {
            o.protect.push(p.clone());
        }
    }
    o.checks.extend(objective.checks.iter().cloned());
    if objective.format.is_some() {
        o.format = objective.format.clone();
        o.pattern = objective.pattern.clone();
    }
    if objective.timeout.is_some() {
        o.timeout = objective.timeout.clone();
    }
    if o.command.is_none() {
        m.notes.push(
            "no command found in the loop's files: set [objective] command in arx.toml".into(),
        );
    }
    *objective = m.objective.clone();
    Ok(m)
}

/// Everything `--from` writes once arx.toml is there: `.gitignore`, the
/// agent's instructions and the night; with `warn_gate`, the warning that
/// the `execute` gate is on (`--agent` gives its own).
pub(super) fn write(
    ctx: &Ctx,
    (root, journal): (&Path, &Path),
    m: &Migration,
    from: ImportFrom,
    warn_gate: bool,
) -> Result<Vec<Item>> {
    let show = |p: &Path| crate::commands::shown(p, root);
    let mut items = vec![ignore(root, &m.ignore, show)?];
    let config = ctx.config()?;
    let section = agents::section(&agents::from_config(config.objective.as_ref()));
    items.push(agent_file(root, m, &section, show)?);
    items.extend(night(ctx, root, m, from, journal)?);
    if warn_gate && resolve_gates(&config.grd, false).is_on(Gate::Execute) {
        crate::output::warn(
            "the execute gate is on: each `arx try` asks before it runs; for the loop's agent \
             to run unattended set `execute = false` under [gates] in arx.toml",
        );
    }
    Ok(items)
}

/// Append the loop's output files to the repository's `.gitignore`.
fn ignore(root: &Path, paths: &[String], show: impl Fn(&Path) -> String) -> Result<Item> {
    let path = root.join(".gitignore");
    refuse_symlinks(root, &path)?;
    let existing = read_text_if_any(&path)?;
    let existed = existing.is_some();
    let existing = existing.unwrap_or_default();
    let present = |p: &str| {
        existing.lines().any(|l| {
            let l = l.trim();
            l == p || l.trim_start_matches('/') == p
        })
    };
    let lines: Vec<String> = paths
        .iter()
        .filter(|p| !present(p))
        .map(|p| format!("/{p}"))
        .collect();
    if lines.is_empty() {
        return Ok(Item {
            path: show(&path),
            status: Status::Present,
            detail: Some("the loop's output files already ignored".into()),
        });
    }
    append_lines(root, &path, &existing, &lines)?;
    Ok(Item {
        path: show(&path),
        status: if existed {
            Status::Updated
        } else {
            Status::Created
        },
        detail: Some(format!("the loop's output ignored: {}", paths.join(", "))),
    })
}

/// Write arx's section where the loop's agent reads: in place of the
/// loop's own mechanics (karpathy's `program.md`), else merged into the
/// file as it is.
fn agent_file(
    root: &Path,
    m: &Migration,
    section: &str,
    show: impl Fn(&Path) -> String,
) -> Result<Item> {
    let path = root.join(&m.agent_file);
    let existing = read_text_if_any(&path)?;
    let base = m
        .agent_text
        .clone()
        .or_else(|| existing.clone())
        .unwrap_or_default();
    let merged = agents::merge(&base, section);
    let status = match &existing {
        None => Status::Created,
        Some(old) if *old == merged => Status::Present,
        Some(_) => Status::Updated,
    };
    if status != Status::Present {
        refuse_symlinks(root, &path)?;
        write_bytes_atomic(&path, merged.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let detail = if m.agent_text.is_some() {
        "the task kept; the loop's keep/discard mechanics replaced by arx's"
    } else {
        "the loop for the agent"
    };
    Ok(Item {
        path: show(&path),
        status,
        detail: Some(detail.into()),
    })
}

/// Import the loop's night into the journal, as `arx journal import`
/// does (a second `arx init --from` adds only rows not yet imported). A
/// night that cannot be imported is said, and the rest of init stands.
fn night(
    ctx: &Ctx,
    root: &Path,
    m: &Migration,
    from: ImportFrom,
    journal: &Path,
) -> Result<Option<Item>> {
    let Some(rel) = &m.night else {
        return Ok(None);
    };
    let count = |p: &Path| -> Result<usize> {
        Ok(read_text_if_any(p)?.map_or(0, |t| t.lines().filter(|l| !l.trim().is_empty()).count()))
    };
    let before = count(journal)?;
    let args = ImportArgs {
        file: Some(root.join(rel)),
        from: Some(from),
        metric: m.objective.metric.clone(),
        direction: m.objective.direction.clone(),
        undo: None,
    };
    let (status, detail) = match crate::commands::import_night(ctx, args) {
        Ok(_) => {
            let added = count(journal)?.saturating_sub(before);
            (
                if added > 0 {
                    Status::Updated
                } else {
                    Status::Present
                },
                format!(
                    "the night imported: {added} new record{} (arx log lists them)",
                    if added == 1 { "" } else { "s" }
                ),
            )
        }
        Err(e) => (
            Status::Skipped,
            format!("the night was not imported: {e:#}; see arx journal import --help"),
        ),
    };
    Ok(Some(Item {
        path: rel.clone(),
        status,
        detail: Some(detail),
    }))
}
