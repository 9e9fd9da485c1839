//! Replays real autoresearch nights (karpathy-style `results.tsv` files,
//! `bench/nights/`) in their own order and measures whether steering by
//! family would have put the night's keeps first.
//!
//! ```sh
//! cargo run --release --example steer_nights                 # bench/nights
//! cargo run --release --example steer_nights -- DIR [--seed N]
//! ```
//!
//! Each night is read as `arx journal import` reads it (`load.rs`): the
//! rows the import skips are skipped here, listed with its reasons, and
//! the night's first keep, which the import records as the baseline, is
//! not a try. For each night: every try's change (its description without the result
//! the loop wrote after it) gets a family by the findings' text similarity
//! (`arx::engine::finding::index`): the family of the most similar earlier
//! try when at least `FAMILY_SIMILARITY` alike, else a family of its own.
//! Families come from the text alone, never from outcomes. Then, before
//! each try, the record so far scores every family, and two things are
//! measured:
//!
//! - **the tries still to come**, ranked by their families' scores: the
//!   AUC of that ranking putting the night's later keeps before its other
//!   tries (discards and crashes), pooled over the steps; a random order
//!   scores 0.5, and so does the running keep rate (one score for all);
//! - **the next try**: the score of the try the night actually ran next,
//!   as a prediction of whether it was kept, over the night's tries (the
//!   AUC of that score), beside the running keep rate before the try and a
//!   random score.
//!
//! And the repeat guard `arx next` applies (`arx::engine::steer::repeat`):
//! a try whose change was already discarded at the same parent (no keep
//! since), the same statement by the findings' similarity and with the
//! same numbers, would have been left out; how many such tries the night
//! kept (the target is none), and the same at a looser similarity.
//!
//! Seeded: the same corpus and seed print the same tables. Exit 1 when a
//! target is missed, 2 on bad input.

use std::path::{Path, PathBuf};

use arx::engine::finding::index::Index;
use arx::engine::steer::repeat::{numbers, repeats, Candidate, Discarded, REPEAT_SIMILARITY};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod load;
#[path = "../steer/ranking.rs"]
mod ranking;

use ranking::{Outcome, Record};

/// An earlier try at least this similar lends a try its family.
const FAMILY_SIMILARITY: f64 = 0.3;
/// A looser guard, reported beside it to show the margin.
const LOOSE_REPEAT_SIMILARITY: f64 = 0.8;
/// Words that report an outcome rather than a change; dropped from the
/// change text so that families cannot learn from them.
const OUTCOME_WORDS: &[&str] = &[
    "worse",
    "better",
    "best",
    "improvement",
    "improved",
    "improves",
    "improve",
    "win",
    "wins",
    "gain",
    "gains",
    "hurt",
    "hurts",
    "helped",
    "helps",
    "reverted",
    "revert",
    "keep",
    "kept",
    "discard",
    "discarded",
    "crash",
    "crashed",
    "oom",
    "regress",
    "regressed",
    "regression",
    "fail",
    "fails",
    "failed",
    "slightly",
    "massive",
    "huge",
    "marginal",
    "neutral",
    "worked",
];
/// Most words of a description that make its change.
const CHANGE_WORDS: usize = 14;
/// Seed of the random orders (overridable with `--seed`).
const SEED: u64 = 0x7374_6565_726e_6974;

