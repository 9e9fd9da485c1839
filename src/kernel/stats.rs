//! Noise-aware statistics for repeated runs: sample summaries (with robust
//! outlier flags), Student-t confidence intervals on a mean, the
//! confidence-interval verdict of a metric spec over several runs, and
//! Welch's two-sample comparison behind `arx compare`.
//!
//! Pure like the rest of the kernel: samples and settings in, summaries and
//! verdict records out. It must not read files, clocks or the environment,
//! draw randomness or print; the host runs the experiments and gathers the
//! samples. Distribution quantiles come from `statrs`, never from
//! hand-written special functions.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, StudentsT};

use super::contract::{Comparator, MetricSpec};
use super::names::str_enum;
use super::number::{fmt_compact, fmt_number, fmt_sig, round_sig};
use super::verdict::{EvidenceLevel, Verdict, VerdictRecord};

/// Name of the repeated-runs strategy of [`interval_verdict`].
pub const CONFIDENCE_INTERVAL: &str = "confidence_interval";

/// Name of the two-sample strategy of [`welch_verdict`].
pub const WELCH_T_TEST: &str = "welch_t_test";

/// Largest total number of runs [`IntervalVerdict::more_runs`] considers.
pub const MORE_RUNS_CAP: u64 = 1_000_000;

/// Modified z-score beyond which a sample is flagged as an outlier
/// (Iglewicz and Hoaglin).
const OUTLIER_Z: f64 = 3.5;

/// Scale of the modified z-score: the 0.75 quantile of the standard normal.
const MAD_SCALE: f64 = 0.6745;

/// Least significant digits shown for interval bounds in details.
const SHOWN_DIGITS: usize = 4;

/// Descriptive statistics of a sample.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub n: usize,
    pub mean: f64,
    /// Sample standard deviation (divisor `n - 1`); `0.0` when `n < 2`.
    pub sd: f64,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    /// Indices (ascending) of samples whose modified z-score exceeds 3.5.
    pub outliers: Vec<usize>,
}

/// Mean (kept within `[min, max]`) and sample standard deviation.
fn mean_sd(samples: &[f64], min: f64, max: f64) -> (f64, f64) {
    let n = samples.len();
    let mean = (samples.iter().sum::<f64>() / n as f64).clamp(min, max);
    let sd = if n < 2 {
        0.0
    } else {
        let ss: f64 = samples.iter().map(|x| (x - mean) * (x - mean)).sum();
        (ss / (n - 1) as f64).sqrt()
    };
    (mean, sd)
}

