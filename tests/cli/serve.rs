//! `arx serve`: the live page over plain HTTP (std's TcpStream): the page,
//! its event stream adding each try as it ends, read-only, loopback only,
//! a taken port, a replaced journal, the runs running now, the ideas, and
//! memory over a night of 10,000 tries.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::Sandbox;

/// A try record: `i` numbers it, the segment starts at 0.
pub fn try_line(i: usize, status: &str, value: f64) -> String {
    json!({
        "run_id": format!("019{i:05x}-0000-7000-8000-{i:012x}"),
        "started_at": format!("2026-11-21T{:02}:{:02}:{:02}Z", 20 + i / 3600 % 4, i / 60 % 60, i % 60),
        "ended_at": format!("2026-11-21T{:02}:{:02}:{:02}Z", 20 + i / 3600 % 4, i / 60 % 60, i % 60),
        "duration_ms": 300_000,
        "command": ["uv", "run", "train.py"],
        "cwd": "/work",
        "git": {"head": format!("{:040x}", i), "branch": "main", "dirty": true},
        "metrics": {"val_bpb": value, "vram_gb": 44.1, "tokens_per_s": 91234.5},
        "exit_code": 0,
        "timed_out": false,
        "failure_class": "none",
        "samples": if status == "discard" { vec![] } else { vec![value, value] },
        "stdout_tail": "step 500 | loss 3.21\nval_bpb: 0.99\n",
        "stderr_tail": "",
        "ratchet": {
            "segment": "5eb1c0d2a1b2c3d4",
            "status": status,
            "description": format!("try number {i}: a change to the schedule"),
            "metric": "val_bpb",
            "direction": "min",
            "rule": "confirm",
            "kept": format!("{:040x}", 7),
            "commit": format!("{:040x}", i + 1),
        }
    })
    .to_string()
}

/// Tries `from..to` of a night, one line each: a baseline, then a keep
/// every 25th and discards.
pub fn tries(from: usize, to: usize) -> String {
    (from..to)
        .map(|i| {
            let (status, v) = match i {
                0 => ("baseline", 1.0),
                i if i % 25 == 0 => ("keep", 1.0 - i as f64 / 1e5),
                i => ("discard", 1.0 + (i % 7) as f64 / 1e3),
            };
            try_line(i, status, v) + "\n"
        })
        .collect()
}

