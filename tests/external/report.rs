//! `arx report --html` in a real headless browser (Debian's `chromium`):
//! the page renders its run table (a row per run, the script's pager ran)
//! and its `svg` chart, and no request leaves the page (Chromium's network
//! log holds no URL but the page's own file). The same test takes the
//! screenshots of the page and of the chart; with `ARX_SCREENSHOT_DIR` set
//! they are kept there (the README's pictures come from
//! `ARX_SCREENSHOT_DIR=docs/img`).

use std::path::Path;
use std::process::Command;

use libtest_mimic::{Failed, Trial};
use serde_json::json;

use crate::needs;

pub fn trials() -> Vec<Trial> {
    vec![needs::trial(
        "report::html_renders_in_a_headless_browser_without_requests",
        needs::chromium,
        html_renders,
    )]
}

/// A night of tries: a repeated baseline, then changes kept, discarded or
/// crashed, with the loss falling as the kept ones pile up.
fn journal(runs: usize) -> String {
    let mut seed: u64 = 0x5eed;
    let mut next = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let ideas = [
        "double the learning rate",
        "cosine schedule",
        "wider MLP",
        "drop weight decay",
        "rotary embeddings",
        "bigger batch",
        "label smoothing",
        "fewer warmup steps",
        "GELU to SwiGLU",
        "tie embeddings",
    ];
    let mut best = 1.0f64;
    let mut out = String::new();
    for i in 0..runs {
        let started = format!(
            "2026-11-21T{:02}:{:02}:00Z",
            22 + (i * 5) / 60 % 2,
            (i * 5) % 60
        );
        let (status, samples, value): (&str, Vec<f64>, Option<f64>) = if i == 0 {
            let s: Vec<f64> = (0..5).map(|_| 1.0 + (next() - 0.5) * 0.004).collect();
            let m = s.iter().sum::<f64>() / 5.0;
            best = m;
            ("baseline", s, Some(m))
        } else if next() < 0.08 {
            ("crash", vec![], None)
        } else {
            let v = best + (next() - 0.45) * 0.01;
            if v < best - 0.001 {
                let s: Vec<f64> = (0..3).map(|_| v + (next() - 0.5) * 0.002).collect();
                let m = s.iter().sum::<f64>() / 3.0;
                best = m;
                ("keep", s, Some(m))
            } else {
                ("discard", vec![], Some(v))
            }
        };
        let record = json!({
            "run_id": format!("019{i:05x}-0000-7000-8000-{i:012x}"),
            "started_at": started,
            "ended_at": started,
            "duration_ms": 300_000,
            "command": ["uv", "run", "train.py"],
            "cwd": "/work",
            "git": {"head": format!("{:08x}{:032x}", (i as u64 + 1).wrapping_mul(2_654_435_761) as u32, i), "branch": "main", "dirty": true},
            "metrics": match value { Some(v) => json!({"val_bpb": v, "vram_gb": 44.1}), None => json!({}) },
            "exit_code": if value.is_some() { 0 } else { 1 },
            "timed_out": false,
            "failure_class": if value.is_some() { "none" } else { "H4" },
            "samples": samples,
            "stdout_tail": "",
            "stderr_tail": "",
            "ratchet": {
                "segment": "5eb1c0d2a1b2c3d4",
                "status": status,
                "description": ideas[i % ideas.len()],
                "metric": "val_bpb",
                "direction": "min",
                "rule": "confirm",
                "kept": "1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                "commit": format!("{:08x}{:032x}", (i as u64 + 7).wrapping_mul(40_503) as u32 ^ 0x9e37_79b9, i),
            }
        });
        out.push_str(&record.to_string());
        out.push('\n');
    }
    out
}

