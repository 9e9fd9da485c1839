//! The one door to bubblewrap (`bwrap`): round checks run isolated when
//! `[harness] isolate = true`.
//!
//! Inside the sandbox a check sees the file system read-only, with the real
//! repository, the state directory and any `isolate_hide` path replaced by an
//! empty directory (or an empty file); it can write only to its scratch
//! checkout and a private `/tmp`. It has no network (a loopback interface
//! only), its own process, IPC, UTS and cgroup namespaces (so `/proc` shows
//! none of arx's processes and no other process can be signalled), no
//! capabilities, and a new session (no controlling terminal). It dies with
//! arx.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The environment variable that names the `bwrap` program (default: `bwrap`
/// on `PATH`).
pub const BWRAP_ENV: &str = "ARX_BWRAP";

/// A bubblewrap that was found and shown to work on this machine.
#[derive(Debug, Clone)]
pub struct Bubblewrap {
    program: PathBuf,
}

/// What the sandbox hides and where the check runs.
#[derive(Debug, Clone)]
pub struct Confinement<'a> {
    /// The scratch checkout: the only writable directory besides `/tmp`,
    /// and the working directory.
    pub scratch: &'a Path,
    /// Paths replaced by an empty directory (or, for a file, an empty
    /// file): the real repository, the state directory, `isolate_hide`.
    pub hide: &'a [PathBuf],
}

impl Bubblewrap {
    /// Find `bwrap` and check that it can build a sandbox here (user
    /// namespaces may be off, or a container may forbid mounts). The error
    /// says why, for the caller's refusal.
    pub fn find() -> Result<Bubblewrap, String> {
        let program = match std::env::var_os(BWRAP_ENV) {
            Some(p) if !p.is_empty() => PathBuf::from(p),
            _ => on_path("bwrap").ok_or_else(|| "bwrap is not on PATH".to_string())?,
        };
        let bwrap = Bubblewrap { program };
        let scratch = tempfile::tempdir().map_err(|e| format!("no scratch directory: {e}"))?;
        let mut probe = bwrap.command(&Confinement {
            scratch: scratch.path(),
            hide: &[],
        });
        probe.args(["/bin/sh", "-c", "exit 0"]);
        let out = probe
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", bwrap.program.display()))?;
        if out.status.success() {
            Ok(bwrap)
        } else {
            let why = String::from_utf8_lossy(&out.stderr);
            let why = why.lines().last().unwrap_or("").trim();
            Err(format!(
                "{} cannot build a sandbox here{}",
                bwrap.program.display(),
                if why.is_empty() {
                    String::new()
                } else {
                    format!(": {why}")
                }
            ))
        }
    }

    /// The argument vector that runs `/bin/sh -c COMMAND` confined. Every
    /// path must be UTF-8 (the runner takes strings); the error names the
    /// one that is not.
    pub fn argv(&self, confinement: &Confinement, command: &str) -> Result<Vec<String>, String> {
        let mut argv = vec![self.program.clone().into_os_string()];
        argv.extend(arguments(confinement));
        argv.extend(["/bin/sh".into(), "-c".into(), command.into()]);
        argv.into_iter()
            .map(|a| {
                a.into_string()
                    .map_err(|a| format!("{} is not UTF-8", Path::new(&a).display()))
            })
            .collect()
    }

    fn command(&self, confinement: &Confinement) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.args(arguments(confinement));
        // arx's switch for its own tests is not the checks'.
        cmd.env_remove(super::platform::PORTABLE_ENV);
        cmd
    }
}

