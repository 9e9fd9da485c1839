//! A decided try as every view tells it: its value, its change against the
//! best it was compared with, the noise, and the words for where it stands.
//! The try's own line, the finding it adds, `arx log` and `arx report` all
//! read a try through [`of_try`], so they say the same number the same way.

use super::ratchet::{standing_of, Standing};
use super::ratchet_record::{RatchetInfo, TryStatus};
use super::stats::Direction;

/// A try's effect.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Effect {
    /// The try's value: the mean of the runs it is recorded with (for a
    /// keep, its confirmation runs: the value it is the best with).
    pub value: f64,
    /// Those runs.
    pub n: usize,
    /// The value the decision weighed, which its line shows: the
    /// candidate's mean over the runs of its basis (paired: its runs at the
    /// best's seeds), against which `against` and `change` are told.
    /// `value` for a try journaled without a basis.
    pub weighed: f64,
    /// The best it was compared with (on its slot, when it was moved
    /// there).
    pub against: Option<f64>,
    /// `value − against`, in the metric's units (negative is better when
    /// lower is).
    pub change: Option<f64>,
    /// One run's sd the decision used.
    pub noise: Option<f64>,
    pub standing: Standing,
}

impl Effect {
    /// The change with its sign turned so that positive is better.
    pub fn improvement(&self, direction: Direction) -> Option<f64> {
        self.change.map(|c| match direction {
            Direction::Max => c,
            Direction::Min => -c,
        })
    }

    /// The change's way: "better", "worse", or "no change" (a tie).
    pub fn way(&self, direction: Direction) -> &'static str {
        match self.improvement(direction) {
            Some(d) if d > 0.0 => "better",
            Some(d) if d < 0.0 => "worse",
            _ => "no change",
        }
    }

    /// The way and where it stands, as the try's line says it: `better
    /// beyond noise`, `worse beyond noise`, `better within noise`, `worse
    /// within noise`, `no change, within noise`, `better but
    /// unconfirmed, noise`, `better, blind to noise`.
    pub fn told(&self, direction: Direction) -> String {
        let way = self.way(direction);
        match self.standing {
            Standing::Better => "better beyond noise".into(),
            Standing::Worse => "worse beyond noise".into(),
            Standing::WithinNoise if way == "no change" => "no change, within noise".into(),
            Standing::WithinNoise => format!("{way} within noise"),
            Standing::BetterUnconfirmed => "better but unconfirmed, noise".into(),
            Standing::Blind => format!("{way}, blind to noise"),
        }
    }

    /// Where it stands, in words: `beyond noise`, `worse beyond noise`,
    /// `within noise`, `better but unconfirmed`, `blind to noise`.
    pub fn words(&self) -> &'static str {
        match self.standing {
            Standing::Better => "beyond noise",
            Standing::Worse => "worse beyond noise",
            Standing::WithinNoise => "within noise",
            Standing::BetterUnconfirmed => "better but unconfirmed",
            Standing::Blind => "blind to noise",
        }
    }
}

/// The runs a try is recorded with: from `record_from` on for a keep (its
/// confirmation runs), else all of them.
pub fn recorded(info: &RatchetInfo, samples: &[f64]) -> std::ops::Range<usize> {
    let from = match info.status {
        TryStatus::Keep if info.record_from < samples.len() => info.record_from,
        _ => 0,
    };
    from..samples.len()
}

/// The effect of a try with its `samples` (every run's value, oldest
/// first): `None` for a try with no value (crash, protected, …).
pub fn of_try(info: &RatchetInfo, samples: &[f64]) -> Option<Effect> {
    let runs = &samples[recorded(info, samples)];
    if runs.is_empty() {
        return None;
    }
    let value = runs.iter().sum::<f64>() / runs.len() as f64;
    let signed = |c: f64| match info.direction {
        Direction::Max => c,
        Direction::Min => -c,
    };
    let (weighed, against, change) = match info.basis {
        // One basis: the decision's own runs, value, "vs" and change.
        Some(b) => (b.value, Some(b.vs), Some(b.change)),
        None => {
            let (against, change) = legacy(info, value);
            (value, against, change)
        }
    };
    let improvement = change.map(signed);
    let noise = info.noise.filter(|_| !info.blind);
    let kept = info.status == TryStatus::Keep;
    let nb = info
        .slot_best
        .as_ref()
        .map(|b| b.runs)
        .or(info.best_runs)
        .unwrap_or(runs.len());
    let k = info.basis.map_or(runs.len(), |b| b.runs.max(1));
    let standing = match improvement {
        Some(d) => standing_of(d, noise, kept, k, nb),
        None if noise.is_none() => Standing::Blind,
        None => Standing::WithinNoise,
    };
    Some(Effect {
        value,
        n: runs.len(),
        weighed,
        against,
        change,
        noise,
        standing,
    })
}

/// A try journaled before its basis was: the change against the best as
/// the journal recorded it.
fn legacy(info: &RatchetInfo, value: f64) -> (Option<f64>, Option<f64>) {
    let signed = |c: f64| match info.direction {
        Direction::Max => c,
        Direction::Min => -c,
    };
    match (info.paired, info.improvement) {
        // Paired by seed: the change is the mean difference at the same
        // seeds, against the best as it measures at them.
        (Some(_), Some(d)) => (Some(value - signed(d)), Some(signed(d))),
        _ => {
            let against = info.slot_best.as_ref().map(|b| b.value).or(info.best);
            (against, against.map(|b| value - b))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(status: TryStatus, best: f64, record_from: usize) -> RatchetInfo {
        RatchetInfo {
            best: Some(best),
            noise: Some(0.01),
            record_from,
            best_runs: Some(5),
            ..RatchetInfo::new(
                "s".into(),
                status,
                "m".into(),
                Direction::Min,
                "confirm".into(),
                "k".into(),
            )
        }
    }

    #[test]
    fn a_keep_is_its_confirmation_runs_against_the_best() {
        let e = of_try(&info(TryStatus::Keep, 1.0, 1), &[0.8, 0.9, 0.92]).unwrap();
        assert!((e.value - 0.91).abs() < 1e-12 && e.n == 2, "{e:?}");
        assert!((e.change.unwrap() + 0.09).abs() < 1e-12);
        assert!((e.improvement(Direction::Min).unwrap() - 0.09).abs() < 1e-12);
        assert_eq!(e.words(), "beyond noise");
    }

    #[test]
    fn a_discard_stands_by_the_standard_error_of_the_difference() {
        // 0.02 worse with sd 0.01, one run against five: the band is
        // 2 × 0.01 × √1.2 ≈ 0.022, so within it.
        let e = of_try(&info(TryStatus::Discard, 1.0, 0), &[1.02]).unwrap();
        assert_eq!(e.words(), "within noise");
        let e = of_try(&info(TryStatus::Discard, 1.0, 0), &[1.03]).unwrap();
        assert_eq!(e.words(), "worse beyond noise");
        let mut blind = info(TryStatus::Discard, 1.0, 0);
        blind.blind = true;
        assert_eq!(of_try(&blind, &[1.03]).unwrap().words(), "blind to noise");
        assert!(of_try(&info(TryStatus::Crash, 1.0, 0), &[]).is_none());
    }
}