fn run(cmd: &mut Command, what: &str) -> Result<std::process::Output, Failed> {
    let out = cmd
        .output()
        .map_err(|e| Failed::from(format!("{what}: {e}")))?;
    if !out.status.success() {
        return Err(format!(
            "{what} failed: {}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    Ok(out)
}

/// Chromium, headless, with no background traffic of its own, its
/// network log in `netlog`.
fn chromium(browser: &Path, profile: &Path, netlog: &Path) -> Command {
    let mut cmd = Command::new(browser);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-sync",
        "--hide-scrollbars",
        "--run-all-compositor-stages-before-draw",
        "--virtual-time-budget=2000",
        // Anything that would still go out meets a proxy that is not there.
        "--proxy-server=127.0.0.1:9",
    ])
    .arg(format!("--user-data-dir={}", profile.display()))
    .arg(format!("--log-net-log={}", netlog.display()))
    .arg("--net-log-capture-mode=Everything");
    cmd
}

/// The URLs a page loaded from a file asked for, from Chromium's network
/// log: requests whose network isolation key is the file's (the browser's
/// own background requests carry other keys and are not the page's).
fn page_requests(netlog: &Path) -> Result<Vec<String>, Failed> {
    let text = std::fs::read_to_string(netlog)
        .map_err(|e| Failed::from(format!("no network log: {e}")))?;
    // A log cut short by the browser's exit lacks its closing brackets.
    let log: serde_json::Value = serde_json::from_str(&text)
        .or_else(|_| serde_json::from_str(&format!("{}]}}", text.trim_end().trim_end_matches(','))))
        .map_err(|e| Failed::from(format!("unreadable network log: {e}")))?;
    let mut out = Vec::new();
    for event in log["events"].as_array().into_iter().flatten() {
        let params = &event["params"];
        let (Some(url), Some(key)) = (
            params["url"].as_str(),
            params["network_isolation_key"].as_str(),
        ) else {
            continue;
        };
        if key.starts_with("file://") && !out.iter().any(|u| u == url) {
            out.push(url.to_string());
        }
    }
    Ok(out)
}

/// The page's requests that leave it (anything but `file:` and `data:`).
fn leaving(browser: &Path, work: &Path, page: &Path, name: &str) -> Result<Vec<String>, Failed> {
    let netlog = work.join(format!("netlog-{name}.json"));
    run(
        chromium(browser, &work.join(format!("profile-{name}")), &netlog)
            .arg("--dump-dom")
            .arg(format!("file://{}", page.display())),
        "chromium --dump-dom",
    )?;
    Ok(page_requests(&netlog)?
        .into_iter()
        .filter(|u| !(u.starts_with("file:") || u.starts_with("data:")))
        .collect())
}

fn html_renders(browser: &Path) -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| Failed::from(e.to_string()))?;
    let work = dir.path();
    const RUNS: usize = 60;
    std::fs::create_dir_all(work.join(".arx")).unwrap();
    std::fs::write(work.join(".arx/journal.jsonl"), journal(RUNS)).unwrap();
    std::fs::write(
        work.join("arx.toml"),
        "[objective]\nmetric = \"val_bpb\"\ndirection = \"min\"\n\n[objective.stop]\ntarget = 0.95\n",
    )
    .unwrap();
    run(
        Command::new(needs::arx())
            .current_dir(work)
            .env_remove("ARX_STATE_DIR")
            .args([
                "report",
                "-q",
                "--now",
                "2026-11-22T03:00:00Z",
                "--html",
                "report.html",
                "--svg",
                "chart.svg",
            ]),
        "arx report",
    )?;
    let page = work.join("report.html");
    let dom = run(
        chromium(browser, &work.join("profile"), &work.join("netlog.json"))
            .arg("--dump-dom")
            .arg(format!("file://{}", page.display())),
        "chromium --dump-dom",
    )?;
    let dom = String::from_utf8_lossy(&dom.stdout).into_owned();
    let table = dom
        .split("<table id=\"runs\">")
        .nth(1)
        .and_then(|t| t.split("</table>").next())
        .ok_or("the rendered page has no run table")?;
    let rows = table.matches("<tr").count();
    if rows != RUNS + 1 {
        return Err(
            format!("{rows} table rows rendered, expected a header and {RUNS} runs").into(),
        );
    }
    if !dom.contains("<svg") || !dom.contains("<circle") {
        return Err("the rendered page has no svg chart".into());
    }
    if !dom.contains("page 1 of 1") {
        return Err("the page's script did not run (no pager text)".into());
    }
    let outside = leaving(browser, work, &page, "report")?;
    if !outside.is_empty() {
        return Err(format!("requests left the page: {outside:?}").into());
    }
    // The check sees a request when there is one: a page with an image
    // from elsewhere.
    let control = work.join("control.html");
    std::fs::write(&control, "<img src=\"http://example.invalid/x.png\">").unwrap();
    if leaving(browser, work, &control, "control")?.is_empty() {
        return Err("the network log check does not see a page's request".into());
    }
    // Screenshots of the page and of the chart alone.
    let shots = match std::env::var_os("ARX_SCREENSHOT_DIR") {
        Some(d) if !d.is_empty() => std::path::PathBuf::from(d),
        _ => work.to_path_buf(),
    };
    std::fs::create_dir_all(&shots).map_err(|e| Failed::from(e.to_string()))?;
    for (file, name, size) in [
        (page.clone(), "report-page.png", "1280,1500"),
        (work.join("chart.svg"), "report-chart.png", "960,480"),
    ] {
        let png = shots.join(name);
        run(
            chromium(
                browser,
                &work.join("profile"),
                &work.join("netlog-shot.json"),
            )
            .arg(format!("--screenshot={}", png.display()))
            .arg(format!("--window-size={size}"))
            .arg(format!("file://{}", file.display())),
            "chromium --screenshot",
        )?;
        let bytes = std::fs::read(&png).map_err(|e| Failed::from(format!("{name}: {e}")))?;
        if !bytes.starts_with(b"\x89PNG") || bytes.len() < 10_000 {
            return Err(format!("{name} is not a screenshot ({} bytes)", bytes.len()).into());
        }
    }
    Ok(())
}
