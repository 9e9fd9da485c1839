//! `arx plateau`: have the recent verdicts stopped producing support?

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::Ctx;
use crate::error::{Exit, Hinted};
use crate::io::input::{read_text, stdin_is_terminal, Source};
use crate::kernel::policy::detect_plateau;
use crate::kernel::verdict::Verdict;
use crate::output::{bold, Report};

#[derive(Serialize)]
struct PlateauReport {
    plateau: bool,
    window: usize,
    verdicts: usize,
}

impl Report for PlateauReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        if self.plateau {
            writeln!(
                out,
                "{b}plateau{b:#}: none of the last {} verdicts is supported",
                self.window
            )
        } else if self.verdicts < self.window {
            writeln!(
                out,
                "{b}no plateau{b:#}: {} verdicts, fewer than the window of {}",
                self.verdicts, self.window
            )
        } else {
            writeln!(
                out,
                "{b}no plateau{b:#}: a supported verdict within the last {}",
                self.window
            )
        }
    }
}

pub fn run(ctx: &Ctx, window: i64, args: &[String]) -> Result<Exit> {
    let window = usize::try_from(window)
        .ok()
        .filter(|w| *w >= 1)
        .ok_or_else(|| {
            Hinted::error(
                format!("--window must be at least 1 (got {window})"),
                "the default window is 3",
            )
        })?;
    let from_stdin = args.is_empty() || args == ["-"];
    if args.is_empty() && stdin_is_terminal() {
        return Err(Hinted::error(
            "no verdicts given",
            "pass verdicts as arguments (oldest first) or pipe them on stdin",
        ));
    }
    let words: Vec<String> = if from_stdin {
        read_text(&Source::Stdin, "verdicts from stdin")?
            .split_whitespace()
            .map(str::to_string)
            .collect()
    } else {
        args.to_vec()
    };
    let verdicts = words
        .iter()
        .map(|w| w.parse::<Verdict>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Hinted::error(e, "verdicts are supported, refuted or inconclusive"))?;
    let plateau = detect_plateau(&verdicts, window);
    ctx.out.emit(&PlateauReport {
        plateau,
        window,
        verdicts: verdicts.len(),
    })?;
    Ok(if plateau { Exit::Ok } else { Exit::No })
}
