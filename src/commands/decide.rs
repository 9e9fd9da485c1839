//! `arx decide`: the loop's next step from the latest verdict.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::Ctx;
use crate::error::Exit;
use crate::kernel::policy::{decide, Decision};
use crate::kernel::verdict::Verdict;
use crate::output::{bold, Report};

#[derive(Serialize)]
struct DecideReport {
    #[serde(flatten)]
    decision: Decision,
    iteration: i64,
    max_iterations: i64,
    verdict: Verdict,
}

impl Report for DecideReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        let done = if self.decision.done { "done" } else { "go on" };
        writeln!(
            out,
            "{b}{}{b:#}: {} ({done}; iteration {} of {})",
            self.decision.branch,
            self.decision.status.as_str(),
            self.iteration,
            self.max_iterations
        )
    }
}

pub fn run(ctx: &Ctx, iteration: i64, max_iterations: i64, verdict: &str) -> Result<Exit> {
    let verdict: Verdict = verdict.parse().map_err(anyhow::Error::msg)?;
    let decision = decide(iteration, max_iterations, verdict);
    ctx.out.emit(&DecideReport {
        decision,
        iteration,
        max_iterations,
        verdict,
    })?;
    let next = match (decision.done, decision.branch) {
        (true, "finalize") => "stop: the hypothesis is supported; finalize it",
        (true, _) => "stop: the iteration budget is spent; tell the person",
        (false, _) => "revise the approach and run the next iteration",
    };
    ctx.answer(
        &format!(
            "{}: {} (iteration {iteration} of {max_iterations})",
            decision.branch,
            decision.status.as_str()
        ),
        next,
    );
    Ok(if decision.done { Exit::Ok } else { Exit::No })
}
