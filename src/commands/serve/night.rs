//! The night as the live page shows it: the report folded from the journal
//! a piece at a time (what was appended since the last look), the backlog
//! of ideas, the runs running now, and what each look changed, published
//! to the open pages as events.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::commands::WARN;
use crate::io::follow::{Appended, Follower};
use crate::io::http::{Asked, Hub, Page as HttpPage, Site};
use crate::io::state::JOURNAL_FILE;
use crate::kernel::idea::{self, Idea, IdeaTry, InFlight};
use crate::kernel::journal::RunRecord;
use crate::kernel::objective::StopRules;
use crate::kernel::report::{
    millis, parse_line, Chart, Context, DeadEnd, Overview, PageFold, Round,
};
use crate::ops::{reactive, report_inputs};
use crate::output::export::html::TABLE_LIMIT;
use crate::output::export::live::{self, Live, RunningRow};
use crate::output::export::{Exporter, Page, Svg};

/// Last runs the summary lists (as `arx report`'s default).
const LAST: usize = 10;

/// The dead ends and rounds are read again every this many looks (and
/// whenever the journal changed).
const ASIDE_EVERY: u32 = 8;

/// Progress metrics shown per running run.
const PROGRESS_SHOWN: usize = 6;

/// What the backlog was folded from: the ideas file's length and time,
/// and the ideas in flight.
type IdeasFrom = (Option<(u64, std::time::SystemTime)>, Vec<InFlight>);

