//! `arx watch [RUN]`: follows live runs (their live files, polled) and
//! prints their events as they come: started, progress, heartbeat,
//! pruning, and the verdict from the journal when a run ends (or `lost`
//! when its arx died). Ends when the runs it follows have ended.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::Duration;

use anyhow::Result;
use serde::Serialize;

use super::{Ctx, WARN};
use crate::error::{Exit, Hinted};
use crate::kernel::contract::Metrics;
use crate::kernel::journal::RunRecord;
use crate::kernel::live::{self, LiveEvent, LiveRun, Liveness};
use crate::kernel::number::fmt_number;
use crate::ops::reactive;
use crate::output::{bold, dim, Report};

/// How often the live files are read.
const POLL: Duration = Duration::from_millis(200);

/// One event of a watched run (one line; NDJSON under `--json`).
#[derive(Debug, Clone, Serialize)]
struct WatchEvent {
    event: &'static str,
    run_id: String,
    time: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    command: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    metrics: Option<Metrics>,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exit_code: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<String>,
}

impl WatchEvent {
    fn new(event: &'static str, run_id: &str, now_ms: i64) -> Self {
        WatchEvent {
            event,
            run_id: run_id.to_string(),
            time: jiff::Timestamp::from_millisecond(now_ms)
                .map(crate::io::clock::millis)
                .unwrap_or_default(),
            label: None,
            command: None,
            metrics: None,
            status: None,
            exit_code: None,
            detail: None,
        }
    }
}

fn short(id: &str) -> &str {
    id.get(..crate::kernel::journal::SHORT_ID_LEN).unwrap_or(id)
}

fn metrics_text(m: &Metrics) -> String {
    m.iter()
        .take(6)
        .map(|(k, v)| format!("{k}={}", fmt_number(v)))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Report for WatchEvent {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        let d = dim();
        write!(
            out,
            "{d}{}{d:#} {b}{}{b:#}",
            short(&self.run_id),
            self.event
        )?;
        if let Some(c) = &self.command {
            write!(out, " {}", c.join(" "))?;
        }
        if let Some(l) = self.label.as_ref().filter(|l| !l.is_empty()) {
            write!(out, " {d}({l}){d:#}")?;
        }
        if let Some(s) = &self.status {
            write!(out, " {s}")?;
        }
        if let Some(m) = self.metrics.as_ref().filter(|m| !m.is_empty()) {
            write!(out, " {}", metrics_text(m))?;
        }
        if let Some(x) = self.exit_code {
            write!(out, " {d}exit {x}{d:#}")?;
        }
        if let Some(t) = &self.detail {
            write!(out, " {t}")?;
        }
        writeln!(out)
    }
}

/// The line of one event of a live run.
fn watch_event(event: LiveEvent, run_id: &str, now_ms: i64) -> WatchEvent {
    match event {
        LiveEvent::Started { command, label } => {
            let mut e = WatchEvent::new("started", run_id, now_ms);
            e.command = Some(command);
            e.label = label;
            e
        }
        LiveEvent::Attempt(label) => {
            let mut e = WatchEvent::new("attempt", run_id, now_ms);
            e.label = Some(label);
            e
        }
        LiveEvent::Progress(metrics) => {
            let mut e = WatchEvent::new("progress", run_id, now_ms);
            e.metrics = metrics;
            e
        }
        LiveEvent::Result(metrics) => {
            let mut e = WatchEvent::new("result", run_id, now_ms);
            e.metrics = Some(metrics);
            e
        }
        LiveEvent::Pruning(detail) => {
            let mut e = WatchEvent::new("pruning", run_id, now_ms);
            e.detail = detail;
            e
        }
        LiveEvent::Queued => {
            let mut e = WatchEvent::new("queued", run_id, now_ms);
            e.detail = Some("waiting for a free slot".into());
            e
        }
        LiveEvent::Placed { slot, job_id } => {
            let mut e = WatchEvent::new("placed", run_id, now_ms);
            e.detail = Some(
                [
                    slot.map(|s| format!("slot {s}")),
                    job_id.map(|j| format!("job {j}")),
                ]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(", "),
            );
            e
        }
        LiveEvent::Heartbeat { elapsed_ms } => {
            let mut e = WatchEvent::new("heartbeat", run_id, now_ms);
            e.detail = Some(format!("after {:.1}s", elapsed_ms as f64 / 1000.0));
            e
        }
    }
}

