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

/// The README installs the tested dependency versions (`--locked`). (The
/// completion and man page lines of the command reference are run by the
/// doc tests, `tests/docs.rs`.)
#[test]
fn the_readme_install_line_is_locked() {
    let readme =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .unwrap();
    let section = &readme[readme.find("## Install").unwrap()..];
    let block = &section[section.find("```sh norun\n").unwrap()..];
    let block = &block[..block[3..].find("```").unwrap()];
    let installs: Vec<&str> = block
        .lines()
        .filter(|l| l.trim_start().starts_with("cargo install"))
        .collect();
    assert!(!installs.is_empty(), "{block}");
    for line in installs {
        assert!(line.contains("--locked"), "{line}");
    }
}
