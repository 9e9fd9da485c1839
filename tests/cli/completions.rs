use std::path::PathBuf;

use crate::support::Sandbox;

const FILES: [(&str, &str); 5] = [
    ("bash", "arx.bash"),
    ("zsh", "_arx"),
    ("fish", "arx.fish"),
    ("powershell", "_arx.ps1"),
    ("elvish", "arx.elv"),
];

/// The checked-in scripts must be what `arx completions` prints today.
/// Regenerate with: `ARX_UPDATE_COMPLETIONS=1 cargo test --test cli completions`.
#[test]
fn checked_in_completions_match_the_cli() {
    let sb = Sandbox::new();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("completions");
    let update = std::env::var_os("ARX_UPDATE_COMPLETIONS").is_some();
    for (shell, file) in FILES {
        let out = sb
            .arx()
            .args(["completions", shell])
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone();
        assert!(!out.is_empty());
        let path = dir.join(file);
        if update {
            std::fs::write(&path, &out).unwrap();
            continue;
        }
        let on_disk = std::fs::read(&path).unwrap_or_default();
        assert!(
            on_disk == out,
            "completions/{file} is out of date: run ARX_UPDATE_COMPLETIONS=1 cargo test --test cli completions"
        );
    }
}

#[test]
fn unknown_shell_is_a_usage_error() {
    Sandbox::new()
        .arx()
        .args(["completions", "tcsh"])
        .assert()
        .code(2);
}

/// The README's install lines work on a fresh account: cargo installs the
/// locked dependency versions, and the completion line creates its folder.
#[test]
fn the_readme_install_lines_work_in_a_fresh_home() {
    let readme =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .unwrap();
    let section = &readme[readme.find("## Install").unwrap()..];
    let block = &section[section.find("```sh\n").unwrap() + 6..];
    let block = &block[..block.find("```").unwrap()];
    let mut script = String::new();
    for line in block.lines() {
        if line.trim_start().starts_with("cargo install") {
            assert!(line.contains("--locked"), "{line}");
        } else {
            script.push_str(line);
            script.push('\n');
        }
    }
    let sb = Sandbox::new();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_arx"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("sh")
        .args(["-ec", &script])
        .env("HOME", sb.path())
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{script}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let installed = sb
        .path()
        .join(".local/share/bash-completion/completions/arx");
    assert!(installed.is_file());
    assert!(sb.path().join(".local/share/man/man1/arx.1").is_file());
}
