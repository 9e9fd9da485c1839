//! Parity with the reference kernel: every case in `fixtures/kernel/*.json`
//! (expected values computed by the reference) for the kernel functions.
//! Each case is checked and counted; a fixture file with a missing or empty
//! case list fails, so a lost fixture cannot pass silently.

mod common;

use arx::kernel::contract::{compare, parse_metrics, validate_metric_spec, Comparator, Metrics};
use arx::kernel::failure::{classify_run_failure, FailureClass, FailureScanner};
use arx::kernel::gate::{check_gate, resolve_gates, Gate, GateState};
use arx::kernel::policy::{decide_branch, detect_plateau, should_terminate};
use arx::kernel::promote::approach_hash;
use arx::kernel::verdict::{measure, should_promote_dead_end, ExperimentResult, Verdict};
use arx::kernel::{contract::MetricSpec, verdict::EvidenceLevel};
use common::kernel_cases as cases;
use serde_json::Value;

fn num(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap(),
        // Non-finite values are written as strings ("inf", "nan").
        Value::String(s) => s.parse().unwrap(),
        other => panic!("not a number: {other}"),
    }
}

fn verdict(v: &Value) -> Verdict {
    v.as_str().unwrap().parse().unwrap()
}

fn metrics_of(v: &Value) -> Metrics {
    Metrics::from_pairs(
        v.as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), num(v)))
            .collect(),
    )
}

#[test]
fn compare_cases() {
    let cases = cases("compare");
    assert_eq!(cases.len(), 18);
    for c in cases {
        let cmp: Comparator = c["comparator"].as_str().unwrap().parse().unwrap();
        let got = compare(num(&c["value"]), cmp, num(&c["target"]));
        assert_eq!(got, c["expect"].as_bool().unwrap(), "{c}");
    }
}

