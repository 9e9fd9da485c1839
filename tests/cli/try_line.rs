//! The try line shows what decided (issue: "the line shows what
//! decided"): over paired and unpaired segments, early tries (before the
//! pairing's noise is measured) and late ones, the line's value, change,
//! "vs" and ρ are recomputed from the journal's runs at the same seeds,
//! and their sign is the sign of the JSON's `improvement`.

use serde_json::Value;

use crate::support::{commit_all, try_json, Sandbox};

/// The metric: `value.txt` plus a jitter of ±0.1 drawn from `ARX_SEED`
/// (shared by the runs of one seed) and a fresh one of ±0.02 drawn from
/// the run's count (`fresh.txt` scales it, 1 when absent).
const SCORE: &str = r#"#!/bin/sh
echo "${ARX_SEED:-none}" >> .seeds
v=$(cat value.txt)
f=$(cat fresh.txt 2>/dev/null || echo 1)
n=$(wc -l < .seeds)
awk -v v="$v" -v f="$f" -v n="$n" -v s="${ARX_SEED:-$((n * 379 + 101))}" \
  'BEGIN { j = ((s % 1000) / 1000 - 0.5) * 0.2; e = (((n * 7919 + 13) % 997) / 997 - 0.5) * 0.04 * f;
           printf "__RESULT__ {\"m\": %.6f}\n", v + j + e }'
"#;

fn repo(direction: &str, seeds: &str, fresh: &str) -> Sandbox {
    let sb = Sandbox::new();
    sb.write("score.sh", SCORE);
    sb.write("value.txt", "1.0");
    sb.write("fresh.txt", fresh);
    sb.write(".gitignore", ".seeds\n");
    sb.write(
        "arx.toml",
        format!(
            "[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"{direction}\"\n\
             command = \"sh score.sh\"\nbaseline_repeat = 5\n{seeds}"
        ),
    );
    commit_all(sb.path());
    sb
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_f64().unwrap()).collect())
        .unwrap_or_default()
}

