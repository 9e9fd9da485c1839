//! The weekday test: do events (failures, say) cluster on particular days
//! of the week? Pearson's chi-squared against a uniform spread.

use std::fmt;

use serde::{Deserialize, Serialize};
use statrs::distribution::{ChiSquared, ContinuousCDF};

use super::MIN_EVENTS;

/// Significance level of the cycle test.
pub const CHI_SQUARED_P: f64 = 0.05;

/// Chi-squared critical values at p = 0.05, by degrees of freedom, as the
/// reference tabulates them (rounded to three decimals).
pub const CHI_SQUARED_CRITICAL_05: [(u32, f64); 5] = [
    (2, 5.991),
    (3, 7.815),
    (6, 12.592),
    (11, 19.675),
    (23, 35.172),
];

/// Pearson's chi-squared statistic against a uniform expectation of
/// `expected` per bucket: `Σ (o − e)² / e`; 0 when `expected <= 0`.
pub fn chi_squared_uniform(observed: &[u64], expected: f64) -> f64 {
    if expected.is_nan() || expected <= 0.0 {
        return 0.0;
    }
    observed
        .iter()
        .map(|o| {
            let d = *o as f64 - expected;
            d * d / expected
        })
        .sum()
}

/// The chi-squared critical value at p = 0.05 for `dof` degrees of
/// freedom: the reference's table ([`CHI_SQUARED_CRITICAL_05`]) where it
/// has the entry, so decisions agree with it, else the 0.95 quantile from
/// `statrs`. `None` for 0 degrees of freedom.
pub fn chi_squared_critical(dof: u32) -> Option<f64> {
    if let Some((_, v)) = CHI_SQUARED_CRITICAL_05.iter().find(|(d, _)| *d == dof) {
        return Some(*v);
    }
    ChiSquared::new(dof as f64)
        .ok()
        .map(|dist| dist.inverse_cdf(1.0 - CHI_SQUARED_P))
}

/// A day of the week, Monday first (Monday = 0, as Python's `tm_wday`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Weekday {
    Monday,
    Tuesday,
    Wednesday,
    Thursday,
    Friday,
    Saturday,
    Sunday,
}

impl Weekday {
    /// Every weekday, Monday first.
    pub const ALL: [Weekday; 7] = [
        Weekday::Monday,
        Weekday::Tuesday,
        Weekday::Wednesday,
        Weekday::Thursday,
        Weekday::Friday,
        Weekday::Saturday,
        Weekday::Sunday,
    ];

    /// The name, capitalized.
    pub fn as_str(self) -> &'static str {
        match self {
            Weekday::Monday => "Monday",
            Weekday::Tuesday => "Tuesday",
            Weekday::Wednesday => "Wednesday",
            Weekday::Thursday => "Thursday",
            Weekday::Friday => "Friday",
            Weekday::Saturday => "Saturday",
            Weekday::Sunday => "Sunday",
        }
    }

    /// Monday = 0 … Sunday = 6.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The UTC weekday of a time in unix seconds (1970-01-01 was a
    /// Thursday).
    pub fn of_unix_seconds(unix_seconds: i64) -> Weekday {
        let days = unix_seconds.div_euclid(86_400);
        Weekday::ALL[(days + 3).rem_euclid(7) as usize]
    }
}

impl fmt::Display for Weekday {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Residual `(o − e)/√e` above which a weekday counts as over-represented
/// (besides the peak), about the 97.5% normal quantile.
pub const OVER_REPRESENTED_RESIDUAL: f64 = 1.96;

/// The weekday test of a set of event times.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WeekdayCycle {
    /// Events per weekday, Monday first.
    pub counts: [u64; 7],
    pub n: u64,
    /// `n / 7`.
    pub expected: f64,
    /// Pearson's chi-squared against uniform, 6 degrees of freedom.
    pub statistic: f64,
    /// The critical value at p = 0.05 (12.592).
    pub critical: f64,
    /// `statistic > critical`.
    pub significant: bool,
    /// The first weekday with the most events.
    pub peak: Weekday,
    /// When significant: the weekday(s) with the most events, plus any
    /// other weekday whose residual exceeds [`OVER_REPRESENTED_RESIDUAL`];
    /// Monday first. Empty when not significant.
    pub over_represented: Vec<Weekday>,
}

