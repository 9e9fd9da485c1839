//! Small truths of what arx says: the report counts tries and runs each by
//! its word, its page's runs table wraps its free text, and a baseline run
//! that gives no number after runs that did is told and left out (the
//! baseline goes on).

use crate::support::{commit_all, stderr, Sandbox};

/// The metric is the number in `value.txt`; the run whose number is in
/// `nan-at` prints `NaN` instead (a result line arx rejects).
const SCORE: &str = r#"#!/bin/sh
n=$(cat .count 2>/dev/null || echo 0); n=$((n + 1)); echo $n > .count
if [ "$n" = "$(cat nan-at 2>/dev/null)" ]; then
  echo '__RESULT__ {"m": NaN}'
else
  echo "__RESULT__ {\"m\": $(cat value.txt)}"
fi
"#;

fn repo(baseline_repeat: u32) -> Sandbox {
    let sb = Sandbox::new();
    sb.write("score.sh", SCORE);
    sb.write("value.txt", "10");
    sb.write(".gitignore", ".arx/\n.count\nnan-at\n");
    sb.write(
        "arx.toml",
        format!(
            "[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\ndirection = \"min\"\n\
             command = \"sh score.sh\"\nrepeat = 1\nbaseline_repeat = {baseline_repeat}\nrule = \"strict\"\n"
        ),
    );
    commit_all(sb.path());
    sb
}

fn arx(sb: &Sandbox, args: &[&str]) -> (i32, String, String) {
    let o = sb.arx().args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr(&o),
    )
}

#[test]
fn the_report_counts_tries_and_runs_each_by_its_word() {
    let sb = repo(3);
    assert_eq!(arx(&sb, &["try", "-m", "baseline"]).0, 0);
    sb.write("value.txt", "9");
    assert_eq!(arx(&sb, &["try", "-m", "lower"]).0, 0);
    sb.write("value.txt", "12");
    assert_eq!(arx(&sb, &["try", "-m", "higher"]).0, 1);
    // Three tries, which took 3 + 1 + 1 runs.
    let (_, text, _) = arx(&sb, &["report"]);
    assert!(text.contains("3 tries (5 runs), 1 segment"), "{text}");
    assert!(text.contains("last 3 tries"), "{text}");
    let (_, md, _) = arx(&sb, &["report", "--markdown"]);
    assert!(md.contains("3 tries (5 runs), 1 segment"), "{md}");
    assert!(md.contains("### Last 3 tries"), "{md}");
    assert_eq!(arx(&sb, &["report", "--html", "r.html"]).0, 0);
    let html = sb.read("r.html");
    assert!(html.contains("3 tries (5 runs), 1 segment"), "{html}");
    // The runs table fits the window: its free text wraps.
    assert!(html.contains("#runs{font-size:13px;width:100%}"), "{html}");
    assert!(html.contains("td.w{overflow-wrap:anywhere"), "{html}");
    assert!(html.contains("<td class=\"w\">lower</td>"), "{html}");
}

#[test]
fn a_baseline_run_without_its_number_after_runs_with_it_is_told_and_left_out() {
    let sb = repo(5);
    sb.write("nan-at", "3");
    let (code, _, err) = arx(&sb, &["try", "-m", "baseline"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("run 3 of 5 gave no number for m, which the runs before it printed"),
        "{err}"
    );
    let journal = sb.journal();
    let baseline = &journal[0];
    assert_eq!(baseline["ratchet"]["status"], "baseline");
    // Five runs, four samples: the baseline did not stop at two.
    assert_eq!(
        baseline["samples"].as_array().unwrap().len(),
        4,
        "{baseline}"
    );
    assert_eq!(sb.read(".count").trim(), "5");
}
