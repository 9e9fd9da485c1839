//! Running an experiment's attempts: the interrupt flag, one or more
//! attempts through the process runner, and where and when they ran.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::io::clock::millis;
use crate::io::process::{self, RunEvent, RunOutcome, RunSpec, Sink};
use crate::io::slots::{self, Slot};
use crate::kernel::journal::GitState;
use crate::kernel::launch::{job_name, launch_argv};
use crate::kernel::record::RunOrigin;
use crate::ops::reactive::Reactive;

/// The warning for an experiment whose output a process that outlived it
/// held open.
pub const OUTPUT_HELD: &str =
    "a process outlived the experiment and holds its output open; kept what it printed until then";

/// Where the experiment's stdout and stderr go: nowhere when `quiet`, both
/// to stderr when arx's stdout carries data (`--json`, `--events -`), else
/// each to its own stream.
pub fn sinks(quiet: bool, data_on_stdout: bool) -> (Sink, Sink) {
    if quiet {
        (Sink::Discard, Sink::Discard)
    } else if data_on_stdout {
        (Sink::Stderr, Sink::Stderr)
    } else {
        (Sink::Stdout, Sink::Stderr)
    }
}

/// `--heartbeat`: a duration greater than zero.
pub fn heartbeat(text: &str) -> Result<Duration> {
    let heartbeat = crate::io::clock::parse_duration(text, "--heartbeat")?;
    if heartbeat.is_zero() {
        return Err(crate::error::Hinted::error(
            "--heartbeat must be greater than zero",
            "e.g. --heartbeat 5s",
        ));
    }
    Ok(heartbeat)
}

/// Install the Ctrl-C / SIGTERM flag the runner polls.
pub fn interrupt_flag() -> Result<Arc<AtomicBool>> {
    let interrupt = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(&interrupt))
            .context("cannot install the signal handler")?;
    }
    Ok(interrupt)
}

/// After an interrupted run has been journaled and reported: exit as the
/// signal would have, so a calling shell loop stops too.
pub fn resend_interrupt() {
    let _ = signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGINT);
}

/// What the caller hears while the attempts run.
#[derive(Debug)]
pub enum AttemptEvent<'a> {
    /// Attempt `index` (from 0) is about to start.
    Begin { index: u32 },
    /// Something happened in the running attempt; `elapsed` counts from the
    /// start of the first attempt.
    Run {
        event: &'a RunEvent,
        elapsed: Duration,
    },
    /// The attempt ended.
    End { outcome: &'a RunOutcome },
}

