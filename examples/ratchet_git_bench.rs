//! Times the ratchet's git operations on a repository, for
//! `bench/ratchet.sh`:
//!
//! ```sh
//! cargo run --release --example ratchet_git_bench -- REPO OPERATION [--kept COMMIT] [--ref REF]
//! ```
//!
//! Operations:
//! - `keep`: commit the working tree's changes (`keep`).
//! - `discard --kept K`: set them aside under `--ref` (default
//!   `refs/arx/discarded/bench`) with `snapshot`, then put the branch and
//!   working tree back to `K` with `restore_to`.
//! - `try-keep --kept K`, `try-discard --kept K`: a whole iteration's git
//!   work: the candidate relative to `K` read first (as the command does
//!   before running the experiment), then `keep_candidate` (the paths that
//!   read found, as `arx try` keeps), or `discard` (snapshot and restore in
//!   one call).
//!
//! The state directory is `REPO/.arx`. Prints the elapsed time in
//! milliseconds, from opening the repository to the end of the operation.

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
    let usage = "usage: ratchet_git_bench REPO keep|discard|try-keep|try-discard [--kept COMMIT] [--ref REF]";
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
    let kept = || {
        kept.clone()
            .ok_or_else(|| anyhow::anyhow!("{op} needs --kept COMMIT"))
    };
    let detail = match op.as_str() {
        "keep" => format!("kept {}", repo.keep("Benchmark keep")?),
        "try-keep" => {
            let candidate = repo.candidate(&kept()?)?;
            let commit = repo.keep_candidate(&candidate, "Benchmark keep")?;
            format!("kept {commit} ({} paths)", candidate.paths.len())
        }
        "discard" => {
            let snapshot = repo.snapshot(&refname, "Benchmark discard")?;
            let restored = repo.restore_to(&kept()?)?;
            format!(
                "set aside as {snapshot}; restored {}, removed {}",
                restored.restored.len(),
                restored.removed.len()
            )
        }
        "try-discard" => {
            let kept = kept()?;
            let candidate = repo.candidate(&kept)?;
            let (snapshot, restored) = repo.discard(&kept, &refname, "Benchmark discard")?;
            format!(
                "set aside as {snapshot} ({} paths); restored {}, removed {}",
                candidate.paths.len(),
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
