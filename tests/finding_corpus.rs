//! The contradiction audit on a hand-written corpus
//! (`fixtures/finding/contradictions.tsv`): contradictions, paraphrases,
//! compatible claims on one topic, unrelated pairs. Precision and recall
//! are printed (`cargo test --test finding_corpus -- --nocapture`) and
//! held to a floor, so a change to the tokenizer, the stop words, the
//! negation words or the antonym pairs that makes the audit worse fails.

use arx::engine::finding::index::Index;
use arx::engine::finding::maintain::MUTATE_TENSION;

struct Pair {
    label: String,
    a: String,
    b: String,
}

fn corpus() -> Vec<Pair> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/finding/contradictions.tsv"
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split('\t');
            Pair {
                label: parts.next().unwrap().into(),
                a: parts.next().unwrap().into(),
                b: parts.next().unwrap().into(),
            }
        })
        .collect()
}

/// Contradiction scores of every pair, over one index of the whole corpus
/// (as the store would hold them).
fn scores(pairs: &[Pair]) -> Vec<f64> {
    let texts: Vec<&str> = pairs
        .iter()
        .flat_map(|p| [p.a.as_str(), p.b.as_str()])
        .collect();
    let ix = Index::build(texts);
    (0..pairs.len())
        .map(|i| ix.similarity(2 * i, 2 * i + 1) * ix.negation(2 * i, 2 * i + 1))
        .collect()
}

#[test]
fn contradiction_audit_precision_and_recall_on_the_corpus() {
    let pairs = corpus();
    assert!(pairs.len() >= 40, "{} pairs", pairs.len());
    let s = scores(&pairs);
    for (p, score) in pairs.iter().zip(&s) {
        println!("{score:.3}  {:<13} {} | {}", p.label, p.a, p.b);
    }
    let threshold = MUTATE_TENSION;
    let (mut tp, mut fp, mut fneg) = (0, 0, 0);
    for (p, &score) in pairs.iter().zip(&s) {
        let predicted = score >= threshold;
        let actual = p.label == "contradiction";
        match (predicted, actual) {
            (true, true) => tp += 1,
            (true, false) => fp += 1,
            (false, true) => fneg += 1,
            _ => {}
        }
    }
    let precision = tp as f64 / (tp + fp).max(1) as f64;
    let recall = tp as f64 / (tp + fneg).max(1) as f64;
    println!(
        "pairs {}  contradictions {}  at tension >= {threshold}: precision {precision:.3} recall {recall:.3} (tp {tp}, fp {fp}, fn {fneg})",
        pairs.len(),
        tp + fneg
    );
    // Any contradiction signal at all (tension > 0), the looser reading.
    let flagged = |p: &Pair, &score: &f64| (score > 0.0, p.label == "contradiction");
    let loose: Vec<(bool, bool)> = pairs.iter().zip(&s).map(|(p, x)| flagged(p, x)).collect();
    let ltp = loose.iter().filter(|&&(p, a)| p && a).count();
    let lfp = loose.iter().filter(|&&(p, a)| p && !a).count();
    let lfn = loose.iter().filter(|&&(p, a)| !p && a).count();
    println!(
        "at tension > 0: precision {:.3} recall {:.3} (tp {ltp}, fp {lfp}, fn {lfn})",
        ltp as f64 / (ltp + lfp).max(1) as f64,
        ltp as f64 / (ltp + lfn).max(1) as f64
    );
    assert!(precision >= 0.95, "precision {precision:.3}");
    assert!(recall >= 0.85, "recall {recall:.3}");
}

#[test]
fn the_required_pair_is_a_contradiction_and_paraphrases_are_not() {
    let pairs = corpus();
    let s = scores(&pairs);
    let required = pairs
        .iter()
        .position(|p| {
            p.a == "batch size 64 always improves accuracy"
                && p.b == "batch size 64 never improves accuracy"
        })
        .expect("the required pair is in the corpus");
    assert!(s[required] >= MUTATE_TENSION, "{}", s[required]);
    for (p, score) in pairs.iter().zip(&s) {
        if p.label == "paraphrase" {
            assert_eq!(*score, 0.0, "{} | {}", p.a, p.b);
        }
    }
}
