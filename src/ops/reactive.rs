//! Reacting to a run while it runs: its live file (written at the start, at
//! every heartbeat and when pruning starts; removed when the run is over,
//! however it ends but a `kill -9`), its progress curve, and its pruning
//! rule, which may end the experiment. Also the `--prune` flag group and
//! the peers a rule compares with.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::error::Hinted;
use crate::io::live;
use crate::io::process::{Flow, RunEvent};
use crate::io::Warn;
use crate::kernel::journal::RunRecord;
use crate::kernel::live::LiveRun;
use crate::kernel::prune::{
    CurveRecorder, Points, Progress, PruneRule, Pruned, Pruner, DEFAULT_STEP_KEY,
};
use crate::kernel::stats::Direction;

mod leftover;
pub use leftover::end_killed_runs_in;

/// `--prune` and `--progress-step`, shared by `arx run` and `arx try`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PruneFlags {
    /// Stop a hopeless run early from its `__PROGRESS__` values: median
    /// (worse than the median of earlier completed runs at the same step),
    /// patient:N[:RULE] (only after N checks in a row say so), threshold:X
    /// (the value crosses X, or is NaN or infinite).
    #[arg(long, value_name = "RULE")]
    pub prune: Option<String>,
    /// The progress key holding the step (default: step).
    #[arg(long, value_name = "KEY")]
    pub progress_step: Option<String>,
}

/// What a run's progress is followed by: the metric and its direction, the
/// step key, and the pruning rule if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Follow {
    pub metric: String,
    pub direction: Option<Direction>,
    pub step_key: String,
    pub rule: Option<PruneRule>,
}

/// What `arx run` follows: the spec's metric, in the direction its
/// comparator says is better (`>=`, `>`: max; `<=`, `<`: min). Without a
/// spec nothing is followed, and `--prune` is an error.
pub fn follow_spec(
    flags: &PruneFlags,
    spec: Option<&crate::kernel::contract::MetricSpec>,
) -> Result<Option<Follow>> {
    use crate::kernel::contract::Comparator;
    let rule = flags.prune.as_deref().map(parse_rule).transpose()?;
    let step_key = step_key(flags.progress_step.as_deref())?;
    let Some(spec) = spec else {
        if rule.is_some() {
            return Err(Hinted::error(
                "--prune needs a metric to follow",
                "pass --metric KEY --cmp OP --target X, or --spec FILE",
            ));
        }
        return Ok(None);
    };
    let direction = match spec.comparator {
        Comparator::Ge | Comparator::Gt => Some(Direction::Max),
        Comparator::Le | Comparator::Lt => Some(Direction::Min),
        Comparator::Eq => None,
    };
    if rule.is_some() && direction.is_none() {
        return Err(Hinted::error(
            "--prune needs a direction, and the comparator == has none",
            "use --cmp '>=' when higher is better, '<=' when lower is",
        ));
    }
    Ok(Some(Follow {
        metric: spec.metric_key.clone(),
        direction,
        step_key,
        rule,
    }))
}

/// Parse a `--prune` rule (or `[objective] prune`).
pub fn parse_rule(text: &str) -> Result<PruneRule> {
    text.parse().map_err(|e: String| {
        Hinted::error(
            format!("invalid --prune rule: {e}"),
            "use --prune median, --prune patient:3 or --prune threshold:10",
        )
    })
}

/// The step key given, or the default; a blank key is an error.
pub fn step_key(given: Option<&str>) -> Result<String> {
    match given {
        None => Ok(DEFAULT_STEP_KEY.to_string()),
        Some(k) if k.trim().is_empty() => Err(Hinted::error(
            "--progress-step must not be blank",
            "omit it to use the `step` key",
        )),
        Some(k) => Ok(k.to_string()),
    }
}

/// The peers of a new run: completed curves of `records` that follow the
/// same metric and step key.
pub fn peers<'a>(records: impl IntoIterator<Item = &'a RunRecord>, follow: &Follow) -> Vec<Points> {
    crate::kernel::journal::completed_curves(records, &follow.metric, &follow.step_key)
}

