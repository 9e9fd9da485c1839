//! `arx serve` in a real headless browser (Debian's `chromium`), reached
//! through a port forward as over SSH (`ssh -L`): a TCP forwarder on
//! loopback that passes bytes both ways, as sshd does, so the browser
//! asks for `localhost:<forwarded port>`. The test drives the open page
//! through Chromium's DevTools protocol (a small WebSocket client below):
//! a try appended to the journal appears in the page's run table within
//! 2 s, the page is not loaded again, and the page's own marks (a value
//! set in it before the try ended) are still there.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use libtest_mimic::{Failed, Trial};
use serde_json::{json, Value};

use crate::needs;

pub fn trials() -> Vec<Trial> {
    vec![needs::trial(
        "serve::a_try_that_ends_appears_on_the_open_page_through_a_port_forward",
        needs::chromium,
        live_page,
    )]
}

fn fail(what: impl std::fmt::Display) -> Failed {
    Failed::from(what.to_string())
}

fn try_line(i: usize, status: &str, value: f64) -> String {
    json!({
        "run_id": format!("019{i:05x}-0000-7000-8000-{i:012x}"),
        "started_at": format!("2026-11-21T22:{:02}:00Z", i % 60),
        "duration_ms": 300_000,
        "command": ["uv", "run", "train.py"],
        "cwd": "/work",
        "metrics": {"val_bpb": value},
        "exit_code": 0,
        "ratchet": {"segment": "5eb1c0d2", "status": status,
                    "description": format!("change number {i}"), "metric": "val_bpb",
                    "direction": "min", "kept": "a", "commit": format!("{i:040x}")}
    })
    .to_string()
        + "\n"
}

/// A process ended when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A port forward on loopback: every connection to its port is passed to
/// `to`, byte for byte both ways; the request lines are noted.
fn forward(to: String, seen: Arc<Mutex<Vec<String>>>) -> std::io::Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let port = listener.local_addr()?.port();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let Ok(server) = TcpStream::connect(&to) else {
                continue;
            };
            let (mut c_read, mut s_write) =
                (client.try_clone().unwrap(), server.try_clone().unwrap());
            let (mut s_read, mut c_write) = (server, client);
            let seen = seen.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 16384];
                while let Ok(n) = c_read.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    // The request lines (a connection may carry several).
                    let text = String::from_utf8_lossy(&buf[..n]);
                    seen.lock().unwrap().extend(
                        text.lines()
                            .filter(|l| l.ends_with(" HTTP/1.1") || l.ends_with(" HTTP/1.0"))
                            .map(str::to_string),
                    );
                    if s_write.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
                let _ = s_write.shutdown(std::net::Shutdown::Write);
            });
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut s_read, &mut c_write);
                let _ = c_write.shutdown(std::net::Shutdown::Write);
            });
        }
    });
    Ok(port)
}

/// A WebSocket to one DevTools target: text frames out (masked, as a
/// client must), text frames in.
struct DevTools {
    stream: TcpStream,
    next_id: u64,
}

impl DevTools {
    fn connect(url: &str) -> Result<DevTools, Failed> {
        let rest = url
            .strip_prefix("ws://")
            .ok_or_else(|| fail(format!("not a ws URL: {url}")))?;
        let (host, path) = rest.split_once('/').ok_or_else(|| fail(url))?;
        let mut stream = TcpStream::connect(host).map_err(fail)?;
        write!(
            stream,
            "GET /{path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: YXJ4LXNlcnZlLXRlc3QhIQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        .map_err(fail)?;
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            stream.read_exact(&mut byte).map_err(fail)?;
            head.push(byte[0]);
        }
        if !head.starts_with(b"HTTP/1.1 101") {
            return Err(fail(format!(
                "no WebSocket: {}",
                String::from_utf8_lossy(&head)
            )));
        }
        Ok(DevTools { stream, next_id: 1 })
    }

    fn send(&mut self, text: &str) -> Result<(), Failed> {
        let data = text.as_bytes();
        let mut frame = vec![0x81u8];
        match data.len() {
            n if n < 126 => frame.push(0x80 | n as u8),
            n if n < 65536 => {
                frame.push(0x80 | 126);
                frame.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                frame.push(0x80 | 127);
                frame.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        let mask = [0x12u8, 0x34, 0x56, 0x78];
        frame.extend_from_slice(&mask);
        frame.extend(data.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        self.stream.write_all(&frame).map_err(fail)
    }

    fn receive(&mut self) -> Result<String, Failed> {
        let mut message = Vec::new();
        loop {
            let mut h = [0u8; 2];
            self.stream.read_exact(&mut h).map_err(fail)?;
            let mut len = u64::from(h[1] & 0x7f);
            if len == 126 {
                let mut b = [0u8; 2];
                self.stream.read_exact(&mut b).map_err(fail)?;
                len = u64::from(u16::from_be_bytes(b));
            } else if len == 127 {
                let mut b = [0u8; 8];
                self.stream.read_exact(&mut b).map_err(fail)?;
                len = u64::from_be_bytes(b);
            }
            let mut payload = vec![0u8; len as usize];
            self.stream.read_exact(&mut payload).map_err(fail)?;
            message.extend_from_slice(&payload);
            if h[0] & 0x80 != 0 {
                return Ok(String::from_utf8_lossy(&message).into_owned());
            }
        }
    }

    /// The value of a JavaScript expression in the page.
    fn eval(&mut self, expression: &str) -> Result<Value, Failed> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(
            &json!({"id": id, "method": "Runtime.evaluate",
                    "params": {"expression": expression, "returnByValue": true}})
            .to_string(),
        )?;
        self.stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .map_err(fail)?;
        loop {
            let reply: Value = serde_json::from_str(&self.receive()?).map_err(fail)?;
            if reply["id"] == id {
                return Ok(reply["result"]["result"]["value"].clone());
            }
        }
    }
}

/// GET a DevTools HTTP endpoint (HTTP/1.1: it answers nothing to 1.0,
/// and keeps the connection open, so its length is read).
fn devtools_json(port: u16, path: &str) -> Result<Value, Failed> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(fail)?;
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(fail)?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .map_err(fail)?;
    let mut reader = BufReader::new(s);
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).map_err(fail)?;
        if line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().map_err(fail)?;
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).map_err(fail)?;
    serde_json::from_slice(&body).map_err(fail)
}

