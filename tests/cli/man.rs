//! `arx man` and the checked-in page.

use std::path::PathBuf;

use crate::support::Sandbox;

/// The checked-in page must be what `arx man` prints today.
/// Regenerate with: `ARX_UPDATE_COMPLETIONS=1 cargo test --test cli man`.
#[test]
fn checked_in_man_page_matches_the_cli() {
    let out = Sandbox::new()
        .arx()
        .arg("man")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("completions/arx.1");
    if std::env::var_os("ARX_UPDATE_COMPLETIONS").is_some() {
        std::fs::write(&path, &out).unwrap();
        return;
    }
    let on_disk = std::fs::read(&path).unwrap_or_default();
    assert!(
        on_disk == out,
        "completions/arx.1 is out of date: run ARX_UPDATE_COMPLETIONS=1 cargo test --test cli man"
    );
}

#[test]
fn the_page_documents_every_command() {
    let out = Sandbox::new().arx().arg("man").assert().code(0);
    let page = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(page.starts_with(".ie \\n(.g .ds Aq"), "roff");
    assert!(page.contains(".TH arx 1"));
    for section in ["ARX TRY", "ARX MCP", "ARX DEADEND SCAN", "ARX ROUND APPLY"] {
        assert!(page.contains(&format!(".SH \"{section}\"")), "{section}");
    }
    assert!(page.contains("Exit codes:"));
}

#[test]
fn every_help_lists_the_global_flags_under_their_own_heading() {
    use clap::CommandFactory;
    let cli = arx::cli::Cli::command();
    let mut paths: Vec<Vec<String>> = Vec::new();
    for sub in cli.get_subcommands() {
        paths.push(vec![sub.get_name().to_string()]);
        for inner in sub.get_subcommands() {
            paths.push(vec![
                sub.get_name().to_string(),
                inner.get_name().to_string(),
            ]);
        }
    }
    assert!(paths.len() > 20, "{paths:?}");
    for path in paths {
        let out = assert_cmd::Command::cargo_bin("arx")
            .unwrap()
            .args(&path)
            .arg("--help")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{path:?}");
        let help = String::from_utf8_lossy(&out.stdout);
        let (own, global) = help
            .split_once("\nGlobal options:\n")
            .unwrap_or_else(|| panic!("{path:?} --help has no Global options heading:\n{help}"));
        for flag in [
            "--json",
            "--quiet",
            "--color",
            "--config",
            "--state-dir",
            "--now",
        ] {
            assert!(
                global.contains(flag),
                "{path:?}: {flag} under Global options"
            );
            assert!(
                !own.contains(&format!("      {flag}")),
                "{path:?}: {flag} among its own options"
            );
        }
    }
    // `arx help try` ends with examples.
    let out = assert_cmd::Command::cargo_bin("arx")
        .unwrap()
        .args(["help", "try"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    let examples = help.rsplit_once("Examples:\n").expect("examples").1;
    assert!(
        examples
            .lines()
            .filter(|l| l.trim_start().starts_with("arx try"))
            .count()
            >= 2,
        "{help}"
    );
}
