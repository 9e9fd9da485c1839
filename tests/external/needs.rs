//! What an external test needs, found at run time.
//!
//! Each probe answers `Ok(path)` or `Err(reason)`. [`trial`] turns a test and
//! a probe into a libtest trial that is ignored (with the reason on stderr)
//! when the probe fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use libtest_mimic::{Failed, Trial};

/// A probe: the program (or interpreter) the test will use, or why not.
pub type Probe = fn() -> Result<PathBuf, String>;

/// A trial that runs `test` with what `probe` found, or is ignored.
pub fn trial(
    name: &str,
    probe: Probe,
    test: impl FnOnce(&Path) -> Result<(), Failed> + Send + 'static,
) -> Trial {
    match probe() {
        Ok(path) => Trial::test(name, move || test(&path)),
        Err(reason) => {
            eprintln!("external: {name}: ignored: {reason}");
            Trial::test(name, || Ok(())).with_ignored_flag(true)
        }
    }
}

/// The `arx` binary under test.
pub fn arx() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_arx"))
}

/// A program on `PATH` (or named by an environment variable) that runs.
fn program(env: &str, names: &[&str], version_arg: &str) -> Result<PathBuf, String> {
    let candidates: Vec<PathBuf> = match std::env::var_os(env) {
        Some(p) if !p.is_empty() => vec![PathBuf::from(p)],
        _ => names.iter().filter_map(|n| which(n)).collect(),
    };
    for path in candidates {
        let ok = Command::new(&path)
            .arg(version_arg)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        if ok {
            return Ok(path);
        }
    }
    Err(format!(
        "{} not found (set {env} or install it)",
        names.join(" or ")
    ))
}

fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// Bubblewrap that can actually create a sandbox here (user namespaces on).
pub fn bwrap() -> Result<PathBuf, String> {
    let path = program("ARX_TEST_BWRAP", &["bwrap"], "--version")?;
    let ok = Command::new(&path)
        .args([
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--unshare-net",
            "true",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if ok {
        Ok(path)
    } else {
        Err(format!(
            "{} cannot create a sandbox on this machine",
            path.display()
        ))
    }
}

/// A headless Chromium (Debian's `chromium`).
pub fn chromium() -> Result<PathBuf, String> {
    program(
        "ARX_TEST_CHROMIUM",
        &["chromium", "chromium-browser", "google-chrome"],
        "--version",
    )
}

/// A Python interpreter that can import `module`. `.ci/run` points
/// `ARX_TEST_PYTHON` at its virtualenv; otherwise `python3` on `PATH`.
pub fn python_with(module: &str) -> Result<PathBuf, String> {
    let python = program("ARX_TEST_PYTHON", &["python3", "python"], "--version")?;
    let ok = Command::new(&python)
        .args(["-c", &format!("import {module}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if ok {
        Ok(python)
    } else {
        Err(format!(
            "{} cannot import {module} (pip install it, or set ARX_TEST_PYTHON)",
            python.display()
        ))
    }
}

/// The Python `mcp` client SDK.
pub fn mcp_client() -> Result<PathBuf, String> {
    python_with("mcp")
}

/// The `pre-commit` tool.
pub fn pre_commit() -> Result<PathBuf, String> {
    program("ARX_TEST_PRE_COMMIT", &["pre-commit"], "--version")
}

/// Git LFS (Debian's `git-lfs`).
pub fn git_lfs() -> Result<PathBuf, String> {
    program("ARX_TEST_GIT_LFS", &["git-lfs"], "version")
}

/// What this machine has, on stderr before the tests run.
pub fn summary() {
    let probes: [(&str, Probe); 5] = [
        ("git-lfs", git_lfs),
        ("bubblewrap", bwrap),
        ("chromium", chromium),
        ("mcp client", mcp_client),
        ("pre-commit", pre_commit),
    ];
    for (name, probe) in probes {
        match probe() {
            Ok(path) => eprintln!("external: {name}: {}", path.display()),
            Err(why) => eprintln!("external: {name}: missing: {why}"),
        }
    }
}

/// Every probe is exercised on its own, so a broken probe shows up as a
/// failure here rather than as silently ignored tests elsewhere.
pub fn trials() -> Vec<Trial> {
    vec![Trial::test("needs::arx_binary_runs", || {
        let out = Command::new(arx())
            .arg("--version")
            .output()
            .map_err(|e| Failed::from(format!("running arx: {e}")))?;
        if out.status.success() {
            Ok(())
        } else {
            Err("arx --version failed".into())
        }
    })]
}
