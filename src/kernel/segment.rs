//! The ratchet as the journal records it: each `arx try` leaves one run
//! record with a [`RatchetInfo`]; folding those records gives the current
//! segment (its baseline, the kept commit and its samples, the noise
//! replicates, the counts) and the stop advice. Nothing here reads files or
//! clocks: the records and the time come in as values.

use serde::Serialize;

use super::instances::InstanceRuns;
use super::journal::RunRecord;
use super::objective::StopRules;
pub use super::ratchet_record::{CheckResult, RatchetInfo, TryStatus};
use super::slot_offset::{add_runs, CommitRuns};
use super::stats::Direction;
use super::tally::{Status, Tally};

/// A measured commit of the segment: the baseline or a keep.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measured {
    pub run_id: String,
    pub commit: String,
    pub description: Option<String>,
    pub samples: Vec<f64>,
    pub at: String,
    pub confirmed: bool,
    /// Under paired seeds: the seed of each of `samples` (empty without).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub seeds: Vec<Option<u64>>,
    /// The slot of each of `samples`, when seeded (for pairs across slots).
    #[serde(skip)]
    pub slots: Vec<Option<String>>,
    /// The per-instance scores of its recorded runs, when it has them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instances: Option<InstanceRuns>,
    /// Under paired seeds: the runs its record leaves out (a keep's
    /// screening run), each with its seed and slot. A candidate's runs
    /// pair with them after the recorded ones.
    #[serde(skip)]
    pub screened: Vec<(f64, Option<u64>, Option<String>)>,
    /// Under paired seeds: its runs measured again on another slot (a
    /// `remeasure` for an earlier candidate), each with its seed and slot.
    /// A candidate on that slot pairs with them before any run moved by
    /// the slots' offset.
    #[serde(skip)]
    pub remeasured: Vec<(f64, Option<u64>, Option<String>)>,
}

impl Measured {
    /// Its seeded runs as a candidate's runs pair with them: the recorded
    /// runs, then the screened ones; each with its seed and slot.
    pub fn pair_runs(&self) -> Vec<(f64, Option<u64>, Option<&str>)> {
        let recorded = self.samples.iter().enumerate().map(|(i, x)| {
            let seed = self.seeds.get(i).copied().flatten();
            (*x, seed, self.slots.get(i).and_then(Option::as_deref))
        });
        let screened = self
            .screened
            .iter()
            .map(|(x, s, slot)| (*x, *s, slot.as_deref()));
        recorded.chain(screened).collect()
    }

    /// The seeds of [`Measured::pair_runs`], in order: what a candidate's
    /// runs take (`kernel::paired::next_seed`).
    pub fn pair_seeds(&self) -> Vec<Option<u64>> {
        self.pair_runs().into_iter().map(|(_, s, _)| s).collect()
    }
}

/// The current segment, folded from the journal.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Segment {
    /// 1-based, counting the segments in the journal.
    pub number: usize,
    pub id: String,
    pub metric: String,
    pub direction: Option<Direction>,
    pub started_at: String,
    pub last_at: String,
    pub baseline: Option<Measured>,
    /// The kept commit (the last keep, or the baseline).
    pub kept: Option<Measured>,
    /// Samples of each repeated measurement (for the noise).
    pub replicates: Vec<Vec<f64>>,
    /// Every metric value of the segment.
    pub values: Vec<f64>,
    pub tries: usize,
    /// Experiment runs, the baseline's included.
    pub runs: u64,
    /// The wall time of its records with runs, in ms (about how long one
    /// run takes, over `runs`: [`Segment::run_ms`]).
    #[serde(skip)]
    pub run_ms: u64,
    /// The counts, by the one rule the report counts with too.
    #[serde(flatten)]
    pub tally: Tally,
    /// The last discard, to finish its restore after a crash.
    pub last: Option<(String, TryStatus)>,
    /// The measured commits' runs on each slot (baselines, keeps from
    /// their record on, and the best measured again on another slot):
    /// what the slots' offsets are estimated from. Empty without slots.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub slot_runs: Vec<CommitRuns>,
    /// Under paired seeds: each try's differences from the best it was
    /// measured against at the same seeds (tries with two pairs or more),
    /// for the noise of a paired difference.
    #[serde(skip)]
    pub pair_groups: Vec<Vec<f64>>,
}