/// Summarize finite samples; `None` when there are none.
///
/// When every sample is equal the mean is that value exactly and the sd is
/// exactly zero, so a constant metric never looks noisy through rounding.
pub fn summarize(samples: &[f64]) -> Option<Summary> {
    let n = samples.len();
    if n == 0 {
        return None;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let (min, max) = (sorted[0], sorted[n - 1]);
    let median = median_of_sorted(&sorted);
    let (mean, sd) = if min == max {
        (min, 0.0)
    } else {
        let (mean, sd) = mean_sd(samples, min, max);
        if mean.is_finite() && sd.is_finite() {
            (mean, sd)
        } else {
            // Huge values overflow the sums: compute on samples scaled by a
            // power of two (exact), then scale back.
            let scale = 2f64.powi((min.abs().max(max.abs()).log2().ceil() as i32).min(1023));
            let scaled: Vec<f64> = samples.iter().map(|x| x / scale).collect();
            let (m, s) = mean_sd(&scaled, min / scale, max / scale);
            (m * scale, s * scale)
        }
    };
    let mut deviations: Vec<f64> = samples.iter().map(|x| (x - median).abs()).collect();
    deviations.sort_by(f64::total_cmp);
    let mad = median_of_sorted(&deviations);
    let outliers = if mad == 0.0 {
        Vec::new()
    } else {
        samples
            .iter()
            .enumerate()
            .filter(|(_, x)| (MAD_SCALE * (*x - median) / mad).abs() > OUTLIER_Z)
            .map(|(i, _)| i)
            .collect()
    };
    Some(Summary {
        n,
        mean,
        sd,
        median,
        min,
        max,
        outliers,
    })
}

fn median_of_sorted(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// Accept a confidence level only when it is finite and strictly between 0
/// and 1.
pub fn check_confidence(c: f64) -> Result<f64, String> {
    if c.is_finite() && c > 0.0 && c < 1.0 {
        Ok(c)
    } else {
        Err(format!(
            "confidence must be a number strictly between 0 and 1 (got {})",
            fmt_number(c)
        ))
    }
}

/// The two-sided critical value `t_{(1+c)/2, df}`; NaN when `df` is not a
/// valid number of degrees of freedom. `confidence` must be in (0, 1).
fn t_critical(confidence: f64, df: f64) -> f64 {
    match StudentsT::new(0.0, 1.0, df) {
        Ok(t) => t.inverse_cdf((1.0 + confidence) / 2.0),
        Err(_) => f64::NAN,
    }
}

/// Half-width of the t interval on a mean of `n` samples with sample sd `sd`.
fn half_width(sd: f64, n: u64, confidence: f64) -> f64 {
    t_critical(confidence, (n - 1) as f64) * sd / (n as f64).sqrt()
}

/// Two-sided Student-t confidence interval on the mean:
/// `mean ± t_{(1+c)/2, n-1} · sd/√n`. `None` when there are fewer than two
/// samples or `confidence` is not in (0, 1); the point `[mean, mean]` when
/// the sd is zero.
pub fn mean_interval(samples: &[f64], confidence: f64) -> Option<(f64, f64)> {
    check_confidence(confidence).ok()?;
    let s = summarize(samples)?;
    interval_of(&s, confidence)
}

fn interval_of(s: &Summary, confidence: f64) -> Option<(f64, f64)> {
    if s.n < 2 {
        return None;
    }
    if s.sd == 0.0 {
        return Some((s.mean, s.mean));
    }
    let h = half_width(s.sd, s.n as u64, confidence);
    Some((s.mean - h, s.mean + h))
}

/// The confidence-interval verdict of a metric over repeated runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IntervalVerdict {
    pub record: VerdictRecord,
    pub summary: Option<Summary>,
    pub interval: Option<(f64, f64)>,
    /// When inconclusive: about how many more runs (with the same mean and
    /// sd) would make the interval decide; `None` when decided or when no
    /// number of runs up to [`MORE_RUNS_CAP`] would.
    pub more_runs: Option<u64>,
}

/// Judge repeated runs of `spec.metric_key` against `spec`: supported when
/// every value of the confidence interval on the mean passes the comparison,
/// refuted when every value fails, inconclusive otherwise (and with fewer
/// than two runs).
pub fn interval_verdict(spec: &MetricSpec, samples: &[f64], confidence: f64) -> IntervalVerdict {
    let record = |verdict, detail| VerdictRecord {
        verdict,
        strategy: CONFIDENCE_INTERVAL.to_string(),
        evidence_level: EvidenceLevel::Deterministic,
        detail,
        raw_evidence_ref: None,
    };
    let key = &spec.metric_key;
    let summary = summarize(samples);
    let inconclusive = |detail, summary| IntervalVerdict {
        record: record(Verdict::Inconclusive, detail),
        summary,
        interval: None,
        more_runs: None,
    };
    if let Err(e) = check_confidence(confidence) {
        return inconclusive(e, summary);
    }
    let Some(s) = summary else {
        return inconclusive(format!("metric \"{key}\" not reported"), None);
    };
    let Some((lo, hi)) = interval_of(&s, confidence) else {
        let detail = format!(
            "{key}={} from 1 run; a confidence interval needs at least 2 runs",
            fmt_compact(s.mean)
        );
        return inconclusive(detail, Some(s));
    };
    let t = spec.target;
    let (supported, refuted) = match spec.comparator {
        Comparator::Ge => (lo >= t, hi < t),
        Comparator::Gt => (lo > t, hi <= t),
        Comparator::Le => (hi <= t, lo > t),
        Comparator::Lt => (hi < t, lo >= t),
        Comparator::Eq => (lo == t && hi == t, t < lo || t > hi),
    };
    let verdict = if supported {
        Verdict::Supported
    } else if refuted {
        Verdict::Refuted
    } else {
        Verdict::Inconclusive
    };
    let more_runs = if verdict == Verdict::Inconclusive {
        more_runs(s.n as u64, s.mean, s.sd, t, confidence)
    } else {
        None
    };
    let digits = shown_digits(lo, hi, &[t]);
    let tail = match more_runs {
        Some(m) => format!(
            "n={}, ~{m} more run{} may decide",
            s.n,
            if m == 1 { "" } else { "s" }
        ),
        None => format!("n={}", s.n),
    };
    let detail = format!(
        "{key} mean={} {} CI [{}, {}] {} {} → {} ({tail})",
        shown(s.mean, digits),
        percent(confidence),
        shown(lo, digits),
        shown(hi, digits),
        spec.comparator,
        fmt_number(t),
        outcome(verdict),
    );
    IntervalVerdict {
        record: record(verdict, detail),
        summary: Some(s),
        interval: Some((lo, hi)),
        more_runs,
    }
}

/// The smallest total `N > n` whose interval half-width
/// `t_{(1+c)/2, N-1} · sd/√N` falls below `|mean - target|`, minus `n`.
/// The half-width decreases with `N`, so a doubling search followed by
/// bisection finds the same `N` as counting upward one by one.
fn more_runs(n: u64, mean: f64, sd: f64, target: f64, confidence: f64) -> Option<u64> {
    let gap = (mean - target).abs();
    if sd == 0.0 || gap == 0.0 || !gap.is_finite() || !sd.is_finite() {
        return None;
    }
    let decides = |total: u64| half_width(sd, total, confidence) < gap;
    // `undecided` is known not to decide (the current runs are inconclusive).
    let mut undecided = n;
    let mut probe = (n + 1).min(MORE_RUNS_CAP);
    while !decides(probe) {
        if probe >= MORE_RUNS_CAP {
            return None;
        }
        undecided = probe;
        probe = probe.saturating_mul(2).min(MORE_RUNS_CAP);
    }
    while probe - undecided > 1 {
        let mid = undecided + (probe - undecided) / 2;
        if decides(mid) {
            probe = mid;
        } else {
            undecided = mid;
        }
    }
    Some(probe - n)
}

str_enum! {
    /// Which way a metric improves.
    Direction, "direction" {
        /// Higher is better.
        Max => "max",
        /// Lower is better.
        Min => "min",
    }
}

/// Welch's comparison of a candidate against a baseline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WelchVerdict {
    pub record: VerdictRecord,
    pub baseline: Option<Summary>,
    pub candidate: Option<Summary>,
    /// Candidate minus baseline mean for [`Direction::Max`], baseline minus
    /// candidate for [`Direction::Min`]: positive means the candidate is better.
    pub improvement: Option<f64>,
    /// Confidence interval on the improvement.
    pub interval: Option<(f64, f64)>,
    /// Welch–Satterthwaite degrees of freedom (when the standard error is > 0).
    pub df: Option<f64>,
    /// `improvement / se` (when the standard error is > 0).
    pub t: Option<f64>,
    /// Two-sided p-value for "no difference" (when the standard error is > 0).
    pub p_value: Option<f64>,
}

