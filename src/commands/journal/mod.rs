//! `arx journal merge|verify|import`: combine run journals written on many
//! machines (CI jobs, cluster tasks, git branches) into this one, and check
//! a journal for conflicting or missing run ids; read another loop's night
//! into it (`import.rs`). Merging, deduplication and
//! the checks are the kernel's; this file reads the files, replaces the
//! local journal through `Registry::rewrite` (atomically, under its lock)
//! and reports. It never edits a journal other than the local one.

mod import;

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use super::shown;
use super::Ctx;
use crate::cli::JournalCommand;
use crate::commands::WARN;
use crate::error::{Exit, Hinted};
use crate::io::state::{journal, Registry};
use crate::kernel::journal::{
    check_journal, duplicate_records, merge, scan_journal, JournalCheck, RunRecord, Unreadable,
};
use crate::output::{bold, dim, warn, Report};
use anstyle::{AnsiColor, Style};

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[derive(Serialize)]
struct Input {
    path: String,
    /// Readable records.
    records: usize,
    /// Lines skipped as unreadable.
    unreadable: usize,
    /// A torn last line was skipped.
    torn_tail: bool,
}

#[derive(Serialize)]
struct MergeReport {
    journal: String,
    /// The local journal first, then each file in the order given.
    inputs: Vec<Input>,
    unique_runs: usize,
    duplicates_dropped: usize,
    /// Run ids whose records differ; the first one read was kept.
    conflicts: Vec<String>,
    /// The journal file was replaced (false: it was already merged).
    rewritten: bool,
}

impl Report for MergeReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        let width = self
            .inputs
            .iter()
            .map(|i| i.records.to_string().len())
            .max()
            .unwrap_or(1);
        for input in &self.inputs {
            let mut notes = Vec::new();
            if input.unreadable > 0 {
                notes.push(format!(
                    "{} skipped",
                    plural(input.unreadable, "unreadable line", "unreadable lines")
                ));
            }
            if input.torn_tail {
                notes.push("torn last line skipped".to_string());
            }
            let notes = if notes.is_empty() {
                String::new()
            } else {
                format!("  {d}({}){d:#}", notes.join(", "))
            };
            writeln!(
                out,
                "{d}read{d:#} {:>width$} {}{notes}",
                input.records, input.path,
            )?;
        }
        let dropped = format!(
            "{} dropped",
            plural(self.duplicates_dropped, "duplicate", "duplicates")
        );
        let conflicts = match self.conflicts.len() {
            0 => String::new(),
            n => format!(
                "; {} with differing records, the first kept",
                plural(n, "run id", "run ids")
            ),
        };
        if self.rewritten {
            writeln!(
                out,
                "{b}merged{b:#}: {} written to {} ({dropped}{conflicts})",
                plural(self.unique_runs, "unique run", "unique runs"),
                self.journal
            )
        } else {
            writeln!(
                out,
                "{b}unchanged{b:#}: {} already holds {} ({dropped}{conflicts})",
                self.journal,
                plural(self.unique_runs, "unique run", "unique runs"),
            )
        }
    }
}

/// The journal a directory most likely means: its state directory's
/// (`DIR/.arx/journal.jsonl`, a project) or its own (`DIR/journal.jsonl`,
/// a state directory), whichever exists; the project's when neither does.
fn journal_in(dir: &Path) -> std::path::PathBuf {
    let own = dir.join(crate::io::state::JOURNAL_FILE);
    let project = dir.join(".arx").join(crate::io::state::JOURNAL_FILE);
    if own.is_file() && !project.is_file() {
        own
    } else {
        project
    }
}

/// A journal file given on the command line: it must exist and be a file.
fn input_registry(path: &Path, hint: &str) -> Result<Registry<RunRecord>> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(Hinted::error(
            format!("{} is a directory, not a journal file", path.display()),
            format!(
                "pass the journal inside it, e.g. {}",
                journal_in(path).display()
            ),
        )),
        Ok(_) => Ok(Registry::new(path.to_path_buf(), WARN)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(Hinted::error(
            format!("journal file {}: no such file", path.display()),
            hint.to_string(),
        )),
        Err(e) => Err(anyhow::Error::new(e).context(format!("cannot read {}", path.display()))),
    }
}