/// The live, progress and pruning side of one journal record's attempts.
pub struct Reactive {
    state: PathBuf,
    warn: Warn,
    live: Option<LiveRun>,
    clock: Instant,
    follow: Option<Follow>,
    peers: Vec<Points>,
    pruner: Option<Pruner>,
    recorder: CurveRecorder,
    reports: u64,
    curves: Vec<Points>,
    /// Set once the rule stopped the run.
    pub pruned: Option<Pruned>,
    /// When the live file was last written (ms, the live clock).
    written_ms: i64,
    /// The slot its last attempt took: the next one prefers it, so that
    /// the runs of one measurement are of one slot when they can be.
    pub slot_index: Option<usize>,
    /// The next attempt waits for `slot_index` itself rather than take
    /// another free slot.
    pub slot_only: bool,
}

/// Progress is written to the live file at most this often (ms), so
/// `arx watch` follows it closely without a write per progress line.
const PROGRESS_WRITE_MS: i64 = 250;

/// Who is running, for the live file.
pub struct LiveInfo<'a> {
    pub run_id: &'a str,
    pub kind: &'a str,
    pub command: &'a [String],
    pub shell: bool,
    pub cwd: &'a Path,
    pub start: jiff::Timestamp,
    /// The moment of `start` on the monotonic clock: the live file's
    /// times count from it (a try replayed onto a newer best goes on with
    /// the start and the clock it began with).
    pub since: Instant,
    pub heartbeat: Duration,
}

impl Reactive {
    /// Start following a run: its live file is written now (a failure to
    /// write it is a warning, not a reason to stop the experiment).
    pub fn start(
        state: &Path,
        info: LiveInfo<'_>,
        follow: Option<Follow>,
        peers: Vec<Points>,
        warn: Warn,
    ) -> Self {
        let started_ms = info.start.as_millisecond();
        let now_ms = started_ms + info.since.elapsed().as_millis() as i64;
        let live = LiveRun {
            run_id: info.run_id.to_string(),
            kind: info.kind.to_string(),
            pid: std::process::id(),
            pgid: None,
            boot_id: live::boot_id(),
            pid_start: live::proc_stat(std::process::id() as i32).map(|s| s.start),
            leader_start: None,
            host: live::hostname(),
            command: info.command.to_vec(),
            shell: info.shell,
            cwd: info.cwd.display().to_string(),
            label: String::new(),
            started_at: crate::io::clock::millis(info.start),
            started_ms,
            heartbeat_ms: info.heartbeat.as_millis() as u64,
            last_heartbeat_ms: now_ms,
            last_progress: None,
            last_progress_ms: None,
            result: None,
            pruning: None,
            queued: false,
            // No experiment runs until the first attempt starts.
            idle: true,
            slot: None,
            job_name: None,
            job_id: None,
        };
        let mut r = Reactive::off();
        r.clock = info.since;
        r.state = state.to_path_buf();
        r.warn = warn;
        r.live = Some(live);
        r.follow = follow;
        r.peers = peers;
        r.write();
        r
    }

    /// The variable and value that mark the experiment's processes as this
    /// run's (see [`crate::kernel::live::group_is_run`]); none without a
    /// live file.
    pub fn marker(&self) -> Option<(String, String)> {
        self.live.as_ref().map(|l| {
            (
                crate::kernel::live::RUN_MARKER_ENV.to_string(),
                l.run_id.clone(),
            )
        })
    }

    /// The run's id, when it has a live file.
    pub fn run_id(&self) -> Option<&str> {
        self.live.as_ref().map(|l| l.run_id.as_str())
    }

    /// The run waits for a slot: shown as `queued`; the heartbeat goes on
    /// (the file is rewritten once per heartbeat interval), so a long wait
    /// is not taken for a lost run.
    pub fn queued(&mut self) {
        let now = self.now_ms();
        let Some(l) = self.live.as_mut() else { return };
        let due = !l.queued || now - l.last_heartbeat_ms >= l.heartbeat_ms as i64;
        if due {
            l.queued = true;
            l.idle = false;
            l.last_heartbeat_ms = now;
            self.write();
        }
    }

    /// The run has its slot (if any) and the job name it is launched
    /// with (if any): no longer queued.
    pub fn placed(&mut self, slot: Option<String>, job_name: Option<String>) {
        let now = self.now_ms();
        if let Some(l) = self.live.as_mut() {
            l.queued = false;
            l.idle = false;
            l.slot = slot;
            l.job_name = job_name;
            l.job_id = None;
            l.last_heartbeat_ms = now;
        }
        self.write();
    }

    /// The launcher's job id became known.
    pub fn job_id(&mut self, id: &str) {
        if let Some(l) = self.live.as_mut() {
            l.job_id = Some(id.to_string());
        }
        self.write();
    }

