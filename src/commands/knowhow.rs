//! `arx knowhow add|list` over `.arx/knowhow.jsonl`.

use std::io::{self, Write};

use anyhow::Result;
use serde::Serialize;

use super::{pass_kg_write_gate, require_text, Ctx};
use crate::cli::KnowhowCommand;
use crate::commands::WARN;
use crate::error::Exit;
use crate::io::state::{knowhow, Appended};
use crate::kernel::promote::KnowhowRecord;
use crate::output::{bold, dim, Report, Row, Rows};

#[derive(Serialize)]
struct AddReport {
    added: bool,
    record: KnowhowRecord,
}

impl Report for AddReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        let what = if self.added {
            "recorded knowhow"
        } else {
            "already known"
        };
        writeln!(out, "{b}{what}{b:#}: {}", self.record.statement)
    }
}

impl Row for KnowhowRecord {
    fn row(&self, out: &mut dyn Write) -> io::Result<()> {
        let d = dim();
        writeln!(
            out,
            "{d}it {:<3}{d:#} {}: {}",
            self.iteration, self.statement, self.content
        )
    }
}

pub fn run(ctx: &Ctx, cmd: &KnowhowCommand) -> Result<Exit> {
    match cmd {
        KnowhowCommand::Add {
            statement,
            content,
            iteration,
            gates,
        } => {
            require_text(statement, "the statement", "say what the learning is about")?;
            require_text(content, "--content", "write the learning itself")?;
            let record = KnowhowRecord {
                statement: statement.clone(),
                content: content.clone(),
                iteration: *iteration,
                created_at: Some(ctx.now()?),
            };
            if !pass_kg_write_gate(ctx, *gates, "knowhow")? {
                return Ok(Exit::No);
            }
            let appended = knowhow(&ctx.state_dir()?, WARN).append_unless(record, |existing| {
                existing
                    .iter()
                    .find(|r| r.statement == *statement && r.content == *content)
                    .cloned()
            })?;
            let (added, record) = match appended {
                Appended::Added(r) => (true, r),
                Appended::Existing(r) => (false, r),
            };
            ctx.out.emit(&AddReport { added, record })?;
            Ok(Exit::Ok)
        }
        KnowhowCommand::List => {
            ctx.out.emit(&Rows {
                items: knowhow(&ctx.state_dir()?, WARN).read()?,
                empty: "no knowhow recorded",
            })?;
            Ok(Exit::Ok)
        }
    }
}
