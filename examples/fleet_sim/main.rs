//! A fleet of machines sharing one ratchet through a git remote, against
//! one machine and against the rules other tools use, at equal wall time.
//!
//! ```sh
//! cargo run --release --example fleet_sim              # full (BENCHMARKS.md)
//! cargo run --release --example fleet_sim -- --quick   # a few nights per cell: a check
//! cargo run --release --example fleet_sim -- --trials 50 --seed 7
//! cargo run --release --example fleet_sim -- --machines 4   # one size, at 1σ
//! cargo run --release --example fleet_sim -- --machines 4 --rule confirm
//! cargo run --release --example fleet_sim -- --machines 4 --full-remeasure
//! cargo run --release --example fleet_sim -- --machines 4 --replay-from-scratch
//! cargo run --release --example fleet_sim -- --machines 4 --no-peers --keep-runs-guarded
//! ```
//!
//! Model. A night is [`world::NIGHT`] run-lengths of wall time; every
//! machine that is up does one run per run-length. Machines come in up to
//! four hardware classes; a class adds a fixed offset to every loss it
//! measures, drawn per night from N(0, s²) for s = 0, 1 or 3σ of one run.
//! Machines die (0.2% a run-length, down for 20) and the change a dead
//! machine claimed goes back to the backlog when its lease runs out. A
//! best that moves on the remote is seen by the other machines `delay`
//! run-lengths later (0: at their next run, as lanes on one machine). The
//! changes are the ratchet simulation's `rich` stream (20% improvements
//! U(0.5, 3)σ, 10% regressions, 70% null), each touching one of ten files.
//! Every decision goes through `arx::kernel::ratchet::next_step` (arx's
//! default rule, `sequential`; `--rule confirm` plays the other) and every
//! comparison across classes through `arx::kernel::slot_offset`, the code
//! `arx try` runs. See `sim.rs` for each rule. A replayed candidate keeps
//! its runs, moved by the difference of the two bests, and is kept only
//! with 3 runs of its own on the new best that beat it, as `arx try` does
//! under `sequential` (`--replay-from-scratch`: measured again from
//! nothing, as arx did before; `--keep-runs`: no runs of its own needed;
//! `--keep-runs-fresh N`: N of them; `--keep-runs-guarded`: runs kept
//! only where the old best has as many runs on the class as the new). At 4 machines a
//! row plays 4 lanes of one machine under the same rule (one class, no
//! offsets, down together): the yardstick the issue's target at 4
//! machines names. Each table is followed by where the
//! machine-time of each arx row went (`sim::Use`: the baseline,
//! re-measuring the best on a class, candidates discarded and kept, keeps
//! replayed after a lost race, candidates replayed as the best moved,
//! stale replays, dead machines, confirmations, idle).
//!
//! Reported: the true improvement of the best at the end (σ), against one
//! machine at equal wall time and per GPU-hour (machine-time up), keeps
//! and false keeps (null or harmful changes kept) per true keep, keeps of
//! improvements lost (not in the final best), replays and stale discards,
//! runs thrown away, and the serial share: the share of the night the
//! best is held while a keep confirms against it.

use std::sync::atomic::Ordering;
use std::time::Instant;

mod sim;
mod world;

use sim::{play, Outcome, Rule, Use};
use world::{world, Scenario};

/// Base seed (overridable with `--seed`): "arxfleet".
const SEED: u64 = 0x6172_7866_6c65_6574;
/// Target at 4 machines and 1σ class offsets: true improvement per
/// GPU-hour at least this share of one machine's (≥ 0.8 × N at equal wall
/// time).
const SHARE_AT_4: f64 = 0.8;

struct Args {
    quick: bool,
    trials: Option<u64>,
    seed: u64,
    /// `--machines N`: only fleets of N machines, at 1σ (a diagnosis).
    only: Option<usize>,
    /// `--no-peers`: with `--machines 4`, arx's rows only.
    no_peers: bool,
}

