//! `arx journal import`: another loop's night (karpathy's or codex's
//! `results.tsv`, pi's `autoresearch.jsonl`) read by the kernel
//! (`kernel::import`) into ratchet records marked imported, their commits
//! named as this repository names them, and written into the journal in
//! one atomic rewrite: before the records arx made itself, so the night
//! reads as what came before, and the segment `arx try` continues stays
//! the journal's last. The file is read twice, a line at a time, and the
//! journal is rewritten as a stream, so a night of any length is imported
//! in bounded memory. `--undo` removes what an import added.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, Read, Seek, SeekFrom, Write};
use std::path::Path;

use anyhow::Result;
use serde::Serialize;
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

use crate::cli::{ImportArgs, ImportFrom};
use crate::commands::{shown, Ctx, WARN};
use crate::error::{Exit, Hinted};
use crate::io::input::{each_line, open_regular};
use crate::io::report::Refold;
use crate::io::state::{Registry, JOURNAL_FILE};
use crate::kernel::import::{
    self, ImportError, Line, Mark, NightPlan, Options, Quiet, Skipped, Source, MAX_LINE,
};
use crate::kernel::number::num;
use crate::kernel::ratchet_record::TryStatus;
use crate::kernel::stats::Direction;
use crate::ops::import::{
    carry_history, copy_range, history_before, id_key, remove, scan_journal, Removed,
};
use crate::output::{bold, dim, warn, Report};

/// Skipped lines named one by one (on stderr and in the report); the rest
/// are counted.
const NAMED: usize = 20;
const LISTED: usize = 1000;

/// A night of the file, as imported.
#[derive(Serialize)]
struct NightReport {
    segment: String,
    metric: String,
    direction: Direction,
    /// Where the direction came from: flag, file, config, keeps.
    direction_from: &'static str,
    rows: usize,
    /// The night's best: its last keep, the commit the loop left kept (the
    /// rule `best` and `report` follow).
    best: Option<f64>,
}

#[derive(Serialize)]
struct ImportReport {
    file: String,
    from: Source,
    journal: String,
    /// This import's id (`arx journal import --undo ID`).
    import: String,
    /// The last night's metric and direction.
    metric: String,
    direction: Direction,
    /// The segment ids of the nights read.
    segments: Vec<String>,
    nights: Vec<NightReport>,
    /// Rows read from the file.
    rows: usize,
    /// Rows added to the journal now.
    imported: usize,
    /// Rows a former import added already.
    already_present: usize,
    /// Rows added without a commit: the file names none, or one this
    /// repository does not hold.
    without_commit: usize,
    /// Lines that are not rows, with why (the first 1,000).
    skipped: Vec<Skipped>,
    skipped_count: usize,
    /// Lines that are no try, by kind: pi's `config` and `hook` lines,
    /// codex's `worker` rows (`5a`) and `meta` rows (`search`, `refine`…).
    other_lines: BTreeMap<String, usize>,
    /// The last night's best (its last keep).
    best: Option<f64>,
}

fn direction_word(d: Direction, from: &str) -> String {
    if from == "none" {
        return "no row to tell its direction by".to_string();
    }
    let d = match d {
        Direction::Min => "lower is better",
        Direction::Max => "higher is better",
    };
    let why = match from {
        "flag" => "--direction",
        "file" => "as the file says",
        "config" => "as arx.toml says",
        "none" => "no row to tell it by",
        _ => "the night's keeps moved that way",
    };
    format!("{d}, {why}")
}