/// The runs of `commit` on each slot, in `slot_runs`.
pub fn runs_of<'a>(slot_runs: &'a [CommitRuns], commit: &str) -> Option<&'a CommitRuns> {
    slot_runs.iter().find(|c| c.commit == commit)
}

/// The frame (slot, and in a fleet the machine's class:
/// [`super::slot_offset::frame`]) of each of `samples`, the last values of
/// `r`'s attempts (paired from the end); those whose attempt has no frame
/// are left out.
fn slotted(r: &RunRecord, info: &RatchetInfo, samples: &[f64]) -> Vec<(String, f64)> {
    let class = info.class.as_deref();
    // A record of one run keeps it on the record itself; in a fleet that
    // run counts for its class.
    let frames: Vec<(Option<String>, Option<f64>)> = if r.attempts.is_empty() && class.is_some() {
        vec![(
            super::slot_offset::frame(class, r.slot.as_deref()),
            r.metrics.get(&info.metric),
        )]
    } else {
        r.attempts
            .iter()
            .map(|a| {
                (
                    super::slot_offset::frame(class, a.slot.as_deref()),
                    a.metrics.get(&info.metric),
                )
            })
            .collect()
    };
    let runs = frames.iter().map(|(f, x)| (f.as_deref(), *x));
    super::slot_offset::pair_slots(runs, samples)
}

/// The seed and slot of each of `samples` (a record's samples), from the
/// record's seeds and its runs' values (paired from the end, as
/// [`slotted`]); both `None` for a sample no seeded run matches.
fn seeded(
    r: &RunRecord,
    info: &RatchetInfo,
    samples: &[f64],
) -> Vec<(Option<u64>, Option<String>)> {
    let mut out = vec![(None, None); samples.len()];
    if info.seeds.is_empty() {
        return out;
    }
    let runs: Vec<(Option<u64>, Option<&str>, Option<f64>)> = if r.attempts.is_empty() {
        vec![(
            info.seeds[0],
            r.slot.as_deref(),
            r.metrics.get(&info.metric),
        )]
    } else {
        r.attempts
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let seed = info.seeds.get(i).copied().flatten();
                (seed, a.slot.as_deref(), a.metrics.get(&info.metric))
            })
            .collect()
    };
    let class = info.class.as_deref();
    let mut next = samples.len();
    for (seed, slot, value) in runs.into_iter().rev() {
        if next == 0 {
            break;
        }
        if value.is_some_and(|v| v.to_bits() == samples[next - 1].to_bits()) {
            next -= 1;
            out[next] = (seed, super::slot_offset::frame(class, slot));
        }
    }
    out
}

/// The samples of a record: its repeated samples, or the metric of its
/// last attempt.
pub fn record_samples(r: &RunRecord, metric: &str) -> Vec<f64> {
    if !r.samples.is_empty() {
        return r.samples.clone();
    }
    r.metrics.get(metric).into_iter().collect()
}

/// Every segment in the journal, oldest first. A segment starts at a record
/// whose segment id differs from the one before, or that says so — except a
/// late record of an earlier segment: a try (not a baseline) that ran by an
/// objective another working tree had replaced meanwhile, journaled after
/// the new segment began. It folds into the last segment with its id, so a
/// change of the objective is one change of segment for every lane at once.
pub fn segments(records: &[RunRecord]) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    for r in records {
        let Some(info) = &r.ratchet else { continue };
        if let Some(i) = late_into(
            out.iter().map(|s| s.id.as_str()),
            &info.segment,
            info.status == TryStatus::Baseline || info.new_segment,
        ) {
            fold(&mut out[i], r, info);
            continue;
        }
        let starts = match out.last() {
            None => true,
            Some(s) => s.id != info.segment || info.new_segment,
        };
        if starts {
            out.push(Segment {
                number: out.len() + 1,
                id: info.segment.clone(),
                metric: info.metric.clone(),
                direction: Some(info.direction),
                started_at: r.started_at.clone(),
                ..Segment::default()
            });
        }
        let seg = out.last_mut().expect("a segment was just pushed");
        fold(seg, r, info);
    }
    out
}

