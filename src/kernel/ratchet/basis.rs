//! What a decision weighed, as one basis: the candidate's runs it used,
//! and either the best's runs at the same seeds (a paired decision) or
//! the best's record. The try's line, its JSON and its finding read the
//! value, the "vs" and the change from here, so the three numbers are
//! always of the same runs and the change has the sign of the decision's
//! improvement.

use serde::{Deserialize, Serialize};

use super::{Ctx, Evidence};
use crate::kernel::paired;
use crate::kernel::ratchet_noise::mean;

/// The numbers a decision's line shows. Journaled with the try
/// (`ratchet.basis`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Basis {
    /// The candidate's runs the decision weighed: its first `runs`.
    pub runs: usize,
    /// Pairs at the same seed the decision compared (0: unpaired, the
    /// candidate's runs against the best's record).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pairs: usize,
    /// The candidate's mean over those runs (paired: over its paired
    /// runs).
    pub value: f64,
    /// The best's mean over the same seeds (paired), or over its record.
    pub vs: f64,
    /// `value − vs`, in the metric's units (negative is better when lower
    /// is).
    pub change: f64,
    /// Paired, from three pairs on: this try's own correlation of its runs
    /// with the best's at the same seeds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rho: Option<f64>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The basis of a decision on `evidence`'s candidate runs, paired at the
/// same seeds or not; `None` when the best has no runs (or, paired, no
/// run pairs).
pub fn of(evidence: &Evidence<'_>, paired: bool) -> Option<Basis> {
    let cand = evidence.candidate;
    if paired {
        let s = &evidence.seeds;
        let seeds = &s.candidate[..cand.len().min(s.candidate.len())];
        let pairs = paired::matched(s.best, s.best_seeds, cand, seeds);
        let c: Vec<f64> = pairs.iter().map(|p| p.0).collect();
        let b: Vec<f64> = pairs.iter().map(|p| p.1).collect();
        let (value, vs) = (mean(&c)?, mean(&b)?);
        return Some(Basis {
            runs: cand.len(),
            pairs: pairs.len(),
            value,
            vs,
            change: value - vs,
            rho: paired::own_rho(&pairs),
        });
    }
    let (value, vs) = (mean(cand)?, mean(evidence.best)?);
    Some(Basis {
        runs: cand.len(),
        pairs: 0,
        value,
        vs,
        change: value - vs,
        rho: None,
    })
}

impl Ctx<'_, '_> {
    /// The basis of this context's decision ([`of`]).
    pub(super) fn basis(&self, paired: bool) -> Option<Basis> {
        of(self.evidence, paired)
    }
}
