//! The keep-if-better ratchet: `arx try` (one iteration), `arx best`,
//! `arx status` and `arx restore`. The decision rule is
//! `kernel::ratchet`, the segment fold `kernel::segment`, the git work
//! `io::git::ratchet`; the files here are glue and what they share.

pub mod attempt;
pub mod best;
pub mod restore;
pub mod status;

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use super::{Ctx, WARN};
use crate::cli::ObjectiveFlags;
use crate::io::git::ratchet::RatchetRepo;
use crate::io::state::journal;
use crate::kernel::journal::RunRecord;
use crate::kernel::number::fmt_number;
use crate::kernel::objective::Objective;
use crate::kernel::ratchet::{estimate, pooled_noise};
use crate::kernel::segment::{self, Measured, Segment};

/// What every ratchet command starts from.
pub struct Loaded {
    pub objective: Objective,
    /// `rule` from `[objective]`, if set.
    pub file_rule: Option<String>,
    pub cwd: PathBuf,
    pub state: PathBuf,
    pub records: Vec<RunRecord>,
    /// The objective's segment, when it is the journal's current one.
    pub segment: Option<Segment>,
}

/// The objective, the journal and the current segment.
pub fn load(ctx: &Ctx, flags: &ObjectiveFlags) -> Result<Loaded> {
    let config = ctx.config()?;
    let (objective, file_rule) = crate::ops::objective::resolve(flags, config.objective.as_ref())?;
    let cwd = ctx.cwd()?;
    let state = ctx.state_dir()?;
    let records = journal(&state, WARN).read()?;
    let segment = segment::current(&records, &objective.segment_id());
    Ok(Loaded {
        objective,
        file_rule,
        cwd,
        state,
        records,
        segment,
    })
}

/// The honest estimate of a measured commit: the mean of its samples and
/// its interval, with the segment's pooled noise.
#[derive(Debug, Clone, Serialize)]
pub struct Estimate {
    pub value: f64,
    pub interval: Option<(f64, f64)>,
    pub n: usize,
    /// The segment's noise (pooled sd of one run), when it has replicates.
    pub noise: Option<f64>,
}

pub fn estimate_of(m: &Measured, seg: &Segment, confidence: f64) -> Option<Estimate> {
    let groups: Vec<&[f64]> = seg.replicates.iter().map(Vec::as_slice).collect();
    let noise = pooled_noise(&groups);
    let (value, interval) = estimate(&m.samples, noise, confidence)?;
    Some(Estimate {
        value,
        interval: (m.samples.len() > 1 || noise.is_some()).then_some(interval),
        n: m.samples.len(),
        noise: noise.map(|(sd, _)| sd),
    })
}

/// Decimals that show a metric to the resolution of its noise: two
/// significant digits of the noise, or of a thousandth of the value when
/// there is no noise to go by. (JSON keeps every digit.)
pub fn decimals(noise: Option<f64>, value: f64) -> usize {
    let scale = match noise {
        Some(n) if n > 0.0 && n.is_finite() => n,
        _ => (value.abs() * 1e-3).max(1e-12),
    };
    (1.0 - scale.log10().floor()).clamp(0.0, 12.0) as usize
}

/// A number with `d` decimals; non-finite values as arx prints them.
pub fn num(x: f64, d: usize) -> String {
    if x.is_finite() {
        format!("{x:.d$}")
    } else {
        fmt_number(x)
    }
}

/// A signed change with `d` decimals: `+0.0011`, `−0.0047`.
pub fn signed(x: f64, d: usize) -> String {
    if x < 0.0 {
        format!("\u{2212}{}", num(-x, d))
    } else {
        format!("+{}", num(x, d))
    }
}

/// A run id as people read it (as `arx log` shows it).
pub fn run_short(run_id: &str) -> &str {
    run_id
        .get(..crate::kernel::journal::SHORT_ID_LEN)
        .unwrap_or(run_id)
}

/// A commit id as people read it.
pub fn short(commit: &str) -> &str {
    commit.get(..7).unwrap_or(commit)
}

/// Finish a discard that a crash interrupted (journaled, not yet
/// restored), and put back a candidate set aside for a baseline. Returns a
/// line for each thing done.
pub fn recover(repo: &RatchetRepo, state: &Path, records: &[RunRecord]) -> Result<Vec<String>> {
    let mut done = Vec::new();
    if let Some(aside) = crate::io::ratchet::read_aside(state)? {
        repo.put_back(&aside.refname)?;
        repo.delete_ref(&aside.refname)?;
        crate::io::ratchet::clear_aside(state)?;
        done.push(format!(
            "put back the candidate set aside for the baseline ({})",
            aside.refname
        ));
    }
    if let Some(p) = crate::io::ratchet::read_pending(state)? {
        if !records.iter().any(|r| r.run_id == p.record.run_id) {
            journal(state, WARN).append(&p.record)?;
        }
        if repo.ref_target(&p.discarded_ref).is_none() {
            repo.snapshot(
                &p.discarded_ref,
                &format!("arx: discarded {}", p.record.run_id),
            )?;
        }
        let restored = repo.restore_to(&p.kept)?;
        crate::io::ratchet::clear_pending(state)?;
        done.push(format!(
            "finished an interrupted discard of run {}: {} restored, {} removed",
            run_short(&p.record.run_id),
            restored.restored.len(),
            restored.removed.len()
        ));
    }
    Ok(done)
}