/// Run `run` up to `repeat` times, stopping early when an attempt is
/// interrupted or cannot be started. Returns the outcomes and the wall time.
pub fn run_attempts(
    run: &RunSpec,
    repeat: u32,
    interrupt: &Arc<AtomicBool>,
    on: impl FnMut(AttemptEvent<'_>),
) -> Result<(Vec<RunOutcome>, Duration)> {
    run_attempts_reacting(run, repeat, interrupt, &mut Reactive::off(), "", on)
}

/// [`run_attempts`], with `reactive` keeping the live file and progress
/// curve and pruning: a pruned attempt ends the run (no further attempts).
/// `label` names the attempt in the live file (`run N` when repeated).
pub fn run_attempts_reacting(
    run: &RunSpec,
    repeat: u32,
    interrupt: &Arc<AtomicBool>,
    reactive: &mut Reactive,
    label: &str,
    mut on: impl FnMut(AttemptEvent<'_>),
) -> Result<(Vec<RunOutcome>, Duration)> {
    let wall = Instant::now();
    let mut outcomes: Vec<RunOutcome> = Vec::new();
    let run = &marked(run, reactive);
    for index in 0..repeat {
        on(AttemptEvent::Begin { index });
        reactive.begin(&if repeat > 1 {
            format!("run {}/{repeat}", index + 1)
        } else {
            label.to_string()
        });
        // A repeated run's attempts share the job's name; an earlier
        // attempt's job may linger in the queue (completing), so its id is
        // never taken for this attempt's.
        let earlier: Vec<String> = outcomes.iter().filter_map(|o| o.job_id.clone()).collect();
        let Some(placed) = place(run, interrupt, reactive, earlier)? else {
            // Interrupted while waiting for a slot: nothing ran.
            let outcome = RunOutcome {
                exit_code: 130,
                interrupted: true,
                ..RunOutcome::default()
            };
            reactive.end(false);
            on(AttemptEvent::End { outcome: &outcome });
            outcomes.push(outcome);
            break;
        };
        let offset = wall.elapsed();
        let mut clock = Instant::now();
        let mut job_told = false;
        let mut outcome =
            process::run_bound(&placed.spec, &placed.binding(), interrupt, |event| {
                if !job_told {
                    if let Some(id) = placed.job.as_ref().and_then(JobWatch::found) {
                        reactive.job_id(&id);
                        job_told = true;
                    }
                }
                if matches!(event, RunEvent::Nudged) {
                    // Only the job's id to tell: nothing for the caller.
                    return process::Flow::Go;
                }
                let elapsed = match event {
                    RunEvent::Started { .. } => {
                        clock = Instant::now();
                        offset
                    }
                    RunEvent::Heartbeat { elapsed } => offset + *elapsed,
                    RunEvent::Progress(_) | RunEvent::Result(_) | RunEvent::Nudged => {
                        offset + clock.elapsed()
                    }
                };
                on(AttemptEvent::Run { event, elapsed });
                reactive.event(event)
            })?;
        // The live file says the experiment ended before its slot is freed.
        reactive.end(outcome.pruned);
        placed.finish(&mut outcome);
        on(AttemptEvent::End { outcome: &outcome });
        let stop = outcome.interrupted || outcome.spawn_error.is_some() || outcome.pruned;
        outcomes.push(outcome);
        if stop {
            break;
        }
    }
    Ok((outcomes, wall.elapsed()))
}

/// The spec with its run's marker, so that `arx ps --reap` can prove the
/// experiment's process group is the run's.
fn marked<'r>(run: &'r RunSpec, reactive: &Reactive) -> std::borrow::Cow<'r, RunSpec> {
    match reactive.marker() {
        Some(var) => {
            let mut spec = run.clone();
            spec.env.push(var);
            std::borrow::Cow::Owned(spec)
        }
        None => std::borrow::Cow::Borrowed(run),
    }
}

/// One run of a check (or anything not journaled) under the spec's
/// placement: it takes a slot and goes through the launcher like an
/// experiment.
pub fn run_placed(run: &RunSpec, interrupt: &Arc<AtomicBool>) -> Result<RunOutcome> {
    let (mut outcomes, _) = run_attempts(run, 1, interrupt, |_| {})?;
    Ok(outcomes.remove(0))
}

/// An attempt placed: its slot (held until dropped), the spec it runs
/// with (slot variable, launcher), the job it is watched as.
struct Placed {
    spec: RunSpec,
    slot: Option<(Slot, String)>,
    job: Option<JobWatch>,
}

impl Placed {
    /// The experiment inherits its slot's lock, so that the slot stays
    /// held while it runs should arx die; the job's watcher nudges the
    /// runner when it finds the job's id, which the live file then shows
    /// at once.
    fn binding(&self) -> process::Binding {
        process::Binding {
            inherit: self.slot.as_ref().map(|(s, _)| s.fd()),
            nudge: self.job.as_ref().map(|j| Arc::clone(&j.nudge)),
        }
    }
}

/// Place an attempt: wait for a free slot (shown as queued), put the
/// slot's value in `slot_env`, start the command through the launcher
/// named after the run. `None` when interrupted while queued.
fn place(
    run: &RunSpec,
    interrupt: &Arc<AtomicBool>,
    reactive: &mut Reactive,
    earlier_jobs: Vec<String>,
) -> Result<Option<Placed>> {
    let Some(place) = run.place.as_deref() else {
        return Ok(Some(Placed {
            spec: run.clone(),
            slot: None,
            job: None,
        }));
    };
    let p = &place.placement;
    let mut spec = run.clone();
    let slot = if p.slots.is_empty() {
        None
    } else {
        let want = match (reactive.slot_index, reactive.slot_only) {
            (None, _) => slots::Want::Any,
            (Some(i), false) => slots::Want::Prefer(i),
            (Some(i), true) => slots::Want::Only(i),
        };
        let Some(slot) = slots::take(&place.state, p.slots.len(), want, interrupt, || {
            reactive.queued()
        })?
        else {
            return Ok(None);
        };
        reactive.slot_index = Some(slot.index);
        let value = p.slots[slot.index].clone();
        if let Some(var) = &p.slot_env {
            spec.env.push((var.clone(), value.clone()));
        }
        Some((slot, value))
    };
    let run_id = reactive.run_id().map_or_else(new_run_id, str::to_string);
    let name = p.is_srun().then(|| job_name(&run_id));
    if let Some(argv) = launch_argv(p, &run_id, &run.argv, run.shell) {
        spec.argv = argv;
        spec.shell = false;
    }
    reactive.placed(slot.as_ref().map(|(_, v)| v.clone()), name.clone());
    Ok(Some(Placed {
        spec,
        slot,
        job: name.map(|n| JobWatch::start(n, earlier_jobs)),
    }))
}

