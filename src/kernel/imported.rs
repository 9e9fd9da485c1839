//! The mark of a record read from another loop's night
//! ([`super::import`]): which loop, the line of its file, and the import
//! that added it. Apart from the import itself so the try record can carry
//! it without depending on the reader.

use serde::{Deserialize, Serialize};

use super::names::str_enum;

str_enum! {
    /// The loop a file comes from.
    Source, "import source" {
        /// karpathy/autoresearch: `results.tsv`, `commit val_bpb memory_gb status description`.
        Karpathy => "karpathy",
        /// pi-autoresearch: `autoresearch.jsonl` (or `.auto/log.jsonl`), one JSON object a line.
        Pi => "pi",
        /// codex-autoresearch: `results.tsv`, `iteration commit metric delta status description`.
        Codex => "codex",
    }
}

/// Where an imported record came from ([`super::ratchet_record::RatchetInfo::imported`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Imported {
    pub from: Source,
    /// The line of the file it was read from (1-based).
    pub line: usize,
    /// The id of the import that added it (`arx journal import --undo ID`);
    /// none in records of an older arx.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import: Option<String>,
    /// The file as it was named (`arx journal import --undo FILE`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}
