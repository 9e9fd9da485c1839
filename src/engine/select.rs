//! Choosing the next candidate: scores every candidate plan with the
//! expected-free-energy models, turns the chosen model's scores into
//! selection probabilities and picks one, either by sampling with a
//! uniform number the host draws or greedily (lowest G). `arx next` and
//! the selection simulation (`examples/next_sim.rs`) both decide here, so
//! the simulation measures the command's own rule.
//!
//! Pure: posteriors and settings in, a choice out. It must not read the
//! journal or the precision state, draw randomness or print; the host
//! builds the posteriors from journal counts
//! ([`Posterior::from_counts`]), reads the precision (the planning level
//! of the hierarchy) and passes a uniform number from a seeded generator.

use serde::Serialize;

use crate::kernel::number::fmt_number;

use super::efe::{
    greedy_index, sample_index, score_candidate, selection_probabilities, CandidateScore, Model,
    Posterior, Preferences,
};

/// One candidate: a plan of steps, each with the Beta posterior of its
/// success rate (from journal counts, [`Posterior::from_counts`]), and what
/// its outcomes are worth.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub steps: Vec<Posterior>,
    pub prefs: Preferences,
}

impl Plan {
    /// A plan scored with the default preferences.
    pub fn new(steps: Vec<Posterior>) -> Plan {
        Plan {
            steps,
            prefs: Preferences::default(),
        }
    }
}

/// How to choose among candidates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// The model whose G decides.
    pub model: Model,
    /// The loop's confidence in its predictions, in [0, 1]: the weight of
    /// the epistemic term is `1 − precision`, and `β = precision /
    /// temperature`.
    pub precision: f64,
    /// Finite and above 0; lower concentrates the choice on the lowest G.
    pub temperature: f64,
    /// The weight of the epistemic term when given, in place of
    /// `1 − precision` (the reference's `epistemic_weight`).
    pub epistemic_weight: Option<f64>,
    /// Take the lowest G (the first on ties) instead of sampling.
    pub greedy: bool,
}

/// The outcome of [`select`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Selection {
    /// Every candidate scored by both models, in input order.
    pub scores: Vec<CandidateScore>,
    /// `P(i) ∝ exp(−β·G_i)` under the chosen model. With `greedy` these are
    /// still the probabilities a sample would have used; the choice itself
    /// is the lowest G.
    pub probabilities: Vec<f64>,
    /// Index of the chosen candidate.
    pub chosen: usize,
}

