//! What arx asks of the operating system beyond POSIX, in one place: the
//! process table of `/proc` (a process's group, start time, environment
//! and zombie state, the boot id), a larger pipe buffer (`F_SETPIPE_SZ`)
//! and syncing one file system (`syncfs`). Linux has all three; elsewhere
//! (macOS) arx takes the portable paths: no `/proc` (what it would tell is
//! not known), pipes as they are, and `sync` of every file system.
//!
//! `ARX_PORTABLE` (internal: for arx's own tests, never handed to an
//! experiment) makes arx take the portable paths on Linux too, so the
//! tests run what a Mac runs.

use std::path::PathBuf;

/// The environment variable that takes the portable paths on Linux
/// (any value). Internal: set by arx's tests; removed from every
/// experiment's environment.
pub const PORTABLE_ENV: &str = "ARX_PORTABLE";

/// Does this build, on this machine, use what only Linux has?
pub fn linux_extras() -> bool {
    cfg!(any(target_os = "linux", target_os = "android"))
        && std::env::var_os(PORTABLE_ENV).is_none()
}

/// The path of `rel` under `/proc` (`"self/stat"`), `None` where arx does
/// not read `/proc` (not Linux, or the portable paths taken).
pub fn proc_path(rel: &str) -> Option<PathBuf> {
    linux_extras().then(|| PathBuf::from("/proc").join(rel))
}

/// Ask for a pipe buffer of `bytes` (best effort: the limit may be lower
/// for this user; elsewhere than Linux the pipe stays as it is).
pub fn widen_pipe(fd: std::os::fd::RawFd, bytes: i32) {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if linux_extras() {
        let _ = nix::fcntl::fcntl(fd, nix::fcntl::FcntlArg::F_SETPIPE_SZ(bytes));
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    let _ = (fd, bytes);
}

/// Sync the file system that holds `file` to disk (on Linux that file
/// system only; elsewhere every file system, with `sync`).
pub fn sync_filesystem(file: &std::fs::File) -> nix::Result<()> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if linux_extras() {
        use std::os::fd::AsRawFd;
        return nix::unistd::syncfs(file.as_raw_fd());
    }
    let _ = file;
    nix::unistd::sync();
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn proc_is_read_on_linux_only() {
        let on_linux = cfg!(target_os = "linux") && std::env::var_os(super::PORTABLE_ENV).is_none();
        assert_eq!(super::proc_path("self/stat").is_some(), on_linux);
        let file = std::fs::File::open(".").unwrap();
        super::sync_filesystem(&file).unwrap();
    }
}