/// bwrap's options for a confinement, in mount order: later mounts cover
/// earlier ones, so the scratch checkout is bound last and stays visible
/// even when it lies below a hidden path.
fn arguments(c: &Confinement) -> Vec<OsString> {
    let mut a: Vec<OsString> = Vec::new();
    let mut push = |items: &[&std::ffi::OsStr]| a.extend(items.iter().map(|s| s.to_os_string()));
    push(&[
        "--ro-bind".as_ref(),
        "/".as_ref(),
        "/".as_ref(),
        "--dev".as_ref(),
        "/dev".as_ref(),
        "--proc".as_ref(),
        "/proc".as_ref(),
        "--tmpfs".as_ref(),
        "/tmp".as_ref(),
    ]);
    for path in c.hide {
        // Only what exists can be covered; a missing path hides nothing.
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.is_dir() => push(&["--tmpfs".as_ref(), path.as_os_str()]),
            Ok(_) => push(&["--ro-bind".as_ref(), "/dev/null".as_ref(), path.as_os_str()]),
            Err(_) => {}
        }
    }
    push(&[
        "--bind".as_ref(),
        c.scratch.as_os_str(),
        c.scratch.as_os_str(),
        "--chdir".as_ref(),
        c.scratch.as_os_str(),
        "--unshare-all".as_ref(),
        "--cap-drop".as_ref(),
        "ALL".as_ref(),
        "--new-session".as_ref(),
        "--die-with-parent".as_ref(),
        "--".as_ref(),
    ]);
    a
}

/// What an isolated check may not see besides the read-only system: the
/// real repository `root`, the state directory, and `extra` (the
/// `isolate_hide` entries: `~/...` in the home directory, others relative to
/// `root`). bwrap mounts over real locations, so links are resolved and
/// paths that do not exist are dropped.
pub fn hidden_paths(root: &Path, state: &Path, extra: &[String]) -> Vec<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let extra = extra
        .iter()
        .map(|entry| match (entry.strip_prefix("~/"), &home) {
            (Some(rest), Some(home)) => home.join(rest),
            _ if entry == "~" => home.clone().unwrap_or_default(),
            _ => root.join(entry),
        });
    [root.to_path_buf(), state.to_path_buf()]
        .into_iter()
        .chain(extra)
        .filter_map(|p| p.canonicalize().ok())
        .collect()
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_paths_are_the_repository_the_state_and_the_extra_ones_that_exist() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("secrets")).unwrap();
        let state = root.join(".arx");
        std::fs::create_dir(&state).unwrap();
        let extra = vec!["secrets".to_string(), "missing".to_string()];
        assert_eq!(
            hidden_paths(&root, &state, &extra),
            vec![root.clone(), state, root.join("secrets")]
        );
    }

    #[test]
    fn scratch_is_bound_after_what_is_hidden_and_the_network_is_unshared() {
        let dir = tempfile::tempdir().unwrap();
        let hidden = dir.path().to_path_buf();
        let scratch = dir.path().join("scratch");
        std::fs::create_dir(&scratch).unwrap();
        let file = dir.path().join("secret");
        std::fs::write(&file, "x").unwrap();
        let hide = vec![hidden.clone(), file.clone(), dir.path().join("missing")];
        let args: Vec<String> = arguments(&Confinement {
            scratch: &scratch,
            hide: &hide,
        })
        .into_iter()
        .map(|s| s.into_string().unwrap())
        .collect();
        let at = |needle: &[&str]| {
            args.windows(needle.len())
                .position(|w| w == needle)
                .unwrap_or_else(|| panic!("{needle:?} not in {args:?}"))
        };
        let h = hidden.to_str().unwrap();
        let s = scratch.to_str().unwrap();
        assert!(at(&["--tmpfs", h]) < at(&["--bind", s, s]));
        at(&["--ro-bind", "/dev/null", file.to_str().unwrap()]);
        at(&["--ro-bind", "/", "/"]);
        at(&["--unshare-all"]);
        at(&["--cap-drop", "ALL"]);
        at(&["--chdir", s]);
        assert!(!args.iter().any(|a| a.contains("missing")));
        assert!(!args.iter().any(|a| a == "--share-net"));
        assert_eq!(args.last().unwrap(), "--");
    }
}