/// The change a description states, without the result written after it:
/// without what it puts in parentheses, its first clause (clauses end at
/// `: `, ` — `, ` -- `, ` - `, `; `, `. ` or ` | `; a one-word label
/// before `: `, as in `Hypothesis: …`, is passed over), its outcome words
/// dropped, at most `CHANGE_WORDS` words.
fn change_text(description: &str) -> String {
    let mut depth = 0usize;
    let bare: String = description
        .chars()
        .filter(|&c| {
            match c {
                '(' => depth += 1,
                ')' if depth > 0 => {
                    depth -= 1;
                    return false;
                }
                _ => {}
            }
            depth == 0
        })
        .collect();
    let mut rest = bare.trim();
    let cuts = [": ", " — ", " -- ", " - ", "; ", ". ", " | "];
    let clause = loop {
        let end = cuts
            .iter()
            .filter_map(|c| rest.find(c).map(|i| (i, *c)))
            .min();
        let Some((i, cut)) = end else { break rest };
        let head = &rest[..i];
        if cut == ": " && head.split_whitespace().count() <= 1 {
            rest = &rest[i + cut.len()..];
            continue;
        }
        break head;
    };
    clause
        .split_whitespace()
        .filter(|w| {
            let bare: String = w.chars().filter(|c| c.is_alphanumeric()).collect();
            !OUTCOME_WORDS.contains(&bare.to_lowercase().as_str())
        })
        .take(CHANGE_WORDS)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A row that measures the starting point (or a new one) rather than an
/// idea: its description starts with "baseline".
fn is_baseline(description: &str) -> bool {
    description
        .trim_start()
        .to_lowercase()
        .starts_with("baseline")
}

/// Mann–Whitney counts of `scored` (score, positive): (pairs ordered
/// right, ties counting half; pairs).
fn auc_counts(scored: &mut [(f64, bool)]) -> (f64, f64) {
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut rank_sum, mut pos) = (0.0, 0.0);
    let mut i = 0;
    while i < scored.len() {
        let mut j = i;
        while j < scored.len() && scored[j].0 == scored[i].0 {
            j += 1;
        }
        let mid = (i + j + 1) as f64 / 2.0;
        for s in &scored[i..j] {
            if s.1 {
                rank_sum += mid;
                pos += 1.0;
            }
        }
        i = j;
    }
    let neg = scored.len() as f64 - pos;
    (rank_sum - pos * (pos + 1.0) / 2.0, pos * neg)
}

#[derive(Default, Clone, Copy)]
struct Auc {
    right: f64,
    pairs: f64,
}

impl Auc {
    fn add(&mut self, (right, pairs): (f64, f64)) {
        self.right += right;
        self.pairs += pairs;
    }
    fn value(&self) -> f64 {
        if self.pairs > 0.0 {
            self.right / self.pairs
        } else {
            f64::NAN
        }
    }
}

struct NightResult {
    name: String,
    tries: usize,
    keeps: usize,
    /// Lines the import skipped, with its reasons.
    skipped: Vec<String>,
    families: usize,
    largest: usize,
    /// Tries still to come, per ranking (pooled over the steps).
    ahead: [Auc; 4],
    /// The next try, per ranking: (score, kept).
    next: [Vec<(f64, bool)>; 4],
    /// Tries the guard would have left out: (kept, not kept), strict and loose.
    guard: [(usize, usize); 2],
    /// The kept tries the strict guard would have left out, and the
    /// discards they repeat (descriptions).
    guarded_keeps: Vec<(String, String)>,
}

/// Families by text similarity: the family of the most similar earlier
/// try when at least `FAMILY_SIMILARITY` alike, else a new one.
fn families(ix: &Index, n: usize) -> Vec<usize> {
    let mut family = vec![0usize; n];
    let mut next = 0;
    for i in 0..n {
        let nearest = (0..i)
            .map(|j| (ix.similarity(i, j), j))
            .filter(|&(s, _)| s >= FAMILY_SIMILARITY)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        family[i] = match nearest {
            Some((_, j)) => family[j],
            None => {
                next += 1;
                next - 1
            }
        };
    }
    family
}

