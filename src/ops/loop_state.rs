//! The loop's state a run is labelled with (`--state KEY=VALUE`... or
//! `--state-json`), and its policy-cache fingerprint.

use anyhow::Result;

use crate::error::Hinted;

/// The loop's state (`--state KEY=VALUE`... or `--state-json`) and its
/// policy-cache fingerprint.
pub fn loop_state(
    state_json: Option<&str>,
    pairs: &[String],
) -> Result<Option<(serde_json::Value, String)>> {
    let features = if let Some(text) = state_json {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            Hinted::error(
                format!("--state-json is not valid JSON: {e}"),
                "e.g. --state-json '{\"task\": \"deploy\"}'",
            )
        })?;
        if !v.is_object() {
            return Err(Hinted::error(
                "--state-json must be a JSON object",
                "e.g. --state-json '{\"task\": \"deploy\"}'",
            ));
        }
        v
    } else if !pairs.is_empty() {
        let mut map = serde_json::Map::new();
        for pair in pairs {
            let Some((k, v)) = pair.split_once('=') else {
                return Err(Hinted::error(
                    format!("--state {pair:?} is not KEY=VALUE"),
                    "e.g. --state task=deploy",
                ));
            };
            if k.is_empty() {
                return Err(Hinted::error(
                    format!("--state {pair:?} has an empty key"),
                    "e.g. --state task=deploy",
                ));
            }
            let value = match serde_json::from_str::<serde_json::Value>(v) {
                Ok(
                    x @ (serde_json::Value::Number(_)
                    | serde_json::Value::Bool(_)
                    | serde_json::Value::Null),
                ) => x,
                _ => serde_json::Value::String(v.to_string()),
            };
            map.insert(k.to_string(), value);
        }
        serde_json::Value::Object(map)
    } else {
        return Ok(None);
    };
    let fp = crate::engine::policy_cache::fingerprint(&features, None, None)
        .map_err(anyhow::Error::msg)?;
    Ok(Some((features, fp)))
}
