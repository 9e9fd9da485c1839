//! Writes a synthetic run journal for `bench/report.sh`: one ratchet
//! segment of `arx try` records (a baseline, then keeps, discards and
//! crashes, as a night of runs leaves them) with a plain `arx run` record
//! every tenth line. Records are built as `RunRecord`s and serialized as
//! arx writes them, with realistic output tails.
//!
//! ```sh
//! cargo run --release --example report_journal -- 1000000 /tmp/j/journal.jsonl [SEGMENT [COMMIT [FAMILIES]]]
//! ```
//!
//! SEGMENT is the segment id the tries carry (an objective's, for `arx
//! status`); COMMIT, when given, is the commit every keep (and the
//! baseline) names, so that `arx try --dry-run` finds it in a repository.
//! FAMILIES, when given and above 0, gives each try a family of that many
//! (`f00`, `f01`, …) and an idea of 5,000 (as `arx try --idea` records
//! them), for `bench/next_ideas.sh`.

use std::io::{BufWriter, Write};

use arx::kernel::contract::{MetricSpec, Metrics};
use arx::kernel::failure::FailureClass;
use arx::kernel::journal::{GitState, RunRecord};
use arx::kernel::segment::{RatchetInfo, TryStatus};
use arx::kernel::stats::Direction;
use arx::kernel::verdict::{EvidenceLevel, Verdict, VerdictRecord};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map_or(Ok(1_000_000), |s| s.parse())?;
    let path = args.get(2).map_or("journal.jsonl", String::as_str);
    let segment = args.get(3).map_or("5eb1c0d2a1b2c3d4", String::as_str);
    let real_commit = args.get(4).cloned().filter(|c| !c.is_empty());
    let families: usize = args.get(5).map_or(Ok(0), |s| s.parse())?;
    let mut out = BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let start = jiff::Timestamp::from_second(1_790_000_000)?;
    let mut best = 1.0f64;
    let mut kept = real_commit.clone().unwrap_or_else(|| "a".repeat(40));
    for i in 0..n {
        let at = start + jiff::SignedDuration::from_secs(i as i64 * 30);
        let ended = at + jiff::SignedDuration::from_secs(29);
        let run_id = format!("019{:05x}-{:04x}-7000-8000-{:012x}", i >> 16, i & 0xffff, i);
        let head = format!("{:040x}", i as u128 * 2_654_435_761);
        let noise: f64 = rng.random_range(-0.01..0.01);
        let mut record = RunRecord {
            run_id: run_id.clone(),
            started_at: at.to_string(),
            ended_at: ended.to_string(),
            duration_ms: 29_000 + rng.random_range(0..1000),
            command: vec!["uv".into(), "run".into(), "train.py".into()],
            shell: false,
            cwd: "/home/me/autoresearch".into(),
            host: Some("gpu-box".into()),
            git: Some(GitState {
                head: Some(head.clone()),
                branch: Some("autoresearch/nov23".into()),
                dirty: true,
            }),
            hypothesis: None,
            approach_hash: None,
            candidate: None,
            tags: vec![],
            state: None,
            state_fingerprint: None,
            spec: None,
            metrics: Metrics::new(),
            result_format: None,
            exit_code: 0,
            timed_out: false,
            interrupted: false,
            stopped_on_result: false,
            failure_class: FailureClass::None,
            verdict: None,
            stdout_tail: format!(
                "step 950 | loss 1.0{i:04} | lr 3e-4\nstep 1000 | val_bpb {best:.6} | mfu 39.2%\n__RESULT__ {{\"val_bpb\": {:.6}, \"peak_vram_mb\": 44000}}\n",
                best + noise
            ),
            stderr_tail: String::new(),
            attempts: vec![],
            samples: vec![],
            summary: None,
            interval: None,
            more_runs: None,
            ratchet: None,
            status: None,
            pruned: None,
            progress: None,
            slot: None,
            job_id: None,
        };
        if i % 10 == 9 {
            // A plain `arx run` of a candidate with a metric spec.
            let v = 0.8 + rng.random_range(0.0..0.2);
            record.candidate = Some(format!("cand-{}", i % 7));
            record.spec = Some(MetricSpec {
                metric_key: "acc".into(),
                comparator: ">=".parse().map_err(anyhow::Error::msg)?,
                target: 0.9,
            });
            record.metrics = Metrics::from_pairs(vec![("acc".into(), v)]);
            let supported = v >= 0.9;
            record.verdict = Some(VerdictRecord {
                verdict: if supported {
                    Verdict::Supported
                } else {
                    Verdict::Refuted
                },
                strategy: "deterministic".into(),
                evidence_level: EvidenceLevel::Deterministic,
                detail: format!(
                    "acc={v} >= 0.9 → {}",
                    if supported { "pass" } else { "fail" }
                ),
                raw_evidence_ref: None,
            });
        } else {
            let roll: f64 = rng.random();
            let (status, value) = if i == 0 {
                (TryStatus::Baseline, Some(1.0))
            } else if roll < 0.05 {
                (TryStatus::Crash, None)
            } else {
                let v = best + rng.random_range(-0.0002..0.002);
                if v < best - 0.0001 {
                    (TryStatus::Keep, Some(v))
                } else {
                    (TryStatus::Discard, Some(v))
                }
            };
            if let Some(v) = value {
                record.metrics = Metrics::from_pairs(vec![
                    ("val_bpb".into(), v),
                    ("peak_vram_mb".into(), 44_000.0),
                ]);
            } else {
                record.exit_code = 1;
                record.failure_class = FailureClass::H4;
                record.stderr_tail = "Traceback (most recent call last):\n  File \"train.py\", line 12\nRuntimeError: CUDA out of memory\n".into();
            }
            let improvement = value.map(|v| best - v);
            let commit = match status {
                TryStatus::Keep => {
                    kept = real_commit.clone().unwrap_or_else(|| head.clone());
                    Some(kept.clone())
                }
                TryStatus::Baseline => None,
                _ => Some(format!("{:040x}", i as u128 * 31)),
            };
            record.ratchet = Some(RatchetInfo {
                description: Some(format!("try {i}: tweak the learning-rate schedule")),
                commit,
                discarded_ref: (status == TryStatus::Discard)
                    .then(|| format!("refs/arx/discarded/{run_id}")),
                paths: vec!["train.py".into()],
                best: Some(best),
                improvement,
                noise: Some(0.003),
                idea: (families > 0).then(|| format!("i-{:010x}", i % 5000)),
                family: (families > 0).then(|| format!("f{:02}", i % families)),
                parent: (families > 0).then(|| kept.clone()),
                ..RatchetInfo::new(
                    segment.into(),
                    status,
                    "val_bpb".into(),
                    Direction::Min,
                    "confirm".into(),
                    kept.clone(),
                )
            });
            if let (TryStatus::Keep, Some(v)) = (status, value) {
                best = v;
            }
        }
        serde_json::to_writer(&mut out, &record)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}
