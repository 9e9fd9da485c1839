//! The ratchet's part of a journal record (`ratchet`): what a try did and
//! what it was measured against. [`super::segment`] folds these records.

use serde::{Deserialize, Serialize};

use super::instances::{InstanceRuns, PerInstance};
use super::names::str_enum;
pub use super::paired::Paired;
use super::stats::Direction;

str_enum! {
    /// What a try did.
    #[derive(Default)]
    TryStatus, "try status" {
        /// The segment's first measurement: the last commit, repeated.
        #[default]
        Baseline => "baseline",
        /// Better beyond the noise and the checks passed: committed.
        Keep => "keep",
        /// Not shown better: set aside under refs/arx/discarded and undone.
        Discard => "discard",
        /// The experiment failed (no metric, non-zero exit, timeout): undone.
        Crash => "crash",
        /// Better, but a check failed: undone.
        ChecksFailed => "checks_failed",
        /// Better, but a guard metric broke its bound (or was not
        /// printed): undone.
        Guard => "guard",
        /// Better, but the held-out check failed (worse, crashed, or no
        /// metric): undone.
        Holdout => "holdout",
        /// The candidate touched a protected path: undone without running.
        Protected => "protected",
        /// Ctrl-C during the try: the working tree is left as it was.
        Interrupted => "interrupted",
        /// Stopped early by `--prune` (hopeless progress): counts as a
        /// discard, set aside and undone.
        Pruned => "pruned",
        /// Another lane kept first and the candidate does not apply to the
        /// new best: set aside (restorable) without being measured again.
        Stale => "stale",
        /// Replayed onto a best that another lane kept meanwhile, the
        /// candidate changes nothing: the best has it already. Not run
        /// (again), no finding, nothing to set aside.
        AlreadyInBest => "already_in_best",
        /// The best run again on the slot of a candidate, with the
        /// candidate set aside: what it is compared with there. Not a
        /// try: nothing was kept or undone.
        Remeasure => "remeasure",
    }
}

impl TryStatus {
    /// Is this a try that was not kept (counts towards the stop rule)?
    pub fn is_non_keep(self) -> bool {
        !matches!(
            self,
            TryStatus::Baseline | TryStatus::Keep | TryStatus::Remeasure
        )
    }
}

/// The ratchet's part of a journal record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatchetInfo {
    /// The objective's segment id ([`super::objective::Objective::segment_id`]).
    pub segment: String,
    /// This record starts a new segment even if the id is unchanged
    /// (`arx try --new-segment`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub new_segment: bool,
    pub status: TryStatus,
    #[serde(default)]
    pub description: Option<String>,
    pub metric: String,
    pub direction: Direction,
    /// The decision rule.
    #[serde(default)]
    pub rule: String,
    /// The kept commit this try was measured against (for a baseline: the
    /// commit measured).
    pub kept: String,
    /// For a keep: the new kept commit. For a discard: the commit that
    /// holds the candidate (under `discarded_ref`).
    #[serde(default)]
    pub commit: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discarded_ref: Option<String>,
    /// The candidate's changed paths.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// Protected paths the candidate touched.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub protected: Vec<String>,
    /// The best before this try (the kept commit's estimate).
    #[serde(default)]
    pub best: Option<f64>,
    /// Candidate minus best, positive = better.
    #[serde(default)]
    pub improvement: Option<f64>,
    /// The same change in the metric's units (`basis.change`: negative is
    /// better when lower is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change: Option<f64>,
    /// What the decision weighed: its runs, the value, "vs", the change
    /// and, paired, the try's own ρ ([`super::ratchet::Basis`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<super::ratchet::Basis>,
    /// The noise (sd of one run) the decision used.
    #[serde(default)]
    pub noise: Option<f64>,
    /// No replicate was available: the decision was blind to noise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub blind: bool,
    /// For a keep: the kept commit's value is the mean of its samples from
    /// this one on (the confirmation runs; the screening run that chose the
    /// candidate would flatter it).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub record_from: usize,
    /// False for keeps that no confirmation backs (`--rule strict`).
    #[serde(default = "yes", skip_serializing_if = "Clone::clone")]
    pub confirmed: bool,
    /// The checks run before a keep.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<CheckResult>,
    /// The lane the try ran in (`arx lane add`), when it ran in one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lane: Option<String>,
    /// In a fleet: the hardware class of the machine whose runs these are
    /// (`[fleet] class`). Runs of different classes are compared only
    /// through the offset between the classes, as slots are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// The bests this try was measured against before the last, oldest
    /// first: another lane kept while it ran, and it was replayed onto the
    /// new best and measured again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replayed_from: Vec<String>,
    /// Replayed with its runs: the runs measured on the earlier bests,
    /// carried into the decision on `kept` (its `samples` are its own runs
    /// on `kept`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carried: Option<super::ratchet_replayed::Carried>,
    /// With slots: the best as it measures on the slot of the candidate's
    /// runs, which the decision compared with instead of `best`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot_best: Option<SlotBest>,
    /// The runs of the best the decision compared with (for the band of
    /// noise the try is told against).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_runs: Option<usize>,
    /// The guard that vetoed the keep (status `guard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<GuardBreach>,
    /// The held-out check, when it ran: passed or why it failed (never
    /// its values, which only the operator's journal holds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holdout: Option<super::holdout::HoldoutVerdict>,
    /// Read from another loop's record of a night (`arx journal import`),
    /// not run by arx: shown, never a measured run of the noise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<super::imported::Imported>,
    /// Under paired seeds: the seed each run of the record was handed, in
    /// the order they ran (`null` for a run without one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seeds: Vec<Option<u64>>,
    /// The decision compared runs of the same seed: over how many, and
    /// the correlation it estimated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paired: Option<Paired>,
    /// The per-instance scores of this record's runs, one row per sample
    /// (`[objective] instances`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instances: Option<InstanceRuns>,
    /// The hash of the declared inputs (`[objective] inputs`) the runs
    /// read, when the objective declares any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs: Option<String>,
    /// When the per-instance test decided: the instances it paired.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_instance: Option<PerInstance>,
    /// The idea of the backlog the try tested (`arx try --idea ID`, or the
    /// ad-hoc idea of `arx try -m TEXT --family F`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idea: Option<String>,
    /// The idea's family; for a try that names none, the family of the
    /// most similar idea, or `unsorted` ([`RatchetInfo::family_guessed`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// The family was taken from the most similar idea, not given.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub family_guessed: bool,
    /// The commit the candidate was measured against: the best it was
    /// decided against (the same as `kept` for a try; records of an older
    /// arx have only `kept`, see [`RatchetInfo::parent_commit`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// In a fleet with `confirm_classes`: a keep that waits for machines
    /// of other classes to find it better. Not the best (its candidate is
    /// set aside under `discarded_ref` and `refs/arx/fleet/pending/<run>`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fleet_pending: bool,
    /// In a fleet with `confirm_classes`: the run id of the pending keep
    /// (of another class) this try measured on its own class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirms: Option<String>,
}

