//! Guard metrics (`[objective] guards`): bounds beside the target that a
//! keep must respect, as `peak_vram_gb <= 40` (an absolute bound on the
//! candidate's mean), `step_time_s <= 1.05 * baseline` (relative to the
//! segment's baseline's mean: a bound on the total a loop's keeps may
//! cost) or `step_time_s <= 1.05 * best` (relative to the best's mean: a
//! bound on one step, which ten keeps may each use up). The parser names
//! the position of what it cannot read. The burden of proof is on the
//! candidate: a guard holds only when a one-sided test at the objective's
//! confidence shows the candidate within its bound, so a candidate truly
//! at the bound passes about `1 − confidence` of the time, not half.
//! Also the one-sided test the held-out check uses
//! ([`worse_beyond_noise`]).

use serde::{Deserialize, Serialize};

use super::ratchet_noise::{mean, t_quantile};

/// How a guard compares the metric with its bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cmp {
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = "<")]
    Lt,
    #[serde(rename = ">=")]
    Ge,
    #[serde(rename = ">")]
    Gt,
}

impl Cmp {
    /// Lower values are the good side of the bound.
    pub fn upper(self) -> bool {
        matches!(self, Cmp::Le | Cmp::Lt)
    }

    fn holds(self, value: f64, bound: f64) -> bool {
        match self {
            Cmp::Le => value <= bound,
            Cmp::Lt => value < bound,
            Cmp::Ge => value >= bound,
            Cmp::Gt => value > bound,
        }
    }
}

/// What a guard's metric is compared with.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// A fixed number.
    Value(f64),
    /// `factor * best + offset`, with `best` the best's mean of the metric.
    Best { factor: f64, offset: f64 },
    /// `factor * baseline + offset`, with `baseline` the mean of the
    /// metric over the segment's baseline runs.
    Baseline { factor: f64, offset: f64 },
}

impl Bound {
    /// Relative to a commit's mean (the best's or the baseline's).
    pub fn relative(&self) -> bool {
        !matches!(self, Bound::Value(_))
    }

    /// The word naming what a relative bound is relative to.
    pub fn reference(&self) -> Option<&'static str> {
        match self {
            Bound::Value(_) => None,
            Bound::Best { .. } => Some("best"),
            Bound::Baseline { .. } => Some("baseline"),
        }
    }
}

/// One guard, parsed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Guard {
    /// As written (trimmed).
    pub text: String,
    pub metric: String,
    pub cmp: Cmp,
    pub bound: Bound,
}

/// A guard that does not parse: where (1-based character column of the
/// expression) and what was expected there.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    pub column: usize,
    pub message: String,
}

/// Parse every guard; the error names the guard (1-based), the column and
/// what was expected.
pub fn parse_all(guards: &[String]) -> Result<Vec<Guard>, String> {
    guards
        .iter()
        .enumerate()
        .map(|(i, g)| {
            parse(g).map_err(|e| {
                format!(
                    "guards[{}] \"{}\", column {}: {}",
                    i + 1,
                    g.trim(),
                    e.column,
                    e.message
                )
            })
        })
        .collect()
}

/// Parse one guard: `METRIC OP BOUND`, OP one of `<=`, `<`, `>=`, `>`,
/// BOUND a number, or `best` or `baseline` times a number (either order)
/// plus or minus a number (`best`, `1.05 * baseline`, `best * 1.05 + 0.5`,
/// `baseline - 2`).
pub fn parse(text: &str) -> Result<Guard, ParseError> {
    let trimmed = text.trim();
    let lead = text.len() - text.trim_start().len();
    let mut s = Scanner {
        chars: trimmed.chars().collect(),
        at: 0,
        lead: text[..lead].chars().count(),
    };
    s.skip_space();
    let metric = s.metric();
    if metric.is_empty() {
        return Err(s.error("expected a metric name"));
    }
    s.skip_space();
    let cmp = s.cmp()?;
    s.skip_space();
    let bound = s.bound()?;
    s.skip_space();
    if !s.done() {
        return Err(s.error("unexpected text after the bound"));
    }
    Ok(Guard {
        text: trimmed.to_string(),
        metric,
        cmp,
        bound,
    })
}

struct Scanner {
    chars: Vec<char>,
    at: usize,
    lead: usize,
}

impl Scanner {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn done(&self) -> bool {
        self.at >= self.chars.len()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn error(&self, message: &str) -> ParseError {
        let found = match self.peek() {
            Some(c) => format!(" (found `{c}`)"),
            None => " (found the end)".to_string(),
        };
        ParseError {
            column: self.lead + self.at + 1,
            message: format!("{message}{found}"),
        }
    }

