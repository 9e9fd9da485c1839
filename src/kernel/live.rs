//! Live runs: the small record a running `arx run` or `arx try` keeps in
//! the state directory while it runs, the rule that calls a run lost, and
//! the journal record of a lost run. Times are milliseconds since the Unix
//! epoch, given as values.

use serde::{Deserialize, Serialize};

use super::contract::Metrics;
use super::failure::FailureClass;
use super::journal::{RunRecord, RunStatus};
use super::record::RunOrigin;

/// A heartbeat older than this many intervals, with arx's process gone,
/// makes a run lost.
pub const LOST_AFTER_HEARTBEATS: u64 = 2;

/// Exit code journaled for a lost run (nobody saw it end).
pub const LOST_EXIT_CODE: i64 = -1;

/// What a running invocation says about itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LiveRun {
    pub run_id: String,
    /// `run` or `try`.
    pub kind: String,
    /// arx's own process.
    pub pid: u32,
    /// The experiment's process group, while one runs.
    #[serde(default)]
    pub pgid: Option<i32>,
    /// The machine's boot id when the run started: after a restart, process
    /// ids mean other processes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boot_id: Option<String>,
    /// When arx's own process started (clock ticks after boot, as
    /// `/proc/<pid>/stat` says): a reused pid has another start time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid_start: Option<u64>,
    /// When the experiment's group leader started (clock ticks after boot).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader_start: Option<u64>,
    #[serde(default)]
    pub host: Option<String>,
    pub command: Vec<String>,
    #[serde(default)]
    pub shell: bool,
    pub cwd: String,
    /// What runs now (`candidate run 2`, `baseline 3/5`).
    #[serde(default)]
    pub label: String,
    /// RFC 3339 with milliseconds, and the same in ms since the epoch.
    pub started_at: String,
    pub started_ms: i64,
    /// The heartbeat interval.
    pub heartbeat_ms: u64,
    pub last_heartbeat_ms: i64,
    /// The last `__PROGRESS__` metrics.
    #[serde(default)]
    pub last_progress: Option<Metrics>,
    /// When the last progress arrived.
    #[serde(default)]
    pub last_progress_ms: Option<i64>,
    /// The result metrics, once the result line arrived.
    #[serde(default)]
    pub result: Option<Metrics>,
    /// Set when the run is being stopped by its pruning rule.
    #[serde(default)]
    pub pruning: Option<String>,
    /// Waiting for a free slot (`[objective] slots`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub queued: bool,
    /// No experiment runs now: arx prepares, records, checks or decides
    /// (before the first attempt, or after one ended and freed its slot).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub idle: bool,
    /// The slot its experiment runs in (or last ran in, when `idle`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<String>,
    /// The job name its experiment was launched with (`srun`), which
    /// `arx ps --reap` cancels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_name: Option<String>,
    /// The launcher's job id, once known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_id: Option<String>,
}

/// The variable arx puts in every experiment's environment, holding the
/// run id of its live file: `arx ps --reap` finds it in
/// `/proc/<pid>/environ` before it signals anything.
pub const RUN_MARKER_ENV: &str = "ARX_RUN_ID";

/// One process of a group, as the host found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupMember {
    pub pid: i32,
    /// Start time in clock ticks after boot.
    pub start: u64,
    /// Its environment holds [`RUN_MARKER_ENV`] with the run's id; `None`
    /// when the environment could not be read.
    pub marked: Option<bool>,
}

