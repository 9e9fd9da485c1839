//! A candidate compared with the best as the best measures on the
//! candidate's slot (`[objective] slots`, two or more): the best's runs on
//! that slot, and its runs on other slots moved by the slots' estimated
//! offsets ([`crate::kernel::slot_offset`]). When the best has no runs
//! there and no offset is known well enough, the try first measures the
//! best on that slot (`remeasure`). Without a noise estimate (no repeated
//! measurement in the segment) an offset cannot be told from noise, and
//! the candidate is compared with the best as recorded.

use crate::kernel::ratchet::{pooled_noise, segment_noise};
use crate::kernel::ratchet_record::SlotBest;
use crate::kernel::segment::{runs_of, Measured, Segment};
use crate::kernel::slot_offset::{self, CommitRuns, Reference};

pub struct SlotCompare<'s> {
    /// Two slots or more, or a fleet: compare on the candidate's slot.
    on: bool,
    /// A fleet: the frames are classes, whose runs are never compared raw
    /// (without a noise estimate, only the best's runs on the candidate's
    /// class count, measured there first when it has none).
    classes: bool,
    segment: &'s Segment,
    /// The segment's runs per commit and slot, with this try's remeasure.
    slot_runs: Vec<CommitRuns>,
    /// Replicate groups measured during this try (the best on a slot).
    extra: Vec<Vec<f64>>,
    /// The slot of each of the candidate's samples.
    sample_slots: Vec<Option<String>>,
    /// The slot the candidate is compared on: its first run's.
    pub frame: Option<String>,
    remeasured: bool,
    /// The best's runs measured again on the candidate's slot, with their
    /// seeds (paired seeds).
    seeded: Vec<(Option<u64>, f64)>,
    /// Ctrl-C while the best was measured on the candidate's slot.
    pub interrupted: bool,
}