    /// Follow nothing and write no live file (`--no-journal`, checks).
    pub fn off() -> Self {
        Reactive {
            state: PathBuf::new(),
            warn: |_| {},
            live: None,
            clock: Instant::now(),
            follow: None,
            peers: Vec::new(),
            pruner: None,
            recorder: CurveRecorder::default(),
            reports: 0,
            curves: Vec::new(),
            pruned: None,
            written_ms: 0,
            slot_index: None,
            slot_only: false,
        }
    }

    /// Follow the progress without pruning (a baseline).
    pub fn without_pruning(&mut self) -> &mut Self {
        if let Some(f) = self.follow.as_mut() {
            f.rule = None;
        }
        self
    }

    fn now_ms(&self) -> i64 {
        self.live.as_ref().map_or(0, |l| l.started_ms) + self.clock.elapsed().as_millis() as i64
    }

    fn write(&mut self) {
        self.written_ms = self.now_ms();
        let Some(l) = &self.live else { return };
        if let Err(e) = live::write(&self.state, l) {
            (self.warn)(&format!(
                "cannot keep the live file of run {}: {e:#}",
                l.run_id
            ));
            // One warning; the run goes on without it.
            let id = l.run_id.clone();
            let _ = live::remove(&self.state, &id);
            self.live = None;
        }
    }

    /// An attempt begins.
    pub fn begin(&mut self, label: &str) {
        self.recorder = CurveRecorder::default();
        self.reports = 0;
        self.pruner = self.follow.as_ref().and_then(|f| {
            let rule = f.rule?;
            Some(Pruner::new(
                rule,
                &f.metric,
                f.direction.unwrap_or(Direction::Min),
                self.peers.clone(),
            ))
        });
        if let Some(l) = self.live.as_mut() {
            l.label = label.to_string();
        }
    }

    /// Something happened in the running attempt: keep the live file and
    /// curve, and say whether the experiment is to be pruned now.
    pub fn event(&mut self, event: &RunEvent) -> Flow {
        let now = self.now_ms();
        match event {
            RunEvent::Started { pid } => {
                if let Some(l) = self.live.as_mut() {
                    l.idle = false;
                    l.pgid = i32::try_from(*pid).ok();
                    l.leader_start = l.pgid.and_then(live::proc_stat).map(|s| s.start);
                    l.last_heartbeat_ms = now;
                }
                self.write();
            }
            RunEvent::Heartbeat { .. } => {
                if let Some(l) = self.live.as_mut() {
                    l.last_heartbeat_ms = now;
                }
                self.write();
            }
            RunEvent::Nudged => {}
            RunEvent::Result(m) => {
                if let Some(l) = self.live.as_mut() {
                    l.result = Some(m.clone());
                }
            }
            RunEvent::Progress(m) => {
                if let Some(l) = self.live.as_mut() {
                    l.last_progress = Some(m.clone());
                    l.last_progress_ms = Some(now);
                }
                if self.live.is_some() && now - self.written_ms >= PROGRESS_WRITE_MS {
                    self.write();
                }
                if self.pruned.is_some() {
                    return Flow::Prune;
                }
                let Some(f) = &self.follow else {
                    return Flow::Go;
                };
                let Some(value) = m.get(&f.metric) else {
                    return Flow::Go;
                };
                self.reports += 1;
                let step = m.get(&f.step_key).unwrap_or(self.reports as f64);
                self.recorder.push(step, value);
                if let Some(p) = self.pruner.as_mut().and_then(|p| p.observe(step, value)) {
                    if let Some(l) = self.live.as_mut() {
                        l.pruning = Some(p.describe());
                    }
                    self.pruned = Some(p);
                    self.write();
                    return Flow::Prune;
                }
            }
        }
        Flow::Go
    }

    /// The attempt ended (`pruned`: the runner ended it for its rule; a
    /// decision that came after the experiment ended by itself is dropped).
    pub fn end(&mut self, pruned: bool) {
        if !pruned {
            self.pruned = None;
        }
        if self.follow.is_some() {
            self.curves.push(self.recorder.finish());
        }
        if let Some(l) = self.live.as_mut() {
            l.pgid = None;
            l.leader_start = None;
            l.idle = true;
        }
        // Said before the slot is freed, so that `arx ps` never shows
        // more experiments running than there are slots.
        self.write();
    }

    /// The progress curves of the attempts so far.
    pub fn progress(&self) -> Option<Progress> {
        let f = self.follow.as_ref()?;
        Some(Progress {
            metric: f.metric.clone(),
            step_key: f.step_key.clone(),
            curves: self.curves.clone(),
        })
    }
}