    fn metric(&mut self) -> String {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| !c.is_whitespace() && !matches!(c, '<' | '>' | '=' | '!'))
        {
            self.at += 1;
        }
        self.chars[start..self.at].iter().collect()
    }

    fn cmp(&mut self) -> Result<Cmp, ParseError> {
        let (op, len) = match (self.peek(), self.chars.get(self.at + 1)) {
            (Some('<'), Some('=')) => (Cmp::Le, 2),
            (Some('>'), Some('=')) => (Cmp::Ge, 2),
            (Some('<'), _) => (Cmp::Lt, 1),
            (Some('>'), _) => (Cmp::Gt, 1),
            _ => return Err(self.error("expected <=, <, >= or >")),
        };
        self.at += len;
        Ok(op)
    }

    fn word(&mut self, w: &str) -> bool {
        let n = w.chars().count();
        let here: String = self.chars.iter().skip(self.at).take(n).collect();
        let after = self.chars.get(self.at + n);
        if here == w && !after.is_some_and(|c| c.is_alphanumeric() || *c == '_') {
            self.at += n;
            return true;
        }
        false
    }

    fn number(&mut self) -> Result<f64, ParseError> {
        let start = self.at;
        if matches!(self.peek(), Some('+' | '-')) {
            self.at += 1;
        }
        let digits = |s: &mut Scanner| {
            let from = s.at;
            while s.peek().is_some_and(|c| c.is_ascii_digit()) {
                s.at += 1;
            }
            s.at > from
        };
        let whole = digits(self);
        let frac = self.peek() == Some('.') && {
            self.at += 1;
            digits(self)
        };
        if !whole && !frac {
            self.at = start;
            return Err(self.error("expected a number"));
        }
        if matches!(self.peek(), Some('e' | 'E')) {
            self.at += 1;
            if matches!(self.peek(), Some('+' | '-')) {
                self.at += 1;
            }
            if !digits(self) {
                return Err(self.error("expected the exponent's digits"));
            }
        }
        let text: String = self.chars[start..self.at].iter().collect();
        match text.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            _ => {
                self.at = start;
                Err(self.error("expected a finite number"))
            }
        }
    }

    /// `best` or `baseline`, when the text is there.
    fn reference(&mut self) -> Option<bool> {
        if self.word("baseline") {
            Some(true)
        } else if self.word("best") {
            Some(false)
        } else {
            None
        }
    }

    /// `REF [* N]`, `N [* REF]` (REF `best` or `baseline`), then `+ N` /
    /// `- N` after a term with REF.
    fn bound(&mut self) -> Result<Bound, ParseError> {
        let (factor, baseline) = if let Some(baseline) = self.reference() {
            self.skip_space();
            if self.peek() == Some('*') {
                self.at += 1;
                self.skip_space();
                (self.number()?, baseline)
            } else {
                (1.0, baseline)
            }
        } else {
            let n = self.number()?;
            self.skip_space();
            if self.peek() != Some('*') {
                return Ok(Bound::Value(n));
            }
            self.at += 1;
            self.skip_space();
            let Some(baseline) = self.reference() else {
                return Err(self.error("expected `best` or `baseline` after `*`"));
            };
            (n, baseline)
        };
        self.skip_space();
        let sign = match self.peek() {
            Some('+') => 1.0,
            Some('-') => -1.0,
            _ => 0.0,
        };
        let offset = if sign == 0.0 {
            0.0
        } else {
            self.at += 1;
            self.skip_space();
            sign * self.number()?
        };
        Ok(if baseline {
            Bound::Baseline { factor, offset }
        } else {
            Bound::Best { factor, offset }
        })
    }
}

/// How a guard came out on a candidate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum Judged {
    /// The candidate is shown within the bound.
    Holds { value: f64, bound: f64 },
    /// The candidate is not shown within the bound: beyond it, or within
    /// it by less than the noise can tell.
    Breach { value: f64, bound: f64 },
    /// The candidate's runs did not print the metric.
    MissingCandidate,
    /// A relative bound, and the runs it is relative to (the best's or
    /// the baseline's) did not print the metric.
    MissingBest,
}

