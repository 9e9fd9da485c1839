//! Times the ratchet's git operations on a repository, for
//! `bench/ratchet.sh`:
//!
//! ```sh
//! cargo run --release --example ratchet_git_bench -- REPO keep [--kept COMMIT]
//! cargo run --release --example ratchet_git_bench -- REPO discard --kept COMMIT [--ref REF]
//! ```
//!
//! `keep` commits the working tree's changes (as `arx try` keeps a
//! candidate); `discard` sets them aside under `--ref` (default
//! `refs/arx/discarded/bench`) and puts the branch and working tree back to
//! `--kept`. With `--kept`, `keep` first reads the candidate relative to it,
//! as the command does before running the experiment. The state directory
//! is `REPO/.arx`. Prints the elapsed time in milliseconds, from opening
//! the repository to the end of the operation.

use std::path::PathBuf;
use std::time::Instant;

use arx::io::git::ratchet::RatchetRepo;

fn main() {
    if let Err(e) = run() {
        eprintln!("ratchet_git_bench: {e:#}");
        std::process::exit(2);
    }
}

fn run() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: ratchet_git_bench REPO keep|discard [--kept COMMIT] [--ref REF]";
    let repo_path = PathBuf::from(args.next().ok_or_else(|| anyhow::anyhow!(usage))?);
    let op = args.next().ok_or_else(|| anyhow::anyhow!(usage))?;
    let mut kept = None;
    let mut refname = "refs/arx/discarded/bench".to_string();
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .ok_or_else(|| anyhow::anyhow!("{flag} needs a value"))?;
        match flag.as_str() {
            "--kept" => kept = Some(value),
            "--ref" => refname = value,
            _ => anyhow::bail!("unknown flag {flag}; {usage}"),
        }
    }
    let start = Instant::now();
    let repo = RatchetRepo::open(&repo_path, &repo_path.join(".arx"))?;
    let detail = match op.as_str() {
        "keep" => {
            let paths = match &kept {
                Some(k) => repo.candidate(k)?.paths.len(),
                None => 0,
            };
            let commit = repo.keep("Benchmark keep")?;
            format!("kept {commit} (candidate of {paths} paths read first)")
        }
        "discard" => {
            let kept = kept.ok_or_else(|| anyhow::anyhow!("discard needs --kept COMMIT"))?;
            let snapshot = repo.snapshot(&refname, "Benchmark discard")?;
            let restored = repo.restore_to(&kept)?;
            format!(
                "set aside as {snapshot}; restored {}, removed {}",
                restored.restored.len(),
                restored.removed.len()
            )
        }
        _ => anyhow::bail!("unknown operation {op}; {usage}"),
    };
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    println!("{op} {ms:.1} ms: {detail}");
    Ok(())
}
