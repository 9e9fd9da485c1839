//! Parity with the reference kernel for life-harness rounds: every case in
//! `fixtures/kernel/{patch_hash,validate_round_patch,should_apply,
//! decide_round,resolve_autonomy,select_evidence}.json` (expected values
//! computed by the reference). Each file's case count is asserted, so a lost
//! or truncated fixture cannot pass silently.

mod common;

use std::collections::HashSet;

use arx::kernel::round::{
    decide_round, patch_hash, resolve_autonomy, select_evidence, should_apply, validate_patch_json,
    validate_round_patch, AutonomyMode, AutonomyState, EvalCheck, EvalReport, Finding, PatchKind,
    RoundPatch, RoundStatus, DEFAULT_CONFIG_PATH,
};
use common::kernel_cases as cases;
use serde_json::{Map, Value};

fn typed_patch(v: &Value) -> RoundPatch {
    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("patch {v}: {e}"))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn kinds(v: &Value) -> Vec<PatchKind> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap().parse().unwrap())
        .collect()
}

fn harness(v: &Value) -> Option<&Map<String, Value>> {
    match v {
        Value::Null => None,
        other => Some(other.as_object().expect("current_harness is an object")),
    }
}

#[test]
fn patch_hash_cases() {
    let cases = cases("patch_hash");
    assert_eq!(cases.len(), 7);
    for c in cases {
        let patch = typed_patch(&c["patch"]);
        assert_eq!(patch_hash(&patch), c["expect"].as_str().unwrap(), "{c}");
    }
}

#[test]
fn validate_round_patch_cases() {
    let cases = cases("validate_round_patch");
    assert_eq!(cases.len(), 27);
    for c in cases {
        let allowed = kinds(&c["allowed_targets"]);
        let deny = strings(&c["deny_paths"]);
        let config_path = c["config_path"].as_str().unwrap();
        let live = harness(&c["current_harness"]);
        let want_valid = c["expect_valid"].as_bool().unwrap();
        let want_count = c["expect_error_count"].as_u64().unwrap() as usize;
        let reference = strings(&c["reference_errors"]);

        let typed = typed_patch(&c["patch"]);
        let errors = validate_round_patch(&typed, &allowed, &deny, config_path, live);
        assert_eq!(errors.is_empty(), want_valid, "{c}\n{errors:?}");
        assert_eq!(errors.len(), want_count, "{c}\n{errors:?}");
        // The messages follow the reference's wording.
        assert_eq!(errors, reference, "{c}");

        // The tolerant JSON reader agrees with the typed rules.
        match validate_patch_json(&c["patch"], &allowed, &deny, config_path, live) {
            Ok(read) => {
                assert!(want_valid, "{c}");
                assert_eq!(read, typed, "{c}");
            }
            Err(json_errors) => assert_eq!(json_errors, errors, "{c}"),
        }
    }
}

#[test]
fn resolve_autonomy_cases() {
    let cases = cases("resolve_autonomy");
    assert_eq!(cases.len(), 20);
    for c in cases {
        let got = resolve_autonomy(&c["config"], c["no_gates"].as_bool().unwrap());
        let e = &c["expect"];
        let want = AutonomyState {
            mode: e["mode"].as_str().unwrap().parse().unwrap(),
            kill_switch: e["kill_switch"].as_bool().unwrap(),
            min_confidence: e["min_confidence"].as_f64().unwrap(),
            min_interval_hours: e["min_interval_hours"].as_u64().unwrap(),
            allowed_targets: kinds(&e["allowed_targets"]),
            ..AutonomyState::default()
        };
        assert_eq!(got, want, "{c}");
        // Fields the reference leaves out keep its select_evidence defaults.
        assert_eq!((got.min_evidence, got.max_evidence), (3, 25), "{c}");
    }
}

#[test]
fn should_apply_cases() {
    let cases = cases("should_apply");
    assert_eq!(cases.len(), 24);
    for c in cases {
        let autonomy = AutonomyState {
            mode: c["mode"].as_str().unwrap().parse().unwrap(),
            kill_switch: c["kill_switch"].as_bool().unwrap(),
            min_confidence: c["min_confidence"].as_f64().unwrap(),
            ..AutonomyState::default()
        };
        let exit_code = if c["eval_passed"].as_bool().unwrap() {
            0
        } else {
            1
        };
        let eval = EvalReport {
            checks: vec![EvalCheck {
                name: "check".to_string(),
                exit_code,
                detail: String::new(),
            }],
        };
        let got = should_apply(&eval, &autonomy, c["confidence"].as_f64().unwrap());
        assert_eq!(got.proceed, c["expect_proceed"].as_bool().unwrap(), "{c}");
        assert_eq!(
            got.pending_gate.map(|g| g.as_str()),
            c["expect_pending_gate"].as_str(),
            "{c}"
        );
    }
}

#[test]
fn decide_round_cases() {
    let cases = cases("decide_round");
    assert_eq!(cases.len(), 8);
    for c in cases {
        let patch = typed_patch(&c["patch"]);
        let a = &c["autonomy"];
        let autonomy = AutonomyState {
            mode: a["mode"].as_str().unwrap().parse::<AutonomyMode>().unwrap(),
            kill_switch: a["kill_switch"].as_bool().unwrap(),
            min_confidence: a["min_confidence"].as_f64().unwrap(),
            allowed_targets: kinds(&a["allowed_targets"]),
            ..AutonomyState::default()
        };
        let seen: HashSet<String> = strings(&c["seen_hashes"]).into_iter().collect();
        let eval: EvalReport =
            serde_json::from_value(serde_json::json!({ "checks": c["eval_checks"] })).unwrap();
        let got = decide_round(
            &patch,
            &autonomy,
            &seen,
            &eval,
            &[],
            DEFAULT_CONFIG_PATH,
            None,
        );
        let want: RoundStatus = c["expect_status"].as_str().unwrap().parse().unwrap();
        assert_eq!(got.status, want, "{c}");
        assert_eq!(got.detail, c["reference_detail"].as_str().unwrap(), "{c}");
    }
}

#[test]
fn select_evidence_cases() {
    let cases = cases("select_evidence");
    assert_eq!(cases.len(), 6);
    for c in cases {
        let findings: Vec<Finding> = serde_json::from_value(c["findings"].clone()).unwrap();
        let got = select_evidence(
            &findings,
            c["min_items"].as_u64().unwrap() as usize,
            c["max_items"].as_u64().unwrap() as usize,
        );
        let contents: Vec<&str> = got.iter().map(|f| f.content.as_str()).collect();
        assert_eq!(contents, strings(&c["expect_contents"]), "{c}");
    }
}