fn usage(arg: &str) -> ! {
    eprintln!("fleet_sim: bad argument {arg:?}");
    eprintln!(
        "usage: fleet_sim [--quick] [--no-peers] [--trials N] [--seed N] [--machines N] [--rule confirm|sequential] [--full-remeasure] [--replay-from-scratch] [--keep-runs] [--keep-runs-guarded] [--keep-runs-fresh N] [--queue-confidence X]"
    );
    std::process::exit(2)
}

fn parse_args() -> Args {
    let mut a = Args {
        quick: false,
        trials: None,
        seed: SEED,
        only: None,
        no_peers: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || -> u64 {
            let v = args.next().unwrap_or_else(|| usage(&arg));
            v.parse().unwrap_or_else(|_| usage(&arg))
        };
        match arg.as_str() {
            "--quick" => a.quick = true,
            "--no-peers" => a.no_peers = true,
            "--trials" => a.trials = Some(value().max(1)),
            "--seed" => a.seed = value(),
            "--full-remeasure" => sim::FULL_REMEASURE.store(true, Ordering::Relaxed),
            "--keep-runs" => {
                sim::KEEP_RUNS.store(true, Ordering::Relaxed);
                sim::KEEP_RUNS_FRESH.store(0, Ordering::Relaxed);
            }
            "--keep-runs-fresh" => {
                let n = value().max(1) as u32;
                sim::KEEP_RUNS.store(true, Ordering::Relaxed);
                sim::KEEP_RUNS_FRESH.store(n, Ordering::Relaxed);
            }
            "--replay-from-scratch" => sim::KEEP_RUNS.store(false, Ordering::Relaxed),
            "--keep-runs-guarded" => {
                sim::KEEP_RUNS.store(true, Ordering::Relaxed);
                sim::KEEP_RUNS_GUARDED.store(true, Ordering::Relaxed);
            }
            "--rule" => match args.next().as_deref() {
                Some("sequential") => {}
                Some("confirm") => sim::CONFIRM.store(true, Ordering::Relaxed),
                _ => usage(&arg),
            },
            "--queue-confidence" => {
                let c: f64 = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|c| (0.5..1.0).contains(c))
                    .unwrap_or_else(|| usage(&arg));
                sim::QUEUE_PERMILLE.store((c * 1000.0).round() as u32, Ordering::Relaxed);
            }
            "--machines" => a.only = Some(value().max(2) as usize),
            _ => usage(&arg),
        }
    }
    a
}

/// Nights per cell: fewer as the fleet grows (a night of 100 machines
/// tries ~100 times the changes of one).
fn trials(args: &Args, machines: usize) -> u64 {
    let full = match machines {
        1 => 400,
        4 => 200,
        16 => 60,
        _ => 16,
    };
    let quick = match machines {
        1 => 40,
        4 => 16,
        16 => 4,
        _ => 1,
    };
    let base = if args.quick { quick } else { full };
    args.trials.map_or(base, |t| (t * base / full).max(1))
}

fn trial_seed(seed: u64, salt: u64, k: u64) -> u64 {
    seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k.wrapping_mul(0xD1B5_4A32_D192_ED03)
}

/// Means over the nights.
fn mean_of(outs: &[Outcome]) -> Outcome {
    let n = outs.len() as f64;
    let mut s = Outcome::default();
    for o in outs {
        s.gain += o.gain / n;
        s.gpu += o.gpu / n;
        s.runs += o.runs / n;
        s.tried += o.tried / n;
        s.true_keeps += o.true_keeps / n;
        s.false_keeps += o.false_keeps / n;
        s.lost += o.lost / n;
        s.replays += o.replays / n;
        s.stale += o.stale / n;
        s.wasted += o.wasted / n;
        s.remeasure += o.remeasure / n;
        s.serial += o.serial / n;
        s.batches += o.batches / n;
        s.failed_batches += o.failed_batches / n;
        s.failed_batch_runs += o.failed_batch_runs / n;
        for (a, b) in s.by_use.iter_mut().zip(&o.by_use) {
            *a += b / n;
        }
    }
    s
}