impl Drop for Reactive {
    fn drop(&mut self) {
        if let Some(l) = &self.live {
            let _ = live::remove(&self.state, &l.run_id);
        }
    }
}

/// A live run as `arx ps` sees it at `now_ms`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Seen {
    #[serde(flatten)]
    pub live: LiveRun,
    pub state: crate::kernel::live::Liveness,
    pub elapsed_ms: i64,
    pub heartbeat_age_ms: i64,
    /// The experiment's group still has processes.
    pub group_alive: bool,
}

/// Every live run and its state at `now_ms`.
pub fn survey(state: &Path, now_ms: i64, warn: Warn) -> Result<Vec<Seen>> {
    let host = live::hostname();
    let boot = live::boot_id();
    Ok(live::list(state, warn)?
        .into_iter()
        .map(|l| {
            let same_host = l.host == host;
            let pid_alive = same_host && arx_alive(&l, boot.as_deref());
            let group_alive = same_host && l.pgid.is_some_and(live::group_alive);
            Seen {
                state: crate::kernel::live::liveness(&l, now_ms, same_host, pid_alive),
                elapsed_ms: now_ms.saturating_sub(l.started_ms),
                heartbeat_age_ms: now_ms.saturating_sub(l.last_heartbeat_ms),
                group_alive,
                live: l,
            }
        })
        .collect())
}

/// Is the arx that runs `l` (on this host) still there? After a restart,
/// or when its pid now names a process that started at another time, it
/// is gone.
fn arx_alive(l: &LiveRun, boot: Option<&str>) -> bool {
    let same_boot = l.boot_id.is_none() || l.boot_id.as_deref() == boot;
    let same_process = match l.pid_start {
        Some(start) => i32::try_from(l.pid)
            .ok()
            .and_then(live::proc_stat)
            .is_some_and(|s| s.start == start),
        None => true,
    };
    same_boot && same_process && live::pid_alive(l.pid)
}

/// What reaping one lost run did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Reaped {
    pub run_id: String,
    /// The orphaned experiment group was ended.
    pub group_killed: bool,
    /// A group was there but could not be proven the run's, so nothing
    /// was signalled: why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_signalled: Option<String>,
    /// The `lost` record was added (false: the journal had the run already).
    pub journaled: bool,
    /// The launcher's job (by its name, `scancel --name`) was cancelled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_cancelled: Option<String>,
    /// Cancelling that job failed: why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_error: Option<String>,
}

/// Reap a lost run: end its orphaned experiment group when it is proven
/// the run's (same boot, the leader's start time, the run's marker in every
/// member's environment; otherwise nothing is signalled), journal it as
/// `lost` (unless the journal has it), remove its live file.
pub fn reap(state: &Path, seen: &Seen, warn: Warn) -> Result<Reaped> {
    let l = &seen.live;
    // A job launched through srun outlives srun: cancel it by its name
    // (the name holds the run id, so no other job has it).
    let (job_cancelled, job_error) = match &l.job_name {
        Some(name) => match crate::io::slurm::cancel(name) {
            Ok(()) => (Some(name.clone()), None),
            Err(e) => (None, Some(e)),
        },
        None => (None, None),
    };
    let (group_killed, not_signalled) = match l.pgid {
        Some(pgid) if live::group_alive(pgid) => match leftover::prove_group(l, pgid).1 {
            Ok(()) => (live::kill_group(pgid), None),
            Err(why) => (false, Some(why)),
        },
        _ => (false, None),
    };
    let ended = jiff::Timestamp::from_millisecond(l.last_heartbeat_ms)
        .map(crate::io::clock::millis)
        .unwrap_or_else(|_| l.started_at.clone());
    let mut record = crate::kernel::live::lost_record(l, ended, None);
    record.slot = l.slot.clone();
    record.job_id = l.job_id.clone();
    let id = l.run_id.clone();
    crate::io::state::journal(state, warn).check_writable()?;
    let added = crate::io::state::journal(state, warn).append_unless(record, |records| {
        records.iter().find(|r| r.run_id == id).cloned()
    })?;
    live::remove(state, &l.run_id)?;
    Ok(Reaped {
        run_id: l.run_id.clone(),
        group_killed,
        not_signalled,
        journaled: matches!(added, crate::io::state::Appended::Added(_)),
        job_cancelled,
        job_error,
    })
}