fn replay(name: &str, night: &load::Night, seed: u64) -> NightResult {
    let changes: Vec<String> = night
        .rows
        .iter()
        .map(|r| change_text(&r.description))
        .collect();
    // The baseline rows measure the starting point (or a new one): they
    // move the parent but test no idea.
    let tries: Vec<usize> = (0..changes.len())
        .filter(|&i| night.rows[i].outcome.is_some() && !is_baseline(&night.rows[i].description))
        .collect();
    let ix = Index::build(tries.iter().map(|&i| changes[i].as_str()));
    let family = families(&ix, tries.len());
    let kept: Vec<bool> = tries
        .iter()
        .map(|&i| night.rows[i].outcome == Some(Outcome::Kept))
        .collect();
    let outcome: Vec<Outcome> = tries
        .iter()
        .filter_map(|&i| night.rows[i].outcome)
        .collect();
    // The parent a try was measured against: the keeps before it.
    let mut epoch = Vec::with_capacity(tries.len());
    let mut keeps_so_far = 0usize;
    let mut t = 0;
    for (i, row) in night.rows.iter().enumerate() {
        if t < tries.len() && tries[t] == i {
            epoch.push(keeps_so_far);
            t += 1;
        }
        if row.moved {
            keeps_so_far += 1;
        }
    }
    let statements: Vec<&str> = tries.iter().map(|&i| changes[i].as_str()).collect();
    let parents: Vec<String> = epoch.iter().map(|e| format!("keep {e}")).collect();
    let mut guard = [(0usize, 0usize); 2];
    let mut guarded_keeps = Vec::new();
    for j in 0..tries.len() {
        let before: Vec<usize> = (0..j)
            .filter(|&d| outcome[d] == Outcome::Discarded && epoch[d] == epoch[j])
            .collect();
        // The guard `arx next` applies.
        let discarded: Vec<Discarded> = before
            .iter()
            .map(|&d| Discarded {
                statement: statements[d],
                parent: &parents[d],
                diff: None,
            })
            .collect();
        let candidate = Candidate {
            statement: statements[j],
            parent: &parents[j],
            diff: None,
            retry: false,
        };
        let strict = repeats(&[candidate], &discarded)[0].map(|r| before[r.discard]);
        // A looser reading, for the margin.
        let loose = before.iter().any(|&d| {
            ix.similarity(d, j) >= LOOSE_REPEAT_SIMILARITY
                && numbers(statements[d]) == numbers(statements[j])
        });
        for (g, hit) in [strict.is_some(), loose].into_iter().enumerate() {
            if hit && kept[j] {
                guard[g].0 += 1;
            } else if hit {
                guard[g].1 += 1;
            }
        }
        if let (Some(d), true) = (strict, kept[j]) {
            let text = |t: usize| night.rows[tries[t]].description.clone();
            guarded_keeps.push((text(j), text(d)));
        }
    }
    let names: Vec<String> = family.iter().map(|f| format!("f{f}")).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let random: Vec<f64> = (0..tries.len()).map(|_| rng.random::<f64>()).collect();
    let mut record = Record::default();
    let mut ahead = [Auc::default(); 4];
    let mut next: [Vec<(f64, bool)>; 4] = Default::default();
    for i in 0..tries.len() {
        let rate = record.keep_rate();
        let view = record.view();
        let score = |j: usize, r: usize| match r {
            0 => view.score(&names[j]),
            1 => view.posterior(&names[j]),
            2 => rate,
            _ => random[j],
        };
        for (r, auc) in ahead.iter_mut().enumerate() {
            let mut scored: Vec<(f64, bool)> =
                (i..tries.len()).map(|j| (score(j, r), kept[j])).collect();
            auc.add(auc_counts(&mut scored));
        }
        for (r, v) in next.iter_mut().enumerate() {
            v.push((score(i, r), kept[i]));
        }
        record.observe(&names[i], outcome[i], None, 1);
    }
    let mut sizes = std::collections::HashMap::new();
    for f in &family {
        *sizes.entry(f).or_insert(0usize) += 1;
    }
    NightResult {
        name: name.to_string(),
        tries: tries.len(),
        keeps: kept.iter().filter(|&&k| k).count(),
        skipped: night.skipped.clone(),
        families: sizes.len(),
        largest: sizes.values().copied().max().unwrap_or(0),
        ahead,
        next,
        guard,
        guarded_keeps,
    }
}

fn f3(x: f64) -> String {
    if x.is_nan() {
        "–".to_string()
    } else {
        format!("{x:.3}")
    }
}

fn next_auc(v: &[(f64, bool)]) -> f64 {
    let mut v = v.to_vec();
    let (right, pairs) = auc_counts(&mut v);
    Auc { right, pairs }.value()
}

fn mean(v: impl Iterator<Item = f64>) -> f64 {
    let v: Vec<f64> = v.filter(|x| !x.is_nan()).collect();
    v.iter().sum::<f64>() / v.len() as f64
}

