//! Expected free energy (EFE): scores candidate plans (sequences of steps,
//! each with a probability of success) so the loop can pick what to try
//! next, and turns scores into selection probabilities. Lower G is better.
//!
//! Two models:
//! - `lrs`, the reference (LRS-Agents 0.2.1):
//!   `G = w·Σ H(p) − pragmatic`, `w = 1 − precision`. Note that its
//!   epistemic term *raises* G, so an uncertain step is penalized.
//! - `aif`, the textbook active-inference reading: each step's success
//!   rate has a Beta posterior, the epistemic value is the expected
//!   information gain about that rate from one more outcome, and it
//!   *lowers* G: `G = −w·Σ I(Y; θ) − pragmatic`, so a little-tried step
//!   earns an exploration bonus that shrinks as evidence accumulates.
//!
//! Pure: probabilities, counts and settings in, scores out. It must not
//! read the journal, draw randomness or print: sampling takes a uniform
//! number the host draws from a seeded generator ([`sample_index`]).
//! Special functions come from `statrs`.

use serde::{Deserialize, Serialize};
use statrs::function::gamma::digamma;

use crate::kernel::names::str_enum;
use crate::kernel::number::fmt_number;

/// Discount per step of the pragmatic value: step `t` counts `0.95^t`.
pub const DISCOUNT: f64 = 0.95;

/// Step probabilities are clamped to `[0.01, 0.99]` for the entropy of the
/// `lrs` model (never for the pragmatic value).
pub const ENTROPY_CLAMP: (f64, f64) = (0.01, 0.99);

/// What outcomes are worth: a step succeeds with `success`, fails with
/// `error`, and always costs `step_cost`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Preferences {
    pub success: f64,
    pub error: f64,
    pub step_cost: f64,
}

impl Default for Preferences {
    /// `success 1.0`, `error −1.0`, `step_cost −0.1`.
    fn default() -> Self {
        Preferences {
            success: 1.0,
            error: -1.0,
            step_cost: -0.1,
        }
    }
}

/// `x·ln x`, with the limit 0 at `x = 0`.
fn xlnx(x: f64) -> f64 {
    if x == 0.0 {
        0.0
    } else {
        x * x.ln()
    }
}

/// Entropy in nats of a Bernoulli(p) outcome: `−(p ln p + (1−p) ln(1−p))`;
/// 0 at `p = 0` and `p = 1`.
pub fn binary_entropy(p: f64) -> f64 {
    -(xlnx(p) + xlnx(1.0 - p))
}

/// The `lrs` epistemic value: the sum of the step entropies, each `p`
/// clamped to [`ENTROPY_CLAMP`]; 0 for an empty plan.
pub fn epistemic_entropy(ps: &[f64]) -> f64 {
    let (lo, hi) = ENTROPY_CLAMP;
    ps.iter().map(|p| binary_entropy(p.clamp(lo, hi))).sum()
}

/// The pragmatic value: `Σ_t 0.95^t · (p_t·success + (1−p_t)·error +
/// step_cost)`, with `p` used as given (not clamped); 0 for an empty plan.
pub fn pragmatic(ps: &[f64], prefs: &Preferences) -> f64 {
    let mut discount = 1.0;
    let mut total = 0.0;
    for p in ps {
        total += discount * (p * prefs.success + (1.0 - p) * prefs.error + prefs.step_cost);
        discount *= DISCOUNT;
    }
    total
}

/// The weight of the epistemic term: `epistemic_weight` when given, else
/// `1 − precision`.
pub fn epistemic_weight(precision: f64, epistemic_weight: Option<f64>) -> f64 {
    epistemic_weight.unwrap_or(1.0 - precision)
}

/// The `lrs` expected free energy: `w·epistemic_entropy − pragmatic`.
pub fn g_lrs(ps: &[f64], prefs: &Preferences, precision: f64, weight: Option<f64>) -> f64 {
    epistemic_weight(precision, weight) * epistemic_entropy(ps) - pragmatic(ps, prefs)
}

