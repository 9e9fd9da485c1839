//! `[harness] isolate`: what a check can do without it, and the refusal
//! when it is asked for and bubblewrap is missing. (The confined run itself
//! needs bubblewrap: `tests/external/isolation.rs`.)

use serde_json::Value;

use super::{entry, patch, Fixture, T0};
use crate::support::{fixture, stderr, stdout_json};

/// A config whose one check is the hostile probe, aimed at this fixture's
/// repository and outside file.
fn probe_config(fx: &Fixture, extra: &str) -> String {
    let real = fx.root.canonicalize().unwrap();
    let outside = fx.outside.canonicalize().unwrap().join("victim.txt");
    format!(
        "[harness]\nmin_interval_hours = 0\nautonomy = \"auto\"\n{extra}\n\
         [[harness.checks]]\nname = \"probe\"\ncommand = \"sh '{}' '{}' '{}'\"\n",
        fixture("isolation/probe.sh").display(),
        real.display(),
        outside.display(),
    )
}

fn md_patch() -> Value {
    patch(
        "Sharpen the guide",
        0.9,
        vec![entry(
            "docs/guide.md",
            "markdown",
            "modify",
            Some("new guide\n"),
        )],
    )
}

fn hooks(fx: &Fixture) -> Vec<String> {
    ["pre-commit", "post-commit"]
        .into_iter()
        .filter(|h| fx.root.join(".git/hooks").join(h).exists())
        .map(str::to_string)
        .collect()
}

#[test]
fn without_isolation_a_check_reaches_the_real_repository() {
    // What the README says a check can do as the user: this is the
    // exposure `isolate = true` closes.
    let fx = Fixture::new();
    fx.write("arx.toml", &probe_config(&fx, ""));
    fx.commit_all("probe check");
    let p = fx.patch("p.json", &md_patch());
    let out = fx
        .arx()
        .args(["--json", "--now", T0, "round", "apply", &p])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let rec = stdout_json(&out);
    assert_eq!(rec["status"], "rejected");
    let detail = rec["eval_report"]["checks"][0]["detail"].as_str().unwrap();
    for leak in ["repository-visible", "proc-cwd", "wrote-outside"] {
        assert!(detail.contains(leak), "{leak} in {detail}");
    }
    assert_eq!(hooks(&fx), ["pre-commit", "post-commit"]);
    assert_eq!(
        std::fs::read_to_string(fx.outside.join("victim.txt")).unwrap(),
        "pwned\n"
    );
}

#[test]
fn isolation_asked_for_and_unavailable_refuses_to_run_checks() {
    let fx = Fixture::new();
    fx.write("arx.toml", &probe_config(&fx, "isolate = true"));
    fx.commit_all("probe check, isolated");
    let base = fx.head();
    let p = fx.patch("p.json", &md_patch());
    for bwrap in ["/nonexistent/bwrap", "/bin/false"] {
        let out = fx
            .arx()
            .env("ARX_BWRAP", bwrap)
            .args(["--now", T0, "round", "apply", &p])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bwrap}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("arx: error: [harness] isolate = true, but checks cannot be isolated"),
            "{err}"
        );
        assert!(err.contains("hint: install bubblewrap"), "{err}");
        assert!(!err.contains("running `"), "no check ran: {err}");
        // Nothing ran, landed or was recorded; no review branch is left.
        assert!(hooks(&fx).is_empty());
        assert_eq!(
            std::fs::read_to_string(fx.outside.join("victim.txt")).unwrap(),
            "untouched\n"
        );
        assert_eq!(fx.head(), base);
        assert_eq!(fx.branches(), vec!["main".to_string()]);
        assert!(!fx.root.join(".arx/rounds/20260301-100000").exists());
    }
}

#[test]
fn isolate_must_be_a_boolean() {
    let fx = Fixture::new();
    fx.write("arx.toml", &probe_config(&fx, "isolate = \"yes\""));
    fx.commit_all("typo");
    let p = fx.patch("p.json", &md_patch());
    let out = fx
        .arx()
        .args(["--now", T0, "round", "apply", &p])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("harness.isolate must be true or false"));
    assert!(hooks(&fx).is_empty());
}

#[test]
fn isolation_is_not_needed_when_no_check_is_triggered() {
    let fx = Fixture::new();
    let cfg = probe_config(&fx, "isolate = true")
        .replace("name = \"probe\"", "name = \"probe\"\nkinds = [\"code\"]");
    fx.write("arx.toml", &cfg);
    fx.commit_all("code-only check");
    let p = fx.patch("p.json", &md_patch());
    let out = fx
        .arx()
        .env("ARX_BWRAP", "/nonexistent/bwrap")
        .args(["--json", "--now", T0, "round", "apply", &p])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout_json(&out)["status"], "applied");
}
