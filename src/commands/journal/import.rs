//! `arx journal import`: another loop's night (karpathy's or codex's
//! `results.tsv`, pi's `autoresearch.jsonl`) read by the kernel
//! (`kernel::import`) into ratchet records marked imported, their commits
//! named as this repository names them, and written into the journal in
//! one atomic rewrite: before the records arx made itself, so the night
//! reads as what came before, and the segment `arx try` continues stays
//! the journal's last.

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::Path;

use anyhow::Result;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::refresh_history;
use crate::cli::{ImportArgs, ImportFrom};
use crate::commands::{shown, Ctx, WARN};
use crate::error::{Exit, Hinted};
use crate::io::state::{Registry, JOURNAL_FILE};
use crate::kernel::import::{self, ImportError, Options, Skipped, Source};
use crate::kernel::number::num;
use crate::kernel::ratchet_record::TryStatus;
use crate::kernel::stats::Direction;
use crate::output::{bold, dim, warn, Report};

#[derive(Serialize)]
struct ImportReport {
    file: String,
    from: Source,
    journal: String,
    metric: String,
    direction: Direction,
    /// The segment ids of the nights read.
    segments: Vec<String>,
    /// Rows read from the file.
    rows: usize,
    /// Rows added to the journal now.
    imported: usize,
    /// Rows a former import added already.
    already_present: usize,
    /// Rows added without a commit: the file names none, or one this
    /// repository does not hold.
    without_commit: usize,
    /// Lines that are not rows, with why.
    skipped: Vec<Skipped>,
    /// The best kept value of the rows read (shown, not measured by arx).
    best: Option<f64>,
}

impl Report for ImportReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        let lines: Vec<String> = self.skipped.iter().map(|s| s.line.to_string()).collect();
        let skipped = match lines.len() {
            0 => "none skipped".to_string(),
            n => format!("{n} skipped (line {})", lines.join(", ")),
        };
        writeln!(
            out,
            "{b}imported{b:#} {} of {} rows from {} ({}) into {}",
            self.imported, self.rows, self.file, self.from, self.journal
        )?;
        writeln!(
            out,
            "  {skipped}, {} already present, {} without a commit in this repository",
            self.already_present, self.without_commit
        )?;
        if let Some(best) = self.best {
            writeln!(
                out,
                "  {d}best of the night: {} {} (imported: shown, not measured; the first arx try measures a baseline){d:#}",
                self.metric,
                num(best, 6)
            )?;
        }
        Ok(())
    }
}

/// Of a journal line, what the import asks: its run id, and whether it
/// is an imported record.
#[derive(Deserialize)]
struct Peek<'a> {
    #[serde(default)]
    run_id: String,
    #[serde(default, borrow)]
    ratchet: Option<&'a RawValue>,
}

fn peek(line: &RawValue) -> Option<Peek<'_>> {
    serde_json::from_str(line.get()).ok()
}

/// The mark of an imported record, read as the engines read it.
fn is_imported(line: &RawValue) -> bool {
    peek(line)
        .and_then(|p| p.ratchet)
        .is_some_and(|r| crate::engine::observe::imported_mark(r.get().as_bytes()))
}

fn read_file(path: &Path) -> Result<Vec<u8>> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(Hinted::error(
            format!("{} is a directory", path.display()),
            "pass the file inside it: results.tsv or autoresearch.jsonl",
        )),
        Ok(_) => std::fs::read(path)
            .map_err(|e| anyhow::Error::new(e).context(format!("cannot read {}", path.display()))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(Hinted::error(
            format!("{}: no such file", path.display()),
            "check the path",
        )),
        Err(e) => Err(anyhow::Error::new(e).context(format!("cannot read {}", path.display()))),
    }
}

fn refusal(file: &str, from: Source, e: &ImportError) -> anyhow::Error {
    let hint = match (e, from) {
        (ImportError::Encoding(_), _) => {
            "save the file as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8), then import it".to_string()
        }
        (ImportError::Kind(_), Source::Pi) => {
            "--from pi reads autoresearch.jsonl; a results.tsv is read with --from karpathy or --from codex".to_string()
        }
        (ImportError::Kind(_), _) => format!(
            "--from {from} reads {from}'s results.tsv; autoresearch.jsonl is read with --from pi"
        ),
    };
    Hinted::error(format!("{file}: {e}; nothing imported"), hint)
}