/// A Beta(a, b) posterior over a step's success rate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Posterior {
    pub a: f64,
    pub b: f64,
}

impl Posterior {
    /// A posterior with both parameters finite and positive.
    pub fn new(a: f64, b: f64) -> Result<Posterior, String> {
        let ok = |x: f64| x.is_finite() && x > 0.0;
        if ok(a) && ok(b) {
            Ok(Posterior { a, b })
        } else {
            Err(format!(
                "Beta parameters must be finite and positive (got a={}, b={})",
                fmt_number(a),
                fmt_number(b)
            ))
        }
    }

    /// The posterior after `successes` and `failures` from a uniform
    /// Beta(1, 1) prior: `a = 1 + successes`, `b = 1 + failures`.
    pub fn from_counts(successes: u64, failures: u64) -> Posterior {
        Posterior {
            a: 1.0 + successes as f64,
            b: 1.0 + failures as f64,
        }
    }

    /// The success estimate `a / (a + b)`.
    pub fn mean(&self) -> f64 {
        self.a / (self.a + self.b)
    }

    /// Expected information gain about the rate from one more outcome; see
    /// [`info_gain`].
    pub fn info_gain(&self) -> f64 {
        info_gain(self.a, self.b)
    }
}

/// The mutual information `I(Y; θ)` in nats between one more outcome
/// `Y ~ Bernoulli(θ)` and the rate `θ ~ Beta(a, b)`:
/// `I = H(E[θ]) − E[H(Y | θ)]`.
///
/// `H(E[θ])` is the binary entropy of `m = a/(a+b)`. For the second term,
/// `H(Y | θ) = −θ ln θ − (1−θ) ln(1−θ)` and, because
/// `θ·Beta(θ; a, b) = m·Beta(θ; a+1, b)` and `E[ln θ]` under Beta(α, β)
/// is `ψ(α) − ψ(α+β)`:
///
/// `E[θ ln θ] = m·(ψ(a+1) − ψ(a+b+1))`,
/// `E[(1−θ) ln(1−θ)] = (1−m)·(ψ(b+1) − ψ(a+b+1))`.
///
/// The result is never negative (tiny negative rounding is returned as 0)
/// and falls roughly like `1/(2(a+b))` as evidence accumulates. NaN when
/// `a` or `b` is not positive.
pub fn info_gain(a: f64, b: f64) -> f64 {
    if !(a > 0.0 && b > 0.0) {
        return f64::NAN;
    }
    let n = a + b;
    let m = a / n;
    let psi_n1 = digamma(n + 1.0);
    let expected_conditional =
        -m * (digamma(a + 1.0) - psi_n1) - (b / n) * (digamma(b + 1.0) - psi_n1);
    (binary_entropy(m) - expected_conditional).max(0.0)
}

/// The `aif` epistemic value: the summed information gain of the steps.
pub fn epistemic_info_gain(steps: &[Posterior]) -> f64 {
    steps.iter().map(Posterior::info_gain).sum()
}

/// The `aif` expected free energy: `−w·Σ I(Y; θ) − pragmatic`, with the
/// pragmatic value of the posterior means and `w = 1 − precision` unless
/// `weight` is given. Information gain lowers G: exploring a little-known
/// step is worth something.
pub fn g_aif(steps: &[Posterior], prefs: &Preferences, precision: f64, weight: Option<f64>) -> f64 {
    let ps: Vec<f64> = steps.iter().map(Posterior::mean).collect();
    -epistemic_weight(precision, weight) * epistemic_info_gain(steps) - pragmatic(&ps, prefs)
}

str_enum! {
    /// Which expected-free-energy model scores candidates.
    #[derive(Default)]
    Model, "EFE model" {
        /// The reference: entropy penalty, `G = w·ΣH(p) − pragmatic`.
        #[default]
        Lrs => "lrs",
        /// Information-gain bonus, `G = −w·ΣI(Y;θ) − pragmatic`.
        Aif => "aif",
    }
}