/// The lines the import skipped, per night, by reason (its words up to
/// the first quoted value, the values listed after).
fn skipped_lines(results: &[NightResult]) {
    for r in results.iter().filter(|r| !r.skipped.is_empty()) {
        let mut kinds: Vec<(String, Vec<String>)> = Vec::new();
        for line in &r.skipped {
            let reason = line.split_once(": ").map_or(line.as_str(), |x| x.1);
            let (kind, value) = match reason.find('"') {
                Some(i) => {
                    let rest = &reason[i + 1..];
                    let value = rest.split('"').next().unwrap_or("");
                    let after = rest.split_once('"').map_or("", |x| x.1);
                    (format!("{}…{}", &reason[..i], after), value.to_string())
                }
                None => (reason.to_string(), String::new()),
            };
            match kinds.iter_mut().find(|k| k.0 == kind) {
                Some(k) => k.1.push(value),
                None => kinds.push((kind, vec![value])),
            }
        }
        let parts: Vec<String> = kinds
            .iter()
            .map(|(kind, values)| {
                let mut shown: Vec<&str> = values.iter().map(String::as_str).collect();
                shown.sort_unstable();
                shown.dedup();
                shown.truncate(6);
                let shown = shown.join("`, `");
                if shown.is_empty() {
                    format!("{} × {kind}", values.len())
                } else {
                    format!("{} × {kind} (`{shown}`)", values.len())
                }
            })
            .collect();
        println!(
            "- {}: {} lines skipped by the import: {}",
            r.name,
            r.skipped.len(),
            parts.join("; ")
        );
    }
    println!();
}

