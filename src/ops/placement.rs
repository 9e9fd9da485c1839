//! Slots and launcher from `[objective]` (`slots`, `slot_env`,
//! `launcher`) and `--launcher`, shared by `arx run` and `arx try`:
//! checked before anything runs, so a bad setting or a launcher that is
//! not installed is an error with nothing run and nothing journaled.

use std::path::Path;
use std::sync::Arc;

use anyhow::Result;
use serde_json::Value;

use crate::error::Hinted;
use crate::kernel::launch::{self, Place, Placement};

/// `--launcher`, overriding `[objective] launcher`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct LaunchFlags {
    /// Start every experiment through this command, split at whitespace,
    /// e.g. 'srun --gres=gpu:1 --' ([objective] launcher). With srun each
    /// job is named arx-<run id>.
    #[arg(long, value_name = "CMD")]
    pub launcher: Option<String>,
}

const HINT_SLOTS: &str =
    "set [objective] slots to a count (slots = 4) or a list of values (slots = [\"0\", \"1\"])";
const HINT_LAUNCHER: &str =
    "set [objective] launcher to a list, e.g. launcher = [\"srun\", \"--gres=gpu:1\", \"--\"]";

/// The placement of this repository's experiments; `None` when neither
/// slots nor a launcher are set. `objective` is the config's
/// `[objective]` table, `state` the state directory (the slot locks).
pub fn resolve(
    flags: &LaunchFlags,
    objective: Option<&Value>,
    state: &Path,
) -> Result<Option<Arc<Place>>> {
    let key = |k: &str| objective.and_then(|o| o.get(k)).filter(|v| !v.is_null());
    let slots = match key("slots") {
        None => Vec::new(),
        Some(v) => launch::parse_slots(v)
            .map_err(|e| Hinted::error(format!("invalid [objective] slots: {e}"), HINT_SLOTS))?,
    };
    let slot_env = match key("slot_env") {
        None => None,
        Some(Value::String(s)) if valid_env_name(s) => Some(s.clone()),
        Some(v) => {
            return Err(Hinted::error(
                format!("invalid [objective] slot_env: {v} is not a variable name"),
                "e.g. slot_env = \"CUDA_VISIBLE_DEVICES\"",
            ))
        }
    };
    if slot_env.is_some() && slots.is_empty() {
        return Err(Hinted::error(
            "[objective] slot_env is set but there are no slots",
            HINT_SLOTS,
        ));
    }
    let launcher = match (&flags.launcher, key("launcher")) {
        (Some(text), _) => launch::split_launcher(text).map_err(|e| {
            Hinted::error(
                format!("invalid --launcher: {e}"),
                "e.g. --launcher 'srun --gres=gpu:1 --'",
            )
        })?,
        (None, Some(v)) => launch::parse_launcher(v).map_err(|e| {
            Hinted::error(format!("invalid [objective] launcher: {e}"), HINT_LAUNCHER)
        })?,
        (None, None) => Vec::new(),
    };
    if let Some(program) = launcher.first() {
        if !crate::io::process::installed(program) {
            let hint = if program == "srun" {
                "install Slurm's client (srun) or run on a node that has it, or remove the launcher"
                    .to_string()
            } else {
                format!("install {program}, put it on PATH, or fix the launcher")
            };
            return Err(Hinted::error(
                format!("the launcher {program:?} is not installed (not found on PATH)"),
                hint,
            ));
        }
    }
    let placement = Placement {
        slots,
        slot_env,
        launcher,
    };
    Ok((!placement.is_plain()).then(|| {
        Arc::new(Place {
            placement,
            state: state.to_path_buf(),
        })
    }))
}

fn valid_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