/// Judge `guard` on the candidate's values of its metric, against the
/// values its bound is relative to (`reference`: the best's or the
/// baseline's runs; unused for an absolute bound), with the metric's noise
/// `(sd, df)` when known, at `confidence`.
///
/// The burden of proof is on the candidate: the guard holds only when a
/// one-sided Student-t test at `confidence` shows the candidate's mean on
/// the good side of the bound — `(bound − mean_c) / se` above the t
/// quantile for an upper bound, with `se = sd·√(1/n_c + factor²/n_r)` for
/// a relative bound and `sd/√n_c` for an absolute one. Without a noise
/// estimate (or with a noise of zero) the mean is compared as it is.
pub fn judge(
    guard: &Guard,
    candidate: &[f64],
    reference: &[f64],
    noise: Option<(f64, f64)>,
    confidence: f64,
) -> Judged {
    let Some(value) = mean(candidate) else {
        return Judged::MissingCandidate;
    };
    let (bound, factor) = match guard.bound {
        Bound::Value(bound) => (bound, None),
        Bound::Best { factor, offset } | Bound::Baseline { factor, offset } => {
            let Some(r) = mean(reference) else {
                return Judged::MissingBest;
            };
            (factor * r + offset, Some(factor))
        }
    };
    let n_c = candidate.len() as f64;
    let var = match factor {
        Some(f) => 1.0 / n_c + f * f / reference.len() as f64,
        None => 1.0 / n_c,
    };
    let holds = match noise {
        Some((sd, df)) if sd > 0.0 && df > 0.0 => {
            let inside = if guard.cmp.upper() {
                bound - value
            } else {
                value - bound
            };
            inside / (sd * var.sqrt()) > t_quantile(confidence, df)
        }
        _ => guard.cmp.holds(value, bound),
    };
    if holds {
        Judged::Holds { value, bound }
    } else {
        Judged::Breach { value, bound }
    }
}