fn seeds_of(v: &Value) -> Vec<Option<u64>> {
    v.as_array()
        .map(|a| a.iter().map(Value::as_u64).collect())
        .unwrap_or_default()
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

/// The kept commit as the journal records it: its recorded runs (after
/// `record_from` for a keep) and every run with its seed.
#[derive(Clone, Default)]
struct Kept {
    record: Vec<f64>,
    runs: Vec<(f64, Option<u64>)>,
}

/// Every run's value (a one-run try journals its metric alone).
fn samples_of(rec: &Value) -> Vec<f64> {
    match floats(&rec["samples"]) {
        s if s.is_empty() => vec![rec["metrics"]["m"].as_f64().expect("a value")],
        s => s,
    }
}

fn kept_of(rec: &Value) -> Kept {
    let samples = samples_of(rec);
    let seeds = seeds_of(&rec["ratchet"]["seeds"]);
    let from = rec["ratchet"]["record_from"].as_u64().unwrap_or(0) as usize;
    Kept {
        record: samples[from..].to_vec(),
        runs: samples
            .iter()
            .copied()
            .zip(seeds.into_iter().chain(std::iter::repeat(None)))
            .collect(),
    }
}

/// Pairs (candidate, best) at the same seed, each of the best's runs once.
fn pairs(kept: &Kept, cand: &[(f64, Option<u64>)]) -> Vec<(f64, f64)> {
    let mut taken = vec![false; kept.runs.len()];
    let mut out = Vec::new();
    for (c, s) in cand {
        let Some(s) = s else { continue };
        if let Some(i) = (0..kept.runs.len()).find(|&i| !taken[i] && kept.runs[i].1 == Some(*s)) {
            taken[i] = true;
            out.push((*c, kept.runs[i].0));
        }
    }
    out
}

fn pearson(p: &[(f64, f64)]) -> f64 {
    let c: Vec<f64> = p.iter().map(|x| x.0).collect();
    let b: Vec<f64> = p.iter().map(|x| x.1).collect();
    let (mc, mb) = (mean(&c), mean(&b));
    let cov: f64 = p.iter().map(|(x, y)| (x - mc) * (y - mb)).sum();
    let vc: f64 = c.iter().map(|x| (x - mc).powi(2)).sum();
    let vb: f64 = b.iter().map(|y| (y - mb).powi(2)).sum();
    cov / (vc * vb).sqrt()
}

/// A number as the line prints it (a Unicode minus or a plus sign).
fn parse(s: &str) -> f64 {
    s.replace('\u{2212}', "-")
        .trim_start_matches('+')
        .parse()
        .unwrap_or_else(|_| panic!("{s}"))
}

/// Half a unit of the last digit `s` is printed to.
fn half_unit(s: &str) -> f64 {
    let decimals = s.split_once('.').map_or(0, |(_, d)| d.len());
    0.5 * 10f64.powi(-(decimals as i32)) + 1e-12
}

/// Check one try's line and JSON against the journal's runs; returns
/// (paired, ρ shown as a number).
fn check(report: &Value, kept: &Kept, direction: &str) -> (bool, bool) {
    let line = report["line"].as_str().unwrap();
    let r = &report["ratchet"];
    let basis = &r["basis"];
    let runs = basis["runs"].as_u64().expect("a basis") as usize;
    let samples = samples_of(report);
    let seeds = seeds_of(&r["seeds"]);
    let cand: Vec<(f64, Option<u64>)> = samples[..runs]
        .iter()
        .copied()
        .zip(seeds.into_iter().chain(std::iter::repeat(None)))
        .collect();
    let n_pairs = basis["pairs"].as_u64().unwrap_or(0) as usize;
    let (value, vs, rho) = if n_pairs > 0 {
        let p = pairs(kept, &cand);
        assert_eq!(p.len(), n_pairs, "{report}");
        let c: Vec<f64> = p.iter().map(|x| x.0).collect();
        let b: Vec<f64> = p.iter().map(|x| x.1).collect();
        (mean(&c), mean(&b), (p.len() >= 3).then(|| pearson(&p)))
    } else {
        let c: Vec<f64> = cand.iter().map(|x| x.0).collect();
        (mean(&c), mean(&kept.record), None)
    };
    let change = value - vs;
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    assert!(close(basis["value"].as_f64().unwrap(), value), "{report}");
    assert!(close(basis["vs"].as_f64().unwrap(), vs), "{report}");
    assert!(close(basis["change"].as_f64().unwrap(), change), "{report}");
    assert!(close(r["change"].as_f64().unwrap(), change), "{report}");
    let improvement = r["improvement"].as_f64().unwrap();
    let signed = if direction == "min" { -change } else { change };
    assert!(close(improvement, signed), "{report}");
    // The line: "m VALUE (CHANGE vs VS, WORDS…)".
    let body = line.split_once(": m ").expect("the metric").1;
    let (shown_value, rest) = body.split_once(" (").unwrap();
    let (shown_change, rest) = rest.split_once(" vs ").unwrap();
    let (shown_vs, words) = rest.split_once(", ").unwrap();
    for (shown, truth) in [(shown_value, value), (shown_change, change), (shown_vs, vs)] {
        assert!(
            (parse(shown) - truth).abs() <= half_unit(shown),
            "{shown} is not {truth}: {line}"
        );
    }
    // One sign convention: the change's sign, the words and the JSON's
    // improvement agree.
    let way = words.split([' ', ',']).next().unwrap();
    let expected = match improvement {
        i if i > 0.0 => "better",
        i if i < 0.0 => "worse",
        _ => "no",
    };
    assert_eq!(way, expected, "{line}");
    // The printed sign: "−0.000" for a change that rounds to zero keeps
    // its sign, so read the sign bit, not `< 0`.
    if improvement != 0.0 {
        assert_eq!(
            parse(shown_change).is_sign_negative(),
            change < 0.0,
            "{line}"
        );
    }
    // ρ: this try's own, or "–" under three pairs.
    if n_pairs > 0 {
        let told = format!(
            "paired over {n_pairs} seed{}, \u{3c1} {}",
            if n_pairs == 1 { "" } else { "s" },
            rho.map_or("\u{2013}".to_string(), |x| format!("{x:.2}"))
        );
        assert!(line.contains(&told), "{told} not in {line}");
        if let Some(x) = rho {
            assert!(
                (basis["rho"].as_f64().unwrap() - x).abs() < 1e-9,
                "{report}"
            );
        }
    } else {
        assert!(!line.contains("paired"), "{line}");
    }
    (n_pairs > 0, rho.is_some())
}

/// Play `values` as tries, checking each; the counts of (paired tries,
/// tries with a ρ, keeps, discards).
fn play(sb: &Sandbox, direction: &str, values: &[f64]) -> [usize; 4] {
    let (code, base, _) = try_json(sb, &[]);
    assert_eq!(code, 0, "{base}");
    let mut kept = kept_of(&base);
    let mut seen = [0; 4];
    for (i, v) in values.iter().enumerate() {
        sb.write("value.txt", format!("{v}"));
        let (code, report, err) = try_json(sb, &["-m", &format!("try {i}")]);
        let status = report["ratchet"]["status"]
            .as_str()
            .unwrap_or("")
            .to_string();
        assert!(status == "keep" || status == "discard", "{report} {err}");
        let (paired, rho) = check(&report, &kept, direction);
        seen[0] += paired as usize;
        seen[1] += rho as usize;
        if status == "keep" {
            assert_eq!(code, 0, "{report}");
            seen[2] += 1;
            kept = kept_of(&report);
        } else {
            assert_eq!(code, 1, "{report}");
            seen[3] += 1;
        }
    }
    seen
}

#[test]
fn the_line_shows_the_change_value_vs_and_rho_the_decision_weighed() {
    // Lower is better, paired seeds: early tries decide on one pair ("ρ
    // –"), later ones paired over five with the try's own ρ.
    let sb = repo("min", "seeds = \"paired\"\n", "1");
    let values = [0.99, 1.0, 0.985, 0.97, 1.01, 0.975, 0.95, 0.96, 0.955, 0.94];
    let [paired, rho, keeps, discards] = play(&sb, "min", &values);
    assert!(paired >= 8 && rho >= 2 && rho < paired, "{paired} {rho}");
    assert!(keeps >= 2 && discards >= 2, "{keeps} {discards}");
    // Higher is better, unpaired: the candidate's runs against the best's
    // record.
    let sb = repo("max", "", "1");
    let values = [1.02, 1.0, 1.2, 1.19, 1.4, 1.3];
    let [paired, _, keeps, discards] = play(&sb, "max", &values);
    assert_eq!(paired, 0);
    assert!(keeps >= 2 && discards >= 2, "{keeps} {discards}");
}

#[test]
fn a_same_seed_tie_is_a_discard_exit_1_early_and_late() {
    // No fresh noise: the same value at the same seed is the same run.
    let sb = repo("min", "seeds = \"paired\"\n", "0");
    assert_eq!(try_json(&sb, &[]).0, 0);
    for i in 0..4 {
        // A real gain between ties, so that later ties meet a measured
        // pairing.
        if i == 2 {
            sb.write("value.txt", "0.9");
            let (code, report, _) = try_json(&sb, &["-m", "gain"]);
            assert_eq!(code, 0, "{report}");
        }
        sb.write("notes.txt", format!("tie {i}"));
        let (code, report, _) = try_json(&sb, &["-m", &format!("tie {i}")]);
        assert_eq!(code, 1, "{report}");
        let line = report["line"].as_str().unwrap();
        assert!(line.contains("no change"), "{line}");
        assert_eq!(
            report["ratchet"]["improvement"].as_f64(),
            Some(0.0),
            "{report}"
        );
    }
}