impl Report for ImportReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        let mut lines: Vec<String> = self
            .skipped
            .iter()
            .take(NAMED)
            .map(|s| s.line.to_string())
            .collect();
        if self.skipped_count > lines.len() {
            lines.push("…".to_string());
        }
        let skipped = match self.skipped_count {
            0 => "none skipped".to_string(),
            n => format!("{n} skipped (line {})", lines.join(", ")),
        };
        writeln!(
            out,
            "{b}imported{b:#} {} of {} rows from {} ({}) into {} {d}[import {}]{d:#}",
            self.imported, self.rows, self.file, self.from, self.journal, self.import
        )?;
        let mut other: Vec<String> = self
            .other_lines
            .iter()
            .map(|(k, n)| other_line(k, *n))
            .collect();
        other.insert(0, skipped);
        writeln!(
            out,
            "  {}, {} already present, {} without a commit in this repository",
            other.join(", "),
            self.already_present,
            self.without_commit
        )?;
        for n in &self.nights {
            let best = n
                .best
                .map(|v| format!("; best of the night (its last keep): {}", num(v, 6)))
                .unwrap_or_default();
            writeln!(
                out,
                "  {}: {} rows, {} ({}){best}",
                n.segment,
                n.rows,
                n.metric,
                direction_word(n.direction, n.direction_from)
            )?;
        }
        if self.imported == 0 {
            return Ok(());
        }
        writeln!(
            out,
            "  {d}imported: shown, not measured; the first arx try measures a baseline. Undo: arx journal import --undo {}{d:#}",
            self.import
        )
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
        (ImportError::NoSuchMetric { numeric, .. } | ImportError::NoMetric { numeric }, _) => {
            match numeric.first() {
                Some(first) => format!("name the column: --metric {first} (or another of: {})", numeric.join(", ")),
                None => "the file has no numeric column to read as a metric".to_string(),
            }
        }
        (ImportError::NoDirection { metric }, _) => format!(
            "pass --direction min (lower {metric} is better) or --direction max, or name {metric} and its direction in arx.toml's [objective]"
        ),
    };
    Hinted::error(format!("{file}: {e}; nothing imported"), hint)
}

/// The loop that wrote a file, from its first lines: JSON lines are pi's;
/// codex's header has `iteration` and `metric` columns (and often comment
/// lines above it); any other header is karpathy's.
fn sniff(file: &File) -> Result<Source> {
    let mut reader = io::BufReader::new(file.take(1 << 20));
    let mut line = String::new();
    let mut comments = false;
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return Ok(if comments {
                Source::Codex
            } else {
                Source::Karpathy
            });
        }
        let t = line.trim().trim_start_matches('\u{feff}');
        if t.is_empty() {
            continue;
        }
        if t.starts_with('#') {
            comments = true;
            continue;
        }
        if t.starts_with('{') {
            return Ok(Source::Pi);
        }
        let cols: Vec<String> = t
            .split('\t')
            .map(|c| c.trim().to_ascii_lowercase())
            .collect();
        let has = |c: &str| cols.iter().any(|x| x == c);
        return Ok(if has("iteration") && has("metric") {
            Source::Codex
        } else {
            Source::Karpathy
        });
    }
}

/// The objective arx.toml names, when it names one.
fn configured(ctx: &Ctx) -> Option<(String, Direction)> {
    let config = ctx.config().ok()?;
    let o = config.objective?;
    let metric = o.get("metric")?.as_str()?.to_string();
    let direction = match o.get("direction").and_then(|d| d.as_str()) {
        Some("max") | Some("maximize") | Some("higher") => Direction::Max,
        _ => Direction::Min,
    };
    Some((metric, direction))
}

/// This import's id: a short hash of the file as named and the time.
fn import_id(file: &str, now: &str) -> String {
    let d = Sha256::digest(format!("{file}\0{now}").as_bytes());
    d[..4].iter().map(|b| format!("{b:02x}")).collect()
}

const HINT_REGULAR: &str =
    "import a regular file: copy the night into one first (cp FILE night.tsv)";