/// Compare candidate runs with baseline runs by Welch's t: supported when
/// the confidence interval on the improvement lies at or above `min_effect`
/// and above zero, refuted when it lies below `min_effect`, inconclusive
/// otherwise and when either side has fewer than two runs.
pub fn welch_verdict(
    baseline: &[f64],
    candidate: &[f64],
    direction: Direction,
    min_effect: f64,
    confidence: f64,
) -> WelchVerdict {
    let record = |verdict, detail| VerdictRecord {
        verdict,
        strategy: WELCH_T_TEST.to_string(),
        evidence_level: EvidenceLevel::Deterministic,
        detail,
        raw_evidence_ref: None,
    };
    let b = summarize(baseline);
    let c = summarize(candidate);
    let improvement = match (&b, &c) {
        (Some(b), Some(c)) => Some(match direction {
            Direction::Max => c.mean - b.mean,
            Direction::Min => b.mean - c.mean,
        }),
        _ => None,
    };
    let mut out = WelchVerdict {
        record: record(Verdict::Inconclusive, String::new()),
        baseline: b,
        candidate: c,
        improvement,
        interval: None,
        df: None,
        t: None,
        p_value: None,
    };
    if let Err(e) = check_confidence(confidence) {
        out.record.detail = e;
        return out;
    }
    let (nb, nc) = (baseline.len(), candidate.len());
    let (Some(b), Some(c), Some(imp)) = (&out.baseline, &out.candidate, improvement) else {
        out.record.detail = too_few(nb, nc);
        return out;
    };
    if nb < 2 || nc < 2 {
        out.record.detail = too_few(nb, nc);
        return out;
    }
    let vb = b.sd * b.sd / nb as f64;
    let vc = c.sd * c.sd / nc as f64;
    let se = (vb + vc).sqrt();
    let (lo, hi) = if se == 0.0 {
        (imp, imp)
    } else {
        let df = (vb + vc) * (vb + vc) / (vb * vb / (nb - 1) as f64 + vc * vc / (nc - 1) as f64);
        let t = imp / se;
        let h = t_critical(confidence, df) * se;
        out.df = Some(df);
        out.t = Some(t);
        out.p_value = StudentsT::new(0.0, 1.0, df)
            .ok()
            .map(|dist| (2.0 * dist.sf(t.abs())).min(1.0));
        (imp - h, imp + h)
    };
    out.interval = Some((lo, hi));
    let verdict = if lo >= min_effect && lo > 0.0 {
        Verdict::Supported
    } else if hi < min_effect {
        Verdict::Refuted
    } else {
        Verdict::Inconclusive
    };
    let digits = shown_digits(lo, hi, &[min_effect, 0.0]);
    let lead = if imp >= 0.0 {
        format!(
            "candidate better by {} ({} CI [{}, {}])",
            shown(imp, digits),
            percent(confidence),
            shown(lo, digits),
            shown(hi, digits)
        )
    } else {
        format!(
            "candidate worse by {} (improvement {} CI [{}, {}])",
            shown(-imp, digits),
            percent(confidence),
            shown(lo, digits),
            shown(hi, digits)
        )
    };
    out.record = record(
        verdict,
        format!(
            "{lead} >= {} → {} (n={nb}+{nc})",
            fmt_number(min_effect),
            outcome(verdict)
        ),
    );
    out
}

fn too_few(nb: usize, nc: usize) -> String {
    format!("Welch's test needs at least 2 runs on each side (baseline n={nb}, candidate n={nc})")
}

fn outcome(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Supported => "pass",
        Verdict::Refuted => "fail",
        Verdict::Inconclusive => "inconclusive",
    }
}

/// `0.95` → `95%`.
fn percent(confidence: f64) -> String {
    format!("{}%", fmt_number(round_sig(confidence * 100.0, 10)))
}

/// `x` rounded to `digits` significant digits (17 keeps every `f64`).
fn shown(x: f64, digits: usize) -> String {
    fmt_sig(x, digits)
}

/// Significant digits for showing an interval: at least four, enough for
/// the width to keep about three, all of them for a point interval, and
/// more whenever rounding would move a bound onto or across a reference
/// value the verdict compared it with. Decisions use unrounded values.
fn shown_digits(lo: f64, hi: f64, refs: &[f64]) -> usize {
    let width = hi - lo;
    let magnitude = lo.abs().max(hi.abs());
    let mut digits = if width == 0.0 {
        17
    } else if width > 0.0 && magnitude > 0.0 && (magnitude / width).is_finite() {
        ((magnitude / width).log10().ceil() + 2.0).clamp(SHOWN_DIGITS as f64, 17.0) as usize
    } else {
        SHOWN_DIGITS
    };
    let misleading = |digits: usize| {
        refs.iter().any(|r| {
            [lo, hi]
                .iter()
                .any(|v| round_sig(*v, digits).partial_cmp(r) != v.partial_cmp(r))
        })
    };
    while digits < 17 && misleading(digits) {
        digits += 1;
    }
    digits
}

