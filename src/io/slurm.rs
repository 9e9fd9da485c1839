//! Slurm, for experiments started through `srun`: the job id of a named
//! job (`squeue`) and cancelling a job by name (`scancel`). Both are best
//! effort: Slurm's own tools answer, or nothing is known.

use std::process::{Command, Stdio};

/// The id of the job named `name` that is in the queue, if any, other
/// than those in `skip` (earlier jobs of the same name, still completing).
pub fn job_id(name: &str, skip: &[String]) -> Option<String> {
    let out = Command::new("squeue")
        .args(["--noheader", "--format=%i", "--name", name])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !skip.iter().any(|s| s == l))
        .map(str::to_string)
}

/// Cancel every job named `name` of this user; `Err` holds what went wrong.
pub fn cancel(name: &str) -> Result<(), String> {
    let out = Command::new("scancel")
        .args(["--name", name])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run scancel: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}