/// Is the process group `pgid` still the experiment of `live`? Proven only
/// when the live file records the boot id and the leader's start time,
/// the machine has not restarted since, the leader (when still there) is
/// the process that started then, and either the leader carries the run's
/// marker (a group's id is the id of the process that made it, so the
/// group is the one the run's experiment made, and every member is the
/// run's, whatever its environment holds: a child started with a cleaned
/// environment, a process caught as it starts or ends), or no member is
/// older than the run and every member carries the marker. `Err` says why
/// not: then nothing may be signalled.
pub fn group_is_run(
    live: &LiveRun,
    pgid: i32,
    boot_id: Option<&str>,
    members: &[GroupMember],
) -> Result<(), String> {
    let (Some(recorded_boot), Some(leader_start)) = (live.boot_id.as_deref(), live.leader_start)
    else {
        return Err(
            "its live file does not record the boot id and the experiment's start time \
             (written by an older arx, or on a system without /proc such as macOS, where \
             arx cannot read them), so the group cannot be proven its own"
                .into(),
        );
    };
    match boot_id {
        Some(now) if now == recorded_boot => {}
        Some(_) => {
            return Err(format!(
                "the machine has restarted since the run started (boot id differs): \
                 process group {pgid} is another program's"
            ))
        }
        None => return Err("this machine's boot id cannot be read".into()),
    }
    if members.is_empty() {
        return Err(format!("no process of group {pgid} can be inspected"));
    }
    if let Some(leader) = members.iter().find(|m| m.pid == pgid) {
        if leader.start != leader_start {
            return Err(format!(
                "process {pgid} started at another time than the run's experiment: \
                 its id was reused"
            ));
        }
        if leader.marked == Some(true) {
            return Ok(());
        }
    }
    for m in members {
        if m.start < leader_start {
            return Err(format!(
                "process {} of group {pgid} is older than the run's experiment",
                m.pid
            ));
        }
        match m.marked {
            Some(true) => {}
            Some(false) => {
                return Err(format!(
                    "process {} of group {pgid} does not carry the run's {RUN_MARKER_ENV}",
                    m.pid
                ))
            }
            None => {
                return Err(format!(
                    "the environment of process {} of group {pgid} cannot be read",
                    m.pid
                ))
            }
        }
    }
    Ok(())
}

/// The state of a live run at `now_ms`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Liveness {
    /// Its heartbeat is recent, or arx still runs.
    Running,
    /// Its heartbeat is recent and it waits for a free slot.
    Queued,
    /// Its heartbeat is recent and no experiment runs: arx prepares,
    /// records, checks or decides (no slot is held).
    Idle,
    /// The heartbeat is late but arx still runs (busy between runs, or
    /// stopped).
    Late,
    /// The heartbeat is late and arx is gone.
    Lost,
    /// On another host: arx's process cannot be checked from here.
    Elsewhere,
}

impl Liveness {
    /// The word `arx ps` and `arx lane list` show (as serialized).
    pub fn as_str(self) -> &'static str {
        match self {
            Liveness::Running => "running",
            Liveness::Queued => "queued",
            Liveness::Idle => "idle",
            Liveness::Late => "late",
            Liveness::Lost => "lost",
            Liveness::Elsewhere => "elsewhere",
        }
    }
}

/// Is the run lost? `same_host` and `pid_alive` are what the host found.
pub fn liveness(live: &LiveRun, now_ms: i64, same_host: bool, pid_alive: bool) -> Liveness {
    let age = now_ms.saturating_sub(live.last_heartbeat_ms);
    let late = age > (live.heartbeat_ms.saturating_mul(LOST_AFTER_HEARTBEATS)) as i64;
    match (late, same_host, pid_alive) {
        (false, _, _) if live.queued => Liveness::Queued,
        (false, _, _) if live.idle => Liveness::Idle,
        (false, _, _) => Liveness::Running,
        (true, false, _) => Liveness::Elsewhere,
        (true, true, true) => Liveness::Late,
        (true, true, false) => Liveness::Lost,
    }
}

