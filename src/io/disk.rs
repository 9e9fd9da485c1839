//! Free space on the file system that holds a directory.

use std::path::Path;

use anyhow::{Context, Result};

/// Bytes an unprivileged writer may still use on the file system of `dir`.
pub fn available(dir: &Path) -> Result<u64> {
    let st = nix::sys::statvfs::statvfs(dir)
        .with_context(|| format!("cannot read the free space of {}", dir.display()))?;
    #[allow(clippy::useless_conversion)]
    Ok(u64::from(st.blocks_available()).saturating_mul(u64::from(st.fragment_size())))
}

/// Fail unless the file system of `dir` has `needed` bytes free.
pub fn ensure_space(dir: &Path, needed: u64) -> Result<()> {
    let free = available(dir)?;
    anyhow::ensure!(
        free >= needed,
        "{}: no space left on its file system ({} KiB free, {} KiB needed)",
        dir.display(),
        free / 1024,
        needed.div_ceil(1024)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_temp_dir_has_some_space_and_not_all_of_it() {
        let dir = tempfile::tempdir().unwrap();
        assert!(available(dir.path()).unwrap() > 0);
        assert!(ensure_space(dir.path(), u64::MAX).is_err());
    }
}