pub fn run(ctx: &Ctx, args: &ImportArgs) -> Result<Exit> {
    if let Some(target) = &args.undo {
        return undo(ctx, target);
    }
    let cwd = ctx.cwd()?;
    let Some(path) = &args.file else {
        return Err(Hinted::error(
            "no file to import",
            "arx journal import FILE",
        ));
    };
    let file_shown = shown(path, &cwd);
    let file = open_regular(path, HINT_REGULAR)?;
    let from = match args.from {
        Some(ImportFrom::Karpathy) => Source::Karpathy,
        Some(ImportFrom::Pi) => Source::Pi,
        Some(ImportFrom::Codex) => Source::Codex,
        None => sniff(&file)?,
    };
    let options = Options {
        metric: args.metric.clone(),
        direction: args.direction.as_deref().map(|d| match d {
            "max" => Direction::Max,
            _ => Direction::Min,
        }),
        configured: configured(ctx),
    };
    // The first pass: what the night is.
    let mut survey = import::Survey::new(from, options);
    let mut refused = None;
    (&file).seek(SeekFrom::Start(0))?;
    each_line(&file, MAX_LINE, |n, bytes| {
        if refused.is_none() {
            if let Some(b) = bytes {
                if let Err(e) = survey.line(n, b) {
                    refused = Some(e);
                }
            }
        }
        Ok(())
    })?;
    if let Some(e) = refused {
        return Err(refusal(&file_shown, from, &e));
    }
    let plan = survey
        .finish()
        .map_err(|e| refusal(&file_shown, from, &e))?;
    let now = row_time(ctx, path)?;
    let id = import_id(&file_shown, &now);
    let mark = Mark {
        import: Some(id.clone()),
        file: Some(file_shown.clone()),
    };

    // The second pass, into the journal, under its lock.
    let state = ctx.state_dir()?;
    let registry: Registry<Box<RawValue>> = Registry::new(state.join(JOURNAL_FILE), WARN);
    let before = history_before(&state, &registry.path);
    let mut own_records = true;
    let mut commits = crate::io::git::Commits::new(&cwd);
    let mut tally = Tally::new(plan.nights.len());
    // The report's cached fold is built from what is written, so the
    // next command does not fold the whole journal again.
    let mut refold = Refold::default();
    let rewritten = registry.rewrite_streamed(|journal, out| {
        let out = &mut refold.tee(out);
        let (at, present, own) = scan_journal(journal)?;
        own_records = own;
        copy_range(journal, 0, at, out)?;
        let mut reader = plan.reader();
        (&file).seek(SeekFrom::Start(0))?;
        each_line(&file, MAX_LINE, |n, bytes| {
            let Some(bytes) = bytes else {
                tally.skip(Skipped {
                    line: n,
                    reason: format!("a line over {} MiB, not read", MAX_LINE >> 20),
                });
                return Ok(());
            };
            match reader.line(n, bytes) {
                Line::Row(row) => {
                    tally.row(&row);
                    if present.contains(&id_key(&row.id)) {
                        return Ok(());
                    }
                    let commit = row.commit.as_deref().and_then(|c| commits.full(c));
                    tally.without_commit += usize::from(commit.is_none());
                    let record = reader.record(&row, commit, &now, &mark);
                    serde_json::to_writer(&mut *out, &record)?;
                    out.write_all(b"\n")?;
                    tally.imported += 1;
                }
                Line::Skipped(s) => tally.skip(s),
                Line::Quiet(q) => tally.quiet(q),
            }
            Ok(())
        })?;
        if tally.rows == 0 && tally.skipped_count > 0 {
            // Nothing to write; the error is told below.
            return Ok(false);
        }
        let end = journal.seek(SeekFrom::End(0))?;
        copy_range(journal, at, end, out)?;
        Ok(tally.imported > 0)
    })?;
    for s in tally.skipped.iter().take(NAMED) {
        warn(format_args!(
            "{file_shown} line {}: skipped: {}",
            s.line, s.reason
        ));
    }
    if tally.skipped_count > NAMED {
        warn(format_args!(
            "{file_shown}: {} more lines skipped (--json lists them)",
            tally.skipped_count - NAMED
        ));
    }
    if tally.rows == 0 && tally.skipped_count > 0 {
        let first = &tally.skipped[0];
        return Err(Hinted::error(
            format!(
                "{file_shown}: none of its {} data rows imports (line {}: {}); nothing imported",
                tally.skipped_count, first.line, first.reason
            ),
            "check --from and --metric against the file's header; the warnings above name each line",
        ));
    }
    if rewritten {
        refold.save(&state, WARN);
        carry_history(&state, &registry.path, before, own_records, WARN);
    }
    let nights: Vec<NightReport> = plan
        .nights
        .iter()
        .zip(&tally.nights)
        .map(|(n, t): (&NightPlan, &(usize, Option<f64>))| NightReport {
            segment: n.segment.clone(),
            metric: n.metric.clone(),
            direction: n.direction,
            direction_from: n.direction_from,
            rows: t.0,
            best: t.1,
        })
        .filter(|n| n.rows > 0 || plan.nights.len() == 1)
        .collect();
    let last = plan.nights.last();
    ctx.out.emit(&ImportReport {
        file: file_shown,
        from,
        journal: shown(&registry.path, &cwd),
        import: id,
        metric: last.map(|n| n.metric.clone()).unwrap_or_default(),
        direction: last.map_or(Direction::Min, |n| n.direction),
        segments: nights.iter().map(|n| n.segment.clone()).collect(),
        best: nights.last().and_then(|n| n.best),
        nights,
        rows: tally.rows,
        imported: tally.imported,
        already_present: tally.rows - tally.imported,
        without_commit: tally.without_commit,
        skipped: tally.skipped,
        skipped_count: tally.skipped_count,
        other_lines: tally.other,
    })?;
    Ok(Exit::Ok)
}