impl Segment {
    /// About how long one run of the segment takes, in ms.
    pub fn run_ms(&self) -> Option<u64> {
        super::cost::per_run(self.run_ms, self.runs)
    }
}

/// The index of the earlier segment a late record of segment `id` folds
/// into (see [`segments`]): the last of `ids` (the segments so far, oldest
/// first) with that id, when the newest has another id and the record does
/// not start a segment of its own (`starts`: a baseline, `--new-segment`).
pub fn late_into<'a>(
    ids: impl DoubleEndedIterator<Item = &'a str> + ExactSizeIterator,
    id: &str,
    starts: bool,
) -> Option<usize> {
    if starts {
        return None;
    }
    let n = ids.len();
    let mut back = ids.rev();
    match back.next() {
        Some(last) if last != id => back.position(|s| s == id).map(|k| n - 2 - k),
        _ => None,
    }
}

fn fold(seg: &mut Segment, r: &RunRecord, info: &RatchetInfo) {
    // The best measured again on another slot is not a try.
    seg.tries += usize::from(info.status != TryStatus::Remeasure);
    seg.last_at = r.ended_at.clone();
    // An imported record is one value shown, never a run or replicates of
    // the noise.
    let imported = info.imported.is_some();
    let protected = info.status == TryStatus::Protected;
    let runs = super::tally::runs_of(r.attempts.len(), protected, imported);
    seg.runs += runs;
    if runs > 0 {
        seg.run_ms += r.duration_ms;
    }
    let samples = record_samples(r, &info.metric);
    seg.values.extend(&samples);
    if samples.len() >= 2 && !imported {
        seg.replicates.push(samples.clone());
    }
    let runs = seeded(r, info, &samples);
    let seeds: Vec<Option<u64>> = runs.iter().map(|(s, _)| *s).collect();
    let on_seeds = seeds.iter().any(Option::is_some);
    if let (Some(kept), TryStatus::Keep | TryStatus::Discard, true) =
        (&seg.kept, info.status, on_seeds)
    {
        // In a fleet, only the best's runs on the try's own class pair
        // with its runs: another class's differ by the classes' offset.
        let own_class = |frame: Option<&str>| match info.class.as_deref() {
            Some(c) => frame.is_some_and(|f| f == c || f.starts_with(&format!("{c}/"))),
            None => true,
        };
        let (best, best_seeds): (Vec<f64>, Vec<Option<u64>>) = kept
            .pair_runs()
            .into_iter()
            .filter(|(_, _, frame)| own_class(*frame))
            .map(|(x, s, _)| (x, s))
            .unzip();
        let d = super::paired::differences(&best, &best_seeds, &samples, &seeds);
        if d.len() >= 2 {
            seg.pair_groups.push(d);
        }
    }
    let measured = |commit: &str| Measured {
        run_id: r.run_id.clone(),
        commit: commit.to_string(),
        description: info.description.clone(),
        samples: samples.clone(),
        at: r.ended_at.clone(),
        confirmed: info.confirmed,
        seeds: if on_seeds { seeds.clone() } else { Vec::new() },
        slots: if on_seeds {
            runs.iter().map(|(_, s)| s.clone()).collect()
        } else {
            Vec::new()
        },
        instances: info.instances.clone(),
        screened: Vec::new(),
        remeasured: Vec::new(),
    };
    let text = info.status.as_str();
    seg.tally
        .add(Status::from_try(text).unwrap_or(Status::Other), text);
    match info.status {
        TryStatus::Baseline => {
            let m = measured(&info.kept);
            seg.baseline = Some(m.clone());
            seg.kept = Some(m);
        }
        // A keep waiting for other classes is not the best.
        TryStatus::Keep if info.fleet_pending => {}
        TryStatus::Keep => {
            let mut m = measured(info.commit.as_deref().unwrap_or(&info.kept));
            if info.record_from > 0 && info.record_from < m.samples.len() {
                let left: Vec<f64> = m.samples.drain(..info.record_from).collect();
                let from = info.record_from.min(m.seeds.len());
                let seeds: Vec<Option<u64>> = m.seeds.drain(..from).collect();
                let slots: Vec<Option<String>> = m.slots.drain(..from.min(m.slots.len())).collect();
                if !seeds.is_empty() {
                    m.screened = left
                        .into_iter()
                        .zip(seeds)
                        .enumerate()
                        .map(|(i, (x, s))| (x, s, slots.get(i).cloned().flatten()))
                        .collect();
                }
                m.instances = m.instances.map(|i| i.from_run(info.record_from));
            }
            seg.kept = Some(m);
        }
        TryStatus::Remeasure if on_seeds => {
            if let Some(k) = seg.kept.as_mut().filter(|k| k.commit == info.kept) {
                k.remeasured.extend(
                    samples
                        .iter()
                        .zip(runs.iter().cloned())
                        .map(|(x, (seed, slot))| (*x, seed, slot)),
                );
            }
        }
        _ => {}
    }
    let on_slots = match info.status {
        TryStatus::Baseline | TryStatus::Remeasure => Some((info.kept.as_str(), &samples[..])),
        TryStatus::Keep if !info.fleet_pending => seg
            .kept
            .as_ref()
            .map(|k| (info.commit.as_deref().unwrap_or(&info.kept), &k.samples[..])),
        _ => None,
    };
    if let Some((commit, values)) = on_slots.filter(|_| !imported) {
        let runs = slotted(r, info, values);
        let commit = commit.to_string();
        add_runs(&mut seg.slot_runs, &commit, runs);
    }
    seg.last = Some((r.run_id.clone(), info.status));
}