fn wait<T>(what: &str, within: Duration, mut f: impl FnMut() -> Option<T>) -> Result<T, Failed> {
    let until = Instant::now() + within;
    loop {
        if let Some(v) = f() {
            return Ok(v);
        }
        if Instant::now() > until {
            return Err(fail(format!("timed out waiting for {what}")));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn start_serve(work: &Path) -> Result<(Killed, String), Failed> {
    let mut child = Command::new(needs::arx())
        .args(["serve", "--port", "0"])
        .current_dir(work)
        .env_remove("ARX_STATE_DIR")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(fail)?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .map_err(fail)?;
    let addr = line
        .trim()
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    Ok((Killed(child), addr))
}

fn start_browser(browser: &Path, work: &Path, url: &str) -> Result<(Killed, u16), Failed> {
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-default-apps",
            "--disable-extensions",
            "--disable-sync",
            "--remote-debugging-port=0",
            "--remote-allow-origins=*",
        ])
        .arg(format!(
            "--user-data-dir={}",
            work.join("profile").display()
        ))
        .arg(url)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(fail)?;
    let mut stderr = BufReader::new(child.stderr.take().unwrap()).lines();
    let killed = Killed(child);
    let mut port = None;
    for line in stderr.by_ref() {
        let line = line.map_err(fail)?;
        if let Some(rest) = line.split("DevTools listening on ws://127.0.0.1:").nth(1) {
            port = rest.split('/').next().and_then(|p| p.parse().ok());
            break;
        }
    }
    // Read on, so the browser's later complaints do not meet a closed pipe.
    std::thread::spawn(move || stderr.for_each(drop));
    let port = port.ok_or_else(|| fail("chromium did not say its DevTools port"))?;
    Ok((killed, port))
}

fn live_page(browser: &Path) -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(fail)?;
    let work = dir.path();
    std::fs::create_dir_all(work.join(".arx")).map_err(fail)?;
    let mut journal = try_line(0, "baseline", 1.0);
    for i in 1..30 {
        journal += &try_line(
            i,
            if i % 7 == 0 { "keep" } else { "discard" },
            1.0 - i as f64 / 1000.0,
        );
    }
    std::fs::write(work.join(".arx/journal.jsonl"), journal).map_err(fail)?;
    let (_serve, addr) = start_serve(work)?;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let forwarded = forward(addr, seen.clone()).map_err(fail)?;
    let url = format!("http://localhost:{forwarded}/");
    let (_browser, port) = start_browser(browser, work, &url)?;
    let page = wait("the page's target", Duration::from_secs(20), || {
        let list = devtools_json(port, "/json/list").ok()?;
        list.as_array()?
            .iter()
            .find(|t| t["type"] == "page" && t["url"].as_str().is_some_and(|u| u.starts_with(&url)))
            .and_then(|t| t["webSocketDebuggerUrl"].as_str().map(str::to_string))
    })?;
    let mut tools = DevTools::connect(&page)?;
    let rows = "document.querySelectorAll('#runs tbody tr').length";
    wait(
        "the page and its live stream",
        Duration::from_secs(20),
        || {
            let state = tools
                .eval("document.getElementById('live-state').textContent")
                .ok()?;
            let n = tools.eval(rows).ok()?;
            (state == "live" && n == 30).then_some(())
        },
    )?;
    // A mark in the page: gone if the page were loaded again.
    tools.eval("window.arxMark = 'still here'; 1")?;
    std::fs::OpenOptions::new()
        .append(true)
        .open(work.join(".arx/journal.jsonl"))
        .and_then(|mut f| f.write_all(try_line(30, "keep", 0.9).as_bytes()))
        .map_err(fail)?;
    let ended = Instant::now();
    wait("the new try on the page", Duration::from_secs(2), || {
        (tools.eval(rows).ok()? == 31).then_some(())
    })?;
    let took = ended.elapsed();
    let top = tools.eval("document.querySelector('#runs tbody tr').textContent")?;
    if !top.as_str().is_some_and(|t| t.contains("change number 30")) {
        return Err(fail(format!("the newest row is not on top: {top}")));
    }
    if tools.eval("window.arxMark")? != "still here" {
        return Err(fail("the page was loaded again"));
    }
    let total = tools.eval("document.getElementById('runs-total').textContent")?;
    if total != "31" {
        return Err(fail(format!("the run count says {total}")));
    }
    let loads = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.starts_with("GET / "))
        .count();
    if loads != 1 {
        return Err(fail(format!(
            "the page was asked for {loads} times: {:?}",
            seen.lock().unwrap()
        )));
    }
    if !seen
        .lock()
        .unwrap()
        .iter()
        .any(|l| l.starts_with("GET /events"))
    {
        return Err(fail("the page's stream did not go through the forward"));
    }
    eprintln!("serve: the try was on the page {took:?} after it ended");
    Ok(())
}