/// The parts of one model's score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// Summed step entropy (`lrs`) or information gain (`aif`), unweighted.
    pub epistemic: f64,
    pub pragmatic: f64,
    /// The expected free energy; lower is better.
    pub g: f64,
}

/// A candidate scored by both models.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CandidateScore {
    /// Success estimate `a / (a + b)` of each step.
    pub p: Vec<f64>,
    pub lrs: Score,
    pub aif: Score,
}

impl CandidateScore {
    /// The score under `model`.
    pub fn score(&self, model: Model) -> &Score {
        match model {
            Model::Lrs => &self.lrs,
            Model::Aif => &self.aif,
        }
    }
}

/// Score a candidate from its steps' posteriors (build them with
/// [`Posterior::from_counts`] from journal counts) under both models, with
/// `w = 1 − precision`.
pub fn score_candidate(steps: &[Posterior], prefs: &Preferences, precision: f64) -> CandidateScore {
    let p: Vec<f64> = steps.iter().map(Posterior::mean).collect();
    let w = epistemic_weight(precision, None);
    let prag = pragmatic(&p, prefs);
    let entropy = epistemic_entropy(&p);
    let gain = epistemic_info_gain(steps);
    CandidateScore {
        lrs: Score {
            epistemic: entropy,
            pragmatic: prag,
            g: w * entropy - prag,
        },
        aif: Score {
            epistemic: gain,
            pragmatic: prag,
            g: -w * gain - prag,
        },
        p,
    }
}

/// Selection probabilities `P(i) ∝ exp(−β·G_i)` with
/// `β = precision / temperature`: high precision (or a low temperature)
/// concentrates on the lowest G, zero precision is uniform. Computed with
/// the largest exponent subtracted, so no G overflows. `precision` must be
/// in [0, 1], `temperature` finite and positive, and every G finite; an
/// empty list gives an empty list.
pub fn selection_probabilities(
    gs: &[f64],
    precision: f64,
    temperature: f64,
) -> Result<Vec<f64>, String> {
    if !(temperature.is_finite() && temperature > 0.0) {
        return Err(format!(
            "temperature must be a finite number above 0 (got {})",
            fmt_number(temperature)
        ));
    }
    if !(0.0..=1.0).contains(&precision) {
        return Err(format!(
            "precision must be in [0, 1] (got {})",
            fmt_number(precision)
        ));
    }
    if let Some(g) = gs.iter().find(|g| !g.is_finite()) {
        return Err(format!(
            "expected free energy must be finite (got {})",
            fmt_number(*g)
        ));
    }
    let beta = precision / temperature;
    if beta == 0.0 {
        let n = gs.len() as f64;
        return Ok(vec![1.0 / n; gs.len()]);
    }
    // The largest exponent is −β·min G; subtracting it means measuring
    // each G from the minimum, before multiplying by β so that nothing
    // overflows (a gap too large for f64 weighs 0).
    let least = gs.iter().copied().fold(f64::INFINITY, f64::min);
    let weights: Vec<f64> = gs
        .iter()
        .map(|g| {
            let gap = g - least;
            if gap == 0.0 {
                1.0
            } else {
                (-beta * gap).exp()
            }
        })
        .collect();
    let total: f64 = weights.iter().sum();
    Ok(weights.into_iter().map(|w| w / total).collect())
}