/// The Jeffreys interval of a rate: `successes` out of `n`, at
/// `confidence` (the quantiles of Beta(k + ½, n − k + ½); the bound is 0
/// or 1 at the edge k = 0 or k = n). `None` for no trials, more successes
/// than trials, or a confidence outside (0, 1).
pub fn rate_interval(successes: u64, n: u64, confidence: f64) -> Option<(f64, f64)> {
    use statrs::distribution::Beta;
    if n == 0 || successes > n || check_confidence(confidence).is_err() {
        return None;
    }
    let beta = Beta::new(successes as f64 + 0.5, (n - successes) as f64 + 0.5).ok()?;
    let tail = (1.0 - confidence) / 2.0;
    let lo = if successes == 0 {
        0.0
    } else {
        beta.inverse_cdf(tail)
    };
    let hi = if successes == n {
        1.0
    } else {
        beta.inverse_cdf(1.0 - tail)
    };
    Some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_samples_do_not_overflow() {
        let s = summarize(&[1e300, 1.1e300, 1.2e300]).unwrap();
        assert!((s.mean / 1.1e300 - 1.0).abs() < 1e-12, "{}", s.mean);
        assert!((s.sd / 1e299 - 1.0).abs() < 1e-9, "{}", s.sd);
        let s = summarize(&[f64::MAX, f64::MAX / 2.0]).unwrap();
        assert!(s.mean.is_finite() && s.sd.is_finite());
    }

    const TOL: f64 = 1e-9;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * (1.0 + b.abs())
    }

    fn spec(comparator: &str, target: f64) -> MetricSpec {
        MetricSpec {
            metric_key: "acc".to_string(),
            comparator: comparator.parse().unwrap(),
            target,
        }
    }

    fn verdict_of(comparator: &str, target: f64, samples: &[f64]) -> Verdict {
        interval_verdict(&spec(comparator, target), samples, 0.95)
            .record
            .verdict
    }

    const ONE_TO_FIVE: [f64; 5] = [1.0, 2.0, 3.0, 4.0, 5.0];
    // scipy.stats.t.ppf(0.975, 4) * sqrt(2.5) / sqrt(5), around mean 3.
    const ONE_TO_FIVE_CI: (f64, f64) = (1.0367568385224428, 4.963243161477557);

    #[test]
    fn summary_of_one_to_five() {
        let s = summarize(&ONE_TO_FIVE).unwrap();
        assert_eq!(s.n, 5);
        assert_eq!(s.mean, 3.0);
        assert!(close(s.sd, 2.5f64.sqrt(), 1e-15));
        assert_eq!((s.median, s.min, s.max), (3.0, 1.0, 5.0));
        assert!(s.outliers.is_empty());
    }

    #[test]
    fn summary_edge_cases() {
        assert_eq!(summarize(&[]), None);
        let one = summarize(&[4.5]).unwrap();
        assert_eq!((one.n, one.mean, one.sd, one.median), (1, 4.5, 0.0, 4.5));
        // Even count: median is the midpoint; unsorted input.
        let even = summarize(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!(even.median, 2.5);
        // A constant sample has its exact value as mean and zero sd, even
        // where summing would round (0.1 * 3 / 3 != 0.1).
        let constant = summarize(&[0.1, 0.1, 0.1]).unwrap();
        assert_eq!((constant.mean, constant.sd), (0.1, 0.0));
    }

    #[test]
    fn outliers_by_modified_z_score() {
        // median 10, MAD 0.1: 25 has modified z 101.2; 10.2 only 1.35.
        let s = summarize(&[10.0, 10.2, 9.9, 10.1, 10.0, 25.0, 9.8]).unwrap();
        assert_eq!(s.outliers, vec![5]);
        assert!(close(s.mean, 12.142857142857142, TOL));
        assert!(close(s.sd, 5.670936766489626, TOL));
        // Low and high outliers, reported by original index.
        let s = summarize(&[-50.0, 1.0, 2.0, 3.0, 2.0, 1.0, 3.0, 80.0]).unwrap();
        assert_eq!(s.outliers, vec![0, 7]);
        // Threshold: |0.6745 * d / MAD| must exceed 3.5.
        // median 0, MAD 1: 5.1 gives 3.44 (kept), 5.2 gives 3.51 (flagged).
        let s = summarize(&[-2.0, -1.0, -1.0, 0.0, 1.0, 1.0, 5.1]).unwrap();
        assert_eq!((s.median, s.outliers.len()), (0.0, 0));
        let s = summarize(&[-2.0, -1.0, -1.0, 0.0, 1.0, 1.0, 5.2]).unwrap();
        assert_eq!(s.outliers, vec![6]);
        // MAD of zero: no outliers however far a sample lies.
        let s = summarize(&[1.0, 1.0, 1.0, 1.0, 100.0]).unwrap();
        assert!(s.outliers.is_empty());
    }

    #[test]
    fn mean_interval_matches_hand_checked_values() {
        let (lo, hi) = mean_interval(&ONE_TO_FIVE, 0.95).unwrap();
        assert!(close(lo, ONE_TO_FIVE_CI.0, TOL), "{lo}");
        assert!(close(hi, ONE_TO_FIVE_CI.1, TOL), "{hi}");
        // Half-width from the tabulated t_{0.975,4}.
        assert!(close(
            (hi - lo) / 2.0,
            2.7764451051977987 * 0.5f64.sqrt(),
            TOL
        ));
        // 90%: t_{0.95,4} = 2.1318467863266495.
        let (lo, hi) = mean_interval(&ONE_TO_FIVE, 0.90).unwrap();
        assert!(close(hi - 3.0, 2.1318467863266495 * 0.5f64.sqrt(), TOL));
        assert!(close(3.0 - lo, 2.1318467863266495 * 0.5f64.sqrt(), TOL));
        // 99% over ten samples 1..=10: t_{0.995,9} = 3.249835541592126.
        let ten: Vec<f64> = (1..=10).map(f64::from).collect();
        let sd = summarize(&ten).unwrap().sd;
        let (lo, hi) = mean_interval(&ten, 0.99).unwrap();
        assert!(close(hi - 5.5, 3.249835541592126 * sd / 10f64.sqrt(), TOL));
        assert!(close(5.5 - lo, 3.249835541592126 * sd / 10f64.sqrt(), TOL));
    }

    #[test]
    fn mean_interval_edge_cases() {
        assert_eq!(mean_interval(&[], 0.95), None);
        assert_eq!(mean_interval(&[1.0], 0.95), None);
        assert_eq!(mean_interval(&[2.0, 2.0, 2.0], 0.95), Some((2.0, 2.0)));
        assert_eq!(mean_interval(&ONE_TO_FIVE, 1.0), None);
        assert_eq!(mean_interval(&ONE_TO_FIVE, 0.0), None);
        assert_eq!(mean_interval(&ONE_TO_FIVE, f64::NAN), None);
    }

    #[test]
    fn check_confidence_accepts_only_open_unit_interval() {
        assert_eq!(check_confidence(0.95), Ok(0.95));
        assert_eq!(check_confidence(0.5), Ok(0.5));
        for bad in [0.0, 1.0, -0.1, 1.5, 95.0, f64::NAN, f64::INFINITY] {
            let err = check_confidence(bad).unwrap_err();
            assert!(err.contains("strictly between 0 and 1"), "{err}");
        }
    }

    #[test]
    fn interval_verdict_ge_and_gt() {
        // CI [1.0368, 4.9632].
        for c in [">=", ">"] {
            assert_eq!(verdict_of(c, 1.0, &ONE_TO_FIVE), Verdict::Supported, "{c}");
            assert_eq!(
                verdict_of(c, 3.0, &ONE_TO_FIVE),
                Verdict::Inconclusive,
                "{c}"
            );
            assert_eq!(verdict_of(c, 5.0, &ONE_TO_FIVE), Verdict::Refuted, "{c}");
        }
        // Point intervals decide the boundary: [2, 2] >= 2 passes, > 2 fails.
        let twos = [2.0, 2.0, 2.0];
        assert_eq!(verdict_of(">=", 2.0, &twos), Verdict::Supported);
        assert_eq!(verdict_of(">", 2.0, &twos), Verdict::Refuted);
        assert_eq!(verdict_of(">=", 2.5, &twos), Verdict::Refuted);
        assert_eq!(verdict_of(">", 1.5, &twos), Verdict::Supported);
    }

    #[test]
    fn interval_verdict_le_and_lt() {
        for c in ["<=", "<"] {
            assert_eq!(verdict_of(c, 5.0, &ONE_TO_FIVE), Verdict::Supported, "{c}");
            assert_eq!(
                verdict_of(c, 3.0, &ONE_TO_FIVE),
                Verdict::Inconclusive,
                "{c}"
            );
            assert_eq!(verdict_of(c, 1.0, &ONE_TO_FIVE), Verdict::Refuted, "{c}");
        }
        let twos = [2.0, 2.0, 2.0];
        assert_eq!(verdict_of("<=", 2.0, &twos), Verdict::Supported);
        assert_eq!(verdict_of("<", 2.0, &twos), Verdict::Refuted);
        assert_eq!(verdict_of("<=", 1.5, &twos), Verdict::Refuted);
        assert_eq!(verdict_of("<", 2.5, &twos), Verdict::Supported);
    }

    #[test]
    fn interval_verdict_eq() {
        assert_eq!(verdict_of("==", 3.0, &ONE_TO_FIVE), Verdict::Inconclusive);
        assert_eq!(verdict_of("==", 0.0, &ONE_TO_FIVE), Verdict::Refuted);
        assert_eq!(verdict_of("==", 10.0, &ONE_TO_FIVE), Verdict::Refuted);
        assert_eq!(verdict_of("==", 2.0, &[2.0, 2.0, 2.0]), Verdict::Supported);
        assert_eq!(verdict_of("==", 0.1, &[0.1, 0.1, 0.1]), Verdict::Supported);
        assert_eq!(verdict_of("==", 2.5, &[2.0, 2.0, 2.0]), Verdict::Refuted);
    }

    #[test]
    fn interval_verdict_record_and_detail() {
        let v = interval_verdict(&spec(">=", 0.8), &[0.81, 0.83, 0.85, 0.82, 0.84], 0.95);
        assert_eq!(v.record.verdict, Verdict::Supported);
        assert_eq!(v.record.strategy, "confidence_interval");
        assert_eq!(v.record.evidence_level, EvidenceLevel::Deterministic);
        assert_eq!(v.record.raw_evidence_ref, None);
        assert_eq!(
            v.record.detail,
            "acc mean=0.83 95% CI [0.8104, 0.8496] >= 0.8 → pass (n=5)"
        );
        assert_eq!(v.summary.as_ref().unwrap().n, 5);
        assert!(v.interval.is_some());
        assert_eq!(v.more_runs, None);

        let v = interval_verdict(&spec("<", 1.0), &ONE_TO_FIVE, 0.95);
        assert_eq!(v.record.verdict, Verdict::Refuted);
        assert_eq!(
            v.record.detail,
            "acc mean=3 95% CI [1.037, 4.963] < 1 → fail (n=5)"
        );

        let v = interval_verdict(&spec(">", 3.0), &ONE_TO_FIVE, 0.90);
        assert_eq!(v.record.verdict, Verdict::Inconclusive);
        assert_eq!(
            v.more_runs, None,
            "mean == target: no number of runs decides"
        );
        assert_eq!(
            v.record.detail,
            "acc mean=3 90% CI [1.493, 4.507] > 3 → inconclusive (n=5)"
        );

        let v = interval_verdict(&spec(">=", 2.0), &ONE_TO_FIVE, 0.95);
        assert_eq!(v.record.verdict, Verdict::Inconclusive);
        let m = v.more_runs.unwrap();
        assert!(v
            .record
            .detail
            .ends_with(&format!("(n=5, ~{m} more runs may decide)")));
    }

    #[test]
    fn interval_detail_never_rounds_a_bound_onto_the_target() {
        // lo = 0.79999… sits just below the target: four digits would show
        // 0.8 and read as a pass.
        // Two runs 0.9 ± d: the half-width is t_{0.975,1} · d.
        let d = (0.1 + 1e-6) / t_critical(0.95, 1.0);
        let samples = [0.9 - d, 0.9 + d];
        let v = interval_verdict(&spec(">=", 0.8), &samples, 0.95);
        let (lo, _) = v.interval.unwrap();
        assert!(lo > 0.8 - 1e-5 && lo < 0.8 + 1e-5);
        let shown_lo = v
            .record
            .detail
            .split('[')
            .nth(1)
            .unwrap()
            .split(',')
            .next()
            .unwrap();
        assert_ne!(shown_lo, "0.8", "{}", v.record.detail);
        let shown_lo: f64 = shown_lo.parse().unwrap();
        assert_eq!(shown_lo.partial_cmp(&0.8), lo.partial_cmp(&0.8));
    }

    #[test]
    fn interval_verdict_too_few_runs() {
        let v = interval_verdict(&spec(">=", 0.8), &[], 0.95);
        assert_eq!(v.record.verdict, Verdict::Inconclusive);
        assert_eq!(v.record.detail, "metric \"acc\" not reported");
        assert_eq!((v.summary, v.interval, v.more_runs), (None, None, None));

        let v = interval_verdict(&spec(">=", 0.8), &[0.9], 0.95);
        assert_eq!(v.record.verdict, Verdict::Inconclusive);
        assert!(
            v.record.detail.contains("at least 2 runs"),
            "{}",
            v.record.detail
        );
        assert_eq!(v.summary.unwrap().n, 1);
        assert_eq!((v.interval, v.more_runs), (None, None));

        let v = interval_verdict(&spec(">=", 0.8), &ONE_TO_FIVE, 1.5);
        assert_eq!(v.record.verdict, Verdict::Inconclusive);
        assert!(v.record.detail.contains("confidence"));
    }

    /// `n` values with mean 0 and sample sd 1.
    fn unit_pattern(n: usize) -> Vec<f64> {
        let k = n / 2;
        let a = ((n - 1) as f64 / (2 * k) as f64).sqrt();
        let mut v: Vec<f64> = (0..k).flat_map(|_| [a, -a]).collect();
        if n % 2 == 1 {
            v.push(0.0);
        }
        v
    }

    #[test]
    fn more_runs_grows_with_noise_and_predicts_the_deciding_count() {
        let target = 10.0;
        let mut last = 0;
        for sd in [0.5, 1.0, 2.0, 4.0] {
            let samples: Vec<f64> = unit_pattern(4)
                .iter()
                .map(|z| target + 0.5 + sd * z)
                .collect();
            let v = interval_verdict(&spec(">=", target), &samples, 0.95);
            assert_eq!(v.record.verdict, Verdict::Inconclusive, "sd {sd}");
            let m = v.more_runs.unwrap();
            assert!(m > last, "sd {sd}: {m} more runs, not more than {last}");
            last = m;
            // Runs with the same mean and sd: n + m decide, n + m - 1 do not.
            let runs = |total: usize| -> Vec<f64> {
                unit_pattern(total)
                    .iter()
                    .map(|z| target + 0.5 + sd * z)
                    .collect()
            };
            let total = 4 + m as usize;
            assert_eq!(
                verdict_of(">=", target, &runs(total)),
                Verdict::Supported,
                "sd {sd}, {total} runs"
            );
            if total - 1 > 4 {
                assert_eq!(
                    verdict_of(">=", target, &runs(total - 1)),
                    Verdict::Inconclusive,
                    "sd {sd}, {} runs",
                    total - 1
                );
            }
        }
        // A gap too small to close within the cap.
        let samples: Vec<f64> = unit_pattern(4).iter().map(|z| target + 1e-6 + z).collect();
        let v = interval_verdict(&spec(">=", target), &samples, 0.95);
        assert_eq!(v.record.verdict, Verdict::Inconclusive);
        assert_eq!(v.more_runs, None);
    }

    // scipy.stats.ttest_ind(c, b, equal_var=False) and its confidence_interval.
    const B: [f64; 6] = [0.80, 0.82, 0.81, 0.79, 0.83, 0.80];
    const C: [f64; 5] = [0.84, 0.85, 0.83, 0.86, 0.84];

    #[test]
    fn welch_matches_scipy() {
        let w = welch_verdict(&B, &C, Direction::Max, 0.01, 0.95);
        assert!(close(w.improvement.unwrap(), 0.035666666666666735, TOL));
        assert!(close(w.t.unwrap(), 4.525617798484619, TOL));
        assert!(close(w.df.unwrap(), 8.975728155339809, TOL));
        assert!(close(w.p_value.unwrap(), 0.0014450578618321692, TOL));
        let (lo, hi) = w.interval.unwrap();
        assert!(close(lo, 0.017831118027344908, TOL), "{lo}");
        assert!(close(hi, 0.05350221530598856, TOL), "{hi}");
        assert_eq!(w.record.verdict, Verdict::Supported);
        assert_eq!(w.record.strategy, "welch_t_test");
        assert_eq!(w.record.evidence_level, EvidenceLevel::Deterministic);
        assert_eq!(
            w.record.detail,
            "candidate better by 0.03567 (95% CI [0.01783, 0.0535]) >= 0.01 → pass (n=6+5)"
        );
        assert_eq!(w.baseline.unwrap().n, 6);
        assert_eq!(w.candidate.unwrap().n, 5);

        // The same interval judged against larger effects.
        let w = welch_verdict(&B, &C, Direction::Max, 0.03, 0.95);
        assert_eq!(w.record.verdict, Verdict::Inconclusive);
        let w = welch_verdict(&B, &C, Direction::Max, 0.06, 0.95);
        assert_eq!(w.record.verdict, Verdict::Refuted);
        // Swapped roles: the candidate is worse.
        let w = welch_verdict(&C, &B, Direction::Max, 0.0, 0.95);
        assert_eq!(w.record.verdict, Verdict::Refuted);
        assert!(close(w.t.unwrap(), -4.525617798484619, TOL));
        assert!(
            w.record.detail.starts_with("candidate worse by 0.03567"),
            "{}",
            w.record.detail
        );
    }

    #[test]
    fn welch_direction_min() {
        // Latencies: lower is better. scipy ttest_ind(b, c, equal_var=False),
        // 90% interval.
        let b = [120.0, 125.0, 118.0, 130.0, 122.0, 127.0, 121.0, 124.0];
        let c = [110.0, 112.0, 108.0, 115.0, 111.0, 109.0, 113.0];
        let w = welch_verdict(&b, &c, Direction::Min, 5.0, 0.90);
        assert!(close(w.improvement.unwrap(), 12.232142857142861, TOL));
        assert!(close(w.t.unwrap(), 7.367863413757861, TOL));
        assert!(close(w.df.unwrap(), 11.77999204093687, TOL));
        assert!(close(w.p_value.unwrap(), 9.606909000171506e-06, 1e-6));
        let (lo, hi) = w.interval.unwrap();
        assert!(close(lo, 9.268573901678291, TOL));
        assert!(close(hi, 15.19571181260743, TOL));
        assert_eq!(w.record.verdict, Verdict::Supported);
        assert!(w.record.detail.contains("90% CI"));
        // Read as "higher is better" the candidate is clearly worse.
        let w = welch_verdict(&b, &c, Direction::Max, 0.0, 0.90);
        assert_eq!(w.record.verdict, Verdict::Refuted);
        assert!(close(w.improvement.unwrap(), -12.232142857142861, TOL));
    }

    #[test]
    fn welch_zero_standard_error() {
        let w = welch_verdict(&[1.0, 1.0], &[1.5, 1.5, 1.5], Direction::Max, 0.5, 0.95);
        assert_eq!(w.interval, Some((0.5, 0.5)));
        assert_eq!((w.df, w.t, w.p_value), (None, None, None));
        assert_eq!(w.record.verdict, Verdict::Supported);
        let w = welch_verdict(&[1.0, 1.0], &[1.5, 1.5], Direction::Max, 0.6, 0.95);
        assert_eq!(w.record.verdict, Verdict::Refuted);
        // No difference at all is never an improvement, even with E = 0.
        let w = welch_verdict(&[1.0, 1.0], &[1.0, 1.0], Direction::Max, 0.0, 0.95);
        assert_eq!(w.record.verdict, Verdict::Inconclusive);
    }

    #[test]
    fn welch_too_few_runs() {
        for (b, c) in [
            (&[][..], &[1.0, 2.0][..]),
            (&[1.0][..], &[1.0, 2.0][..]),
            (&[1.0, 2.0][..], &[3.0][..]),
        ] {
            let w = welch_verdict(b, c, Direction::Max, 0.0, 0.95);
            assert_eq!(w.record.verdict, Verdict::Inconclusive);
            assert!(
                w.record.detail.contains("at least 2 runs on each side"),
                "{}",
                w.record.detail
            );
            assert_eq!((w.interval, w.df, w.t, w.p_value), (None, None, None, None));
        }
        let w = welch_verdict(&[1.0], &[3.0, 4.0], Direction::Max, 0.0, 0.95);
        assert_eq!(w.improvement, Some(2.5));
        let w = welch_verdict(&B, &C, Direction::Max, 0.0, 0.0);
        assert_eq!(w.record.verdict, Verdict::Inconclusive);
        assert!(w.record.detail.contains("confidence"));
    }

    #[test]
    fn direction_parses_and_serializes_lowercase() {
        assert_eq!("max".parse(), Ok(Direction::Max));
        assert_eq!("min".parse(), Ok(Direction::Min));
        assert!("Max".parse::<Direction>().is_err());
        assert_eq!(serde_json::to_string(&Direction::Min).unwrap(), "\"min\"");
        assert_eq!(Direction::Max.to_string(), "max");
    }

    #[test]
    fn verdicts_serialize() {
        let v = interval_verdict(&spec(">=", 2.0), &ONE_TO_FIVE, 0.95);
        let j = serde_json::to_value(&v).unwrap();
        assert_eq!(j["record"]["verdict"], "inconclusive");
        assert_eq!(j["record"]["strategy"], "confidence_interval");
        assert_eq!(j["summary"]["n"], 5);
        assert!(j["interval"].is_array());
        assert!(j["more_runs"].is_u64());
        let w = welch_verdict(&B, &C, Direction::Max, 0.01, 0.95);
        let j = serde_json::to_value(&w).unwrap();
        assert_eq!(j["record"]["evidence_level"], "deterministic");
        assert!(j["p_value"].is_f64());
        assert_eq!(j["candidate"]["outliers"], serde_json::json!([]));
    }

    /// splitmix64 with Box–Muller normals: a seeded source for simulations.
    struct Rng(u64);

    impl Rng {
        fn next_u64(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        /// Uniform in (0, 1).
        fn uniform(&mut self) -> f64 {
            ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
        }
        fn normal(&mut self, mean: f64, sd: f64) -> f64 {
            let (u1, u2) = (self.uniform(), self.uniform());
            mean + sd * (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
        }
        fn sample(&mut self, n: usize, mean: f64, sd: f64) -> Vec<f64> {
            (0..n).map(|_| self.normal(mean, sd)).collect()
        }
    }

    const TRIALS: usize = 2000;

    /// Fraction of seeded trials whose interval verdict is supported.
    fn interval_supported_rate(comparator: &str, true_mean: f64, n: usize, seed: u64) -> f64 {
        let mut rng = Rng(seed);
        let s = spec(comparator, 0.0);
        let hits = (0..TRIALS)
            .filter(|_| {
                let samples = rng.sample(n, true_mean, 1.0);
                interval_verdict(&s, &samples, 0.95).record.verdict == Verdict::Supported
            })
            .count();
        hits as f64 / TRIALS as f64
    }

    fn welch_supported_rate(
        direction: Direction,
        effect: f64,
        min_effect: f64,
        n: usize,
        seed: u64,
    ) -> f64 {
        let mut rng = Rng(seed);
        let sign = match direction {
            Direction::Max => 1.0,
            Direction::Min => -1.0,
        };
        let hits = (0..TRIALS)
            .filter(|_| {
                let b = rng.sample(n, 10.0, 1.0);
                let c = rng.sample(n, 10.0 + sign * effect, 1.0);
                welch_verdict(&b, &c, direction, min_effect, 0.95)
                    .record
                    .verdict
                    == Verdict::Supported
            })
            .count();
        hits as f64 / TRIALS as f64
    }

    #[test]
    fn simulation_interval_verdict_false_support_and_power() {
        // True mean exactly at the target, `>`: every run fails in truth.
        let false_support = interval_supported_rate(">", 0.0, 5, 0x5eed_0001);
        // A clear effect: two sds above the target over ten runs.
        let power = interval_supported_rate(">", 2.0, 10, 0x5eed_0002);
        // Same for "lower is better".
        let false_support_lt = interval_supported_rate("<", 0.0, 5, 0x5eed_0003);
        let power_lt = interval_supported_rate("<", -2.0, 10, 0x5eed_0004);
        eprintln!(
            "interval: false support {false_support} (<: {false_support_lt}), \
             power {power} (<: {power_lt})"
        );
        assert!(false_support <= 0.05, "false support {false_support}");
        assert!(false_support_lt <= 0.05, "false support {false_support_lt}");
        assert!(power >= 0.95, "power {power}");
        assert!(power_lt >= 0.95, "power {power_lt}");
    }

    #[test]
    fn simulation_interval_coverage() {
        let mut rng = Rng(0x5eed_0005);
        let covered = (0..TRIALS)
            .filter(|_| {
                let (lo, hi) = mean_interval(&rng.sample(5, 3.0, 2.0), 0.95).unwrap();
                lo <= 3.0 && 3.0 <= hi
            })
            .count() as f64
            / TRIALS as f64;
        eprintln!("interval: 95% coverage {covered}");
        assert!((0.93..=0.97).contains(&covered), "coverage {covered}");
    }

    #[test]
    fn simulation_welch_false_support_and_power() {
        let null_max = welch_supported_rate(Direction::Max, 0.0, 0.0, 10, 0x5eed_0011);
        let null_min = welch_supported_rate(Direction::Min, 0.0, 0.0, 10, 0x5eed_0012);
        let power_max = welch_supported_rate(Direction::Max, 2.0, 0.1, 10, 0x5eed_0013);
        let power_min = welch_supported_rate(Direction::Min, 2.0, 0.1, 10, 0x5eed_0014);
        eprintln!(
            "welch: false support {null_max} (min: {null_min}), \
             power {power_max} (min: {power_min})"
        );
        assert!(null_max <= 0.05, "false support {null_max}");
        assert!(null_min <= 0.05, "false support {null_min}");
        assert!(power_max >= 0.95, "power {power_max}");
        assert!(power_min >= 0.95, "power {power_min}");
    }

    #[test]
    fn a_rate_interval_is_the_jeffreys_interval() {
        // Reference values: the Beta(k + 0.5, n - k + 0.5) quantiles.
        let (lo, hi) = rate_interval(3, 20, 0.95).unwrap();
        assert!(
            (lo - 0.0441).abs() < 5e-4 && (hi - 0.3486).abs() < 5e-4,
            "{lo} {hi}"
        );
        let (lo, hi) = rate_interval(0, 10, 0.95).unwrap();
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2172).abs() < 5e-4, "{hi}");
        assert_eq!(rate_interval(5, 5, 0.95).unwrap().1, 1.0);
        assert_eq!(rate_interval(0, 0, 0.95), None);
        assert_eq!(rate_interval(3, 2, 0.95), None);
        assert_eq!(rate_interval(1, 2, 1.5), None);
    }
}