/// The segment `id` if it is the journal's current one.
pub fn current(records: &[RunRecord], id: &str) -> Option<Segment> {
    segments(records).pop().filter(|s| s.id == id)
}

/// Why to stop, when a stop rule fires.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StopAdvice {
    pub stop: bool,
    /// The rule that fired and why, in words.
    pub reason: Option<String>,
}

/// The stop advice for `segment` at `hours` since it started, with `best`
/// the kept commit's estimate.
pub fn stop_advice(
    segment: &Segment,
    rules: &StopRules,
    best: Option<f64>,
    direction: Direction,
    hours: f64,
) -> StopAdvice {
    let fire = |reason: String| StopAdvice {
        stop: true,
        reason: Some(reason),
    };
    if let (Some(target), Some(best)) = (rules.target, best) {
        let reached = match direction {
            Direction::Max => best >= target,
            Direction::Min => best <= target,
        };
        if reached {
            return fire(format!("target reached: best {best} vs target {target}"));
        }
    }
    if let Some(max) = rules.max_runs {
        if segment.runs >= max {
            return fire(format!("max_runs reached: {} runs of {max}", segment.runs));
        }
    }
    if let Some(max) = rules.max_discards_in_a_row {
        if segment.tally.since_keep as u64 >= max {
            return fire(format!(
                "max_discards_in_a_row reached: {} tries in a row not kept",
                segment.tally.since_keep
            ));
        }
    }
    if let Some(max) = rules.max_hours {
        if hours >= max {
            return fire(format!("max_hours reached: {hours:.2} h of {max} h"));
        }
    }
    StopAdvice {
        stop: false,
        reason: None,
    }
}

/// The ratchet's results table (karpathy's `results.tsv` shape): one row
/// per try, the main metric after the commit, then status and description,
/// then the other metrics.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Results {
    /// The main metric (the latest try's).
    pub metric: String,
    /// The other metrics, in the order they first appear.
    pub others: Vec<String>,
    pub rows: Vec<ResultRow>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ResultRow {
    /// 7 hex digits: the kept commit for a keep or baseline, else HEAD when
    /// the try ran.
    pub commit: String,
    /// The mean of the try's samples (none for a crash).
    pub value: Option<f64>,
    pub status: TryStatus,
    pub description: String,
    pub others: Vec<Option<f64>>,
    /// The lane the try ran in (empty outside lanes).
    pub lane: String,
    /// The slot its (last) run ran in (empty without slots).
    pub slot: String,
    /// The idea it tested (empty when none).
    pub idea: String,
    /// Its family (empty in records of an older arx).
    pub family: String,
}