/// What the page shows, kept up to date by [`Night::look`].
pub struct Night {
    state: PathBuf,
    now: Option<String>,
    stop: StopRules,
    journal: Follower,
    /// Server start (ms) and how often the journal was read again from
    /// its start: a page of another generation reloads.
    started: i64,
    restarts: u32,
    /// Looks so far.
    looks: u32,
    page: PageFold,
    unreadable: usize,
    /// Tries that name an idea: (idea id, try), journal order.
    idea_tries: Vec<(String, IdeaTry)>,
    ideas: Vec<Idea>,
    running: Vec<RunningRow>,
    dead_ends: Vec<DeadEnd>,
    rounds: Vec<Round>,
    overview: Overview,
    chart: Chart,
    svg: String,
    /// The parts drawn from the journal (intro, chart, segments, rounds),
    /// by the id of their element, and whether they were drawn again
    /// since the pages were last told.
    summary: Vec<(&'static str, String)>,
    summary_fresh: bool,
    /// The parts last told, to tell a part only when it changed.
    sent: Vec<(&'static str, String)>,
    /// What the backlog was last folded from: the ideas file's length and
    /// time, and the ideas in flight.
    ideas_from: Option<IdeasFrom>,
}

impl Night {
    pub fn new(state: &Path, now: Option<String>, stop: StopRules) -> Result<Night> {
        let mut night = Night {
            state: state.to_path_buf(),
            now,
            stop,
            journal: Follower::new(&state.join(JOURNAL_FILE)),
            started: jiff::Timestamp::now().as_millisecond(),
            restarts: 0,
            looks: 0,
            page: PageFold::new(TABLE_LIMIT),
            unreadable: 0,
            idea_tries: Vec::new(),
            ideas: Vec::new(),
            running: Vec::new(),
            dead_ends: Vec::new(),
            rounds: Vec::new(),
            overview: crate::kernel::report::overview(
                &Default::default(),
                crate::kernel::report::Scope::Latest,
                &Context::default(),
                Vec::new(),
            ),
            chart: PageFold::new(1).chart(None),
            svg: String::new(),
            summary: Vec::new(),
            summary_fresh: false,
            sent: Vec::new(),
            ideas_from: None,
        };
        night.look(None)?;
        Ok(night)
    }

    fn generation(&self) -> String {
        format!("{:x}-{}", self.started, self.restarts)
    }

    /// Read what changed since the last look; tell `hub` (the open pages),
    /// in one message.
    pub fn look(&mut self, hub: Option<&Hub>) -> Result<()> {
        let mut told = String::new();
        let mut rows_from = self.page.runs();
        let mut journal_changed = false;
        loop {
            let (lines, restarted) = match self.journal.read()? {
                Appended::Lines(l) => (l, false),
                Appended::Restarted(l) => (l, true),
            };
            if restarted {
                self.restart();
                rows_from = 0;
                told.push_str(&live::event("reload", None, &serde_json::json!({})));
            }
            if lines.is_empty() {
                break;
            }
            journal_changed = true;
            self.fold_lines(&lines);
            if lines.len() < crate::io::follow::CHUNK {
                break;
            }
        }
        self.look_at_ideas(journal_changed)?;
        self.running = running(&self.state)?;
        self.looks = self.looks.wrapping_add(1);
        let mut summarize = journal_changed || self.sent.is_empty();
        if summarize || self.looks.is_multiple_of(ASIDE_EVERY) {
            let dead_ends = report_inputs::dead_ends(&self.state, WARN)?;
            let rounds = report_inputs::rounds(&self.state, WARN)?;
            summarize |= dead_ends != self.dead_ends || rounds != self.rounds;
            self.dead_ends = dead_ends;
            self.rounds = rounds;
        }
        if summarize {
            self.summarize()?;
        }
        if self.page.runs() > rows_from {
            match self.page.rows_after(rows_from) {
                Some(rows) => told.push_str(&live::rows(rows, self.page.runs())),
                // More runs than the table holds came at once.
                None => told.push_str(&live::event("reload", None, &serde_json::json!({}))),
            }
        }
        self.changed_parts(&mut told);
        if let Some(hub) = hub.filter(|_| !told.is_empty()) {
            hub.publish(told);
        }
        Ok(())
    }

    fn restart(&mut self) {
        self.restarts += 1;
        self.page = PageFold::new(TABLE_LIMIT);
        self.unreadable = 0;
        self.idea_tries.clear();
        self.ideas_from = None;
        self.sent.clear();
    }

    /// Fold the journal's complete lines `lines`.
    fn fold_lines(&mut self, lines: &[u8]) {
        for line in lines.split(|b| *b == b'\n') {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match parse_line(line) {
                Some(p) => {
                    self.page.add(p);
                }
                None => self.unreadable += 1,
            }
            // Only a try that names an idea adds to the backlog.
            if memchr::memmem::find(line, b"\"idea\"").is_some() {
                if let Ok(record) = serde_json::from_slice::<RunRecord>(line) {
                    if let Some((id, t)) = IdeaTry::of(&record) {
                        self.idea_tries.push((id.to_string(), t));
                    }
                }
            }
        }
    }

    /// The backlog again when its file, the ideas in flight or the
    /// journal changed (the journal's tries are kept).
    fn look_at_ideas(&mut self, journal_changed: bool) -> Result<()> {
        let file = std::fs::metadata(self.state.join(crate::io::ideas::IDEAS_FILE))
            .ok()
            .map(|m| (m.len(), m.modified().unwrap_or(std::time::UNIX_EPOCH)));
        let flying = crate::io::ideas::in_flight(&self.state);
        let from = Some((file, flying));
        if !journal_changed && from == self.ideas_from {
            return Ok(());
        }
        let flying = from.as_ref().map(|f| f.1.clone()).unwrap_or_default();
        self.ideas_from = from;
        let lines = crate::io::ideas::read(&self.state, WARN)?;
        let tries = self.idea_tries.iter().map(|(i, t)| (i.as_str(), t.clone()));
        let ideas = idea::fold(lines, tries, &flying).ideas;
        self.ideas = ideas;
        Ok(())
    }

    fn context(&self) -> Result<Context> {
        let now = crate::io::clock::now(self.now.as_deref())?;
        Ok(Context {
            now_ms: millis(&now),
            now,
            stop: self.stop.clone(),
            precision: None,
            dead_ends: self.dead_ends.clone(),
            rounds: self.rounds.clone(),
            last: LAST,
            unreadable: self.unreadable,
        })
    }

    /// The summary and the chart again.
    fn summarize(&mut self) -> Result<()> {
        self.overview = self.page.overview(&self.context()?);
        self.chart = self.page.chart(self.stop.target);
        let mut svg = Vec::new();
        Svg.export(&self.chart, &mut svg)?;
        self.svg = String::from_utf8(svg)?;
        let page = page_of(
            &self.overview,
            &self.chart,
            &self.svg,
            &[],
            self.page.runs(),
        );
        self.summary = vec![
            ("intro", live::intro(&page)),
            ("chart", live::chart(&page)),
            ("segments", live::segments(&page)),
            ("rounds", live::rounds(&page)),
        ];
        self.summary_fresh = true;
        Ok(())
    }

    /// The page's parts, by the id of their element.
    fn parts(&self) -> Vec<(&'static str, String)> {
        let mut parts = self.summary.clone();
        parts.push(("running", live::running(&self.running)));
        parts.push(("ideas", live::ideas(&self.ideas)));
        parts
    }

    /// The events of the parts that changed since they were last told
    /// (the journal's parts only when they were drawn again).
    fn changed_parts(&mut self, told: &mut String) {
        let mut now = vec![
            ("running", live::running(&self.running)),
            ("ideas", live::ideas(&self.ideas)),
        ];
        if std::mem::take(&mut self.summary_fresh) {
            now.extend(self.summary.iter().cloned());
        }
        for (id, html) in now {
            match self.sent.iter_mut().find(|(i, _)| *i == id) {
                Some((_, before)) if *before == html => {}
                Some((_, before)) => {
                    told.push_str(&live::section(id, &html));
                    *before = html;
                }
                None => {
                    told.push_str(&live::section(id, &html));
                    self.sent.push((id, html));
                }
            }
        }
    }

    /// The whole page.
    pub fn render(&mut self) -> String {
        let total = self.page.runs();
        let generation = self.generation();
        let rows = self.page.rows_slice();
        let page = page_of(&self.overview, &self.chart, &self.svg, rows, total);
        live::render(&Live {
            page,
            running: &self.running,
            ideas: &self.ideas,
            generation: &generation,
            last_run: total,
        })
    }

    /// The first events of a page's stream: its generation, every part,
    /// and the runs after `since` (or a reload, when they are no longer
    /// held).
    pub fn stream_start(&mut self, since: Option<usize>) -> String {
        let mut out = live::event(
            "hello",
            None,
            &serde_json::json!({"generation": self.generation()}),
        );
        for (id, html) in self.parts() {
            out.push_str(&live::section(id, &html));
        }
        if let Some(since) = since {
            match self.page.rows_after(since) {
                Some(rows) if !rows.is_empty() => out.push_str(&live::rows(rows, self.page.runs())),
                Some(_) => {}
                None => out.push_str(&live::event("reload", None, &serde_json::json!({}))),
            }
        }
        out
    }
}

fn page_of<'a>(
    overview: &'a Overview,
    chart: &'a Chart,
    svg: &'a str,
    rows: &'a [crate::kernel::report::Row],
    total: usize,
) -> Page<'a> {
    Page {
        overview,
        chart,
        svg,
        rows,
        rows_total: total,
    }
}