fn report(results: &[NightResult]) -> bool {
    println!(
        "| night | tries | keeps | keep rate | skipped rows | families (largest) | to come: steered | to come: keep rate only | to come: random | next: steered | next: keep rate only | next: running keep rate | next: random | guard left out kept / other (≥ {REPEAT_SIMILARITY}) | (≥ {LOOSE_REPEAT_SIMILARITY}) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in results {
        println!(
            "| {} | {} | {} | {:.0}% | {} | {} ({}) | {} | {} | {} | {} | {} | {} | {} | {} / {} | {} / {} |",
            r.name,
            r.tries,
            r.keeps,
            100.0 * r.keeps as f64 / r.tries.max(1) as f64,
            r.skipped.len(),
            r.families,
            r.largest,
            f3(r.ahead[0].value()),
            f3(r.ahead[1].value()),
            f3(r.ahead[3].value()),
            f3(next_auc(&r.next[0])),
            f3(next_auc(&r.next[1])),
            f3(next_auc(&r.next[2])),
            f3(next_auc(&r.next[3])),
            r.guard[0].0,
            r.guard[0].1,
            r.guard[1].0,
            r.guard[1].1,
        );
    }
    let tries: usize = results.iter().map(|r| r.tries).sum();
    let keeps: usize = results.iter().map(|r| r.keeps).sum();
    let ahead_mean: Vec<f64> = (0..4)
        .map(|k| mean(results.iter().map(|r| r.ahead[k].value())))
        .collect();
    let next_mean: Vec<f64> = (0..4)
        .map(|k| mean(results.iter().map(|r| next_auc(&r.next[k]))))
        .collect();
    let next_pooled: Vec<f64> = (0..4)
        .map(|k| {
            let all: Vec<(f64, bool)> = results.iter().flat_map(|r| r.next[k].clone()).collect();
            next_auc(&all)
        })
        .collect();
    // The same without the largest night, which holds most of the tries.
    let largest = results.iter().map(|r| r.tries).max().unwrap_or(0);
    let next_rest: Vec<f64> = (0..4)
        .map(|k| {
            let all: Vec<(f64, bool)> = results
                .iter()
                .filter(|r| r.tries < largest)
                .flat_map(|r| r.next[k].clone())
                .collect();
            next_auc(&all)
        })
        .collect();
    let guard: [(usize, usize); 2] = [0, 1].map(|g| {
        results
            .iter()
            .fold((0, 0), |a, r| (a.0 + r.guard[g].0, a.1 + r.guard[g].1))
    });
    println!(
        "| all {} nights (each night counts once) | {tries} | {keeps} | {:.0}% | {} | | {} | {} | {} | {} | {} | {} | {} | {} / {} | {} / {} |",
        results.len(),
        100.0 * keeps as f64 / tries.max(1) as f64,
        results.iter().map(|r| r.skipped.len()).sum::<usize>(),
        f3(ahead_mean[0]),
        f3(ahead_mean[1]),
        f3(ahead_mean[3]),
        f3(next_mean[0]),
        f3(next_mean[1]),
        f3(next_mean[2]),
        f3(next_mean[3]),
        guard[0].0,
        guard[0].1,
        guard[1].0,
        guard[1].1,
    );
    println!(
        "| all tries pooled (next try) | | | | | | | | | {} | {} | {} | {} | | |",
        f3(next_pooled[0]),
        f3(next_pooled[1]),
        f3(next_pooled[2]),
        f3(next_pooled[3]),
    );
    println!(
        "| all tries pooled but the largest night's (next try) | | | | | | | | | {} | {} | {} | {} | | |",
        f3(next_rest[0]),
        f3(next_rest[1]),
        f3(next_rest[2]),
        f3(next_rest[3]),
    );
    println!();
    skipped_lines(results);
    let mut ok = true;
    let pass = |b: bool| if b { "PASS" } else { "FAIL" };
    let t1 = next_pooled[0] >= next_pooled[2];
    ok &= t1;
    println!(
        "{} pooled next-try AUC of the steered score no worse than the running keep rate's ({} vs {}; keep rate only {}, random {})",
        pass(t1),
        f3(next_pooled[0]),
        f3(next_pooled[2]),
        f3(next_pooled[1]),
        f3(next_pooled[3]),
    );
    for r in results {
        for (kept, discarded) in &r.guarded_keeps {
            println!(
                "- {}: kept \"{kept}\" repeats the discard \"{discarded}\"",
                r.name
            );
        }
    }
    let t2 = guard[0].0 == 0;
    ok &= t2;
    println!(
        "{} the repeat guard leaves out no try a night kept ({} kept, {} not kept left out; at similarity ≥ {LOOSE_REPEAT_SIMILARITY}: {} kept, {} not kept)",
        pass(t2),
        guard[0].0,
        guard[0].1,
        guard[1].0,
        guard[1].1,
    );
    println!(
        "(info) tries still to come, mean over nights: steered {}, keep rate only {}, random {} (a running keep rate gives every try the same score: 0.500)",
        f3(ahead_mean[0]),
        f3(ahead_mean[1]),
        f3(ahead_mean[3]),
    );
    let lift = next_pooled[0] - next_pooled[2];
    let lift_rest = next_rest[0] - next_rest[2];
    let lift_nights = next_mean[0] - next_mean[2];
    let lift_ahead = ahead_mean[0] - 0.5;
    println!(
        "Next try, steered over the running keep rate: {lift:+.3} AUC pooled, {lift_rest:+.3} without the largest night, {lift_nights:+.3} as the mean over nights. Tries to come, steered over an order without scores: {lift_ahead:+.3}."
    );
    if lift_ahead < 0.02 {
        println!(
            "Ranking a night's remaining tries by family does not put its keeps first: on these nights steering adds nothing there."
        );
    }
    ok
}

fn run() -> Result<bool, String> {
    let mut dir = PathBuf::from("bench/nights");
    let mut seed = SEED;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seed" => {
                seed = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or("--seed takes a number")?
            }
            _ if a.starts_with('-') => return Err(format!("unknown option {a}")),
            _ => dir = PathBuf::from(a),
        }
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no .tsv nights in {}", dir.display()));
    }
    let mut results = Vec::new();
    for (k, path) in files.iter().enumerate() {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let night = load::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = Path::new(path)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        results.push(replay(&name, &night, seed ^ (k as u64)));
    }
    println!(
        "Replay of {} nights from {}: families by text similarity ≥ {FAMILY_SIMILARITY}; seed {seed}.\n",
        results.len(),
        dir.display()
    );
    Ok(report(&results))
}

fn main() {
    match run() {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("steer_nights: {e}");
            std::process::exit(2);
        }
    }
}
