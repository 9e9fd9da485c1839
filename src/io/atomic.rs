//! Replacing a file whole: the new content goes to a temporary file beside
//! it (`.<name>.tmp-<pid>`), which is renamed over the file, so a reader
//! sees the old file or the complete new one, never a mix. With
//! [`Durability::Synced`] the temporary file is synced before the rename
//! and the directory after it, so a machine that restarts has the old
//! file or the complete new one too. The temporary file is created, never opened through a symbolic link
//! (anything left under its name by an earlier crash goes first), and the
//! rename replaces whatever is at the path itself: nothing is written
//! through a link. It is removed when anything fails.

use std::ffi::OsStr;
use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::state::no_follow;

/// Whether a replacement survives a crash of the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// The file, then its directory, synced: state that must outlive a
    /// crash (registries, round files, configuration).
    Synced,
    /// Not synced (a sync costs milliseconds): a file rewritten at every
    /// heartbeat that says what runs now, which nothing does after a
    /// restart, or a working-tree file whose content git holds.
    Unsynced,
}

/// The temporary file `path` is written through.
fn temporary(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy());
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

/// Put a new entry at `path`: `make` creates it at the temporary path
/// given, which is then renamed over `path`, and the directory synced
/// when `durability` says so.
fn put(
    path: &Path,
    durability: Durability,
    make: impl FnOnce(&Path) -> io::Result<()>,
) -> io::Result<()> {
    let tmp = temporary(path);
    let _ = std::fs::remove_file(&tmp);
    let done = make(&tmp).and_then(|()| std::fs::rename(&tmp, path));
    if done.is_err() {
        let _ = std::fs::remove_file(&tmp);
        return done;
    }
    if durability == Durability::Unsynced {
        return Ok(());
    }
    // The rename itself made durable. Best effort: some file systems
    // refuse to sync a directory, and the content is on disk already.
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Replace the file at `path` with what `fill` writes into a new file
/// (created with `mode`, less the umask; `None`: 0o666), synced before it
/// takes the file's place when `durability` says so.
pub fn replace_with(
    path: &Path,
    mode: Option<u32>,
    durability: Durability,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    put(path, durability, |tmp| {
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        if let Some(mode) = mode {
            options.mode(mode);
        }
        let mut file = no_follow(&mut options).open(tmp)?;
        fill(&mut file)?;
        match durability {
            Durability::Synced => file.sync_all(),
            Durability::Unsynced => Ok(()),
        }
    })
}

/// Replace the file at `path` with `bytes`.
pub fn replace(path: &Path, bytes: &[u8], durability: Durability) -> io::Result<()> {
    replace_with(path, None, durability, |f| io::Write::write_all(f, bytes))
}

/// Replace whatever is at `path` with a symbolic link to `target`.
pub fn replace_with_link(path: &Path, target: &OsStr, durability: Durability) -> io::Result<()> {
    put(path, durability, |tmp| {
        std::os::unix::fs::symlink(target, tmp)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_file_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.json");
        replace(&path, b"old", Durability::Synced).unwrap();
        replace(&path, b"new", Durability::Synced).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["f.json"]);
    }

    #[test]
    fn a_failed_fill_leaves_the_old_file_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        replace(&path, b"old", Durability::Synced).unwrap();
        let failed = replace_with(&path, None, Durability::Synced, |f| {
            io::Write::write_all(f, b"half")?;
            Err(io::Error::other("full disk"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_link_at_the_path_is_replaced_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let path = dir.path().join("f");
        std::os::unix::fs::symlink(&victim, &path).unwrap();
        replace(&path, b"new", Durability::Synced).unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
        assert!(!std::fs::symlink_metadata(&path)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
    }

    #[test]
    fn a_link_planted_at_the_temporary_name_is_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let path = dir.path().join("f");
        std::os::unix::fs::symlink(&victim, temporary(&path)).unwrap();
        replace(&path, b"new", Durability::Synced).unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
    }

    #[test]
    fn a_link_is_put_in_place_of_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, "file").unwrap();
        replace_with_link(&path, OsStr::new("target"), Durability::Unsynced).unwrap();
        assert_eq!(
            std::fs::read_link(&path).unwrap(),
            Path::new("target").to_path_buf()
        );
    }
}
