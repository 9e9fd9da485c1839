//! A marker file in the state directory: one JSON value that says a step
//! is under way (a keep held for the fleet's remote, a keep waiting in the
//! merge queue, a pending keep being measured), written whole and synced,
//! read back by the next command, removed when the step is done.

use std::path::Path;

use anyhow::{Context, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The marker at `path`: `None` when there is none, or when what is there
/// is not one (a marker is written whole, so that is no step of arx's).
pub fn read<T: DeserializeOwned>(path: &Path) -> Result<Option<T>> {
    let Some(text) = super::state::read_text_if_any(path)? else {
        return Ok(None);
    };
    Ok(serde_json::from_str(&text).ok())
}

/// Write the marker at `path` (its directory made when missing): replaced
/// whole and synced, so a kill leaves the old marker or the new one.
pub fn write<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    if let Some(dir) = path.parent() {
        super::state::ensure_dir(dir)?;
    }
    super::atomic::replace(
        path,
        &serde_json::to_vec_pretty(value)?,
        super::atomic::Durability::Synced,
    )
    .with_context(|| format!("cannot write {}", path.display()))
}

/// Remove the marker at `path`; none there is no error.
pub fn clear(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marker_is_read_back_until_cleared_and_a_torn_one_reads_as_none() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state/marker.json");
        assert_eq!(read::<Vec<u32>>(&path).unwrap(), None);
        write(&path, &vec![1_u32, 2]).unwrap();
        assert_eq!(read::<Vec<u32>>(&path).unwrap(), Some(vec![1, 2]));
        std::fs::write(&path, "[1, ").unwrap();
        assert_eq!(read::<Vec<u32>>(&path).unwrap(), None);
        clear(&path).unwrap();
        assert!(!path.exists());
        clear(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        assert!(read::<Vec<u32>>(&path).is_err());
    }
}