/// Draw an index from `probs` by the inverse CDF at `u` in [0, 1): the
/// first index whose cumulative probability exceeds `u·Σprobs`. The host
/// supplies `u` from a seeded generator, so a run is reproducible. An entry
/// of probability 0 is never drawn; if rounding leaves `u` past the last
/// cumulative value, the last index with positive probability is returned.
/// Errors on an empty list, a negative or non-finite probability, a zero
/// total, or `u` outside [0, 1).
pub fn sample_index(probs: &[f64], u: f64) -> Result<usize, String> {
    if !(0.0..1.0).contains(&u) {
        return Err(format!(
            "the uniform draw must be in [0, 1) (got {})",
            fmt_number(u)
        ));
    }
    if let Some(p) = probs.iter().find(|p| !(p.is_finite() && **p >= 0.0)) {
        return Err(format!(
            "probabilities must be finite and non-negative (got {})",
            fmt_number(*p)
        ));
    }
    let total: f64 = probs.iter().sum();
    if !(total > 0.0 && total.is_finite()) {
        return Err("no candidate has a positive probability".to_string());
    }
    let target = u * total;
    let mut cumulative = 0.0;
    for (i, p) in probs.iter().enumerate() {
        cumulative += p;
        if cumulative > target {
            return Ok(i);
        }
    }
    Ok(probs
        .iter()
        .rposition(|p| *p > 0.0)
        .expect("a positive total has a positive entry"))
}

