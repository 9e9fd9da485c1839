//! The short form of the random-kill soak (`bench/soak.sh --quick`): 150
//! tries in 3 lanes, most killed with `kill -9` at a random moment, in a
//! repository with outputs (a tracked results file and an untracked
//! checkpoint), a submodule and a Git LFS file; it fails on
//! any try left stuck, anything lost, or any view (log, status, report,
//! journal verify, git) that disagrees. Needs bash, git-lfs and python3.

use std::path::Path;
use std::process::Command;

use libtest_mimic::{Failed, Trial};

use crate::needs;

pub fn trials() -> Vec<Trial> {
    vec![needs::trial(
        "soak::a_short_random_kill_soak_leaves_nothing_stuck_or_lost",
        soak_needs,
        |_| short_soak(),
    )]
}

/// git-lfs, and a python3 the script's checks run on.
fn soak_needs() -> Result<std::path::PathBuf, String> {
    needs::python_with("json")?;
    needs::git_lfs()
}

fn short_soak() -> Result<(), Failed> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("bench/soak.sh"))
        .arg("--quick")
        .env("ARX", needs::arx())
        .env_remove("ARX_STATE_DIR")
        .output()
        .map_err(|e| Failed::from(format!("bash bench/soak.sh: {e}")))?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if !out.status.success() {
        return Err(format!("the soak failed ({:?}):\n{text}", out.status.code()).into());
    }
    if !text.contains("0 stuck, 0 lost, every view agreeing") {
        return Err(format!("the soak did not say it passed:\n{text}").into());
    }
    eprintln!("{}", text.trim());
    Ok(())
}
