//! A failed batch of the fleet's merge queue halved, as merge queues
//! bisect: one bad keep must not send every good one back to be replayed
//! and measured alone. The try that led it goes on leading the half that
//! holds its own keep (the newer members, stacked on the same best again,
//! its candidate on top) and measures it; the older half stays in the
//! queue, where one of its machines leads it as a batch of its own once
//! this lead is released. A half of one keep (a failed batch of two) is
//! no batch: each keep is replayed alone, as before.

use anyhow::Result;

use super::batch::{form, here, read_queued, Lead};
use super::candidate::{Against, TryEnv};
use super::short;
use crate::io::fleet_queue as queue;
use crate::ops::fleet::Fleet;

/// Halve the failed batch `lead` (three keeps or more) when it is still
/// as it was on the remote (this machine's lead, the best it was
/// confirmed on, the entries of the half it keeps): true when `at` is now
/// the half with this try's keep, to be measured.
pub(super) fn halve(
    env: &TryEnv<'_, '_>,
    f: &Fleet,
    at: &mut Against,
    lead: &Lead,
) -> Result<bool> {
    if lead.members.len() < 2 {
        return Ok(false);
    }
    let Some(q) = read_queued(&here(env))? else {
        return Ok(false);
    };
    let (back, half) = halves(&lead.members);
    if !still_as_it_was(f, lead, half)? {
        return Ok(false);
    }
    env.repo.unstack(&lead.tip, &lead.base, &lead.files)?;
    let mut theirs = Vec::new();
    for e in half {
        theirs.extend(queue::changed(&f.door, &e.commit)?);
    }
    theirs.sort();
    theirs.dedup();
    env.runner.host.warn(&format!(
        "the batch of {} keeps failed on {}: halved, as a merge queue bisects: {} wait in the queue \
         for a batch of their own, {} confirmed again with this keep",
        lead.members.len() + 1,
        short(&lead.base),
        back.len(),
        half.len()
    ));
    let lease = lead.lease.resume(f);
    let formed = form(
        env,
        f,
        (&q, lead.own.clone()),
        lease.clone(),
        (lead.base.clone(), half.to_vec(), theirs),
        at,
    )?;
    if formed.is_none() {
        // The lead goes as the failed batch's does (`batch::settle`).
        let _ = queue::swap(&f.door, queue::LEAD, "", Some(lease.settled()));
    }
    Ok(formed.is_some())
}

/// The members split in two: the older half, back to the queue, and the
/// newer half, confirmed again with the lead's keep (the lead's keep
/// makes it the larger when they are odd in number with it).
fn halves(members: &[queue::Entry]) -> (&[queue::Entry], &[queue::Entry]) {
    members.split_at(members.len() / 2)
}

/// Whether the queue is as the failed batch left it: this try's lead,
/// the fleet's best the batch was confirmed on, and the entries of the
/// half it keeps (its own too) waiting as they were.
fn still_as_it_was(f: &Fleet, lead: &Lead, half: &[queue::Entry]) -> Result<bool> {
    if f.fetch()?.is_err() {
        return Ok(false);
    }
    if queue::lead(&f.door).as_deref() != Some(lead.lease.settled())
        || f.best().as_deref() != Some(lead.base.as_str())
    {
        return Ok(false);
    }
    let waiting = queue::entries(&f.door)?;
    Ok(half
        .iter()
        .chain(std::iter::once(&lead.own))
        .all(|e| waiting.contains(e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(n: usize) -> Vec<queue::Entry> {
        (0..n)
            .map(|i| queue::Entry {
                run: format!("r{i}"),
                commit: format!("c{i}"),
            })
            .collect()
    }

    #[test]
    fn the_older_half_goes_back_and_the_lead_keeps_the_newer() {
        let m = entries(3);
        let (back, half) = halves(&m);
        assert_eq!(back.len(), 1);
        assert_eq!(half.len(), 2);
        assert_eq!(half[0].run, "r1");
        let m = entries(2);
        let (back, half) = halves(&m);
        assert_eq!((back.len(), half.len()), (1, 1));
    }
}