/// The `finished` event of a run the journal holds.
fn finished(r: &RunRecord, now_ms: i64) -> WatchEvent {
    let mut e = WatchEvent::new("finished", &r.run_id, now_ms);
    e.status = Some(
        r.status
            .map(|s| s.to_string())
            .or_else(|| r.ratchet.as_ref().map(|i| i.status.to_string()))
            .or_else(|| r.verdict.as_ref().map(|v| v.verdict.to_string()))
            .unwrap_or_else(|| if r.succeeded() { "ok" } else { "failed" }.into()),
    );
    e.exit_code = Some(r.exit_code);
    e.metrics = Some(r.metrics.clone());
    e.detail = r
        .pruned
        .as_ref()
        .map(|p| p.describe())
        .or_else(|| r.verdict.as_ref().map(|v| v.detail.clone()));
    e
}

fn now_ms() -> i64 {
    jiff::Timestamp::now().as_millisecond()
}

fn matches(live: &LiveRun, run: Option<&str>) -> bool {
    run.is_none_or(|r| live.run_id.starts_with(r))
}

pub fn run(ctx: &Ctx, run: Option<&str>) -> Result<Exit> {
    let state = ctx.state_dir()?;
    let emit = |e: &WatchEvent| ctx.out.emit_lines(e, std::slice::from_ref(e));
    let mut following: BTreeMap<String, LiveRun> = BTreeMap::new();
    let mut lost = std::collections::BTreeSet::new();
    let mut first = true;
    loop {
        let now = now_ms();
        let seen = reactive::survey(&state, now, WARN)?;
        let seen: Vec<_> = seen.into_iter().filter(|s| matches(&s.live, run)).collect();
        if first {
            first = false;
            if seen.is_empty() {
                if let Some(id) = run {
                    let records = crate::io::state::journal(&state, WARN).read()?;
                    return match records.iter().rev().find(|r| r.run_id.starts_with(id)) {
                        Some(r) => {
                            emit(&finished(r, now))?;
                            Ok(Exit::Ok)
                        }
                        None => Err(Hinted::error(
                            format!("no live or journaled run {id:?}"),
                            "list the live runs with `arx ps`",
                        )),
                    };
                }
                if !ctx.out.json {
                    crate::errln!("arx: no live runs");
                }
                return Ok(Exit::Ok);
            }
        }
        for s in &seen {
            let l = &s.live;
            if s.state == Liveness::Lost {
                following.remove(&l.run_id);
                if lost.insert(l.run_id.clone()) {
                    let mut e = WatchEvent::new("lost", &l.run_id, now);
                    e.detail = Some("its arx is gone; `arx ps --reap` journals it".into());
                    emit(&e)?;
                }
                continue;
            }
            for event in live::events(following.get(&l.run_id), l, s.elapsed_ms) {
                emit(&watch_event(event, &l.run_id, now))?;
            }
            following.insert(l.run_id.clone(), l.clone());
        }
        let gone: Vec<String> = following
            .keys()
            .filter(|id| !seen.iter().any(|s| &s.live.run_id == *id))
            .cloned()
            .collect();
        if !gone.is_empty() {
            let records = crate::io::state::journal(&state, WARN).read()?;
            for id in gone {
                following.remove(&id);
                match records.iter().rev().find(|r| r.run_id == id) {
                    Some(r) => emit(&finished(r, now))?,
                    None => emit(&WatchEvent::new("ended", &id, now))?,
                }
            }
        }
        if following.is_empty() {
            return Ok(Exit::Ok);
        }
        std::thread::sleep(POLL);
    }
}