fn append(sb: &Sandbox, text: &str) {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(sb.path().join(".arx/journal.jsonl"))
        .unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

/// A running `arx serve --port 0`, its address read from its stdout;
/// stopped when dropped.
pub struct Server {
    pub child: Child,
    pub addr: String,
}

impl Server {
    pub fn start(sb: &Sandbox, args: &[&str]) -> Server {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("arx"))
            .args(["serve", "--port", "0"])
            .args(args)
            .current_dir(sb.path())
            .env_remove("ARX_STATE_DIR")
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("no URL printed: {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// Resident and peak memory (kB) from /proc.
    pub fn memory(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
                .unwrap()
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A request `METHOD path` with `host` as its Host; the whole answer.
pub fn request(addr: &str, method: &str, path: &str, host: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(s, "{method} {path} HTTP/1.0\r\nHost: {host}\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

pub fn get(addr: &str, path: &str) -> String {
    request(addr, "GET", path, "localhost")
}

/// An open event stream.
pub struct Events {
    stream: TcpStream,
    pub text: String,
}

impl Events {
    pub fn open(addr: &str, since: usize) -> Events {
        let mut stream = TcpStream::connect(addr).unwrap();
        write!(
            stream,
            "GET /events?since={since} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"
        )
        .unwrap();
        let mut e = Events {
            stream,
            text: String::new(),
        };
        e.until("the stream's hello", Duration::from_secs(10), |t| {
            t.contains("event: hello")
        });
        e
    }

    /// Read until `done` holds of what was read; how long it took.
    pub fn until(&mut self, what: &str, within: Duration, done: impl Fn(&str) -> bool) -> Duration {
        let start = Instant::now();
        let mut buf = [0u8; 65536];
        while !done(&self.text) {
            let left = within.saturating_sub(start.elapsed());
            assert!(
                !left.is_zero(),
                "no {what} within {within:?}:\n{}",
                tail(&self.text)
            );
            self.stream.set_read_timeout(Some(left)).unwrap();
            match self.stream.read(&mut buf) {
                Ok(0) => panic!("the stream ended before {what}:\n{}", tail(&self.text)),
                Ok(n) => self.text.push_str(&String::from_utf8_lossy(&buf[..n])),
                Err(e)
                    if e.kind() == std::io::ErrorKind::WouldBlock
                        || e.kind() == std::io::ErrorKind::TimedOut => {}
                Err(e) => panic!("reading the stream: {e}"),
            }
        }
        start.elapsed()
    }

    /// Forget what was read (memory of a long test).
    pub fn clear(&mut self) {
        self.text.clear();
    }
}

fn tail(text: &str) -> &str {
    &text[text.len().saturating_sub(2000)..]
}

/// The data of every event `name` read.
fn data_of(text: &str, name: &str) -> Vec<Value> {
    text.split("\n\n")
        .filter(|e| e.contains(&format!("event: {name}\n")))
        .filter_map(|e| e.lines().find_map(|l| l.strip_prefix("data: ")))
        .filter_map(|d| serde_json::from_str(d).ok())
        .collect()
}

#[test]
fn the_page_shows_the_night_and_each_try_that_ends_comes_on_its_stream() {
    let sb = Sandbox::new();
    sb.write(".arx/journal.jsonl", tries(0, 30));
    let server = Server::start(&sb, &[]);
    let page = get(&server.addr, "/");
    assert!(
        page.starts_with("HTTP/1.1 200") || page.starts_with("HTTP/1.0 200"),
        "{page:.300}"
    );
    assert!(page.contains("content-type: text/html; charset=utf-8"));
    assert!(
        page.contains("connect-src 'self'"),
        "the page may reach its own server only"
    );
    assert!(page.contains("data-last-run=\"30\""));
    assert!(page.contains("<table id=\"runs\">"));
    assert_eq!(page.matches("<tr><td class=\"n\" data-v=").count(), 30);
    assert!(page.contains("<svg"));
    assert!(page.contains("try number 29: a change"));

    let mut events = Events::open(&server.addr, 30);
    events.until("the page's parts", Duration::from_secs(5), |t| {
        t.contains("\"id\":\"rounds\"")
    });
    assert!(data_of(&events.text, "rows").is_empty(), "nothing new yet");
    append(&sb, &tries(30, 31));
    let took = events.until("the new try", Duration::from_secs(2), |t| {
        t.contains("\"n\":31")
    });
    assert!(took < Duration::from_secs(2), "{took:?}");
    let rows = data_of(&events.text, "rows");
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["total"], 31);
    assert!(rows[0]["rows"][0]["html"]
        .as_str()
        .unwrap()
        .contains("try number 30"));
    // The summary and the chart follow.
    events.until("the summary", Duration::from_secs(2), |t| {
        t.contains("31 tries (31 runs)")
    });
    // A stream opened late gets what its page missed.
    let late = Events::open(&server.addr, 29);
    let rows = data_of(&late.text, "rows");
    let got: Vec<_> = rows[0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["n"].as_u64().unwrap())
        .collect();
    assert_eq!(got, [30, 31]);
}

#[test]
fn the_server_is_read_only_and_answers_loopback_names_only() {
    let sb = Sandbox::new();
    sb.write(".arx/journal.jsonl", tries(0, 3));
    let server = Server::start(&sb, &[]);
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        let r = request(&server.addr, method, "/", "localhost");
        assert!(r.contains(" 405 "), "{method}: {r}");
        assert!(r.contains("allow: GET, HEAD"), "{r}");
    }
    let r = request(&server.addr, "GET", "/nothing", "localhost");
    assert!(r.contains(" 404 "), "{r}");
    for host in ["evil.example", "evil.example:80", "10.1.2.3"] {
        let r = request(&server.addr, "GET", "/", host);
        assert!(r.contains(" 403 "), "{host}: {r}");
    }
    for host in ["localhost:8470", "127.0.0.1", "[::1]:1"] {
        let r = request(&server.addr, "GET", "/", host);
        assert!(r.contains(" 200 "), "{host}: {r:.200}");
    }
    let head = request(&server.addr, "HEAD", "/", "localhost");
    assert!(head.contains(" 200 ") && !head.contains("<html"), "{head}");
    let head = request(&server.addr, "HEAD", "/events", "localhost");
    assert!(
        head.contains(" 200 ") && head.contains("text/event-stream"),
        "{head}"
    );
    assert!(!head.contains("event: hello"), "{head}");
    assert!(server.addr.starts_with("127.0.0.1:"), "{}", server.addr);
}

#[test]
fn a_second_server_on_a_taken_port_exits_2_with_a_hint() {
    let sb = Sandbox::new();
    let server = Server::start(&sb, &[]);
    let port = server.addr.rsplit(':').next().unwrap();
    let out = sb.arx().args(["serve", "--port", port]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the port is taken"), "{err}");
    assert!(
        err.contains("hint: pick another port with --port N, or --port 0"),
        "{err}"
    );
    // The first still serves.
    assert!(get(&server.addr, "/").contains(" 200 "));
}

#[test]
fn serve_says_where_it_listens_and_takes_another_address_only_when_named() {
    let sb = Sandbox::new();
    let out = sb
        .arx()
        .args(["serve", "--bind", "192.0.2.1", "--port", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "an address not this machine's");
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("hint: --bind takes an address of this machine"));
    let bad = sb
        .arx()
        .args(["serve", "--bind", "nowhere"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("arx"))
        .args(["serve", "--port", "0", "--json", "--bind", "::1"])
        .current_dir(sb.path())
        .env_remove("ARX_STATE_DIR")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    if line.is_empty() {
        return; // no IPv6 loopback here
    }
    let said: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(said["address"], "::1");
    assert_eq!(said["loopback"], true);
    assert!(said["url"].as_str().unwrap().starts_with("http://[::1]:"));
}

#[test]
fn a_replaced_journal_tells_the_page_to_reload() {
    let sb = Sandbox::new();
    sb.write(".arx/journal.jsonl", tries(0, 10));
    let server = Server::start(&sb, &[]);
    let mut events = Events::open(&server.addr, 10);
    // Rewritten whole (as `arx journal import --undo` does): a new file.
    sb.write(".arx/journal.new", tries(0, 4));
    std::fs::rename(
        sb.path().join(".arx/journal.new"),
        sb.path().join(".arx/journal.jsonl"),
    )
    .unwrap();
    events.until("a reload", Duration::from_secs(3), |t| {
        t.contains("event: reload")
    });
    let page = get(&server.addr, "/");
    assert!(page.contains("data-last-run=\"4\""), "{page:.400}");
}

#[test]
fn the_runs_running_now_the_ideas_and_the_dead_ends_come_on_the_stream() {
    let sb = Sandbox::new();
    sb.write(".arx/journal.jsonl", tries(0, 2));
    let server = Server::start(&sb, &[]);
    let mut events = Events::open(&server.addr, 2);
    sb.arx()
        .args(["idea", "add", "warm up the <learning> rate for longer"])
        .assert()
        .success();
    events.until("the idea", Duration::from_secs(3), |t| {
        t.contains("warm up the &lt;learning&gt; rate for longer")
    });
    // A dead end recorded between tries shows too.
    sb.arx()
        .args([
            "deadend",
            "add",
            "--approve",
            "--reason",
            "diverges",
            "double the learning rate",
        ])
        .assert()
        .success();
    events.until("the dead end", Duration::from_secs(5), |t| {
        t.contains("\"id\":\"rounds\"") && t.contains("double the learning rate")
    });
    let mut run = Command::new(assert_cmd::cargo::cargo_bin("arx"))
        .args(["run", "--no-gates", "--heartbeat", "200ms", "--shell", "--"])
        .arg("echo '__PROGRESS__ {\"step\": 3, \"loss\": 2.5}'; sleep 30")
        .current_dir(sb.path())
        .env_remove("ARX_STATE_DIR")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    events.until("the running run", Duration::from_secs(10), |t| {
        t.contains("step=3 loss=2.5")
    });
    let _ = nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(run.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    );
    let _ = run.wait();
    // It ended: the journal's new run comes as a row, and nothing runs.
    events.until("the ended run", Duration::from_secs(5), |t| {
        t.contains("\"n\":3") && t.rfind("Nothing runs now") > t.rfind("step=3 loss=2.5")
    });
}

/// A night of 10,000 tries appended while a page listens: the server
/// reads the journal a piece at a time and holds the table's latest
/// 5,000 rows and a lean point per try for the chart, not the journal
/// (7 MB here) nor its records read whole.
#[test]
fn memory_stays_bounded_over_a_night_of_ten_thousand_tries() {
    const TRIES: usize = 10_000;
    const BATCH: usize = 500;
    let sb = Sandbox::new();
    sb.write(".arx/journal.jsonl", tries(0, BATCH));
    let server = Server::start(&sb, &[]);
    let mut events = Events::open(&server.addr, BATCH);
    let mut half = None;
    for from in (BATCH..TRIES).step_by(BATCH) {
        append(&sb, &tries(from, from + BATCH));
        let last = format!("\"n\":{}", from + BATCH);
        events.until("the batch", Duration::from_secs(30), |t| t.contains(&last));
        events.clear();
        if from + BATCH == TRIES / 2 {
            half = Some(server.memory().0);
        }
    }
    let page = get(&server.addr, "/");
    assert!(page.contains(&format!("data-last-run=\"{TRIES}\"")));
    let (rss, peak) = server.memory();
    let half = half.unwrap();
    let journal = std::fs::metadata(sb.path().join(".arx/journal.jsonl"))
        .unwrap()
        .len()
        / 1024;
    eprintln!("serve: {TRIES} tries ({journal} kB of journal): rss {half} kB at {}, {rss} kB at the end, peak {peak} kB", TRIES / 2);
    // The second half (the table full): the chart's lean points alone,
    // well under a kB a try (measured: about 0.5).
    assert!(rss < half + 8 * 1024, "grew from {half} kB to {rss} kB");
    assert!(peak < 96 * 1024, "peak {peak} kB");
}

#[test]
fn ctrl_c_stops_the_server_with_exit_0() {
    let sb = Sandbox::new();
    let mut server = Server::start(&sb, &[]);
    assert!(get(&server.addr, "/").contains(" 200 "));
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(server.child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let until = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(s) = server.child.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < until, "still serving after Ctrl-C");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(0));
    assert!(
        TcpStream::connect(&server.addr).is_err(),
        "the port is free again"
    );
}