/// The journal record of a lost run: what its live file knew. It ended,
/// as far as anyone knows, at its last heartbeat.
pub fn lost_record(
    live: &LiveRun,
    ended_at: String,
    git: Option<super::journal::GitState>,
) -> RunRecord {
    let duration_ms = live
        .last_heartbeat_ms
        .saturating_sub(live.started_ms)
        .max(0) as u64;
    let origin = RunOrigin {
        run_id: live.run_id.clone(),
        started_at: live.started_at.clone(),
        ended_at,
        duration_ms,
        cwd: live.cwd.clone(),
        host: live.host.clone(),
        git,
    };
    let mut record =
        RunRecord::builder(origin, live.command.clone(), live.shell, &[], false).build();
    record.exit_code = LOST_EXIT_CODE;
    record.failure_class = FailureClass::None;
    record.status = Some(RunStatus::Lost);
    record.metrics = live.result.clone().unwrap_or_default();
    record
}

/// What a change of a live run's file says happened, in the order it is
/// told.
#[derive(Debug, Clone, PartialEq)]
pub enum LiveEvent {
    /// First seen: its command, and its label when it says more.
    Started {
        command: Vec<String>,
        label: Option<String>,
    },
    /// A new attempt (its label).
    Attempt(String),
    /// Progress reported (the metrics, when the file holds them).
    Progress(Option<Metrics>),
    /// A result line seen.
    Result(Metrics),
    /// The pruner's decision, once.
    Pruning(Option<String>),
    /// Waiting for a free slot.
    Queued,
    /// Its slot, or its job id under the launcher, became known.
    Placed {
        slot: Option<String>,
        job_id: Option<String>,
    },
    /// A heartbeat, `elapsed_ms` after the start.
    Heartbeat { elapsed_ms: i64 },
}

/// The events between two readings of a live run's file: `before` (none
/// when first seen) and `after`, `elapsed_ms` since it started.
pub fn events(before: Option<&LiveRun>, after: &LiveRun, elapsed_ms: i64) -> Vec<LiveEvent> {
    let mut out = Vec::new();
    let Some(before) = before else {
        out.push(LiveEvent::Started {
            command: after.command.clone(),
            label: Some(after.label.clone()).filter(|l| *l != after.command.join(" ")),
        });
        if after.queued {
            out.push(LiveEvent::Queued);
        }
        if after.slot.is_some() || after.job_id.is_some() {
            out.push(placed(after));
        }
        if let Some(m) = &after.last_progress {
            out.push(LiveEvent::Progress(Some(m.clone())));
        }
        return out;
    };
    if after.queued && !before.queued {
        out.push(LiveEvent::Queued);
    }
    if (after.slot.is_some() || after.job_id.is_some())
        && (after.slot != before.slot || after.job_id != before.job_id)
    {
        out.push(placed(after));
    }
    if after.label != before.label {
        out.push(LiveEvent::Attempt(after.label.clone()));
    }
    if after.last_progress_ms != before.last_progress_ms {
        out.push(LiveEvent::Progress(after.last_progress.clone()));
    }
    if let Some(r) = after
        .result
        .as_ref()
        .filter(|_| after.result != before.result)
    {
        out.push(LiveEvent::Result(r.clone()));
    }
    if after.pruning.is_some() && before.pruning.is_none() {
        out.push(LiveEvent::Pruning(after.pruning.clone()));
    }
    if after.last_heartbeat_ms != before.last_heartbeat_ms {
        out.push(LiveEvent::Heartbeat { elapsed_ms });
    }
    out
}