/// Score `candidates` under both models (each with its own preferences),
/// compute the selection probabilities under `settings.model` and choose
/// one: with `settings.greedy` the lowest G (the first on ties; `u` is then
/// not used), otherwise the inverse-CDF draw at `u` in [0, 1)
/// ([`sample_index`]). With `settings.epistemic_weight`, both models' G use
/// that weight instead of `1 − precision` (`β` still uses the precision).
///
/// Errors on an empty candidate list, a precision outside [0, 1], a
/// temperature that is not finite and positive, a non-finite epistemic
/// weight or G (a posterior with a parameter that is not positive) or, when
/// sampling, `u` outside [0, 1).
pub fn select(candidates: &[Plan], settings: &Settings, u: f64) -> Result<Selection, String> {
    if candidates.is_empty() {
        return Err("no candidates to choose from".to_string());
    }
    if let Some(w) = settings.epistemic_weight {
        if !w.is_finite() {
            return Err(format!(
                "epistemic weight must be a finite number (got {})",
                fmt_number(w)
            ));
        }
    }
    let mut scores: Vec<CandidateScore> = candidates
        .iter()
        .map(|c| score_candidate(&c.steps, &c.prefs, settings.precision))
        .collect();
    if let Some(w) = settings.epistemic_weight {
        // The same expressions as `g_lrs` and `g_aif`, with the weight given.
        for s in &mut scores {
            s.lrs.g = w * s.lrs.epistemic - s.lrs.pragmatic;
            s.aif.g = -w * s.aif.epistemic - s.aif.pragmatic;
        }
    }
    let gs: Vec<f64> = scores.iter().map(|s| s.score(settings.model).g).collect();
    let probabilities = selection_probabilities(&gs, settings.precision, settings.temperature)?;
    let chosen = if settings.greedy {
        greedy_index(&gs).expect("selection_probabilities accepted only finite G")
    } else {
        sample_index(&probabilities, u)?
    };
    Ok(Selection {
        scores,
        probabilities,
        chosen,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::efe::{g_aif, g_lrs};

    fn settings(model: Model, greedy: bool) -> Settings {
        Settings {
            model,
            precision: 0.5,
            temperature: 1.0,
            epistemic_weight: None,
            greedy,
        }
    }

    /// Single-step plans with default preferences.
    fn single(counts: &[(u64, u64)]) -> Vec<Plan> {
        counts
            .iter()
            .map(|&(s, f)| Plan::new(vec![Posterior::from_counts(s, f)]))
            .collect()
    }

    fn gs(sel: &Selection, model: Model) -> Vec<f64> {
        sel.scores.iter().map(|c| c.score(model).g).collect()
    }

    #[test]
    fn greedy_takes_the_lowest_g_of_the_chosen_model() {
        // A well-tried good candidate against an untried one.
        let cands = single(&[(6, 4), (0, 0)]);
        let lrs = select(&cands, &settings(Model::Lrs, true), 0.99).unwrap();
        let aif = select(&cands, &settings(Model::Aif, true), 0.99).unwrap();
        assert_eq!(lrs.scores, aif.scores);
        assert_eq!(Some(lrs.chosen), greedy_index(&gs(&lrs, Model::Lrs)));
        assert_eq!(Some(aif.chosen), greedy_index(&gs(&aif, Model::Aif)));
        let sum: f64 = lrs.probabilities.iter().sum();
        assert!((sum - 1.0).abs() < 1e-12);
        assert_eq!(
            lrs.probabilities,
            selection_probabilities(&gs(&lrs, Model::Lrs), 0.5, 1.0).unwrap()
        );
    }

    #[test]
    fn sampling_follows_the_inverse_cdf() {
        let cands = single(&[(0, 5), (5, 0), (1, 1)]);
        let s = settings(Model::Aif, false);
        let probs = select(&cands, &s, 0.0).unwrap().probabilities;
        assert_eq!(select(&cands, &s, 0.0).unwrap().chosen, 0);
        let edge = probs[0] + probs[1] / 2.0;
        assert_eq!(select(&cands, &s, edge).unwrap().chosen, 1);
        assert_eq!(select(&cands, &s, 0.999_999).unwrap().chosen, 2);
        // Same inputs, same answer.
        assert_eq!(select(&cands, &s, 0.42), select(&cands, &s, 0.42));
    }

    #[test]
    fn plans_are_scored_with_their_own_preferences() {
        let steps = vec![Posterior::from_counts(7, 1), Posterior::from_counts(2, 2)];
        let prefs = Preferences {
            success: 5.0,
            error: -3.0,
            step_cost: -0.1,
        };
        let plans = vec![
            Plan {
                steps: steps.clone(),
                prefs,
            },
            Plan::new(steps.clone()),
            Plan::new(vec![]),
        ];
        let sel = select(&plans, &settings(Model::Lrs, true), 0.5).unwrap();
        assert_eq!(sel.scores[0], score_candidate(&steps, &prefs, 0.5));
        assert_eq!(
            sel.scores[1],
            score_candidate(&steps, &Preferences::default(), 0.5)
        );
        assert_eq!(sel.scores[2].lrs.g, 0.0);
        // The richer preferences make the same plan more attractive.
        assert_eq!(sel.chosen, 0);
    }

    #[test]
    fn epistemic_weight_replaces_one_minus_precision() {
        let cands = single(&[(3, 1), (0, 0), (2, 5)]);
        let prefs = Preferences::default();
        for w in [0.0, 0.5, 2.0] {
            let s = Settings {
                epistemic_weight: Some(w),
                ..settings(Model::Aif, true)
            };
            let sel = select(&cands, &s, 0.5).unwrap();
            for (score, plan) in sel.scores.iter().zip(&cands) {
                assert_eq!(score.aif.g, g_aif(&plan.steps, &prefs, 0.5, Some(w)));
                assert_eq!(score.lrs.g, g_lrs(&score.p, &prefs, 0.5, Some(w)));
            }
        }
        // Without a weight, w = 1 − precision.
        let sel = select(&cands, &settings(Model::Aif, true), 0.5).unwrap();
        assert_eq!(
            sel.scores[1].aif.g,
            g_aif(&cands[1].steps, &prefs, 0.5, None)
        );
        let bad = Settings {
            epistemic_weight: Some(f64::NAN),
            ..settings(Model::Aif, true)
        };
        assert!(select(&cands, &bad, 0.5).unwrap_err().contains("epistemic"));
    }

    #[test]
    fn errors() {
        let s = settings(Model::Lrs, false);
        assert!(select(&[], &s, 0.5).unwrap_err().contains("no candidates"));
        let cands = single(&[(1, 1)]);
        assert!(select(&cands, &s, 1.0).is_err());
        // Greedy does not use the draw.
        assert!(select(&cands, &settings(Model::Lrs, true), 1.0).is_ok());
        let bad = Settings {
            temperature: 0.0,
            ..s
        };
        assert!(select(&cands, &bad, 0.5)
            .unwrap_err()
            .contains("temperature"));
        let bad = Settings {
            precision: 1.5,
            ..s
        };
        assert!(select(&cands, &bad, 0.5).unwrap_err().contains("precision"));
        let broken = [Plan::new(vec![Posterior { a: 0.0, b: 1.0 }])];
        assert!(select(&broken, &settings(Model::Aif, true), 0.5).is_err());
    }
}
