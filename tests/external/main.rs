//! Tests that need a program arx does not ship: bubblewrap, a headless
//! browser (the report's page, the live page of `arx serve`), the official
//! MCP Python client, the pre-commit tool, Slurm, Git LFS (the short
//! random-kill soak among them).
//!
//! `.ci/run` installs them. Where one is missing, its tests are reported as
//! **ignored** (never as passed): this binary uses a harness that decides at
//! run time, and prints on stderr what was missing and how to get it.
//!
//! Add a module with a `trials() -> Vec<Trial>` function and list it below.

#[path = "../common/barrier.rs"]
mod barrier;
mod fleet;
mod fleet_batch;
mod heldout_user;
mod isolation;
mod lfs;
mod man;
#[cfg(feature = "mcp")]
mod mcp;
mod needs;
mod pre_commit;
mod report;
#[cfg(feature = "serve")]
mod serve;
mod slurm;
mod soak;

use libtest_mimic::{Arguments, Trial};

fn main() {
    let args = Arguments::from_args();
    needs::summary();
    let mut trials: Vec<Trial> = Vec::new();
    trials.extend(needs::trials());
    trials.extend(heldout_user::trials());
    trials.extend(fleet::trials());
    trials.extend(fleet_batch::trials());
    trials.extend(isolation::trials());
    trials.extend(lfs::trials());
    trials.extend(report::trials());
    #[cfg(feature = "serve")]
    trials.extend(serve::trials());
    trials.extend(man::trials());
    #[cfg(feature = "mcp")]
    trials.extend(mcp::trials());
    trials.extend(pre_commit::trials());
    trials.extend(slurm::trials());
    trials.extend(soak::trials());
    libtest_mimic::run(&args, trials).exit();
}