/// The index of the lowest G (the first on ties); NaN entries are ignored.
/// `None` when there is no number to choose.
pub fn greedy_index(gs: &[f64]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, g) in gs.iter().copied().enumerate() {
        if g.is_nan() {
            continue;
        }
        match best {
            Some((_, b)) if g >= b => {}
            _ => best = Some((i, g)),
        }
    }
    best.map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use statrs::distribution::{Beta as BetaDist, Continuous};

    const TOL: f64 = 1e-12;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn preferences_default() {
        let p = Preferences::default();
        assert_eq!((p.success, p.error, p.step_cost), (1.0, -1.0, -0.1));
    }

    #[test]
    fn check_two_steps_custom_preferences() {
        let prefs = Preferences {
            success: 5.0,
            error: -3.0,
            step_cost: -0.1,
        };
        let ps = [0.8, 0.5];
        assert!(close(epistemic_entropy(&ps), 1.1935496040981333, TOL));
        assert!(close(pragmatic(&ps, &prefs), 4.155, TOL));
        assert!(close(g_lrs(&ps, &prefs, 0.7, None), -3.79693511877056, TOL));
    }

    #[test]
    fn check_single_steps_default_preferences() {
        let prefs = Preferences::default();
        assert!(close(
            g_lrs(&[0.5], &prefs, 0.5, None),
            0.4465735902799727,
            TOL
        ));
        assert!(close(
            g_lrs(&[0.99], &prefs, 0.5, None),
            -0.8519992328225763,
            TOL
        ));
        // p = 0 is clamped to 0.01 for the entropy but not the pragmatic value.
        assert!(close(
            g_lrs(&[0.0], &prefs, 0.2, None),
            1.144801227483878,
            TOL
        ));
    }

    #[test]
    fn empty_plan_is_zero() {
        let prefs = Preferences::default();
        assert_eq!(epistemic_entropy(&[]), 0.0);
        assert_eq!(pragmatic(&[], &prefs), 0.0);
        assert_eq!(g_lrs(&[], &prefs, 0.3, None), 0.0);
        assert_eq!(g_aif(&[], &prefs, 0.3, None), 0.0);
    }

    #[test]
    fn epistemic_weight_overrides_precision() {
        let prefs = Preferences::default();
        let ps = [0.5, 0.5];
        let g = g_lrs(&ps, &prefs, 0.9, Some(2.0));
        assert!(close(
            g,
            2.0 * 2.0 * std::f64::consts::LN_2 - pragmatic(&ps, &prefs),
            TOL
        ));
        assert_eq!(g_lrs(&ps, &prefs, 0.9, Some(0.0)), -pragmatic(&ps, &prefs));
    }

    #[test]
    fn binary_entropy_edges() {
        assert_eq!(binary_entropy(0.0), 0.0);
        assert_eq!(binary_entropy(1.0), 0.0);
        assert!(close(binary_entropy(0.5), std::f64::consts::LN_2, TOL));
    }

    #[test]
    fn info_gain_uniform_prior_closed_form() {
        // ψ(3) = ψ(2) + 1/2, so E[H(Y|θ)] = 1/2 under Beta(1, 1).
        assert!(close(
            info_gain(1.0, 1.0),
            std::f64::consts::LN_2 - 0.5,
            TOL
        ));
    }

    /// E[H(Y|θ)] by the midpoint rule over the Beta density.
    fn expected_conditional_entropy_numeric(a: f64, b: f64) -> f64 {
        let dist = BetaDist::new(a, b).unwrap();
        let n = 200_000;
        let h = 1.0 / n as f64;
        (0..n)
            .map(|i| {
                let t = (i as f64 + 0.5) * h;
                binary_entropy(t) * dist.pdf(t) * h
            })
            .sum()
    }

    #[test]
    fn info_gain_matches_numeric_integration() {
        for (a, b) in [
            (1.0, 1.0),
            (2.0, 1.0),
            (1.0, 4.0),
            (3.0, 5.0),
            (10.0, 4.0),
            (2.5, 7.5),
            (40.0, 60.0),
        ] {
            let numeric = binary_entropy(a / (a + b)) - expected_conditional_entropy_numeric(a, b);
            let closed = info_gain(a, b);
            assert!(
                close(closed, numeric, 1e-7),
                "Beta({a}, {b}): closed {closed} numeric {numeric}"
            );
        }
    }

    #[test]
    fn info_gain_decreases_with_evidence() {
        for ratio in [1.0, 3.0, 0.25] {
            let mut last = f64::INFINITY;
            for k in 1..=2000 {
                let k = k as f64;
                let g = info_gain(k, ratio * k);
                assert!(g > 0.0 && g < last, "ratio {ratio}, k {k}: {g} !< {last}");
                last = g;
            }
        }
        // About 1/(2(a+b)) for many observations.
        let g = info_gain(500.0, 500.0);
        assert!(close(g * 2.0 * 1000.0, 1.0, 0.01), "{g}");
    }

    #[test]
    fn info_gain_rejects_bad_parameters() {
        assert!(info_gain(0.0, 1.0).is_nan());
        assert!(info_gain(1.0, -1.0).is_nan());
        assert!(info_gain(f64::NAN, 1.0).is_nan());
        assert!(Posterior::new(0.0, 1.0).is_err());
        assert!(Posterior::new(1.0, f64::INFINITY).is_err());
        assert_eq!(
            Posterior::new(2.0, 3.0).unwrap(),
            Posterior { a: 2.0, b: 3.0 }
        );
    }

    #[test]
    fn posterior_from_counts() {
        let p = Posterior::from_counts(3, 1);
        assert_eq!((p.a, p.b), (4.0, 2.0));
        assert!(close(p.mean(), 2.0 / 3.0, TOL));
        assert_eq!(Posterior::from_counts(0, 0).mean(), 0.5);
    }

    #[test]
    fn aif_g_lowers_with_information_gain() {
        let prefs = Preferences::default();
        let steps = [Posterior::from_counts(1, 1), Posterior::from_counts(4, 0)];
        let ps: Vec<f64> = steps.iter().map(Posterior::mean).collect();
        let expected =
            -(1.0 - 0.3) * (info_gain(2.0, 2.0) + info_gain(5.0, 1.0)) - pragmatic(&ps, &prefs);
        assert!(close(g_aif(&steps, &prefs, 0.3, None), expected, TOL));
        // Same estimate, less evidence: lower (better) G under aif, equal
        // under lrs.
        let fresh = score_candidate(&[Posterior::from_counts(1, 1)], &prefs, 0.3);
        let tried = score_candidate(&[Posterior::from_counts(50, 50)], &prefs, 0.3);
        assert_eq!(fresh.p, tried.p);
        assert!(fresh.aif.g < tried.aif.g);
        assert_eq!(fresh.lrs.g, tried.lrs.g);
        // Full precision: both models reduce to −pragmatic.
        let sure = score_candidate(&steps, &prefs, 1.0);
        assert_eq!(sure.lrs.g, -sure.lrs.pragmatic);
        assert_eq!(sure.aif.g, -sure.aif.pragmatic);
    }

    #[test]
    fn score_candidate_agrees_with_the_model_functions() {
        let prefs = Preferences {
            success: 5.0,
            error: -3.0,
            step_cost: -0.1,
        };
        // Counts giving p = 0.8 and 0.5: the section-2 check plan.
        let steps = [Posterior::from_counts(7, 1), Posterior::from_counts(2, 2)];
        let s = score_candidate(&steps, &prefs, 0.7);
        assert!(close(s.p[0], 0.8, TOL) && close(s.p[1], 0.5, TOL));
        assert!(close(s.lrs.epistemic, 1.1935496040981333, TOL));
        assert!(close(s.lrs.pragmatic, 4.155, TOL));
        assert!(close(s.lrs.g, -3.79693511877056, TOL));
        assert_eq!(s.lrs.g, g_lrs(&s.p, &prefs, 0.7, None));
        assert_eq!(s.aif.g, g_aif(&steps, &prefs, 0.7, None));
        assert_eq!(s.aif.pragmatic, s.lrs.pragmatic);
        assert_eq!(s.score(Model::Aif), &s.aif);
        let j = serde_json::to_value(&s).unwrap();
        assert!(j["aif"]["g"].is_f64());
        assert_eq!(j["p"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn model_parses_and_serializes() {
        assert_eq!("lrs".parse(), Ok(Model::Lrs));
        assert_eq!("aif".parse(), Ok(Model::Aif));
        assert!("AIF".parse::<Model>().is_err());
        assert_eq!(serde_json::to_string(&Model::Aif).unwrap(), "\"aif\"");
        assert_eq!(Model::default(), Model::Lrs);
    }

    #[test]
    fn selection_probabilities_softmax() {
        let probs = selection_probabilities(&[0.0, 1.0], 0.5, 1.0).unwrap();
        let e = (-0.5f64).exp();
        assert!(close(probs[0], 1.0 / (1.0 + e), TOL));
        assert!(close(probs[1], e / (1.0 + e), TOL));
        // Zero precision: uniform.
        let probs = selection_probabilities(&[3.0, -7.0, 0.0], 0.0, 1.0).unwrap();
        assert!(probs.iter().all(|p| close(*p, 1.0 / 3.0, TOL)));
        assert!(selection_probabilities(&[], 0.5, 1.0).unwrap().is_empty());
    }

    #[test]
    fn selection_probabilities_are_stable_for_huge_exponents() {
        // exp(1e6) overflows; subtracting the largest exponent does not.
        let probs = selection_probabilities(&[-1e6, -1e6 + 1.0, 5e5], 1.0, 0.01).unwrap();
        assert!(probs.iter().all(|p| p.is_finite()));
        assert_eq!(probs[0], 1.0);
        assert_eq!(probs[2], 0.0);
        // −β·G itself would overflow here (β = 1e10).
        let probs = selection_probabilities(&[1e300, 1e300], 1.0, 1e-10).unwrap();
        assert_eq!(probs, vec![0.5, 0.5]);
        // A gap wider than f64 and an infinite β still give a distribution.
        let probs = selection_probabilities(&[-1e308, 1e308], 1.0, 1e-10).unwrap();
        assert_eq!(probs, vec![1.0, 0.0]);
        let probs = selection_probabilities(&[2.0, 1.0, 1.0], 1.0, 1e-320).unwrap();
        assert_eq!(probs, vec![0.0, 0.5, 0.5]);
    }

    #[test]
    fn selection_probabilities_validate() {
        for t in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let err = selection_probabilities(&[1.0], 0.5, t).unwrap_err();
            assert!(err.contains("temperature"), "{err}");
        }
        assert!(selection_probabilities(&[1.0], 1.5, 1.0).is_err());
        assert!(selection_probabilities(&[1.0], f64::NAN, 1.0).is_err());
        assert!(selection_probabilities(&[f64::NAN], 0.5, 1.0).is_err());
        assert!(selection_probabilities(&[f64::INFINITY], 0.5, 1.0).is_err());
    }

    #[test]
    fn sample_index_inverse_cdf() {
        let probs = [0.2, 0.0, 0.5, 0.3];
        assert_eq!(sample_index(&probs, 0.0), Ok(0));
        assert_eq!(sample_index(&probs, 0.1999), Ok(0));
        assert_eq!(sample_index(&probs, 0.2), Ok(2));
        assert_eq!(sample_index(&probs, 0.69), Ok(2));
        assert_eq!(sample_index(&probs, 0.7), Ok(3));
        assert_eq!(sample_index(&probs, 0.999999), Ok(3));
        // A zero-probability tail is never drawn, even past the rounding edge.
        assert_eq!(sample_index(&[0.3, 0.7, 0.0], 0.9999999999999999), Ok(1));
        // Unnormalized weights are scaled.
        assert_eq!(sample_index(&[1.0, 3.0], 0.3), Ok(1));
    }

    #[test]
    fn sample_index_validates() {
        assert!(sample_index(&[0.5, 0.5], 1.0).is_err());
        assert!(sample_index(&[0.5, 0.5], -0.1).is_err());
        assert!(sample_index(&[0.5, 0.5], f64::NAN).is_err());
        assert!(sample_index(&[], 0.5).is_err());
        assert!(sample_index(&[0.0, 0.0], 0.5).is_err());
        assert!(sample_index(&[-0.1, 1.1], 0.5).is_err());
        assert!(sample_index(&[f64::NAN, 1.0], 0.5).is_err());
    }

    #[test]
    fn greedy_index_lowest_first_on_ties() {
        assert_eq!(greedy_index(&[0.5, -1.0, 2.0, -1.0]), Some(1));
        assert_eq!(greedy_index(&[f64::NAN, 3.0, 1.0]), Some(2));
        assert_eq!(greedy_index(&[]), None);
        assert_eq!(greedy_index(&[f64::NAN]), None);
        assert_eq!(greedy_index(&[f64::NEG_INFINITY, -1e308]), Some(0));
    }

    /// splitmix64: a seeded source of uniforms in [0, 1) for simulations.
    struct Rng(u64);

    impl Rng {
        fn next_u64(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn uniform(&mut self) -> f64 {
            (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    #[test]
    fn simulation_sampling_follows_the_probabilities() {
        let prefs = Preferences::default();
        let gs: Vec<f64> = [[0.9, 0.8], [0.5, 0.5], [0.2, 0.9]]
            .iter()
            .map(|ps| g_lrs(ps, &prefs, 0.6, None))
            .collect();
        let probs = selection_probabilities(&gs, 0.6, 0.5).unwrap();
        let draws = 20_000;
        let mut counts = [0usize; 3];
        let mut rng = Rng(0x5eed_0e0f);
        for _ in 0..draws {
            counts[sample_index(&probs, rng.uniform()).unwrap()] += 1;
        }
        for (c, p) in counts.iter().zip(&probs) {
            let freq = *c as f64 / draws as f64;
            // Four binomial standard errors.
            let se = (p * (1.0 - p) / draws as f64).sqrt();
            assert!((freq - p).abs() < 4.0 * se, "freq {freq} vs p {p}");
        }
        // The same seed draws the same sequence.
        let run = |seed| {
            let mut rng = Rng(seed);
            (0..50)
                .map(|_| sample_index(&probs, rng.uniform()).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert_eq!(greedy_index(&gs), Some(0));
    }

    #[test]
    fn models_are_spelled_alike() {
        crate::kernel::names::spelled_alike(Model::ALL);
    }
}