impl WeekdayCycle {
    /// The over-represented weekdays for a sentence such as "failures
    /// cluster on Mondays": `Mondays`, `Mondays and Fridays`,
    /// `Mondays, Tuesdays and Fridays`; `None` when there are none.
    pub fn phrase(&self) -> Option<String> {
        let names: Vec<String> = self
            .over_represented
            .iter()
            .map(|d| format!("{d}s"))
            .collect();
        match names.as_slice() {
            [] => None,
            [one] => Some(one.clone()),
            [init @ .., last] => Some(format!("{} and {last}", init.join(", "))),
        }
    }
}

/// Test whether event times (unix seconds, UTC) cluster by weekday:
/// bucket them Monday..Sunday and compare with uniform by chi-squared
/// (significant above 12.592, p = 0.05 at 6 degrees of freedom). `None`
/// when there are too few events: fewer than 3, or fewer than 7 (an
/// expected count below 1 per day).
pub fn weekday_cycle(times: &[i64]) -> Option<WeekdayCycle> {
    let mut counts = [0u64; 7];
    for t in times {
        counts[Weekday::of_unix_seconds(*t).index()] += 1;
    }
    weekday_cycle_of_counts(counts)
}

/// [`weekday_cycle`] from events already counted per weekday (Monday first).
pub fn weekday_cycle_of_counts(counts: [u64; 7]) -> Option<WeekdayCycle> {
    let n: u64 = counts.iter().sum();
    let expected = n as f64 / 7.0;
    if n < MIN_EVENTS || expected < 1.0 {
        return None;
    }
    let statistic = chi_squared_uniform(&counts, expected);
    let critical = chi_squared_critical(6).expect("6 degrees of freedom are tabulated");
    let significant = statistic > critical;
    let most = *counts.iter().max().expect("seven buckets");
    let peak = Weekday::ALL[counts
        .iter()
        .position(|c| *c == most)
        .expect("the maximum is among the counts")];
    let over_represented = if significant {
        Weekday::ALL
            .into_iter()
            .filter(|d| {
                let c = counts[d.index()];
                c == most || (c as f64 - expected) / expected.sqrt() > OVER_REPRESENTED_RESIDUAL
            })
            .collect()
    } else {
        Vec::new()
    };
    Some(WeekdayCycle {
        counts,
        n,
        expected,
        statistic,
        critical,
        significant,
        peak,
        over_represented,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const TOL: f64 = 1e-12;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= TOL
    }

    #[test]
    fn chi_squared_statistic() {
        assert_eq!(chi_squared_uniform(&[1, 2, 3], 0.0), 0.0);
        assert_eq!(chi_squared_uniform(&[1, 2, 3], -1.0), 0.0);
        assert_eq!(chi_squared_uniform(&[2, 2, 2], 2.0), 0.0);
        // (4-2)²/2 + (0-2)²/2 + 0 = 4.
        assert!(close(chi_squared_uniform(&[4, 0, 2], 2.0), 4.0));
    }

    #[test]
    fn chi_squared_critical_values() {
        for (dof, v) in [
            (2, 5.991),
            (3, 7.815),
            (6, 12.592),
            (11, 19.675),
            (23, 35.172),
        ] {
            assert_eq!(chi_squared_critical(dof), Some(v));
            // The table is statrs' quantile rounded to three decimals.
            let exact = ChiSquared::new(dof as f64).unwrap().inverse_cdf(0.95);
            assert!((exact - v).abs() < 5e-4, "dof {dof}: {exact}");
        }
        assert!((chi_squared_critical(1).unwrap() - 3.841458820694124).abs() < 1e-9);
        assert!((chi_squared_critical(4).unwrap() - 9.487729036781154).abs() < 1e-9);
        assert_eq!(chi_squared_critical(0), None);
    }

    #[test]
    fn weekdays_from_unix_seconds() {
        assert_eq!(Weekday::of_unix_seconds(0), Weekday::Thursday);
        // 2024-01-01T00:00:00Z was a Monday.
        assert_eq!(Weekday::of_unix_seconds(1_704_067_200), Weekday::Monday);
        assert_eq!(Weekday::of_unix_seconds(1_704_067_200 - 1), Weekday::Sunday);
        assert_eq!(Weekday::of_unix_seconds(-1), Weekday::Wednesday);
        assert_eq!(Weekday::Sunday.index(), 6);
        assert_eq!(
            serde_json::to_string(&Weekday::Monday).unwrap(),
            "\"monday\""
        );
    }

    const MONDAY: i64 = 1_704_067_200;
    const DAY: i64 = 86_400;
    const WEEK: i64 = 7 * DAY;

    #[test]
    fn weekday_cycle_needs_enough_events() {
        assert_eq!(weekday_cycle(&[]), None);
        assert_eq!(weekday_cycle(&[MONDAY; 6]), None);
        let c = weekday_cycle(&[MONDAY; 7]).unwrap();
        assert_eq!(c.counts, [7, 0, 0, 0, 0, 0, 0]);
        // 6·1 + 36 = 42 > 12.592.
        assert!(close(c.statistic, 42.0));
        assert!(c.significant);
        assert_eq!(c.over_represented, vec![Weekday::Monday]);
        assert_eq!(c.phrase().as_deref(), Some("Mondays"));
    }

    #[test]
    fn weekday_cycle_uniform_is_not_significant() {
        let times: Vec<i64> = (0..28).map(|i| MONDAY + i * DAY + 3600).collect();
        let c = weekday_cycle(&times).unwrap();
        assert_eq!(c.counts, [4; 7]);
        assert_eq!(c.statistic, 0.0);
        assert!(!c.significant);
        assert_eq!(c.critical, 12.592);
        assert!(c.over_represented.is_empty());
        assert_eq!(c.phrase(), None);
        assert_eq!(c.peak, Weekday::Monday);
    }

    #[test]
    fn weekday_cycle_failures_cluster_on_mondays_and_fridays() {
        let mut times: Vec<i64> = (0..7).map(|i| MONDAY + i * DAY).collect();
        for w in 0..6 {
            times.push(MONDAY + w * WEEK + 10 * 3600);
            times.push(MONDAY + w * WEEK + 4 * DAY + 3600);
        }
        times.push(MONDAY + 9 * WEEK + 4 * DAY);
        let c = weekday_cycle(&times).unwrap();
        assert_eq!(c.counts, [7, 1, 1, 1, 8, 1, 1]);
        assert!(c.significant, "{}", c.statistic);
        assert_eq!(c.peak, Weekday::Friday);
        assert_eq!(c.over_represented, vec![Weekday::Monday, Weekday::Friday]);
        assert_eq!(c.phrase().as_deref(), Some("Mondays and Fridays"));
        let j = serde_json::to_value(&c).unwrap();
        assert_eq!(j["over_represented"], json!(["monday", "friday"]));
        assert_eq!(j["counts"].as_array().unwrap().len(), 7);
    }

    #[test]
    fn weekday_phrase_lists() {
        let c = WeekdayCycle {
            counts: [0; 7],
            n: 0,
            expected: 0.0,
            statistic: 0.0,
            critical: 12.592,
            significant: true,
            peak: Weekday::Monday,
            over_represented: vec![Weekday::Monday, Weekday::Tuesday, Weekday::Friday],
        };
        assert_eq!(c.phrase().as_deref(), Some("Mondays, Tuesdays and Fridays"));
    }
}