fn merge_files(ctx: &Ctx, files: &[PathBuf]) -> Result<Exit> {
    let cwd = ctx.cwd()?;
    let local = journal(&ctx.state_dir()?, WARN);
    let (mut inputs, incoming) = read_inputs(files, &cwd)?;
    let journal_name = shown(&local.path, &cwd);
    let local_input = |records, unreadable, torn_tail| Input {
        path: journal_name.clone(),
        records,
        unreadable,
        torn_tail,
    };

    // Nothing to merge into a journal that does not exist: leave no trace.
    if files.is_empty() && !local.path.exists() {
        inputs.insert(0, local_input(0, 0, false));
        ctx.out.emit(&MergeReport {
            journal: journal_name.clone(),
            inputs,
            unique_runs: 0,
            duplicates_dropped: 0,
            conflicts: Vec::new(),
            rewritten: false,
        })?;
        return Ok(Exit::Ok);
    }

    let mut summary = None;
    let rewritten = local.rewrite(|loaded| {
        let local_count = loaded.records.len();
        // Where each run id was first read, to say which copy was kept.
        let mut first_seen: HashMap<String, usize> = HashMap::new();
        let all: Vec<RunRecord> = loaded
            .records
            .iter()
            .cloned()
            .map(|r| (0, r))
            .chain(incoming)
            .map(|(source, r)| {
                first_seen.entry(r.run_id.clone()).or_insert(source);
                r
            })
            .collect();
        let merged = merge(all);
        let changed =
            merged.records != loaded.records || loaded.torn_tail || !loaded.skipped.is_empty();
        let kept_from: Vec<(String, usize)> = merged
            .conflicts
            .iter()
            .map(|id| (id.clone(), first_seen.get(id).copied().unwrap_or(0)))
            .collect();
        summary = Some((
            local_input(local_count, loaded.skipped.len(), loaded.torn_tail),
            merged.records.len(),
            merged.dropped,
            kept_from,
        ));
        changed.then_some(merged.records)
    })?;
    let Some((local_in, unique_runs, duplicates_dropped, kept_from)) = summary else {
        anyhow::bail!("internal error: the journal was not read");
    };
    inputs.insert(0, local_in);
    if rewritten {
        refresh_history(&local.path);
    }
    warn_conflicts(&kept_from, &inputs);
    ctx.out.emit(&MergeReport {
        journal: journal_name,
        inputs,
        unique_runs,
        duplicates_dropped,
        conflicts: kept_from.into_iter().map(|(id, _)| id).collect(),
        rewritten,
    })?;
    Ok(Exit::Ok)
}

/// Records to merge, each with the number of the input it came from.
type Incoming = Vec<(usize, RunRecord)>;

/// Each journal to merge in: what it holds, and its records with the
/// number of their input (from 1: the local journal is 0).
fn read_inputs(files: &[PathBuf], cwd: &Path) -> Result<(Vec<Input>, Incoming)> {
    let mut inputs = Vec::new();
    let mut incoming: Vec<(usize, RunRecord)> = Vec::new();
    for (i, path) in files.iter().enumerate() {
        let loaded = input_registry(path, "check the path (was every artifact downloaded?)")?
            .read_loaded()?;
        inputs.push(Input {
            path: shown(path, cwd),
            records: loaded.records.len(),
            unreadable: loaded.skipped.len(),
            torn_tail: loaded.torn_tail,
        });
        incoming.extend(loaded.records.into_iter().map(|r| (i + 1, r)));
    }
    Ok((inputs, incoming))
}

/// A warning for each run id whose records differ, naming the input whose
/// copy was kept.
fn warn_conflicts(kept_from: &[(String, usize)], inputs: &[Input]) {
    for (id, source) in kept_from {
        warn(format_args!(
            "run {id}: records with this id differ; kept the first one read, from {}",
            inputs.get(*source).map_or("?", |i| i.path.as_str())
        ));
    }
}

/// Refold the engines' state now, so the next `arx next` is quick.
pub(super) fn refresh_history(journal: &Path) {
    if let Some(state) = journal.parent() {
        if let Err(e) = crate::io::history::load(state, journal, true, WARN) {
            warn(format_args!("cannot refresh the precision state: {e:#}"));
        }
    }
}

