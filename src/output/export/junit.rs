//! JUnit XML: every run a test case, so any CI shows the verdicts. A kept
//! or supported run passes; a discarded or refuted one fails with its
//! detail; a crash is an error with its failure class; an inconclusive
//! run, or one whose status this version does not know, is skipped.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Duration;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::Exporter;
use crate::kernel::report::{Case, Class};

/// A JUnit report, written with `quick-junit`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Junit;

impl Exporter<[Case]> for Junit {
    fn export(&self, cases: &[Case], out: &mut dyn Write) -> anyhow::Result<()> {
        report(cases).serialize(out)?;
        Ok(())
    }
}

fn status(case: &Case) -> TestCaseStatus {
    let mut status = match case.class {
        Class::Pass => return TestCaseStatus::success(),
        Class::Fail => TestCaseStatus::non_success(NonSuccessKind::Failure),
        Class::Crash => TestCaseStatus::non_success(NonSuccessKind::Error),
        Class::Inconclusive | Class::Other => TestCaseStatus::skipped(),
    };
    let message = match (&case.detail, case.class) {
        (Some(d), _) => format!("{}: {d}", case.status),
        (None, _) => case.status.clone(),
    };
    status.set_message(message);
    status.set_type(match (case.class, &case.failure_class) {
        (Class::Crash, Some(class)) => class.clone(),
        _ => case.status.clone(),
    });
    status
}

/// The report: one suite per segment (or metric and candidate), in order
/// of first appearance.
pub fn report(cases: &[Case]) -> Report {
    let mut order: Vec<&str> = Vec::new();
    let mut suites: BTreeMap<&str, TestSuite> = BTreeMap::new();
    for case in cases {
        let suite = suites.entry(&case.suite).or_insert_with(|| {
            order.push(&case.suite);
            TestSuite::new(case.suite.as_str())
        });
        let mut tc = TestCase::new(case.name.as_str(), status(case));
        tc.set_classname(case.suite.as_str());
        tc.set_time(Duration::from_millis(case.duration_ms));
        suite.add_test_case(tc);
    }
    let mut report = Report::new("arx");
    for name in order {
        if let Some(suite) = suites.remove(name) {
            report.add_test_suite(suite);
        }
    }
    report
}