/// One cell: `rule` over the nights of `sc`.
fn cell(args: &Args, sc: Scenario, rule: Rule) -> Outcome {
    let salt = sc.machines as u64 * 1000 + (sc.class_sd * 10.0) as u64;
    let outs: Vec<Outcome> = (0..trials(args, sc.machines))
        .map(|k| {
            let seed = trial_seed(args.seed, salt, k);
            let w = world(&sc, seed);
            play(&w, sc, rule, seed ^ 0x5eed)
        })
        .collect();
    mean_of(&outs)
}

fn false_per_true(o: &Outcome) -> f64 {
    o.false_keeps / o.true_keeps.max(f64::MIN_POSITIVE)
}

/// True improvement per GPU-hour, as a share of one machine's.
fn per_gpu(o: &Outcome, one: &Outcome) -> f64 {
    (o.gain / o.gpu) / (one.gain / one.gpu)
}

const HEADER: &str = "| machines | rule | true improvement (σ) | vs 1 machine | per GPU-hour vs 1 machine | true keeps | false keeps per true keep | improvements lost | replays | stale | runs thrown away | runs re-measuring the best | serial share | batches (failed) | candidates tried |\n|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";

fn row(machines: usize, rule: Rule, o: &Outcome, one: &Outcome) -> String {
    labelled(machines, rule.label(), o, one)
}

/// The label of the row of `n` lanes on one machine.
const LANES: &str = "arx lanes on one machine: one class, no offsets (the issue's yardstick)";

fn labelled(machines: usize, label: &str, o: &Outcome, one: &Outcome) -> String {
    let batches = if o.batches > 0.0 {
        format!("{:.1} ({:.1})", o.batches, o.failed_batches)
    } else {
        String::new()
    };
    format!(
        "| {machines} | {label} | {:.2} | {:.2}x | {:.2} | {:.1} | {:.3} | {:.1} | {:.1} | {:.1} | {:.1}% | {:.1}% | {:.0}% | {batches} | {:.0} |",
        o.gain,
        o.gain / one.gain,
        per_gpu(o, one),
        o.true_keeps,
        false_per_true(o),
        o.lost,
        o.replays,
        o.stale,
        100.0 * o.wasted / o.runs,
        100.0 * o.remeasure / o.runs,
        100.0 * o.serial,
        o.tried,
    )
}

const PEERS: [Rule; 3] = [Rule::Hub, Rule::ReadWrite, Rule::Orchestrator];
const ARX: [Rule; 2] = [Rule::Fleet, Rule::Batched];