fn placed(live: &LiveRun) -> LiveEvent {
    LiveEvent::Placed {
        slot: live.slot.clone(),
        job_id: live.job_id.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn live() -> LiveRun {
        LiveRun {
            run_id: "r".into(),
            kind: "run".into(),
            pid: 1,
            pgid: Some(2),
            boot_id: None,
            pid_start: None,
            leader_start: None,
            host: Some("h".into()),
            command: vec!["sleep".into(), "9".into()],
            shell: false,
            cwd: "/w".into(),
            label: String::new(),
            started_at: "2026-01-01T00:00:00.000Z".into(),
            started_ms: 1_000,
            heartbeat_ms: 5_000,
            last_heartbeat_ms: 11_000,
            last_progress: None,
            last_progress_ms: None,
            result: None,
            pruning: None,
            queued: false,
            idle: false,
            slot: None,
            job_name: None,
            job_id: None,
        }
    }

    #[test]
    fn a_run_is_lost_only_when_late_and_its_arx_is_gone() {
        let l = live();
        assert_eq!(liveness(&l, 21_000, true, false), Liveness::Running);
        assert_eq!(liveness(&l, 21_001, true, false), Liveness::Lost);
        assert_eq!(liveness(&l, 21_001, true, true), Liveness::Late);
        assert_eq!(liveness(&l, 21_001, false, false), Liveness::Elsewhere);
        let queued = LiveRun {
            queued: true,
            ..l.clone()
        };
        assert_eq!(liveness(&queued, 21_000, true, true), Liveness::Queued);
        assert_eq!(liveness(&queued, 21_001, true, false), Liveness::Lost);
        let idle = LiveRun {
            idle: true,
            ..l.clone()
        };
        assert_eq!(liveness(&idle, 21_000, true, false), Liveness::Idle);
        assert_eq!(liveness(&idle, 21_001, true, true), Liveness::Late);
        assert_eq!(liveness(&idle, 21_001, true, false), Liveness::Lost);
    }

    #[test]
    fn a_group_is_the_runs_only_when_every_proof_holds() {
        let mut l = live();
        let member = |pid, start, marked| GroupMember { pid, start, marked };
        let ours = [member(2, 100, Some(true)), member(7, 140, Some(true))];
        // An older live file proves nothing.
        assert!(group_is_run(&l, 2, Some("b"), &ours).is_err());
        l.boot_id = Some("b".into());
        l.leader_start = Some(100);
        assert_eq!(group_is_run(&l, 2, Some("b"), &ours), Ok(()));
        // The leader gone, its children still marked: still the run's.
        assert_eq!(group_is_run(&l, 2, Some("b"), &ours[1..]), Ok(()));
        // A restart.
        let e = group_is_run(&l, 2, Some("c"), &ours).unwrap_err();
        assert!(e.contains("restarted"), "{e}");
        assert!(group_is_run(&l, 2, None, &ours).is_err());
        // The leader's id reused by a later process.
        let e = group_is_run(&l, 2, Some("b"), &[member(2, 101, Some(true))]).unwrap_err();
        assert!(e.contains("reused"), "{e}");
        // The leader gone: a member older than the run, or without the
        // marker, or unreadable.
        assert!(group_is_run(&l, 2, Some("b"), &[member(9, 99, Some(true))]).is_err());
        let e = group_is_run(
            &l,
            2,
            Some("b"),
            &[ours[1].clone(), member(9, 150, Some(false))],
        )
        .unwrap_err();
        assert!(e.contains(RUN_MARKER_ENV), "{e}");
        assert!(group_is_run(&l, 2, Some("b"), &[member(7, 140, None)]).is_err());
        assert!(group_is_run(&l, 2, Some("b"), &[member(2, 100, None)]).is_err());
        // Nothing to inspect.
        assert!(group_is_run(&l, 2, Some("b"), &[]).is_err());
    }

    #[test]
    fn a_marked_leader_as_it_started_proves_its_group_whatever_the_others_environment() {
        let mut l = live();
        l.boot_id = Some("b".into());
        l.leader_start = Some(100);
        let member = |pid, start, marked| GroupMember { pid, start, marked };
        // A child started with a cleaned environment, and one whose
        // environment could not be read (caught as it started or ended).
        let members = [
            member(2, 100, Some(true)),
            member(7, 140, Some(false)),
            member(8, 150, None),
        ];
        assert_eq!(group_is_run(&l, 2, Some("b"), &members), Ok(()));
        // Not when the leader's id names a later process, nor after a
        // restart, nor when the leader itself does not carry the marker
        // (a live file naming another program's group).
        let reused = [member(2, 101, Some(true)), member(7, 140, Some(true))];
        assert!(group_is_run(&l, 2, Some("b"), &reused).is_err());
        assert!(group_is_run(&l, 2, Some("c"), &members).is_err());
        let unmarked = [member(2, 100, Some(false)), member(7, 140, Some(true))];
        let e = group_is_run(&l, 2, Some("b"), &unmarked).unwrap_err();
        assert!(e.contains(RUN_MARKER_ENV), "{e}");
        let unread = [member(2, 100, None), member(7, 140, Some(true))];
        assert!(group_is_run(&l, 2, Some("b"), &unread).is_err());
    }

    #[test]
    fn a_lost_record_says_so_and_ends_at_the_last_heartbeat() {
        let r = lost_record(&live(), "2026-01-01T00:00:10.000Z".into(), None);
        assert_eq!(r.status, Some(RunStatus::Lost));
        assert_eq!(r.duration_ms, 10_000);
        assert_eq!(r.exit_code, LOST_EXIT_CODE);
        assert_eq!(r.command, vec!["sleep".to_string(), "9".to_string()]);
        assert!(!r.succeeded());
    }

    #[test]
    fn a_change_of_the_live_file_says_what_happened_in_order() {
        let first = live();
        let mut m = Metrics::new();
        m.insert("loss".into(), 0.5);
        // First seen: started (the label only when it says more), and its
        // progress so far.
        let mut seen = first.clone();
        seen.last_progress = Some(m.clone());
        seen.last_progress_ms = Some(2_000);
        assert_eq!(
            events(None, &seen, 0),
            vec![
                LiveEvent::Started {
                    command: vec!["sleep".into(), "9".into()],
                    label: Some(String::new())
                },
                LiveEvent::Progress(Some(m.clone()))
            ]
        );
        let mut labelled = first.clone();
        labelled.label = "sleep 9".into();
        assert!(matches!(
            events(None, &labelled, 0).as_slice(),
            [LiveEvent::Started { label: None, .. }]
        ));
        // Nothing changed: nothing to say.
        assert!(events(Some(&first), &first, 5).is_empty());
        // Everything changed at once.
        let mut after = seen.clone();
        after.label = "attempt 2/3".into();
        after.result = Some(m.clone());
        after.pruning = Some("median".into());
        after.last_heartbeat_ms = 16_000;
        after.last_progress_ms = Some(3_000);
        assert_eq!(
            events(Some(&first), &after, 15_000),
            vec![
                LiveEvent::Attempt("attempt 2/3".into()),
                LiveEvent::Progress(Some(m.clone())),
                LiveEvent::Result(m.clone()),
                LiveEvent::Pruning(Some("median".into())),
                LiveEvent::Heartbeat { elapsed_ms: 15_000 },
            ]
        );
        // A decision to prune is told once.
        assert!(events(Some(&after), &after, 20_000).is_empty());
    }

    #[test]
    fn waiting_for_a_slot_and_getting_one_are_told_once() {
        let queued = LiveRun {
            queued: true,
            ..live()
        };
        assert_eq!(events(None, &queued, 0)[1], LiveEvent::Queued);
        assert_eq!(events(Some(&live()), &queued, 0), vec![LiveEvent::Queued]);
        assert!(events(Some(&queued), &queued, 0).is_empty());
        let placed = LiveRun {
            slot: Some("3".into()),
            ..live()
        };
        assert_eq!(
            events(Some(&queued), &placed, 0),
            vec![LiveEvent::Placed {
                slot: Some("3".into()),
                job_id: None
            }]
        );
        let job = LiveRun {
            job_id: Some("42".into()),
            ..placed.clone()
        };
        assert_eq!(
            events(Some(&placed), &job, 0),
            vec![LiveEvent::Placed {
                slot: Some("3".into()),
                job_id: Some("42".into())
            }]
        );
        assert!(events(Some(&job), &job, 0).is_empty());
    }
}
