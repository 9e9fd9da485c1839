//! The interval between rounds: which rounds count, and when the next one
//! may start.

use jiff::{SignedDuration, Timestamp};

use super::RoundStatus;

/// Does a round with this status count for `min_interval_hours`? Applied,
/// evaluated and rejected rounds do; skipped ones and unfinished stages do
/// not, nor reverted ones (a reverted round's interval was counted while it
/// stood as applied; hosts that record the revert in place should keep the
/// original time for the interval).
pub fn counts_for_interval(status: RoundStatus) -> bool {
    matches!(
        status,
        RoundStatus::Applied | RoundStatus::Evaluated | RoundStatus::Rejected
    )
}

/// The time of the latest round that counts for the interval, from
/// `(status, time)` pairs in any order.
pub fn last_counted_round(
    rounds: impl IntoIterator<Item = (RoundStatus, Timestamp)>,
) -> Option<Timestamp> {
    rounds
        .into_iter()
        .filter(|(status, _)| counts_for_interval(*status))
        .map(|(_, at)| at)
        .max()
}

/// When the next round is allowed: `min_interval_hours` after the last
/// counted round, or `None` when there was none (allowed now). An interval
/// that overflows the calendar gives [`Timestamp::MAX`].
pub fn next_round_allowed(
    last_counted: Option<Timestamp>,
    min_interval_hours: u64,
) -> Option<Timestamp> {
    let last = last_counted?;
    let next = i64::try_from(min_interval_hours)
        .ok()
        .and_then(|h| h.checked_mul(3600))
        .and_then(|secs| last.checked_add(SignedDuration::from_secs(secs)).ok())
        .unwrap_or(Timestamp::MAX);
    Some(next)
}

/// May a round start at `now`? True at or after [`next_round_allowed`].
pub fn round_allowed_at(
    now: Timestamp,
    last_counted: Option<Timestamp>,
    min_interval_hours: u64,
) -> bool {
    next_round_allowed(last_counted, min_interval_hours).is_none_or(|next| now >= next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_statuses() {
        use RoundStatus::*;
        for s in [Applied, Evaluated, Rejected] {
            assert!(counts_for_interval(s), "{s}");
        }
        for s in [Skipped, Gathered, Proposed, Validated, Reverted] {
            assert!(!counts_for_interval(s), "{s}");
        }
    }

    #[test]
    fn next_round_time() {
        let t = |s: &str| s.parse::<Timestamp>().unwrap();
        let last = t("2026-01-01T10:00:00Z");
        assert_eq!(next_round_allowed(None, 24), None);
        assert_eq!(
            next_round_allowed(Some(last), 24),
            Some(t("2026-01-02T10:00:00Z"))
        );
        assert_eq!(next_round_allowed(Some(last), 0), Some(last));
        assert_eq!(
            next_round_allowed(Some(last), u64::MAX),
            Some(Timestamp::MAX)
        );
        assert_eq!(
            next_round_allowed(Some(last), 1 << 40),
            Some(Timestamp::MAX)
        );

        assert!(round_allowed_at(last, None, 24));
        assert!(!round_allowed_at(t("2026-01-02T09:59:59Z"), Some(last), 24));
        assert!(round_allowed_at(t("2026-01-02T10:00:00Z"), Some(last), 24));
        assert!(round_allowed_at(last, Some(last), 0));

        let rounds = [
            (RoundStatus::Applied, t("2026-01-01T00:00:00Z")),
            (RoundStatus::Skipped, t("2026-01-05T00:00:00Z")),
            (RoundStatus::Rejected, t("2026-01-03T00:00:00Z")),
            (RoundStatus::Evaluated, t("2026-01-02T00:00:00Z")),
        ];
        assert_eq!(last_counted_round(rounds), Some(t("2026-01-03T00:00:00Z")));
        assert_eq!(last_counted_round([(RoundStatus::Skipped, last)]), None);
    }
}
