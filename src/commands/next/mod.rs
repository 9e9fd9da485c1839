//! `arx next`: which candidate experiment to run next. With
//! `--candidates`: reads candidates and the journal's history (through
//! `io::history`), scores every candidate with the expected-free-energy
//! engine, excludes known dead ends, and picks one with a seeded draw (or
//! greedily). Without: the open ideas of the backlog ([`ideas`]).

mod ideas;

use std::io::{self, Write};
use std::path::Path;

use anyhow::Result;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use super::Ctx;
use crate::cli::NextArgs;
use crate::commands::WARN;
use crate::engine::efe::{Model, Posterior, Preferences};
use crate::engine::precision::Level;
use crate::engine::select::{select, Plan, Settings};
use crate::error::{Exit, Hinted};
use crate::io::config::{detect_format, parse_toml, Format};
use crate::io::history;
use crate::io::input::{read_text, Source};
use crate::io::state::{dead_ends, JOURNAL_FILE};
use crate::kernel::promote::approach_hash;
use crate::output::{bold, dim, Report};

/// The model `arx next` uses unless `--model` says otherwise (the one that
/// wins the selection simulation, see BENCHMARKS.md).
pub const DEFAULT_MODEL: Model = Model::Aif;

/// Preferences as written in a candidates file (missing fields: defaults).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PrefsFile {
    success: Option<f64>,
    error: Option<f64>,
    step_cost: Option<f64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct CandidateFile {
    name: String,
    #[serde(alias = "hypothesis")]
    statement: String,
    #[serde(default)]
    steps: Option<Vec<String>>,
    #[serde(default)]
    preferences: Option<PrefsFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CandidatesToml {
    candidate: Vec<CandidateFile>,
}

fn load_candidates(path: &Path) -> Result<Vec<CandidateFile>> {
    let text = read_text(&Source::from_arg(Some(path)), "the candidates")?;
    let bad = |e: String| {
        Hinted::error(
            format!("invalid candidates file {}: {e}", path.display()),
            "write [[candidate]] tables with name and statement (TOML), or a JSON array of them",
        )
    };
    let list: Vec<CandidateFile> = match detect_format(path, &text) {
        Format::Json => serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?,
        Format::Toml => {
            let table = parse_toml(path, &text)?;
            table
                .try_into::<CandidatesToml>()
                .map_err(|e| bad(e.to_string()))?
                .candidate
        }
    };
    if list.is_empty() {
        return Err(bad("no candidates".into()));
    }
    let mut seen = std::collections::HashSet::new();
    for c in &list {
        if c.name.trim().is_empty() {
            return Err(bad("a candidate has an empty name".into()));
        }
        if !seen.insert(c.name.as_str()) {
            return Err(bad(format!("candidate {:?} appears twice", c.name)));
        }
        if c.steps
            .as_ref()
            .is_some_and(|s| s.is_empty() || s.iter().any(|x| x.trim().is_empty()))
        {
            return Err(bad(format!(
                "candidate {:?}: steps must be non-empty names",
                c.name
            )));
        }
        if let Some(p) = &c.preferences {
            for v in [p.success, p.error, p.step_cost].into_iter().flatten() {
                if !v.is_finite() {
                    return Err(bad(format!(
                        "candidate {:?}: preferences must be finite",
                        c.name
                    )));
                }
            }
        }
    }
    Ok(list)
}

#[derive(Serialize)]
struct Row {
    name: String,
    dead_end: bool,
    /// Success estimate per step (posterior mean).
    success: Vec<f64>,
    /// Runs counted per step (supported + refuted).
    runs: Vec<u64>,
    epistemic: f64,
    pragmatic: f64,
    g: f64,
    probability: f64,
}

#[derive(Serialize)]
struct NextReport {
    chosen: Option<String>,
    model: Model,
    precision: f64,
    temperature: f64,
    seed: u64,
    greedy: bool,
    journal_runs: u64,
    candidates: Vec<Row>,
    #[serde(skip)]
    explain: bool,
}

impl Report for NextReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        if let Some(name) = &self.chosen {
            writeln!(out, "{name}")?;
        }
        if !self.explain {
            return Ok(());
        }
        let (b, d) = (bold(), dim());
        writeln!(
            out,
            "{d}model {}, precision {:.4}, temperature {}, seed {}{}, {} in the journal{d:#}",
            self.model.as_str(),
            self.precision,
            self.temperature,
            self.seed,
            if self.greedy { ", greedy" } else { "" },
            crate::output::count(self.journal_runs, "run", "runs")
        )?;
        writeln!(
            out,
            "{b}{:<20} {:>9} {:>6} {:>10} {:>10} {:>10} {:>7}  dead end{b:#}",
            "candidate", "success", "runs", "epistemic", "pragmatic", "G", "P"
        )?;
        for r in &self.candidates {
            let success = r
                .success
                .iter()
                .map(|p| format!("{p:.3}"))
                .collect::<Vec<_>>()
                .join(",");
            let runs: u64 = r.runs.iter().sum();
            let mark = if self.chosen.as_deref() == Some(r.name.as_str()) {
                "*"
            } else {
                " "
            };
            if r.dead_end {
                writeln!(
                    out,
                    "{mark}{:<19} {success:>9} {runs:>6} {:>10} {:>10} {:>10} {:>7}  yes",
                    r.name, "-", "-", "-", "-"
                )?;
            } else {
                writeln!(
                    out,
                    "{mark}{:<19} {success:>9} {runs:>6} {:>10.4} {:>10.4} {:>10.4} {:>7.4}  no",
                    r.name, r.epistemic, r.pragmatic, r.g, r.probability
                )?;
            }
        }
        Ok(())
    }
}