impl Placed {
    /// The attempt ended: record its slot and job, and make sure a job
    /// arx ended (timeout, pruning, Ctrl-C) is gone from the queue.
    fn finish(self, outcome: &mut RunOutcome) {
        outcome.slot = self.slot.as_ref().map(|(_, v)| v.clone());
        if let Some(job) = self.job {
            let name = job.name.clone();
            outcome.job_id = job.stop();
            if outcome.timed_out || outcome.interrupted || outcome.pruned {
                let _ = crate::io::slurm::cancel(&name);
            }
        }
    }
}

/// Looks up the id of a named job in the queue, on a thread of its own,
/// until found or stopped.
struct JobWatch {
    name: String,
    found: Arc<std::sync::Mutex<Option<String>>>,
    /// Raised when the id is found.
    nudge: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl JobWatch {
    /// Watch for the job named `name` whose id is none of `earlier`.
    fn start(name: String, earlier: Vec<String>) -> JobWatch {
        let found = Arc::new(std::sync::Mutex::new(None));
        let stop = Arc::new(AtomicBool::new(false));
        let nudge = Arc::new(AtomicBool::new(false));
        let thread = {
            let (name, found, stop, nudge) = (
                name.clone(),
                Arc::clone(&found),
                Arc::clone(&stop),
                Arc::clone(&nudge),
            );
            std::thread::spawn(move || {
                while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                    if let Some(id) = crate::io::slurm::job_id(&name, &earlier) {
                        *found.lock().unwrap_or_else(|e| e.into_inner()) = Some(id);
                        nudge.store(true, std::sync::atomic::Ordering::SeqCst);
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(200));
                }
            })
        };
        JobWatch {
            name,
            found,
            nudge,
            stop,
            thread: Some(thread),
        }
    }

    fn found(&self) -> Option<String> {
        self.found.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn stop(mut self) -> Option<String> {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.found()
    }
}

/// Where and when an invocation ran: `run_id`, started at `start`, took
/// `elapsed`, in `cwd` on this host, at `git`.
pub fn origin(
    run_id: String,
    start: jiff::Timestamp,
    elapsed: Duration,
    cwd: &Path,
    git: Option<GitState>,
) -> RunOrigin {
    let end = start
        .checked_add(jiff::SignedDuration::try_from(elapsed).unwrap_or_default())
        .unwrap_or(start);
    RunOrigin {
        run_id,
        started_at: millis(start),
        ended_at: millis(end),
        duration_ms: elapsed.as_millis() as u64,
        cwd: cwd.display().to_string(),
        host: nix::unistd::gethostname()
            .ok()
            .map(|h| h.to_string_lossy().into_owned()),
        git,
    }
}

/// A new run id: unique across machines and ordered by time (to the
/// millisecond). The bits after the time are random, not a counter, so two
/// ids made in the same millisecond differ within their first 23
/// characters and a short prefix tells them apart.
pub fn new_run_id() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let random = uuid::Uuid::new_v4().into_bytes();
    let mut tail = [0u8; 10];
    tail.copy_from_slice(&random[6..]);
    uuid::Builder::from_unix_timestamp_millis(ms, &tail)
        .into_uuid()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::new_run_id;

    #[test]
    fn run_ids_are_version_7_and_differ_early() {
        let ids: Vec<String> = (0..50).map(|_| new_run_id()).collect();
        for id in &ids {
            let u = uuid::Uuid::parse_str(id).unwrap();
            assert_eq!(u.get_version_num(), 7, "{id}");
        }
        for pair in ids.windows(2) {
            assert_ne!(pair[0][..23], pair[1][..23], "{pair:?}");
        }
    }
}