/// The main table at one class offset: every rule at 4, 16 and 100
/// machines, against one machine; returns whether the targets hold.
fn scaling(args: &Args, class_sd: f64, sizes: &[usize]) -> bool {
    let sc = |machines| Scenario {
        machines,
        class_sd,
        delay: 0,
        deaths: true,
        interact: 0.0,
        lanes: false,
    };
    let one = cell(args, sc(1), Rule::Fleet);
    println!("\n### Class offsets N(0, {class_sd}σ²), machines die, no delay\n");
    println!("{HEADER}");
    println!("{}", row(1, Rule::Fleet, &one, &one));
    let mut ok = true;
    let mut checks = Vec::new();
    let mut rows = Vec::new();
    for &n in sizes {
        let arx: Vec<Outcome> = ARX.iter().map(|&r| cell(args, sc(n), r)).collect();
        rows.extend(ARX.iter().zip(&arx).map(|(&r, &o)| (n, r.label(), o)));
        let peers: Vec<Outcome> = if args.no_peers && n == 4 {
            Vec::new()
        } else {
            PEERS.iter().map(|&r| cell(args, sc(n), r)).collect()
        };
        // What lanes on one machine reach under the same rule, where the
        // target at 4 machines is set ("as lanes reach on one machine").
        let lanes = (n == 4).then(|| {
            let sc = Scenario {
                lanes: true,
                class_sd: 0.0,
                ..sc(n)
            };
            cell(args, sc, Rule::Fleet)
        });
        if let Some(l) = &lanes {
            rows.push((n, LANES, *l));
            println!("{}", labelled(n, LANES, l, &one));
            checks.push(format!(
                "{n} machines against {n} lanes on one machine, one keep at a time: {:.2} of the lanes' true improvement per GPU-hour (lanes {:.2} of 1 machine, the fleet {:.2})",
                per_gpu(&arx[0], l),
                per_gpu(l, &one),
                per_gpu(&arx[0], &one),
            ));
        }
        for (r, o) in ARX.iter().zip(&arx).chain(PEERS.iter().zip(&peers)) {
            println!("{}", row(n, *r, o, &one));
        }
        for (r, o) in ARX.iter().zip(&arx) {
            let (pass, text) = check(n, class_sd, o, &one, &peers);
            if *r == Rule::Batched || n == 4 {
                ok &= pass || (n == 4 && class_sd != 1.0);
            }
            checks.push(format!("{n} machines, {}: {text}", r.label()));
        }
    }
    println!();
    for c in checks {
        println!("- {c}");
    }
    uses(&one, &rows);
    ok
}

/// Where the machine-time of each arx row went, as shares of it.
fn uses(one: &Outcome, rows: &[(usize, &str, Outcome)]) {
    println!("\nWhere the machine-time goes (share of the GPU-hours of each row):\n");
    let mut head = String::from("| machines | rule |");
    let mut rule = String::from("|---:|---|");
    for u in Use::ALL {
        head.push_str(&format!(" {} |", u.label()));
        rule.push_str("---:|");
    }
    println!("{head}\n{rule}");
    let all = std::iter::once((1, Rule::Fleet.label(), *one)).chain(rows.iter().copied());
    for (n, label, o) in all {
        let mut line = format!("| {n} | {label} |");
        for u in Use::ALL {
            line.push_str(&format!(" {:.1}% |", 100.0 * o.by_use[u as usize] / o.gpu));
        }
        println!("{line}");
    }
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "PASS"
    } else {
        "FAIL"
    }
}

/// The targets of one arx row.
fn check(n: usize, class_sd: f64, o: &Outcome, one: &Outcome, peers: &[Outcome]) -> (bool, String) {
    let share = per_gpu(o, one);
    let fpt = (false_per_true(o), false_per_true(one));
    let fk = fpt.0 <= fpt.1;
    if n == 4 {
        let pass = share >= SHARE_AT_4 && fk;
        let target = if class_sd == 1.0 {
            ""
        } else {
            " (the target is at 1σ)"
        };
        return (
            pass,
            format!(
                "{} per GPU-hour ≥ {SHARE_AT_4} of 1 machine ({share:.2}, {:.2}x at equal wall time){target}; {} false keeps per true keep ≤ 1 machine ({:.3} vs {:.3})",
                verdict(share >= SHARE_AT_4),
                o.gain / one.gain,
                verdict(fk),
                fpt.0,
                fpt.1
            ),
        );
    }
    let mut pass = fk;
    let mut parts = Vec::new();
    for (r, p) in PEERS.iter().zip(peers) {
        let beats = o.gain / o.gpu > p.gain / p.gpu;
        pass &= beats;
        parts.push(format!(
            "{} more per GPU-hour than {} ({:.2}x)",
            verdict(beats),
            r.label(),
            (o.gain / o.gpu) / (p.gain / p.gpu)
        ));
    }
    parts.push(format!(
        "{} false keeps per true keep ≤ 1 machine ({:.3} vs {:.3})",
        verdict(fk),
        fpt.0,
        fpt.1
    ));
    (pass, parts.join("; "))
}

