//! The files CI runners and pre-commit read: `action.yml`, the workflows
//! of docs/ci.md and `.pre-commit-hooks.yaml`, parsed as YAML, with the keys
//! a runner needs.

use std::path::{Path, PathBuf};

use serde_norway::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn yaml(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_norway::from_str(&text).unwrap_or_else(|e| panic!("{path:?} is not YAML: {e}"))
}

fn key<'a>(v: &'a Value, k: &str) -> &'a Value {
    v.get(k)
        .unwrap_or_else(|| panic!("missing key {k:?} in {v:?}"))
}

fn text<'a>(v: &'a Value, k: &str) -> &'a str {
    key(v, k)
        .as_str()
        .unwrap_or_else(|| panic!("{k:?} is not text in {v:?}"))
}

/// The `${{ steps.ID.outputs.NAME }}`, `${{ inputs.NAME }}` references in
/// `text`.
fn references<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.match_indices(prefix)
        .map(|(i, _)| {
            let rest = &text[i + prefix.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

#[test]
fn action_yml_is_a_complete_composite_action() {
    let path = root().join("action.yml");
    let action = yaml(&path);
    assert!(!text(&action, "name").is_empty());
    assert!(!text(&action, "description").is_empty());
    let runs = key(&action, "runs");
    assert_eq!(text(runs, "using"), "composite");
    let inputs = key(&action, "inputs").as_mapping().unwrap();
    for name in [
        "command",
        "fail-on",
        "working-directory",
        "state-dir",
        "summary",
    ] {
        let input = inputs.get(name).unwrap_or_else(|| panic!("input {name}"));
        assert!(!text(input, "description").is_empty(), "{name}");
    }
    assert_eq!(key(&inputs["command"], "required").as_bool(), Some(true));
    assert_eq!(text(&inputs["fail-on"], "default"), "2");

    let steps = key(runs, "steps").as_sequence().unwrap();
    let ids: Vec<&str> = steps
        .iter()
        .filter_map(|s| s.get("id").and_then(|v| v.as_str()))
        .collect();
    for step in steps {
        let uses = step.get("uses").is_some();
        let run = step.get("run").is_some();
        assert!(uses != run, "a step has `uses` or `run`: {step:?}");
        if run {
            // A composite action's run step must name its shell.
            assert_eq!(text(step, "shell"), "bash", "{step:?}");
        }
    }
    // Every output and reference points at a step and an input that exist.
    let raw = std::fs::read_to_string(&path).unwrap();
    for id in references(&raw, "steps.") {
        let id = id.split('.').next().unwrap();
        assert!(ids.contains(&id), "steps.{id} is not a step id");
    }
    for name in references(&raw, "inputs.") {
        assert!(inputs.contains_key(name), "inputs.{name} is not an input");
    }
    for (name, output) in key(&action, "outputs").as_mapping().unwrap() {
        assert!(
            text(output, "value").contains("steps.run.outputs."),
            "{name:?}"
        );
    }
    // The run step sets both outputs and puts --json before the command.
    assert!(raw.contains("\"exit-code=$code\" >> \"$GITHUB_OUTPUT\""));
    assert!(raw.contains("arx --json \"$@\""));
    assert!(raw.contains("arx report --markdown >> \"$GITHUB_STEP_SUMMARY\""));
    assert!(raw.contains("cargo install --locked --path \"$GITHUB_ACTION_PATH\""));
}

/// The action's input names, for checking the workflows' `with:` keys.
fn action_inputs() -> Vec<String> {
    let action = yaml(&root().join("action.yml"));
    key(&action, "inputs")
        .as_mapping()
        .unwrap()
        .keys()
        .map(|k| k.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_workflows_of_docs_ci_md_are_complete_and_shown_verbatim() {
    let dir = root().join("docs/workflows");
    let doc = std::fs::read_to_string(root().join("docs/ci.md")).unwrap();
    let inputs = action_inputs();
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "yml") {
            continue;
        }
        seen += 1;
        let raw = std::fs::read_to_string(&path).unwrap();
        assert!(
            doc.contains(&format!("```yaml\n{raw}```")),
            "docs/ci.md must show {path:?} verbatim"
        );
        let workflow = yaml(&path);
        assert!(!text(&workflow, "name").is_empty());
        assert!(workflow.get("on").is_some(), "{path:?}: no `on`");
        let jobs = key(&workflow, "jobs").as_mapping().unwrap();
        assert!(!jobs.is_empty());
        for (job_name, job) in jobs {
            assert!(job.get("runs-on").is_some(), "{job_name:?}: no runs-on");
            let steps = key(job, "steps").as_sequence().unwrap();
            assert!(!steps.is_empty());
            for step in steps {
                let uses = step.get("uses").and_then(|u| u.as_str());
                assert!(
                    uses.is_some() != step.get("run").is_some(),
                    "{job_name:?}: a step has `uses` or `run`: {step:?}"
                );
                if uses.is_some_and(|u| u.starts_with("OWNER/arx@")) {
                    let with = key(step, "with").as_mapping().unwrap();
                    assert!(with.contains_key("command"), "{step:?}");
                    for k in with.keys() {
                        let k = k.as_str().unwrap();
                        assert!(inputs.iter().any(|i| i == k), "unknown input {k}");
                    }
                }
            }
        }
        assert!(raw.contains("OWNER/arx@"), "{path:?} uses the action");
    }
    assert_eq!(seen, 2, "the round and the matrix workflows");
    for needle in ["--auto", "arx journal merge", "--repeat", "#SBATCH --array"] {
        assert!(doc.contains(needle), "docs/ci.md: {needle}");
    }
}

#[test]
fn pre_commit_hooks_are_offered() {
    let hooks = yaml(&root().join(".pre-commit-hooks.yaml"));
    let hooks = hooks.as_sequence().unwrap();
    let ids: Vec<&str> = hooks.iter().map(|h| text(h, "id")).collect();
    assert_eq!(
        ids,
        [
            "arx-deadend-check",
            "arx-round-validate",
            "arx-protect-check"
        ]
    );
    for hook in hooks {
        for k in ["name", "entry", "language", "files"] {
            assert!(!text(hook, k).is_empty(), "{k}");
        }
        assert_eq!(text(hook, "language"), "system");
        assert!(text(hook, "entry").contains("arx "));
    }
}

/// The script of the action's step named `name`, with `${{ ... }}`
/// expressions replaced as a runner would (`values`, by expression text).
fn step_script(name: &str, values: &[(&str, &str)]) -> String {
    let action = yaml(&root().join("action.yml"));
    let steps = key(key(&action, "runs"), "steps").as_sequence().unwrap();
    let step = steps
        .iter()
        .find(|s| s.get("name").and_then(|n| n.as_str()) == Some(name))
        .unwrap_or_else(|| panic!("no step {name:?}"));
    let mut script = text(step, "run").to_string();
    for (expr, value) in values {
        script = script.replace(&format!("${{{{ {expr} }}}}"), value);
    }
    assert!(!script.contains("${{"), "unreplaced expression in {script}");
    script
}

#[test]
fn every_run_step_of_the_action_is_valid_bash() {
    let action = yaml(&root().join("action.yml"));
    for step in key(key(&action, "runs"), "steps").as_sequence().unwrap() {
        let Some(script) = step.get("run").and_then(|r| r.as_str()) else {
            continue;
        };
        let mut plain = String::new();
        let mut rest = script;
        while let Some(start) = rest.find("${{") {
            plain.push_str(&rest[..start]);
            plain.push_str("value");
            rest = &rest[start + rest[start..].find("}}").unwrap() + 2..];
        }
        plain.push_str(rest);
        let out = std::process::Command::new("bash")
            .args(["-n", "-c", &plain])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{plain}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The action's run and fail steps, executed as a runner would: the
/// command's words are split by bash, the exit code and JSON are outputs,
/// and the step fails on exactly the chosen codes.
#[test]
fn the_action_runs_the_command_and_fails_on_the_chosen_codes() {
    let sb = crate::support::Sandbox::new();
    sb.arx()
        .args(["deadend", "add", "a b", "--reason", "r", "--no-gates"])
        .assert()
        .code(0);
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_arx"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = sb.path().join("github-output");
    let run = |command: &str| {
        std::fs::write(&output, "").unwrap();
        let out = std::process::Command::new("bash")
            .args(["-e", "-c", &step_script("arx ${{ inputs.command }}", &[])])
            .current_dir(sb.path())
            .env("PATH", &path)
            .env_remove("ARX_STATE_DIR")
            .env("ARX_COMMAND", command)
            .env("ARX_STATE_DIR_INPUT", "")
            .env("GITHUB_OUTPUT", &output)
            .env("RUNNER_TEMP", sb.path())
            .env("GITHUB_RUN_ID", "1")
            .env("GITHUB_JOB", "test")
            .output()
            .unwrap();
        assert!(out.status.success(), "the run step itself never fails");
        let outputs = std::fs::read_to_string(&output).unwrap();
        let get = |k: &str| {
            outputs
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{k}=")))
                .unwrap()
                .to_string()
        };
        (get("exit-code"), get("json"))
    };
    // Quotes are honoured: "A  B" is one statement, a known dead end (1).
    let (code, json) = run("deadend check 'A  B'");
    assert_eq!(code, "1");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    assert_eq!(report["known"], true);
    let (code, _) = run("deadend check c");
    assert_eq!(code, "0");
    let (code, _) = run("deadend frobnicate");
    assert_eq!(code, "2");

    let fail = |code: &str, fail_on: &str| {
        std::process::Command::new("bash")
            .args(["-c", &step_script("Fail on the chosen exit codes", &[])])
            .env("CODE", code)
            .env("FAIL_ON", fail_on)
            .output()
            .unwrap()
            .status
            .success()
    };
    assert!(fail("1", "2"), "a no passes by default");
    assert!(!fail("2", "2"));
    assert!(!fail("1", "1,2"));
    assert!(!fail("3", "2 3"));
    assert!(fail("0", "1 2 3"));
    assert!(!fail("", "2"), "a command that never ran fails");
}

#[test]
fn the_release_workflow_builds_bin_wheels_with_maturin_and_publishes_them() {
    let workflow = yaml(&root().join(".github/workflows/wheels.yml"));
    let tags = key(key(key(&workflow, "on"), "push"), "tags");
    assert_eq!(tags.as_sequence().unwrap()[0].as_str(), Some("v*"));
    let jobs = key(&workflow, "jobs");
    let uses = |job: &str| -> Vec<String> {
        key(key(jobs, job), "steps")
            .as_sequence()
            .unwrap()
            .iter()
            .filter_map(|s| s.get("uses")?.as_str().map(str::to_string))
            .collect()
    };
    assert!(uses("wheels")
        .iter()
        .any(|u| u.starts_with("PyO3/maturin-action@")));
    assert!(uses("sdist")
        .iter()
        .any(|u| u.starts_with("PyO3/maturin-action@")));
    assert!(uses("publish")
        .iter()
        .any(|u| u.starts_with("pypa/gh-action-pypi-publish@")));
    let publish = key(jobs, "publish");
    assert_eq!(text(key(publish, "permissions"), "id-token"), "write");
    // The wheel holds the binary: pyproject.toml says so.
    let pyproject = std::fs::read_to_string(root().join("pyproject.toml")).unwrap();
    let pyproject: toml::Value = toml::from_str(&pyproject).unwrap();
    assert_eq!(
        pyproject["tool"]["maturin"]["bindings"].as_str(),
        Some("bin")
    );
    assert_eq!(
        pyproject["build-system"]["build-backend"].as_str(),
        Some("maturin")
    );
    // .ci/run builds the wheel and runs arx from it.
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    for needle in ["maturin\" build", "arx --version", "arx demo"] {
        assert!(ci.contains(needle), ".ci/run: {needle}");
    }
}