#[derive(Serialize)]
struct VerifyReport {
    path: String,
    /// The file exists (a missing default journal is empty and sound).
    exists: bool,
    /// No run id conflicts and none is missing.
    ok: bool,
    #[serde(flatten)]
    check: JournalCheck,
    /// Records that repeat an earlier record exactly (a merge drops them).
    duplicate_records: usize,
    /// Line numbers (1-based) of lines that are not run records.
    unreadable_lines: Vec<usize>,
    /// The file ends in a partial line (an interrupted write).
    torn_tail: bool,
    #[serde(skip)]
    unreadable: Vec<Unreadable>,
}

impl Report for VerifyReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        if !self.exists {
            return writeln!(
                out,
                "{d}no journal at {} (nothing to verify){d:#}",
                self.path
            );
        }
        let c = &self.check;
        writeln!(
            out,
            "{b}{}{b:#}: {}, {}",
            self.path,
            plural(c.records, "record", "records"),
            plural(c.unique_runs, "unique run", "unique runs")
        )?;
        if self.duplicate_records > 0 {
            writeln!(
                out,
                "  {} (run `arx journal merge` to drop them)",
                plural(
                    self.duplicate_records,
                    "duplicate record",
                    "duplicate records"
                )
            )?;
        }
        if !c.conflicts.is_empty() {
            writeln!(
                out,
                "  {} with different records: {}",
                plural(c.conflicts.len(), "run id", "run ids"),
                c.conflicts.join(", ")
            )?;
        }
        if c.missing_ids > 0 {
            writeln!(
                out,
                "  {} without a run id",
                plural(c.missing_ids, "record", "records")
            )?;
        }
        for u in &self.unreadable {
            writeln!(out, "  line {}: unreadable ({})", u.line, u.reason)?;
        }
        if self.torn_tail {
            writeln!(
                out,
                "  torn last line (an interrupted write: readers skip it, the next write removes it)"
            )?;
        }
        if self.ok {
            let s = Style::new().fg_color(Some(AnsiColor::Green.into())).bold();
            writeln!(out, "{s}sound{s:#}")
        } else {
            let s = Style::new().fg_color(Some(AnsiColor::Red.into())).bold();
            writeln!(
                out,
                "{s}not sound{s:#}: conflicting or missing run ids, or unreadable lines"
            )
        }
    }
}

fn verify(ctx: &Ctx, file: Option<&Path>) -> Result<Exit> {
    let cwd = ctx.cwd()?;
    let registry = match file {
        Some(path) => input_registry(path, "check the path")?,
        None => journal(&ctx.state_dir()?, WARN),
    };
    let bytes = match registry.read_bytes()? {
        Some(bytes) => Some(bytes),
        None if file.is_some() => {
            return Err(Hinted::error(
                format!("journal file {}: no such file", registry.path.display()),
                "check the path",
            ))
        }
        None => None,
    };
    let exists = bytes.is_some();
    let scan = scan_journal(bytes.as_deref().unwrap_or_default());
    let check = check_journal(scan.pairs());
    let report = VerifyReport {
        path: shown(&registry.path, &cwd),
        exists,
        // Unreadable lines (a bad merge, hand edits) make a journal unsound;
        // a torn last line is the expected trace of a crash and does not.
        ok: check.ok() && scan.unreadable.is_empty(),
        duplicate_records: duplicate_records(scan.pairs()),
        check,
        unreadable_lines: scan.unreadable.iter().map(|u| u.line).collect(),
        torn_tail: scan.torn_tail,
        unreadable: scan.unreadable,
    };
    ctx.out.emit(&report)?;
    let c = &report.check;
    match report.ok {
        true => ctx.answer(
            &format!(
                "sound: {} records, {} unique runs",
                c.records, c.unique_runs
            ),
            "go on",
        ),
        false => ctx.answer(
            &format!(
                "not sound: {} conflicting run ids, {} records without a run id, {} unreadable lines",
                c.conflicts.len(),
                c.missing_ids,
                report.unreadable_lines.len()
            ),
            "stop: tell the person (never edit the journal by hand)",
        ),
    }
    Ok(if report.ok { Exit::Ok } else { Exit::No })
}

pub fn run(ctx: &Ctx, cmd: &JournalCommand) -> Result<Exit> {
    match cmd {
        JournalCommand::Merge { files } => merge_files(ctx, files),
        JournalCommand::Verify { file } => verify(ctx, file.as_deref()),
        JournalCommand::Import(args) => import::run(ctx, args),
    }
}