#[test]
fn measure_cases() {
    let cases = cases("measure");
    assert_eq!(cases.len(), 12);
    for c in cases {
        let spec = MetricSpec {
            metric_key: c["metric_key"].as_str().unwrap().to_string(),
            comparator: c["comparator"].as_str().unwrap().parse().unwrap(),
            target: num(&c["target"]),
        };
        let result = ExperimentResult {
            metrics: metrics_of(&c["metrics"]),
            exit_code: c["exit_code"].as_i64().unwrap(),
            failure_class: c["failure_class"].as_str().unwrap().parse().unwrap(),
        };
        let record = measure(&spec, &result);
        assert_eq!(record.verdict, verdict(&c["expect_verdict"]), "{c}");
        let level: EvidenceLevel = c["expect_evidence_level"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(record.evidence_level, level, "{c}");
        assert_eq!(
            should_promote_dead_end(&record),
            c["expect_promote_dead_end"].as_bool().unwrap(),
            "{c}"
        );
        assert_eq!(record.strategy, "deterministic");
        // Details are informative, but arx renders them as the reference does.
        assert_eq!(
            record.detail,
            c["reference_detail"].as_str().unwrap(),
            "{c}"
        );
    }
}

fn check_metrics(got: &Metrics, expect: &Value, input: &str) {
    let expect = expect.as_object().unwrap();
    let got: Vec<(&str, f64)> = got.iter().collect();
    let want: Vec<(&str, f64)> = expect.iter().map(|(k, v)| (k.as_str(), num(v))).collect();
    assert_eq!(
        got.len(),
        want.len(),
        "input {input:?}: got {got:?}, want {want:?}"
    );
    for ((gk, gv), (wk, wv)) in got.iter().zip(&want) {
        assert_eq!(gk, wk, "input {input:?}");
        assert_eq!(gv.to_bits(), wv.to_bits(), "input {input:?}: key {gk}");
    }
}

#[test]
fn parse_metrics_line_cases() {
    let cases = cases("parse_metrics_line");
    assert_eq!(cases.len(), 48);
    for c in cases {
        let stdout = c["stdout"].as_str().unwrap();
        check_metrics(&parse_metrics(stdout.as_bytes()), &c["expect"], stdout);
    }
}

#[test]
fn parse_metrics_line_cases_byte_by_byte() {
    // The streaming scanner must not depend on how input is chunked.
    for c in cases("parse_metrics_line") {
        let stdout = c["stdout"].as_str().unwrap();
        let mut scanner = arx::kernel::contract::ResultScanner::new();
        for b in stdout.as_bytes() {
            scanner.feed(std::slice::from_ref(b));
        }
        check_metrics(&scanner.finish(), &c["expect"], stdout);
    }
}

#[test]
fn classify_run_failure_cases() {
    let cases = cases("classify_run_failure");
    assert_eq!(cases.len(), 23);
    for c in cases {
        let stderr = c["stderr"].as_str().unwrap();
        let timed_out = c["timed_out"].as_bool().unwrap();
        let want: FailureClass = c["expect"].as_str().unwrap().parse().unwrap();
        assert_eq!(
            classify_run_failure(stderr.as_bytes(), timed_out),
            want,
            "{c}"
        );
        let mut scanner = FailureScanner::new();
        for b in stderr.as_bytes() {
            scanner.feed(std::slice::from_ref(b));
        }
        assert_eq!(scanner.finish(timed_out).0, want, "byte by byte: {c}");
    }
}

#[test]
fn resolve_gates_cases() {
    let cases = cases("resolve_gates");
    assert_eq!(cases.len(), 12);
    for c in cases {
        let got = resolve_gates(&c["config"], c["no_gates"].as_bool().unwrap());
        let want = GateState {
            execute: c["expect"]["execute"].as_bool().unwrap(),
            kg_write: c["expect"]["kg_write"].as_bool().unwrap(),
        };
        assert_eq!(got, want, "{c}");
    }
}

#[test]
fn check_gate_cases() {
    let cases = cases("check_gate");
    assert_eq!(cases.len(), 16);
    for c in cases {
        let gates = GateState {
            execute: c["gates"]["execute"].as_bool().unwrap(),
            kg_write: c["gates"]["kg_write"].as_bool().unwrap(),
        };
        let gate: Gate = c["gate"].as_str().unwrap().parse().unwrap();
        let got = check_gate(&gates, gate, c["approved"].as_bool().unwrap());
        assert_eq!(got.proceed, c["expect_proceed"].as_bool().unwrap(), "{c}");
        assert_eq!(
            got.pending_gate.map(Gate::as_str),
            c["expect_pending_gate"].as_str(),
            "{c}"
        );
    }
    // Unknown gate names fail fast.
    assert!("execution".parse::<Gate>().is_err());
    assert!("".parse::<Gate>().is_err());
}

#[test]
fn decide_branch_cases() {
    let cases = cases("decide_branch");
    assert_eq!(cases.len(), 3);
    for c in cases {
        assert_eq!(
            decide_branch(verdict(&c["verdict"])),
            c["expect"].as_str().unwrap()
        );
    }
}

#[test]
fn should_terminate_cases() {
    let cases = cases("should_terminate");
    assert_eq!(cases.len(), 8);
    for c in cases {
        let (done, status) = should_terminate(
            c["iteration"].as_i64().unwrap(),
            c["max_iterations"].as_i64().unwrap(),
            verdict(&c["last_verdict"]),
        );
        assert_eq!(done, c["expect_done"].as_bool().unwrap(), "{c}");
        assert_eq!(status.as_str(), c["expect_status"].as_str().unwrap(), "{c}");
    }
}

#[test]
fn detect_plateau_cases() {
    let cases = cases("detect_plateau");
    assert_eq!(cases.len(), 10);
    for c in cases {
        let verdicts: Vec<Verdict> = c["verdicts"]
            .as_array()
            .unwrap()
            .iter()
            .map(verdict)
            .collect();
        let window = c["window"].as_u64().unwrap() as usize;
        assert_eq!(
            detect_plateau(&verdicts, window),
            c["expect"].as_bool().unwrap(),
            "{c}"
        );
    }
}

#[test]
fn approach_hash_cases() {
    let cases = cases("approach_hash");
    assert_eq!(cases.len(), 10);
    for c in cases {
        assert_eq!(
            approach_hash(c["statement"].as_str().unwrap()),
            c["expect"].as_str().unwrap(),
            "{c}"
        );
    }
}

#[test]
fn validate_metric_spec_cases() {
    let cases = cases("validate_metric_spec");
    assert_eq!(cases.len(), 7);
    for c in cases {
        let got = validate_metric_spec(
            c["metric_key"].as_str().unwrap(),
            c["comparator"].as_str().unwrap(),
            num(&c["target"]),
        );
        assert_eq!(got.is_ok(), c["expect_valid"].as_bool().unwrap(), "{c}");
    }
}
