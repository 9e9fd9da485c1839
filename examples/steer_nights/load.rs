//! A karpathy-style `results.tsv` night read as tries in order: a header
//! row naming a `status` column (and a `description` column, else the last
//! column is the description), one try per row. Statuses `keep`,
//! `discard`, `crash` (any case), and the words some loops use for them
//! (`revert` for a discard, `fail` for a crash). A row whose status is
//! none of these (a note, a column shifted by a stray tab) is skipped and
//! counted.

use super::ranking::Outcome;

pub struct Row {
    pub outcome: Outcome,
    pub description: String,
}

pub struct Night {
    pub rows: Vec<Row>,
    pub skipped: usize,
}

fn outcome(word: &str) -> Option<Outcome> {
    match word.trim().to_ascii_lowercase().as_str() {
        "keep" | "kept" => Some(Outcome::Kept),
        "discard" | "discarded" | "revert" | "reverted" => Some(Outcome::Discarded),
        "crash" | "crashed" | "fail" | "failed" => Some(Outcome::Crashed),
        _ => None,
    }
}

pub fn parse(text: &str) -> Result<Night, String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<String> = lines
        .next()
        .ok_or("empty file")?
        .split('\t')
        .map(|h| h.trim().to_ascii_lowercase())
        .collect();
    let status = header
        .iter()
        .position(|h| h == "status")
        .ok_or("no `status` column in the header")?;
    let description = header
        .iter()
        .position(|h| h == "description")
        .unwrap_or(header.len() - 1);
    let mut night = Night {
        rows: Vec::new(),
        skipped: 0,
    };
    for line in lines {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields.get(status).and_then(|s| outcome(s)) {
            Some(outcome) => night.rows.push(Row {
                outcome,
                description: fields.get(description).unwrap_or(&"").trim().to_string(),
            }),
            None => night.skipped += 1,
        }
    }
    Ok(night)
}
