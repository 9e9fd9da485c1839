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
