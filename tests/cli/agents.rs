//! `arx init --agent`: arx's section of AGENTS.md, filled from arx.toml and
//! updated in place.

use crate::support::{json, Sandbox};

const BEGIN: &str = "<!-- arx:begin";

fn repo_with_objective() -> Sandbox {
    let sb = Sandbox::new();
    sb.git_init(".");
    sb.write(
        "arx.toml",
        "[objective]\nmetric = \"val_bpb\"\ndirection = \"min\"\ncommand = \"uv run train.py\"\nprotect = [\"prepare.py\", \"eval/**\"]\n\n[objective.stop]\nmax_runs = 200\n",
    );
    sb
}

#[test]
fn writes_the_loop_with_this_repositorys_objective() {
    let sb = repo_with_objective();
    let out = sb
        .arx()
        .args(["init", "--agent", "--json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let report = json(&out);
    let item = report["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["path"] == "AGENTS.md")
        .expect("an AGENTS.md item");
    assert_eq!(item["status"], "created");
    let text = sb.read("AGENTS.md");
    for needle in [
        "`val_bpb` (min: lower is better)",
        "`uv run train.py`",
        "`prepare.py`, `eval/**`",
        "`max_runs = 200`",
        "arx try -m",
        "arx status",
        "arx best",
    ] {
        assert!(text.contains(needle), "{needle}:\n{text}");
    }
}

#[test]
fn a_second_run_updates_the_section_and_keeps_the_rest() {
    let sb = repo_with_objective();
    sb.write("AGENTS.md", "# Agents\n\nRun the linter first.\n");
    sb.arx().args(["init", "--agent"]).assert().code(0);
    let first = sb.read("AGENTS.md");
    assert!(first.starts_with("# Agents\n\nRun the linter first.\n\n"));
    assert_eq!(first.matches(BEGIN).count(), 1);

    // Unchanged objective: nothing to do.
    sb.arx()
        .args(["init", "--agent"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("present  AGENTS.md"));
    assert_eq!(sb.read("AGENTS.md"), first);

    // A new objective replaces the section in place; text after it stays.
    let with_tail = format!("{first}\n## Mine\nkeep me\n");
    sb.write("AGENTS.md", &with_tail);
    sb.write(
        "arx.toml",
        "[objective]\nmetric = \"acc\"\ndirection = \"max\"\ncommand = \"python eval.py\"\n",
    );
    sb.arx()
        .args(["init", "--agent"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("updated  AGENTS.md"));
    let second = sb.read("AGENTS.md");
    assert_eq!(second.matches(BEGIN).count(), 1);
    assert!(second.contains("`acc` (max: higher is better)"));
    assert!(!second.contains("val_bpb"));
    assert!(second.starts_with("# Agents\n\nRun the linter first.\n\n"));
    assert!(second.ends_with("\n## Mine\nkeep me\n"), "{second}");
}

#[test]
fn without_an_objective_the_section_says_what_to_fill_in() {
    let sb = Sandbox::new();
    sb.git_init(".");
    sb.arx().args(["init", "--agent"]).assert().code(0);
    assert!(sb.read("AGENTS.md").contains("not set yet"));
}

#[test]
fn plain_init_leaves_agents_md_alone() {
    let sb = repo_with_objective();
    sb.arx().arg("init").assert().code(0);
    assert!(!sb.path().join("AGENTS.md").exists());
}

#[cfg(unix)]
#[test]
fn never_writes_through_a_symbolic_link() {
    let sb = repo_with_objective();
    sb.write("elsewhere.md", "theirs\n");
    std::os::unix::fs::symlink(sb.path().join("elsewhere.md"), sb.path().join("AGENTS.md"))
        .unwrap();
    sb.arx().args(["init", "--agent"]).assert().code(2);
    assert_eq!(sb.read("elsewhere.md"), "theirs\n");
}

#[test]
fn a_broken_arx_toml_stops_before_anything_is_created() {
    let sb = Sandbox::new();
    sb.git_init(".");
    sb.write("arx.toml", "[objective\n");
    sb.arx().args(["init", "--agent"]).assert().code(2);
    assert!(!sb.path().join(".arx").exists());
    assert!(!sb.path().join("AGENTS.md").exists());
}
