//! The `--events` stream of a run: NDJSON events appended to a file or
//! written to stdout, flushed as they happen so other tools can follow.

use std::io::{self, Write};
use std::time::Duration;

use anyhow::{Context, Result};
use serde_json::json;

use super::clock::millis;
use super::process::RunEvent;

/// Events for `--events`, one JSON object per line, flushed as they happen.
pub struct Events {
    out: Option<Box<dyn Write>>,
    run_id: String,
    start: jiff::Timestamp,
}

impl Events {
    pub fn open(target: Option<&str>, run_id: &str, start: jiff::Timestamp) -> Result<Self> {
        let out: Option<Box<dyn Write>> = match target {
            None => None,
            Some("-") => Some(Box::new(io::stdout())),
            Some(path) => Some(Box::new(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .with_context(|| format!("cannot open the events file {path}"))?,
            )),
        };
        Ok(Events {
            out,
            run_id: run_id.to_string(),
            start,
        })
    }

    pub fn emit(&mut self, event: &str, elapsed: Duration, mut fields: serde_json::Value) {
        let Some(out) = self.out.as_mut() else {
            return;
        };
        let time = self
            .start
            .checked_add(jiff::SignedDuration::try_from(elapsed).unwrap_or_default())
            .unwrap_or(self.start);
        if let Some(map) = fields.as_object_mut() {
            map.insert("event".into(), json!(event));
            map.insert("run_id".into(), json!(self.run_id));
            map.insert("time".into(), json!(millis(time)));
            map.insert("elapsed_ms".into(), json!(elapsed.as_millis() as u64));
        }
        let line = serde_json::to_string(&fields).unwrap_or_default();
        if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
            // A reader that went away must not stop the experiment.
            self.out = None;
        }
    }

    /// The event of something that happened in a running attempt
    /// (`started`, `progress`, `result`, `heartbeat`).
    pub fn emit_run(
        &mut self,
        event: &RunEvent,
        elapsed: Duration,
        argv: &[String],
        attempt: &str,
    ) {
        if self.out.is_none() {
            return; // no JSON built for nobody
        }
        match event {
            RunEvent::Started { pid } => self.emit(
                "started",
                elapsed,
                json!({"pid": pid, "command": argv, "attempt": attempt}),
            ),
            RunEvent::Progress(m) => self.emit("progress", elapsed, json!({"metrics": m})),
            RunEvent::Result(m) => self.emit("result", elapsed, json!({"metrics": m})),
            RunEvent::Heartbeat { .. } => self.emit("heartbeat", elapsed, json!({})),
            RunEvent::Nudged => {}
        }
    }
}