/// The family of an idea or a try that names none and resembles no idea
/// with one.
pub const UNSORTED: &str = "unsorted";

impl RatchetInfo {
    /// A record of `status` in `segment`, against the commit `kept`, with
    /// everything the outcome adds still empty.
    pub fn new(
        segment: String,
        status: TryStatus,
        metric: String,
        direction: Direction,
        rule: String,
        kept: String,
    ) -> RatchetInfo {
        RatchetInfo {
            segment,
            new_segment: false,
            status,
            description: None,
            metric,
            direction,
            rule,
            kept,
            commit: None,
            discarded_ref: None,
            paths: Vec::new(),
            protected: Vec::new(),
            best: None,
            improvement: None,
            change: None,
            basis: None,
            noise: None,
            blind: false,
            record_from: 0,
            confirmed: true,
            checks: Vec::new(),
            lane: None,
            class: None,
            replayed_from: Vec::new(),
            carried: None,
            slot_best: None,
            best_runs: None,
            guard: None,
            holdout: None,
            imported: None,
            seeds: Vec::new(),
            paired: None,
            instances: None,
            inputs: None,
            per_instance: None,
            idea: None,
            family: None,
            family_guessed: false,
            parent: None,
            fleet_pending: false,
            confirms: None,
        }
    }

    /// The commit the candidate was measured against: `parent`, else `kept`.
    pub fn parent_commit(&self) -> &str {
        self.parent.as_deref().unwrap_or(&self.kept)
    }

    /// The try's family: `family`, else `unsorted`.
    pub fn family_or_unsorted(&self) -> &str {
        self.family.as_deref().unwrap_or(UNSORTED)
    }
}

/// The guard that vetoed a keep ([`RatchetInfo::guard`]): the guard as
/// written, and the candidate's value and the bound, or which side did not
/// print the metric.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GuardBreach {
    pub guard: String,
    pub metric: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<f64>,
    /// The best's mean, for a bound relative to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<f64>,
    /// The baseline's mean, for a bound relative to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<f64>,
    /// With slots: the slot the best's mean is taken on (the candidate's
    /// first run's), its runs on other slots moved there by the guard
    /// metric's offsets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<String>,
    /// `candidate`, `best` or `baseline`: whose runs did not print the
    /// metric.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
}

/// The best on a candidate's slot ([`RatchetInfo::slot_best`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SlotBest {
    /// The slot of the candidate's (first) run.
    pub slot: String,
    /// The mean of the best's runs there, those from other slots moved by
    /// the slots' estimated offsets.
    pub value: f64,
    /// The best's runs on the slot itself.
    pub runs: usize,
    /// The best's runs moved from other slots.
    #[serde(default)]
    pub moved: usize,
}

fn yes() -> bool {
    true
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One check command and how it ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckResult {
    pub command: String,
    pub exit_code: i64,
    #[serde(default)]
    pub duration_ms: u64,
}