/// What the second pass saw.
struct Tally {
    rows: usize,
    imported: usize,
    without_commit: usize,
    skipped: Vec<Skipped>,
    skipped_count: usize,
    other: BTreeMap<String, usize>,
    /// Per night: rows, and the value of its last keep.
    nights: Vec<(usize, Option<f64>)>,
}

impl Tally {
    fn new(nights: usize) -> Tally {
        Tally {
            rows: 0,
            imported: 0,
            without_commit: 0,
            skipped: Vec::new(),
            skipped_count: 0,
            other: BTreeMap::new(),
            nights: vec![(0, None); nights],
        }
    }

    fn row(&mut self, row: &import::Row) {
        self.rows += 1;
        if let Some(n) = self.nights.get_mut(row.night) {
            n.0 += 1;
            if matches!(row.status, TryStatus::Keep | TryStatus::Baseline) && row.value.is_some() {
                n.1 = row.value;
            }
        }
    }

    fn skip(&mut self, s: Skipped) {
        self.skipped_count += 1;
        if self.skipped.len() < LISTED {
            self.skipped.push(s);
        }
    }

    fn quiet(&mut self, q: Quiet) {
        let name = match q {
            Quiet::Layout => return,
            Quiet::Config => "config",
            Quiet::Hook => "hook",
            Quiet::Worker => "worker",
            Quiet::Meta => "meta",
        };
        *self.other.entry(name.to_string()).or_default() += 1;
    }
}

/// Lines that are no try, as the summary words them.
fn other_line(kind: &str, n: usize) -> String {
    let (one, many) = match kind {
        "config" => ("config line", "config lines"),
        "hook" => ("hook line", "hook lines"),
        "worker" => (
            "worker row folded into its round",
            "worker rows folded into their round",
        ),
        _ => ("row that tried no change", "rows that tried no change"),
    };
    format!("{n} {}", if n == 1 { one } else { many })
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

#[derive(Serialize)]
struct UndoReport {
    /// The file or import id named.
    undone: String,
    journal: String,
    /// Records removed.
    removed: usize,
    /// The imports they came from.
    imports: Vec<String>,
}

impl Report for UndoReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        writeln!(
            out,
            "{b}undone{b:#}: {} imported records removed from {} (import {})",
            self.removed,
            self.journal,
            self.imports.join(", ")
        )
    }
}

/// `--undo FILE|ID`: remove the records an import added, every import of
/// FILE or the import ID, in one streamed rewrite.
fn undo(ctx: &Ctx, target: &str) -> Result<Exit> {
    let cwd = ctx.cwd()?;
    let as_file = shown(Path::new(target), &cwd);
    let state = ctx.state_dir()?;
    let registry: Registry<Box<RawValue>> = Registry::new(state.join(JOURNAL_FILE), WARN);
    let before = history_before(&state, &registry.path);
    let mut removed = Removed::default();
    let mut refold = Refold::default();
    let rewritten = registry.rewrite_streamed(|journal, out| {
        removed = remove(journal, &mut refold.tee(out), target, &as_file)?;
        Ok(removed.records > 0)
    })?;
    if removed.records == 0 {
        let known: Vec<String> = removed
            .others
            .iter()
            .map(|(id, (file, n))| format!("{id} ({file}, {n} rows)"))
            .collect();
        let hint = match known.is_empty() {
            true => "the journal holds no import arx can undo by name (records of an older arx carry no import id)".to_string(),
            false => format!("imports in the journal: {}", known.join(", ")),
        };
        return Err(Hinted::error(
            format!("no import of {target} in the journal; nothing removed"),
            hint,
        ));
    }
    if rewritten {
        refold.save(&state, WARN);
        // Nothing of arx's own was removed: a history is carried over
        // only when it covered the journal before.
        carry_history(&state, &registry.path, before, true, WARN);
    }
    ctx.out.emit(&UndoReport {
        undone: target.to_string(),
        journal: shown(&registry.path, &cwd),
        removed: removed.records,
        imports: removed.imports,
    })?;
    Ok(Exit::Ok)
}