/// Network delay and batches whose changes interact, at 16 machines.
fn stress(args: &Args) {
    println!("\n### Stress at 16 machines, class offsets N(0, 1σ²), machines die\n");
    println!("| setting | rule | true improvement (σ) | vs 1 machine | per GPU-hour vs 1 machine | false keeps per true keep | replays | stale | runs thrown away | serial share | batches (failed) | runs in failed batches |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let base = Scenario {
        machines: 16,
        class_sd: 1.0,
        delay: 0,
        deaths: true,
        interact: 0.0,
        lanes: false,
    };
    let one = cell(
        args,
        Scenario {
            machines: 1,
            ..base
        },
        Rule::Fleet,
    );
    let settings = [
        (
            "a best seen 1 run-length late",
            Scenario { delay: 1, ..base },
        ),
        (
            "a best seen 3 run-lengths late",
            Scenario { delay: 3, ..base },
        ),
        (
            "20% of batches interact",
            Scenario {
                interact: 0.2,
                ..base
            },
        ),
        (
            "50% of batches interact",
            Scenario {
                interact: 0.5,
                ..base
            },
        ),
        (
            "no machine dies",
            Scenario {
                deaths: false,
                ..base
            },
        ),
    ];
    for (label, sc) in settings {
        for r in ARX {
            if r == Rule::Fleet && sc.interact > 0.0 {
                continue;
            }
            let o = cell(args, sc, r);
            let batches = if o.batches > 0.0 {
                format!("{:.1} ({:.1})", o.batches, o.failed_batches)
            } else {
                String::new()
            };
            println!(
                "| {label} | {} | {:.2} | {:.2}x | {:.2} | {:.3} | {:.1} | {:.1} | {:.1}% | {:.0}% | {batches} | {:.1} |",
                r.label(),
                o.gain,
                o.gain / one.gain,
                per_gpu(&o, &one),
                false_per_true(&o),
                o.replays,
                o.stale,
                100.0 * o.wasted / o.runs,
                100.0 * o.serial,
                o.failed_batch_runs
            );
        }
    }
}

fn main() {
    let args = parse_args();
    let started = Instant::now();
    println!(
        "## Fleet simulation ({} mode, the `{}` rule{}{}, seed {}; nights per cell: 1 machine {}, 4: {}, 16: {}, 100: {})",
        if args.quick { "quick" } else { "full" },
        sim::ratchet_rule().name(),
        match (
            sim::FULL_REMEASURE.load(Ordering::Relaxed),
            sim::KEEP_RUNS.load(Ordering::Relaxed) && !sim::CONFIRM.load(Ordering::Relaxed),
        ) {
            (false, false) => ", replays measured from scratch",
            (true, false) => ", full remeasures, replays measured from scratch",
            (false, true) => ", replays keep their runs",
            (true, true) => ", full remeasures, replays keep their runs",
        },
        match (
            sim::KEEP_RUNS_GUARDED.load(Ordering::Relaxed),
            sim::KEEP_RUNS_FRESH.load(Ordering::Relaxed),
        ) {
            (true, _) => " (only where the old best has as many runs as the new)".to_string(),
            (false, n @ 1..) => format!(
                " (kept only with {n} runs or more on the new best, leaning better too)"
            ),
            (false, 0) => String::new(),
        },
        args.seed,
        trials(&args, 1),
        trials(&args, 4),
        trials(&args, 16),
        trials(&args, 100)
    );
    if let Some(n) = args.only {
        let ok = scaling(&args, 1.0, &[n]);
        println!("\nTotal run time: {:.2} s", started.elapsed().as_secs_f64());
        std::process::exit(i32::from(!ok));
    }
    let mut ok = scaling(&args, 1.0, &[4, 16, 100]);
    for sd in [0.0, 3.0] {
        ok &= scaling(&args, sd, &[4, 16]);
    }
    stress(&args);
    println!("\nTotal run time: {:.2} s", started.elapsed().as_secs_f64());
    if !ok {
        eprintln!("fleet_sim: a target was missed");
        std::process::exit(1);
    }
}