pub fn run(ctx: &Ctx, args: &ImportArgs) -> Result<Exit> {
    let cwd = ctx.cwd()?;
    let file = shown(&args.file, &cwd);
    let from = match args.from {
        ImportFrom::Karpathy => Source::Karpathy,
        ImportFrom::Pi => Source::Pi,
        ImportFrom::Codex => Source::Codex,
    };
    let options = Options {
        metric: args.metric.clone(),
        direction: args.direction.as_deref().map(|d| match d {
            "max" => Direction::Max,
            _ => Direction::Min,
        }),
    };
    let bytes = read_file(&args.file)?;
    let night = import::parse(from, &bytes, &options).map_err(|e| refusal(&file, from, &e))?;
    for s in &night.skipped {
        warn(format_args!(
            "{file} line {}: skipped: {}",
            s.line, s.reason
        ));
    }
    let written: Vec<Option<String>> = night.rows.iter().map(|r| r.commit.clone()).collect();
    let commits = crate::io::git::full_commits(&cwd, &written);
    let records = import::records(&night, &commits, &row_time(ctx, &args.file)?);

    let state = ctx.state_dir()?;
    let registry: Registry<Box<RawValue>> = Registry::new(state.join(JOURNAL_FILE), WARN);
    let (mut added, mut unreadable) = (Vec::new(), 0);
    let rewritten = registry.rewrite(|loaded| {
        if !loaded.skipped.is_empty() {
            unreadable = loaded.skipped.len();
            return None;
        }
        let present: HashSet<String> = loaded
            .records
            .iter()
            .filter_map(|l| peek(l).map(|p| p.run_id))
            .collect();
        let mut lines = Vec::new();
        for (i, r) in records.iter().enumerate() {
            if present.contains(&r.run_id) {
                continue;
            }
            let text = serde_json::to_string(r).ok()?;
            lines.push(RawValue::from_string(text).ok()?);
            added.push(i);
        }
        if lines.is_empty() {
            return None;
        }
        // After the imported records the journal starts with, before the
        // first record arx made.
        let at = loaded
            .records
            .iter()
            .position(|l| !is_imported(l))
            .unwrap_or(loaded.records.len());
        let mut all = loaded.records.clone();
        all.splice(at..at, lines);
        Some(all)
    })?;
    if unreadable > 0 {
        return Err(Hinted::error(
            format!("the journal has {unreadable} unreadable line(s); nothing imported"),
            "arx journal verify names them; arx journal merge rewrites the journal without them",
        ));
    }
    if rewritten {
        refresh_history(&registry.path);
    }
    let imported = if rewritten { added.len() } else { 0 };
    let without_commit = if rewritten {
        added.iter().filter(|&&i| commits[i].is_none()).count()
    } else {
        0
    };
    let mut segments: Vec<String> = Vec::new();
    for r in &night.rows {
        if !segments.contains(&r.segment) {
            segments.push(r.segment.clone());
        }
    }
    let best = best_of(&night);
    ctx.out.emit(&ImportReport {
        file,
        from,
        journal: shown(&registry.path, &cwd),
        metric: night.metric.clone(),
        direction: night.direction,
        segments,
        rows: night.rows.len(),
        imported,
        already_present: night.rows.len() - imported,
        without_commit,
        skipped: night.skipped,
        best,
    })?;
    Ok(Exit::Ok)
}

/// The time of rows whose file gives none: `--now` when given, else when
/// the loop last wrote the file, so the night sorts before the work that
/// came after it (`arx journal merge` orders by start time).
fn row_time(ctx: &Ctx, file: &Path) -> Result<String> {
    if ctx.global.now.is_some() {
        return ctx.now();
    }
    let written = std::fs::metadata(file)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| jiff::Timestamp::try_from(t).ok());
    match written {
        Some(t) => Ok(crate::io::clock::millis(t)),
        None => ctx.now(),
    }
}

/// The best value the night kept.
fn best_of(night: &import::Night) -> Option<f64> {
    night
        .rows
        .iter()
        .filter(|r| matches!(r.status, TryStatus::Keep | TryStatus::Baseline))
        .filter_map(|r| r.value)
        .reduce(|a, b| match night.direction {
            Direction::Min => a.min(b),
            Direction::Max => a.max(b),
        })
}