/// Is `candidate` worse than `best` beyond the noise `(sd, df)`, at
/// `confidence` (one-sided Student-t on the difference of the means)?
/// `lower_is_better` says which way is worse. Without noise (or with a
/// noise of zero), any difference in the worse direction is worse.
pub fn worse_beyond_noise(
    candidate: &[f64],
    best: &[f64],
    lower_is_better: bool,
    noise: Option<(f64, f64)>,
    confidence: f64,
) -> Option<bool> {
    let (c, b) = (mean(candidate)?, mean(best)?);
    let worse = if lower_is_better { c - b } else { b - c };
    Some(match noise {
        Some((sd, df)) if sd > 0.0 && df > 0.0 => {
            let se = sd * (1.0 / candidate.len() as f64 + 1.0 / best.len() as f64).sqrt();
            worse / se > t_quantile(confidence, df)
        }
        _ => worse > 0.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(text: &str) -> Guard {
        parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}"))
    }

    #[test]
    fn guards_parse_absolute_and_relative_bounds() {
        let v = g("peak_vram_gb <= 40");
        assert_eq!(v.metric, "peak_vram_gb");
        assert_eq!(v.cmp, Cmp::Le);
        assert_eq!(v.bound, Bound::Value(40.0));
        let r = g("  step_time_s<=1.05*best ");
        assert_eq!(r.text, "step_time_s<=1.05*best");
        assert_eq!(
            r.bound,
            Bound::Best {
                factor: 1.05,
                offset: 0.0
            }
        );
        assert_eq!(
            g("acc >= best * 0.99 - 0.5").bound,
            Bound::Best {
                factor: 0.99,
                offset: -0.5
            }
        );
        assert_eq!(
            g("mem > best").bound,
            Bound::Best {
                factor: 1.0,
                offset: 0.0
            }
        );
        assert_eq!(g("x < -1e-3").bound, Bound::Value(-0.001));
        assert_eq!(g("x < .5").cmp, Cmp::Lt);
        assert_eq!(g("train/loss.v2 >= 2").metric, "train/loss.v2");
    }

    #[test]
    fn a_guard_that_does_not_parse_names_its_column() {
        let col = |t: &str| parse(t).unwrap_err().column;
        let msg = |t: &str| parse(t).unwrap_err().message;
        assert_eq!(col("step_time_s <= 1.05 * bst"), 23);
        assert!(msg("step_time_s <= 1.05 * bst").contains("expected `best`"));
        assert_eq!(col("vram == 40"), 6);
        assert!(msg("vram == 40").contains("<=, <, >= or >"));
        assert_eq!(col("<= 40"), 1);
        assert_eq!(col("vram <= "), 8);
        assert!(msg("vram <= ").contains("the end"));
        assert_eq!(col("vram <= 40 gb"), 12);
        assert_eq!(col("vram <= 1e999"), 9);
        assert_eq!(col("  vram <= x"), 11);
        assert_eq!(col("vram <= best + "), 15);
        let all = parse_all(&["a <= 1".into(), "b <= 2 *".into()]).unwrap_err();
        assert!(
            all.starts_with("guards[2] \"b <= 2 *\", column 9:"),
            "{all}"
        );
    }

    #[test]
    fn guards_relative_to_the_baseline_parse_as_such() {
        assert_eq!(
            g("step_time_s <= 1.05 * baseline").bound,
            Bound::Baseline {
                factor: 1.05,
                offset: 0.0
            }
        );
        assert_eq!(
            g("acc >= baseline * 0.99 - 0.5").bound,
            Bound::Baseline {
                factor: 0.99,
                offset: -0.5
            }
        );
        assert_eq!(
            g("mem <= baseline + 2").bound,
            Bound::Baseline {
                factor: 1.0,
                offset: 2.0
            }
        );
        assert_eq!(g("mem <= baseline").bound.reference(), Some("baseline"));
        assert_eq!(g("mem <= best").bound.reference(), Some("best"));
        assert!(g("mem <= 4").bound.reference().is_none());
        // A metric may be named `baseline`; a bound word must stand alone.
        assert_eq!(g("baseline <= 3").metric, "baseline");
        let e = parse("step <= 1.05 * baselines").unwrap_err();
        assert!(e.message.contains("`best` or `baseline`"), "{e:?}");
    }

    #[test]
    fn an_absolute_bound_holds_on_the_mean_and_must_be_shown_within_the_noise() {
        let v = g("vram <= 40");
        assert_eq!(
            judge(&v, &[39.0, 40.5], &[], None, 0.95),
            Judged::Holds {
                value: 39.75,
                bound: 40.0
            }
        );
        assert!(matches!(
            judge(&v, &[40.1], &[], Some((5.0, 10.0)), 0.95),
            Judged::Breach { .. }
        ));
        // Under the bound, but not by more than a noise of 5 can tell.
        assert!(matches!(
            judge(&v, &[39.0], &[], Some((5.0, 10.0)), 0.95),
            Judged::Breach { .. }
        ));
        assert!(matches!(
            judge(&v, &[30.0, 31.0], &[], Some((1.0, 10.0)), 0.95),
            Judged::Holds { .. }
        ));
        assert_eq!(judge(&v, &[], &[], None, 0.95), Judged::MissingCandidate);
        assert!(matches!(
            judge(&g("acc > 0.5"), &[0.5], &[], None, 0.95),
            Judged::Breach { .. }
        ));
    }

    #[test]
    fn a_relative_bound_holds_only_when_the_candidate_is_shown_within_it() {
        let r = g("step <= 1.05 * best");
        let best = [1.0, 1.0, 1.0, 1.0, 1.0];
        // 1.10 against a bound of 1.05, noise 0.01: far beyond.
        assert!(matches!(
            judge(&r, &[1.10], &best, Some((0.01, 8.0)), 0.95),
            Judged::Breach { .. }
        ));
        // The same with a noise of 0.1: not shown within the bound, so
        // not held (the burden of proof is on the candidate).
        assert!(matches!(
            judge(&r, &[1.10], &best, Some((0.1, 8.0)), 0.95),
            Judged::Breach { .. }
        ));
        // Under the bound by less than the noise can tell: not held.
        assert!(matches!(
            judge(&r, &[1.04, 1.04], &best, Some((0.05, 8.0)), 0.95),
            Judged::Breach { .. }
        ));
        // Under it by far more than the noise: held.
        assert!(matches!(
            judge(&r, &[1.0, 1.0], &best, Some((0.01, 8.0)), 0.95),
            Judged::Holds { .. }
        ));
        // Without noise: the means as they are.
        assert!(matches!(
            judge(&r, &[1.051], &best, None, 0.95),
            Judged::Breach { .. }
        ));
        assert!(matches!(
            judge(&r, &[1.049], &best, Some((0.0, 4.0)), 0.95),
            Judged::Holds { .. }
        ));
        assert_eq!(judge(&r, &[1.0], &[], None, 0.95), Judged::MissingBest);
        // A lower bound: worse is lower.
        let low = g("acc >= baseline - 0.01");
        assert!(matches!(
            judge(&low, &[0.80], &[0.9, 0.9], Some((0.01, 4.0)), 0.95),
            Judged::Breach { .. }
        ));
        assert!(matches!(
            judge(&low, &[0.95], &[0.9, 0.9], Some((0.01, 4.0)), 0.95),
            Judged::Holds { .. }
        ));
    }

    #[test]
    fn worse_beyond_noise_tests_one_side() {
        assert_eq!(
            worse_beyond_noise(&[1.2], &[1.0, 1.0, 1.0], true, Some((0.01, 4.0)), 0.95),
            Some(true)
        );
        assert_eq!(
            worse_beyond_noise(&[1.02], &[1.0, 1.0, 1.0], true, Some((0.05, 4.0)), 0.95),
            Some(false)
        );
        assert_eq!(
            worse_beyond_noise(&[0.9], &[1.0], true, None, 0.95),
            Some(false)
        );
        assert_eq!(
            worse_beyond_noise(&[0.9], &[1.0], false, None, 0.95),
            Some(true)
        );
        assert_eq!(worse_beyond_noise(&[], &[1.0], false, None, 0.95), None);
    }
}
