//! The findings store at scale: a maintenance pass and a ranking over
//! 10,000 findings, each beside the all-pairs (or all-documents) scan the
//! index replaces, in one run; and `--write PATH` to write such a store as
//! `.arx/findings.jsonl` for timing the real commands (`bench/finding.sh`).
//!
//! ```sh
//! cargo run --release --example finding_bench               # 10,000 findings
//! cargo run --release --example finding_bench -- --n 20000
//! cargo run --release --example finding_bench -- --write /tmp/s/findings.jsonl
//! ```
//!
//! The store is synthetic and seeded: claims built from 60 subjects, 12
//! verbs (with negations and antonyms, so some claims contradict others),
//! 14 metrics and numbers, at ages spread over two weeks.

use std::io::Write;
use std::time::Instant;

use arx::engine::finding::index::{similarity_to, Index};
use arx::engine::finding::maintain::{maintain, AUDIT_MIN_SIMILARITY};
use arx::engine::finding::rank::{rank, score, MIN_RELEVANCE};
use arx::engine::finding::{Finding, Kind};
use jiff::Timestamp;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const SUBJECTS: &[&str] = &[
    "doubling the learning rate",
    "halving the learning rate",
    "batch size 64",
    "batch size 256",
    "cosine decay",
    "linear warmup",
    "a warmup of 500 steps",
    "gradient clipping at 1.0",
    "weight decay 0.1",
    "dropout 0.1",
    "dropout 0.3",
    "label smoothing",
    "mixed precision",
    "flash attention",
    "rotary embeddings",
    "alibi positions",
    "a larger vocabulary",
    "byte fallback in the tokenizer",
    "deduplicating the corpus",
    "shuffling per epoch",
    "the adamw optimizer",
    "the lion optimizer",
    "sgd with momentum",
    "gradient accumulation",
    "activation checkpointing",
    "tied embeddings",
    "untied embeddings",
    "a deeper model",
    "a wider model",
    "swiglu activations",
    "gelu activations",
    "rmsnorm",
    "layernorm",
    "pre-norm blocks",
    "post-norm blocks",
    "zero init of the output layer",
    "muon updates",
    "ema of the weights",
    "checkpoint averaging",
    "longer context",
    "shorter context",
    "sequence packing",
    "curriculum by length",
    "data mixing with code",
    "filtering short docs",
    "fp8 matmuls",
    "torch compile",
    "fused adam",
    "a larger eval set",
    "seed averaging",
    "stochastic depth",
    "mixture of experts",
    "grouped query attention",
    "sliding windows",
    "qk normalization",
    "logit soft capping",
    "a value residual",
    "u-net skips",
    "embedding scaling",
    "the new data loader",
];
const VERBS: &[&str] = &[
    "improves",
    "does not improve",
    "hurts",
    "helps",
    "does not help",
    "increases",
    "reduces",
    "always improves",
    "never improves",
    "makes faster",
    "makes slower",
    "stabilizes",
];
const METRICS: &[&str] = &[
    "val_bpb",
    "val loss",
    "accuracy",
    "throughput",
    "memory use",
    "training stability",
    "the early loss",
    "calibration",
    "perplexity",
    "recall at 10",
    "tokens per second",
    "gradient norm spikes",
    "eval variance",
    "wall time",
];
const QUALIFIERS: &[&str] = &[
    "on the small model",
    "on the large model",
    "after step 2000",
    "with batch 64",
    "on the code mix",
    "in the first epoch",
    "at 8k context",
    "",
    "",
    "",
];

fn store(n: usize, seed: u64) -> Vec<Finding> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let base: Timestamp = "2026-01-01T00:00:00Z".parse().unwrap();
    let mut out = Vec::with_capacity(n);
    let mut seen = std::collections::HashSet::new();
    while out.len() < n {
        let s = SUBJECTS[rng.random_range(0..SUBJECTS.len())];
        let v = VERBS[rng.random_range(0..VERBS.len())];
        let m = METRICS[rng.random_range(0..METRICS.len())];
        let q = QUALIFIERS[rng.random_range(0..QUALIFIERS.len())];
        let x: f64 = rng.random_range(0.0001..0.05);
        let text = format!("{s} {v} {m} {q} by {x:.4}").replace("  ", " ");
        let at = base
            .checked_add(jiff::SignedDuration::from_secs(
                rng.random_range(0..14 * 86_400),
            ))
            .unwrap()
            .to_string();
        let mut f = Finding::new(
            Kind::ALL[rng.random_range(0..6)],
            &text,
            Some("bench".into()),
            rng.random_range(0.3..0.95),
            &at,
        );
        if !seen.insert(f.id.clone()) {
            continue;
        }
        f.pending = rng.random_range(0.0..1.0) < 0.05;
        f.use_count = rng.random_range(0..4);
        out.push(f);
    }
    out
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn time<T>(reps: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..reps {
        let t = Instant::now();
        let out = f();
        times.push(t.elapsed().as_secs_f64());
        last = Some(out);
    }
    (median(times), last.unwrap())
}