impl<'s> SlotCompare<'s> {
    /// For a try of `segment` with `slots` slots, on a machine of a fleet
    /// (`classes`) or not.
    pub fn new(slots: usize, classes: bool, segment: &'s Segment) -> SlotCompare<'s> {
        SlotCompare {
            on: slots >= 2 || classes,
            classes,
            segment,
            slot_runs: segment.slot_runs.clone(),
            extra: Vec::new(),
            sample_slots: Vec::new(),
            frame: None,
            remeasured: false,
            seeded: Vec::new(),
            interrupted: false,
        }
    }

    /// The candidate's next sample ran on `slot`.
    pub fn ran(&mut self, slot: Option<String>) {
        if self.on && self.frame.is_none() {
            self.frame.clone_from(&slot);
        }
        self.sample_slots.push(slot);
    }

    /// The replicate groups: the segment's and this try's.
    pub fn groups(&self) -> Vec<&[f64]> {
        self.segment
            .replicates
            .iter()
            .chain(&self.extra)
            .map(Vec::as_slice)
            .collect()
    }

    /// The segment's noise (the sd of one run) as the keep rules pool it
    /// ([`segment_noise`]): over [`Self::groups`], the best's recorded
    /// runs `best` never left out.
    pub fn noise(&self, best: &[f64]) -> Option<f64> {
        segment_noise(&self.groups(), best).map(|(sd, _)| sd)
    }

    fn sd(&self) -> Option<f64> {
        pooled_noise(&self.groups()).map(|(sd, _)| sd)
    }

    fn runs_of(&self, commit: &str) -> CommitRuns {
        runs_of(&self.slot_runs, commit)
            .cloned()
            .unwrap_or_else(|| CommitRuns {
                commit: commit.to_string(),
                ..CommitRuns::default()
            })
    }

    /// Must the best (`kept`) be measured on the candidate's slot before
    /// the candidate is compared with it (once per measurement)?
    pub fn needs_remeasure(&self, kept: &str) -> bool {
        // Without a noise estimate (no repeated measurement yet), an
        // offset cannot be told from noise: compared as recorded.
        let sd = self.sd();
        let Some(slot) = self
            .frame
            .as_deref()
            .filter(|_| self.on && !self.remeasured)
        else {
            return false;
        };
        match sd {
            Some(_) => slot_offset::needs_remeasure(&self.slot_runs, &self.runs_of(kept), slot, sd),
            // A class's runs are never compared raw with another's.
            None if self.classes => !self.runs_of(kept).by_slot.contains_key(slot),
            None => false,
        }
    }

    /// How many runs of the best (`kept`) to measure on the candidate's
    /// slot before the candidate is compared with it, at most `n`: none
    /// when [`Self::needs_remeasure`] says none, fewer than `n` when the
    /// slots' shared commits already tell the offset in part
    /// ([`slot_offset::remeasure_runs`]).
    pub fn remeasure_runs(&self, kept: &str, n: u32) -> u32 {
        if !self.needs_remeasure(kept) {
            return 0;
        }
        let n = n.max(1);
        match (self.frame.as_deref(), self.sd()) {
            (Some(slot), Some(sd)) => {
                let best = self.runs_of(kept);
                let runs =
                    slot_offset::remeasure_runs(&self.slot_runs, &best, slot, Some(sd), n as usize);
                u32::try_from(runs).map_or(n, |r| r.min(n))
            }
            _ => n,
        }
    }

    /// The best (`kept`) was measured again: `runs`, each with its slot
    /// (and `seeds`, each run's seed, under paired seeds).
    pub fn remeasured(&mut self, kept: &str, runs: Vec<(String, f64)>, seeds: &[Option<u64>]) {
        self.remeasured = true;
        self.seeded = seeds
            .iter()
            .zip(&runs)
            .map(|(s, (_, x))| (*s, *x))
            .collect();
        if runs.len() >= 2 {
            self.extra.push(runs.iter().map(|(_, x)| *x).collect());
        }
        slot_offset::add_runs(&mut self.slot_runs, kept, runs);
    }

    fn reference(&self, best: &Measured) -> Option<(&str, Reference)> {
        let slot = self.frame.as_deref().filter(|_| self.on)?;
        let runs = runs_of(&self.slot_runs, &best.commit)?;
        let Some(sd) = self.sd() else {
            // Without a noise estimate no offset is known: a class's best
            // is its runs on the class itself.
            let own = runs.by_slot.get(slot).filter(|_| self.classes)?;
            return Some((
                slot,
                Reference {
                    samples: own.clone(),
                    same_slot: own.len(),
                    var: 0.0,
                },
            ));
        };
        slot_offset::reference(&self.slot_runs, runs, slot, Some(sd)).map(|r| (slot, r))
    }

    /// What the decision compares: the best on the candidate's slot (or as
    /// recorded, without slots), and the candidate's samples, those from
    /// another slot moved onto its first run's slot.
    pub fn compare(&self, best: &Measured, samples: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let Some((slot, r)) = self.reference(best) else {
            // A fleet's best that could not be measured on this class is
            // no reference at all (the rule finds it inconclusive).
            let reference = if self.classes {
                Vec::new()
            } else {
                best.samples.clone()
            };
            return (reference, samples.to_vec());
        };
        let sd = self.sd();
        let moved = samples
            .iter()
            .zip(&self.sample_slots)
            .map(|(&x, s)| match s.as_deref() {
                Some(s) if s != slot => {
                    slot_offset::offset(&self.slot_runs, slot, s, sd).map_or(x, |o| x + o.d)
                }
                _ => x,
            })
            .collect();
        (r.samples, moved)
    }

    /// The best on the candidate's slot, when it is not the best as
    /// recorded.
    pub fn slot_best(&self, best: &Measured) -> Option<SlotBest> {
        let (slot, r) = self.reference(best)?;
        (r.samples != best.samples).then(|| SlotBest {
            slot: slot.to_string(),
            value: r.mean(),
            runs: r.same_slot,
            moved: r.samples.len() - r.same_slot,
        })
    }

    /// The best's runs and their seeds, as a candidate's runs pair with
    /// them (paired seeds): on the candidate's slot, its runs measured
    /// there first (by this try or an earlier one), then each of its runs (`Measured::pair_runs`) moved
    /// there by the slots' offset; without slots, as they ran.
    pub fn paired_best(&self, best: &Measured) -> (Vec<f64>, Vec<Option<u64>>) {
        let runs = best.pair_runs();
        let Some((slot, _)) = self.reference(best) else {
            if self.classes {
                return (Vec::new(), Vec::new());
            }
            return runs.into_iter().map(|(x, s, _)| (x, s)).unzip();
        };
        let sd = self.sd();
        // Measured on the slot itself, in this try or an earlier one, at
        // the seed: an exact pair, unlike a run moved by an offset that is
        // estimated (and shrunk toward 0).
        let earlier = best
            .remeasured
            .iter()
            .filter(|(_, _, on)| on.as_deref() == Some(slot))
            .map(|(x, s, _)| (*x, *s));
        let (mut values, mut seeds): (Vec<f64>, Vec<Option<u64>>) = self
            .seeded
            .iter()
            .map(|(s, x)| (*x, *s))
            .chain(earlier)
            .unzip();
        for (x, seed, on) in runs {
            let moved = match on {
                Some(s) if s == slot => Some(x),
                // No offset between classes is known without the noise.
                Some(_) if self.classes && sd.is_none() => None,
                Some(s) => slot_offset::offset(&self.slot_runs, slot, s, sd).map(|o| x + o.d),
                None => None,
            };
            if let Some(v) = moved {
                values.push(v);
                seeds.push(seed);
            }
        }
        (values, seeds)
    }

    /// How many runs of the best the decision compared with.
    pub fn reference_runs(&self, best: &Measured) -> usize {
        self.reference(best)
            .map_or(best.samples.len(), |(_, r)| r.samples.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segment(replicates: Vec<Vec<f64>>) -> Segment {
        let best = Measured {
            run_id: "b".into(),
            commit: "k".into(),
            description: None,
            samples: vec![10.0, 10.1, 9.9],
            at: String::new(),
            confirmed: true,
            seeds: Vec::new(),
            slots: Vec::new(),
            instances: None,
            screened: Vec::new(),
            remeasured: Vec::new(),
        };
        Segment {
            kept: Some(best),
            replicates,
            slot_runs: vec![CommitRuns {
                commit: "k".into(),
                by_slot: [("0".to_string(), vec![10.0, 10.1, 9.9])].into(),
            }],
            ..Segment::default()
        }
    }

    #[test]
    fn a_candidate_on_a_slot_without_the_best_measures_it_there_first() {
        let seg = segment(vec![vec![10.0, 10.1, 9.9]]);
        let best = seg.kept.clone().unwrap();
        let mut c = SlotCompare::new(2, false, &seg);
        c.ran(Some("1".into()));
        assert!(c.needs_remeasure("k"));
        c.remeasured("k", vec![("1".into(), 15.0), ("1".into(), 15.1)], &[]);
        // Once per measurement.
        assert!(!c.needs_remeasure("k"));
        let (reference, candidate) = c.compare(&best, &[15.05]);
        assert_eq!(candidate, vec![15.05]);
        // The best on slot 1 itself, and its slot-0 runs moved by the
        // offset both measured it with (about +5).
        assert_eq!(reference.len(), 5);
        let mean = reference.iter().sum::<f64>() / 5.0;
        assert!((mean - 15.05).abs() < 0.2, "{reference:?}");
        let b = c.slot_best(&best).unwrap();
        assert_eq!((b.slot.as_str(), b.runs, b.moved), ("1", 2, 3));
        assert_eq!(c.reference_runs(&best), 5);
    }

    #[test]
    fn without_slots_or_a_noise_estimate_the_best_is_compared_as_recorded() {
        for (slots, replicates) in [(1, vec![vec![10.0, 10.1]]), (2, vec![])] {
            let seg = segment(replicates);
            let best = seg.kept.clone().unwrap();
            let mut c = SlotCompare::new(slots, false, &seg);
            c.ran(Some("1".into()));
            assert!(!c.needs_remeasure("k"));
            assert_eq!(
                c.compare(&best, &[15.0]),
                (best.samples.clone(), vec![15.0])
            );
            assert!(c.slot_best(&best).is_none());
        }
    }

    #[test]
    fn paired_runs_of_the_best_on_the_candidates_slot_come_before_moved_ones() {
        let mut seg = segment(vec![vec![10.0, 10.1, 9.9]]);
        seg.slot_runs[0]
            .by_slot
            .insert("1".into(), vec![15.0, 15.1, 14.9]);
        let best = seg.kept.as_mut().unwrap();
        best.seeds = vec![Some(1), Some(2), Some(3)];
        best.slots = vec![Some("0".into()); 3];
        let mut best = best.clone();
        let mut c = SlotCompare::new(2, false, &seg);
        c.ran(Some("1".into()));
        // Only runs on slot 0: each moved by the offset (about +5).
        let (values, seeds) = c.paired_best(&best);
        assert_eq!(seeds, vec![Some(1), Some(2), Some(3)]);
        assert!(values
            .iter()
            .zip([10.0, 10.1, 9.9])
            .all(|(v, x)| (v - x - 5.0).abs() < 0.1));
        // Its runs measured on slot 1 by an earlier try, at seeds 1 and
        // 2, pair first and as they read; one on another slot does not.
        best.remeasured = vec![
            (15.02, Some(1), Some("1".into())),
            (15.12, Some(2), Some("1".into())),
            (20.0, Some(3), Some("2".into())),
        ];
        let (values, seeds) = c.paired_best(&best);
        assert_eq!(&values[..2], &[15.02, 15.12]);
        assert_eq!(seeds, vec![Some(1), Some(2), Some(1), Some(2), Some(3)]);
    }

    #[test]
    fn a_class_never_compares_with_another_class_raw_even_without_a_noise_estimate() {
        // The best measured on class `slow` only, and no repeated
        // measurement yet: slots would compare as recorded; a class
        // measures the best on itself first, then compares with that alone.
        let mut seg = segment(vec![]);
        seg.slot_runs[0].by_slot = [("slow".to_string(), vec![10.0])].into();
        let best = seg.kept.clone().unwrap();
        let mut c = SlotCompare::new(1, true, &seg);
        c.ran(Some("fast".into()));
        assert!(c.needs_remeasure("k"));
        // Before it is measured here, there is nothing to compare with.
        assert_eq!(c.compare(&best, &[7.0]), (Vec::new(), vec![7.0]));
        assert_eq!(c.paired_best(&best), (Vec::new(), Vec::new()));
        c.remeasured("k", vec![("fast".into(), 7.1)], &[]);
        assert!(!c.needs_remeasure("k"));
        assert_eq!(c.compare(&best, &[7.0]), (vec![7.1], vec![7.0]));
        let b = c.slot_best(&best).unwrap();
        assert_eq!((b.slot.as_str(), b.runs, b.moved), ("fast", 1, 0));
    }
}