pub fn run(ctx: &Ctx, args: &NextArgs) -> Result<Exit> {
    check_temperature(args.temperature)?;
    let model = match &args.model {
        Some(m) => m.parse::<Model>().map_err(anyhow::Error::msg)?,
        None => DEFAULT_MODEL,
    };
    let Some(path) = &args.candidates else {
        return ideas::run(ctx, args);
    };
    let candidates = load_candidates(path)?;
    let state = ctx.state_dir()?;
    let cache = history::load(&state, &state.join(JOURNAL_FILE), state.is_dir(), WARN)?;
    let h = &cache.history;
    let precision = h.precision.value(Level::Planning);
    let dead: std::collections::HashSet<String> = dead_ends(&state, WARN)
        .read()?
        .into_iter()
        .map(|r| r.approach_hash)
        .collect();

    let (rows, eligible, plans) = rows_and_plans(&candidates, h, &dead);
    let seed = args.seed.unwrap_or(h.runs);
    let mut report = NextReport {
        chosen: None,
        model,
        precision,
        temperature: args.temperature,
        seed,
        greedy: args.greedy,
        journal_runs: h.runs,
        candidates: rows,
        explain: args.explain,
    };
    if eligible.is_empty() {
        ctx.out.emit(&report)?;
        let mut err = io::stderr().lock();
        let _ = writeln!(err, "arx: every candidate is a known dead end");
        let _ = writeln!(
            err,
            "hint: add candidates with new approaches (see `arx deadend list`)"
        );
        return Ok(Exit::No);
    }
    // Every candidate is scored for the table; only the others can be picked.
    let settings = Settings {
        model,
        precision,
        temperature: args.temperature,
        epistemic_weight: None,
        greedy: args.greedy,
    };
    let u: f64 = rand_chacha::ChaCha8Rng::seed_from_u64(seed).random::<f64>();
    let all = select(&plans, &settings, u).map_err(anyhow::Error::msg)?;
    for (row, score) in report.candidates.iter_mut().zip(&all.scores) {
        let s = score.score(model);
        row.success = score.p.clone();
        row.epistemic = s.epistemic;
        row.pragmatic = s.pragmatic;
        row.g = s.g;
    }
    let open: Vec<Plan> = eligible.iter().map(|&i| plans[i].clone()).collect();
    let picked = select(&open, &settings, u).map_err(anyhow::Error::msg)?;
    for (k, &i) in eligible.iter().enumerate() {
        report.candidates[i].probability = picked.probabilities[k];
    }
    let pick = picked.chosen;
    let chosen = report.candidates[eligible[pick]].name.clone();
    report.chosen = Some(chosen.clone());
    ctx.out.emit(&report)?;
    ctx.answer(
        &format!("next candidate: {}", crate::kernel::text::shown(&chosen)),
        "run that candidate (`arx run` or `arx try`)",
    );
    Ok(Exit::Ok)
}

/// `--temperature` must be a positive number.
fn check_temperature(temperature: f64) -> Result<()> {
    if !(temperature.is_finite() && temperature > 0.0) {
        return Err(Hinted::error(
            format!(
                "--temperature must be a positive number (got {})",
                temperature
            ),
            format!(
                "the default is {}; lower values concentrate the choice",
                crate::cli::DEFAULT_TEMPERATURE
            ),
        ));
    }
    Ok(())
}

/// Each candidate's row and plan from the journal's history, and the
/// candidates that may be picked (no known dead end).
fn rows_and_plans(
    candidates: &[CandidateFile],
    h: &crate::engine::history::History,
    dead: &std::collections::HashSet<String>,
) -> (Vec<Row>, Vec<usize>, Vec<Plan>) {
    let mut rows = Vec::new();
    let mut eligible = Vec::new();
    let mut plans = Vec::new();
    for c in candidates {
        let steps = c.steps.clone().unwrap_or_else(|| vec![c.name.clone()]);
        let posteriors: Vec<Posterior> =
            steps.iter().map(|s| h.counts_for(s).posterior()).collect();
        let runs: Vec<u64> = steps
            .iter()
            .map(|s| {
                let k = h.counts_for(s);
                k.successes + k.failures
            })
            .collect();
        let defaults = Preferences::default();
        let prefs = c.preferences.as_ref().map_or(defaults, |p| Preferences {
            success: p.success.unwrap_or(defaults.success),
            error: p.error.unwrap_or(defaults.error),
            step_cost: p.step_cost.unwrap_or(defaults.step_cost),
        });
        let dead_end = dead.contains(&approach_hash(&c.statement));
        if !dead_end {
            eligible.push(rows.len());
        }
        plans.push(Plan {
            steps: posteriors,
            prefs,
        });
        rows.push(Row {
            name: c.name.clone(),
            dead_end,
            success: Vec::new(),
            runs,
            epistemic: 0.0,
            pragmatic: 0.0,
            g: 0.0,
            probability: 0.0,
        });
    }
    (rows, eligible, plans)
}