/// The contradiction audit without the index: every pair compared.
fn audit_all_pairs(ix: &Index) -> usize {
    let mut pairs = 0;
    for i in 0..ix.len() {
        for j in i + 1..ix.len() {
            let sim = ix.similarity(i, j);
            if sim >= AUDIT_MIN_SIMILARITY && sim * ix.negation(i, j) > 0.0 {
                pairs += 1;
            }
        }
    }
    pairs
}

/// The contradiction audit through the index (what `maintain` does).
fn audit_index(ix: &Index) -> usize {
    let mut scratch = vec![0.0f32; ix.len()];
    let mut hits = Vec::new();
    let mut pairs = 0;
    for i in 0..ix.len() {
        ix.neighbours(i, AUDIT_MIN_SIMILARITY, &mut scratch, &mut hits);
        pairs += hits
            .iter()
            .filter(|&&(j, _)| ix.negation(i, j) > 0.0)
            .count();
    }
    pairs
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let n: usize = flag("--n").map_or(10_000, |v| v.parse().expect("--n N"));
    let seed: u64 = flag("--seed").map_or(1, |v| v.parse().expect("--seed S"));
    let fs = store(n, seed);
    if let Some(path) = flag("--write") {
        let mut out = std::io::BufWriter::new(std::fs::File::create(path).expect("create"));
        for f in &fs {
            serde_json::to_writer(&mut out, f).unwrap();
            out.write_all(b"\n").unwrap();
        }
        out.flush().unwrap();
        eprintln!("wrote {n} findings to {path}");
        return;
    }
    let now: Timestamp = "2026-01-15T00:00:00Z".parse().unwrap();
    let reps = 5;
    println!("findings: {n} (seed {seed}); medians of {reps} runs\n");

    let (t_pass, pass) = time(reps, || maintain(fs.clone(), now, true));
    let (t_clone, _) = time(reps, || fs.clone());
    println!(
        "maintain (whole pass, index)     {:>9.1} ms   (of which copying the store {:.1} ms)",
        1e3 * t_pass,
        1e3 * t_clone
    );
    println!(
        "  {} reinforced, {} contradictions, {} mutated, {} resolved, {} deprecated",
        pass.reinforced, pass.contradictions, pass.mutated, pass.resolved, pass.deprecated
    );
    let (t_build, ix) = time(reps, || Index::build(fs.iter().map(|f| f.content.as_str())));
    let (t_audit, a) = time(reps, || audit_index(&ix));
    let (t_brute, b) = time(1, || audit_all_pairs(&ix));
    assert_eq!(a, b, "the index and the all-pairs scan find the same pairs");
    println!("index build                      {:>9.1} ms", 1e3 * t_build);
    println!(
        "contradiction audit, index       {:>9.1} ms   ({a} contradicting pairs)",
        1e3 * t_audit
    );
    println!(
        "contradiction audit, all pairs   {:>9.1} ms   ({:.1}x slower; one run)",
        1e3 * t_brute,
        t_brute / t_audit
    );

    let contexts = [
        "raise the learning rate for the small model",
        "does flash attention save memory",
        "tokenizer vocabulary and byte fallback",
        "warmup and the early loss",
    ];
    let (t_rank, hits) = time(reps, || {
        let ix = Index::build(fs.iter().map(|f| f.content.as_str()));
        contexts
            .iter()
            .map(|c| rank(&fs, &ix, c, now, 10).len())
            .sum::<usize>()
    });
    let (t_query, _) = time(reps, || {
        contexts
            .iter()
            .map(|c| rank(&fs, &ix, c, now, 10).len())
            .sum::<usize>()
    });
    let (t_scan, scan_hits) = time(reps, || {
        contexts
            .iter()
            .map(|c| {
                let (v, _) = ix.vector(c);
                let mut all: Vec<(usize, f64)> = (0..fs.len())
                    .filter(|&d| fs[d].is_live())
                    .map(|d| (d, similarity_to(&ix, &v, d)))
                    .filter(|&(_, r)| r >= MIN_RELEVANCE)
                    .map(|(d, r)| (d, score(&fs[d], r, now).score))
                    .collect();
                all.sort_by(|a, b| b.1.total_cmp(&a.1));
                all.truncate(10);
                all.len()
            })
            .sum::<usize>()
    });
    assert_eq!(hits, scan_hits);
    let per = contexts.len() as f64;
    println!(
        "rank (index build + query)       {:>9.2} ms per context",
        1e3 * t_rank / per
    );
    println!(
        "rank query, postings             {:>9.3} ms per context",
        1e3 * t_query / per
    );
    println!(
        "rank query, scan of every finding{:>9.3} ms per context ({:.1}x slower)",
        1e3 * t_scan / per,
        t_scan / t_query
    );
}