/// The runs running now, as the page shows them.
fn running(state: &Path) -> Result<Vec<RunningRow>> {
    let now = jiff::Timestamp::now().as_millisecond();
    Ok(reactive::survey(state, now, WARN)?
        .into_iter()
        .map(|s| {
            let l = s.live;
            let metrics = l.result.as_ref().or(l.last_progress.as_ref());
            RunningRow {
                run_id: l.run_id,
                kind: l.kind,
                state: s.state.as_str().to_string(),
                label: l.label,
                elapsed_ms: u64::try_from(s.elapsed_ms).unwrap_or(0),
                progress: metrics
                    .into_iter()
                    .flat_map(|m| m.iter())
                    .take(PROGRESS_SHOWN)
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
                slot: l.slot,
                pruning: l.pruning,
                command: l.command.join(" "),
            }
        })
        .collect())
}

/// The night behind a lock, as the server serves it.
pub struct Served(pub std::sync::Mutex<Night>);

impl Served {
    pub fn night(&self) -> std::sync::MutexGuard<'_, Night> {
        // A panic while the lock was held left the night as it was: serve
        // it still.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Site for Served {
    fn page(&self, asked: &Asked<'_>) -> Option<HttpPage> {
        match asked.path {
            "/" | "/index.html" => Some(HttpPage {
                content_type: "text/html; charset=utf-8",
                body: self.night().render().into_bytes(),
            }),
            _ => None,
        }
    }

    fn stream(&self, asked: &Asked<'_>) -> Option<String> {
        if asked.path != "/events" {
            return None;
        }
        let since = asked
            .last_event_id
            .and_then(|i| i.trim().parse().ok())
            .or_else(|| {
                asked.query.and_then(|q| {
                    q.split('&')
                        .find_map(|kv| kv.strip_prefix("since="))
                        .and_then(|v| v.parse().ok())
                })
            });
        Some(self.night().stream_start(since))
    }
}