/// The results table of every try in `records`, in journal order.
pub fn results(records: &[RunRecord]) -> Results {
    let tries: Vec<(&RunRecord, &RatchetInfo)> = records
        .iter()
        .filter_map(|r| r.ratchet.as_ref().map(|i| (r, i)))
        .collect();
    let metric = tries
        .last()
        .map(|(_, i)| i.metric.clone())
        .unwrap_or_default();
    let mut others: Vec<String> = Vec::new();
    for (r, _) in &tries {
        for (k, _) in r.metrics.iter() {
            if k != metric && !others.iter().any(|o| o == k) {
                others.push(k.to_string());
            }
        }
    }
    let rows = tries
        .iter()
        .map(|(r, i)| {
            let commit = match i.status {
                TryStatus::Keep => i.commit.clone().unwrap_or_else(|| i.kept.clone()),
                TryStatus::Baseline => i.kept.clone(),
                _ => r
                    .git
                    .as_ref()
                    .and_then(|g| g.head.clone())
                    .unwrap_or_else(|| i.kept.clone()),
            };
            let samples = record_samples(r, &i.metric);
            let value =
                (!samples.is_empty()).then(|| samples.iter().sum::<f64>() / samples.len() as f64);
            ResultRow {
                commit: commit.chars().take(7).collect(),
                value: if i.metric == metric {
                    value
                } else {
                    r.metrics.get(&metric)
                },
                status: i.status,
                description: i.description.clone().unwrap_or_default(),
                others: others.iter().map(|k| r.metrics.get(k)).collect(),
                lane: i.lane.clone().unwrap_or_default(),
                slot: super::slot_offset::slots_text(
                    r.slot.as_deref(),
                    r.attempts.iter().filter_map(|a| a.slot.as_deref()),
                ),
                idea: i.idea.clone().unwrap_or_default(),
                family: i.family.clone().unwrap_or_default(),
            }
        })
        .collect();
    Results {
        metric,
        others,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::contract::Metrics;
    use crate::kernel::failure::FailureClass;

    fn record(id: &str, segment: &str, status: TryStatus, samples: &[f64]) -> RunRecord {
        RunRecord {
            run_id: id.into(),
            started_at: format!("2026-01-01T00:00:0{}.000Z", id.len() % 10),
            ended_at: "2026-01-01T01:00:00.000Z".into(),
            duration_ms: 1,
            command: vec!["x".into()],
            shell: true,
            cwd: "/w".into(),
            host: None,
            git: None,
            hypothesis: None,
            approach_hash: None,
            candidate: None,
            tags: vec![],
            state: None,
            state_fingerprint: None,
            spec: None,
            metrics: Metrics::from_pairs(vec![("m".into(), *samples.last().unwrap_or(&0.0))]),
            result_format: None,
            exit_code: 0,
            timed_out: false,
            interrupted: false,
            stopped_on_result: false,
            failure_class: FailureClass::None,
            verdict: None,
            stdout_tail: String::new(),
            stderr_tail: String::new(),
            attempts: vec![],
            samples: if samples.len() > 1 {
                samples.to_vec()
            } else {
                vec![]
            },
            summary: None,
            interval: None,
            more_runs: None,
            status: None,
            pruned: None,
            progress: None,
            slot: None,
            job_id: None,
            ratchet: Some(RatchetInfo {
                description: Some(format!("try {id}")),
                commit: Some(format!("c-{id}")),
                ..RatchetInfo::new(
                    segment.into(),
                    status,
                    "m".into(),
                    Direction::Min,
                    "confirm".into(),
                    "k0".into(),
                )
            }),
        }
    }

    /// `r` with one attempt per `(slot, value)` (`None`: a crash).
    fn on_slots(mut r: RunRecord, runs: &[(&str, Option<f64>)]) -> RunRecord {
        r.attempts = runs
            .iter()
            .map(|(slot, x)| crate::kernel::journal::Attempt {
                exit_code: i64::from(x.is_none()),
                timed_out: false,
                failure_class: FailureClass::None,
                metrics: Metrics::from_pairs(x.map(|x| ("m".into(), x)).into_iter().collect()),
                duration_ms: 1,
                slot: Some(slot.to_string()),
                job_id: None,
            })
            .collect();
        r
    }

    #[test]
    fn the_measured_commits_runs_are_folded_per_slot() {
        let records = vec![
            on_slots(
                record("b", "s1", TryStatus::Baseline, &[1.0, 1.1, 0.9]),
                &[("0", Some(1.0)), ("0", Some(1.1)), ("0", Some(0.9))],
            ),
            // The baseline's commit measured again on slot 1: not a try.
            on_slots(
                record("r", "s1", TryStatus::Remeasure, &[2.0, 2.1]),
                &[("1", Some(2.0)), ("1", Some(2.1))],
            ),
            on_slots(
                record("d", "s1", TryStatus::Discard, &[3.0]),
                &[("1", Some(3.0))],
            ),
            // A keep replayed once (its first run, against the old best,
            // is in its attempts but not its samples), recorded from its
            // second sample, after a crash.
            {
                let mut k = on_slots(
                    record("k", "s1", TryStatus::Keep, &[0.7, 0.75, 0.76]),
                    &[
                        ("0", Some(5.0)),
                        ("1", Some(0.7)),
                        ("1", None),
                        ("1", Some(0.75)),
                        ("0", Some(0.76)),
                    ],
                );
                k.ratchet.as_mut().unwrap().record_from = 1;
                k
            },
        ];
        let seg = current(&records, "s1").unwrap();
        assert_eq!(seg.tries, 3);
        assert_eq!(seg.tally.remeasures, 1);
        assert_eq!(seg.tally.since_keep, 0);
        let base = runs_of(&seg.slot_runs, "k0").unwrap();
        assert_eq!(base.by_slot["0"], vec![1.0, 1.1, 0.9]);
        assert_eq!(base.by_slot["1"], vec![2.0, 2.1]);
        let kept = runs_of(&seg.slot_runs, "c-k").unwrap();
        assert_eq!(kept.by_slot["1"], vec![0.75]);
        assert_eq!(kept.by_slot["0"], vec![0.76]);
        assert_eq!(seg.slot_runs.len(), 2, "a discard is no measured commit");
        // Without slots, nothing.
        let plain = current(&[record("b", "s1", TryStatus::Baseline, &[1.0, 1.1])], "s1");
        assert!(plain.unwrap().slot_runs.is_empty());
    }

    #[test]
    fn a_pruned_try_counts_as_a_discard_not_a_keep() {
        let records = vec![
            record("b", "s1", TryStatus::Baseline, &[1.0, 1.1, 0.9]),
            record("p1", "s1", TryStatus::Pruned, &[]),
            record("p2", "s1", TryStatus::Pruned, &[]),
        ];
        let seg = current(&records, "s1").unwrap();
        let t = &seg.tally;
        assert_eq!((t.keeps, t.discards, t.crashes), (0, 2, 0));
        assert_eq!(t.since_keep, 2);
        assert_eq!(seg.kept.unwrap().run_id, "b");
    }

    #[test]
    fn a_segment_tracks_the_kept_commit_and_the_counts() {
        let records = vec![
            record("b", "s1", TryStatus::Baseline, &[1.0, 1.1, 0.9]),
            record("d1", "s1", TryStatus::Discard, &[1.2]),
            record("k1", "s1", TryStatus::Keep, &[0.8, 0.82]),
            record("c1", "s1", TryStatus::Crash, &[]),
            record("p1", "s1", TryStatus::Protected, &[]),
        ];
        let seg = current(&records, "s1").unwrap();
        assert_eq!(seg.number, 1);
        assert_eq!(seg.baseline.as_ref().unwrap().commit, "k0");
        let kept = seg.kept.as_ref().unwrap();
        assert_eq!(kept.commit, "c-k1");
        assert_eq!(kept.samples, vec![0.8, 0.82]);
        // A keep recorded from its confirmation runs only.
        let mut screened = record("k2", "s1", TryStatus::Keep, &[0.7, 0.75, 0.76]);
        screened.ratchet.as_mut().unwrap().record_from = 1;
        let mut more = records.clone();
        more.push(screened);
        let seg2 = current(&more, "s1").unwrap();
        assert_eq!(seg2.kept.unwrap().samples, vec![0.75, 0.76]);
        assert_eq!(seg2.replicates.last().unwrap(), &vec![0.7, 0.75, 0.76]);
        // The protected try counts as discarded, as the report counts it.
        let t = &seg.tally;
        assert_eq!(
            (t.keeps, t.discards, t.crashes, t.of("protected")),
            (1, 2, 1, 1)
        );
        assert_eq!(t.since_keep, 2);
        assert_eq!(seg.replicates.len(), 2);
        assert_eq!(seg.tries, 5);
        assert_eq!(seg.runs, 4);
        assert!(current(&records, "s2").is_none());
    }

    #[test]
    fn a_new_id_or_a_new_segment_flag_starts_a_segment() {
        let mut again = record("b3", "s1", TryStatus::Baseline, &[2.0, 2.1]);
        again.ratchet.as_mut().unwrap().new_segment = true;
        let records = vec![
            record("b", "s1", TryStatus::Baseline, &[1.0, 1.1]),
            record("b2", "s2", TryStatus::Baseline, &[5.0, 5.1]),
            record("x", "s1", TryStatus::Baseline, &[1.0, 1.1]),
            again,
        ];
        let all = segments(&records);
        assert_eq!(all.len(), 4);
        let seg = current(&records, "s1").unwrap();
        assert_eq!(seg.number, 4);
        assert_eq!(seg.kept.unwrap().samples, vec![2.0, 2.1]);
    }

    #[test]
    fn the_results_table_has_a_row_per_try() {
        let mut crash = record("c1", "s1", TryStatus::Crash, &[]);
        crash.metrics = Metrics::from_pairs(vec![("mem".into(), 3.5)]);
        let records = vec![
            record("b", "s1", TryStatus::Baseline, &[1.0, 2.0]),
            crash,
            record("k1", "s1", TryStatus::Keep, &[0.5]),
        ];
        let t = results(&records);
        assert_eq!(t.metric, "m");
        assert_eq!(t.others, vec!["mem".to_string()]);
        assert_eq!(t.rows.len(), 3);
        assert_eq!(t.rows[0].value, Some(1.5));
        assert_eq!(t.rows[0].commit, "k0");
        assert_eq!(t.rows[1].value, None);
        assert_eq!(t.rows[1].others, vec![Some(3.5)]);
        assert_eq!(t.rows[2].commit, "c-k1");
        assert_eq!(t.rows[2].status, TryStatus::Keep);
        assert_eq!(t.rows[2].description, "try k1");
    }

    #[test]
    fn stop_rules_fire_with_their_reason() {
        let records = vec![
            record("b", "s1", TryStatus::Baseline, &[1.0, 1.1]),
            record("d1", "s1", TryStatus::Discard, &[1.2]),
            record("d2", "s1", TryStatus::Crash, &[]),
        ];
        let seg = current(&records, "s1").unwrap();
        let none = StopRules::default();
        assert!(!stop_advice(&seg, &none, Some(1.0), Direction::Min, 1.0).stop);
        let rules = StopRules {
            max_discards_in_a_row: Some(2),
            ..StopRules::default()
        };
        let a = stop_advice(&seg, &rules, Some(1.0), Direction::Min, 1.0);
        assert!(a.stop && a.reason.unwrap().contains("max_discards_in_a_row"));
        let rules = StopRules {
            target: Some(1.05),
            ..StopRules::default()
        };
        assert!(stop_advice(&seg, &rules, Some(1.0), Direction::Min, 0.0).stop);
        assert!(!stop_advice(&seg, &rules, Some(1.0), Direction::Max, 0.0).stop);
        // Three records without attempt lists: one run each.
        assert_eq!(seg.runs, 3);
        let rules = StopRules {
            max_runs: Some(3),
            ..StopRules::default()
        };
        assert!(stop_advice(&seg, &rules, None, Direction::Min, 0.0).stop);
        let rules = StopRules {
            max_runs: Some(4),
            ..StopRules::default()
        };
        assert!(!stop_advice(&seg, &rules, None, Direction::Min, 0.0).stop);
        let rules = StopRules {
            max_hours: Some(8.0),
            ..StopRules::default()
        };
        assert!(!stop_advice(&seg, &rules, None, Direction::Min, 7.9).stop);
        assert!(stop_advice(&seg, &rules, None, Direction::Min, 8.0).stop);
    }
}
