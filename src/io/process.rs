//! Running an experiment: the one place that spawns processes.
//!
//! The command runs in its own process group with stdin closed. Its stdout
//! and stderr are read by two threads that pass them through live, feed the
//! streaming result scanner and failure classifier, spot `__PROGRESS__`
//! lines and keep short tails, all in bounded memory. The calling thread
//! reacts: it reports events, enforces the timeout (SIGTERM to the whole
//! group, a grace period, then SIGKILL), honours Ctrl-C, and optionally ends
//! the experiment once its result is in. No decisions are made here.

use std::fs::File;
use std::io::{ErrorKind, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use memchr::memmem;
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;

use crate::kernel::contract::{parse_progress_line, Captured, Extracted, Metrics, ResultFormat};
use crate::kernel::failure::{FailureClass, FailureScanner};
use crate::kernel::instances::{from_object as instance_scores, Scores, Unread, MAX_OBJECT_BYTES};

pub use crate::kernel::outcome::{RunOutcome, TIMEOUT_EXIT_CODE};
/// Exit code recorded when the command cannot be found.
pub const NOT_FOUND_EXIT_CODE: i64 = 127;
/// Exit code recorded when the command cannot be executed.
pub const NOT_EXECUTABLE_EXIT_CODE: i64 = 126;

/// Bytes of stdout and stderr kept for the journal.
pub const TAIL_BYTES: usize = 4096;
/// Read size of the output pumps. 64 KiB, not more: a larger read holds
/// the pipe's lock while it copies, and a writer of small blocks (8 KiB,
/// Python's default buffer) spins on that lock; the copy of a large read
/// also leaves the caches, then the scan reads it back. Measured with
/// `bench/run.sh`: 256 KiB reads streamed 8 KiB writers at about half the
/// speed of `| cat`, 64 KiB reads at its speed or faster.
const PUMP_CHUNK: usize = 64 * 1024;
/// Longest line still inspected for a `__PROGRESS__` record.
const MAX_PROGRESS_LINE: usize = 64 * 1024;

/// Where a stream of the experiment is passed through to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sink {
    Stdout,
    Stderr,
    Discard,
}

/// How to run one experiment.
#[derive(Debug, Clone)]
pub struct RunSpec {
    /// Program and arguments (with `shell`, one shell command line).
    pub argv: Vec<String>,
    pub shell: bool,
    /// Variables added to the experiment's environment.
    pub env: Vec<(String, String)>,
    /// Working directory (default: arx's own).
    pub cwd: Option<std::path::PathBuf>,
    pub timeout: Option<Duration>,
    /// Between SIGTERM and SIGKILL.
    pub grace: Duration,
    /// End the experiment this long after its result line arrived.
    pub stop_after_result: Option<Duration>,
    pub heartbeat: Duration,
    pub stdout_to: Sink,
    pub stderr_to: Sink,
    /// Wraps every write of passed-through output, so that a progress
    /// display can clear itself around it.
    pub passthrough: Passthrough,
    /// Slots and launcher, applied by `ops::attempts` before the run
    /// starts (never here); `None`: run as given.
    pub place: Option<Arc<crate::kernel::launch::Place>>,
    /// How the experiment's stdout carries its metrics.
    pub result: ResultFormat,
    /// The result line's key holding per-instance scores, read into
    /// [`RunOutcome::instances`] (`None`: not read).
    pub instances: Option<String>,
}

/// A wrapper run around each write of the experiment's output to the
/// terminal (a progress display clears itself for the write). The default
/// just writes.
#[derive(Clone, Default)]
pub struct Passthrough(Option<Arc<WrapFn>>);

/// The wrapper itself: called with the write to perform.
type WrapFn = dyn Fn(&mut dyn FnMut()) + Send + Sync;

impl Passthrough {
    pub fn new(wrap: impl Fn(&mut dyn FnMut()) + Send + Sync + 'static) -> Self {
        Passthrough(Some(Arc::new(wrap)))
    }

    fn write(&self, f: &mut impl Write, chunk: &[u8]) -> std::io::Result<()> {
        let Some(wrap) = &self.0 else {
            return f.write_all(chunk);
        };
        let mut result = Ok(());
        wrap(&mut || result = f.write_all(chunk));
        result
    }
}

impl std::fmt::Debug for Passthrough {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Passthrough(wrapped)"
        } else {
            "Passthrough(plain)"
        })
    }
}

/// What binds one run to its caller beyond its command.
#[derive(Debug, Clone, Default)]
pub struct Binding {
    /// A descriptor the experiment's processes inherit (its slot's lock):
    /// what it locks stays locked while one of them holds it, even after
    /// arx is gone.
    pub inherit: Option<std::os::fd::RawFd>,
    /// Raised by another thread when the caller has news to write (a job
    /// id found): the runner lowers it and calls back with
    /// [`RunEvent::Nudged`] within one tick, rather than at the next event.
    pub nudge: Option<Arc<AtomicBool>>,
}

/// What happened while running, reported as it happens.
#[derive(Debug, Clone)]
pub enum RunEvent {
    Started {
        pid: u32,
    },
    Progress(Metrics),
    Result(Metrics),
    Heartbeat {
        elapsed: Duration,
    },
    /// The binding's nudge was raised: the caller has news of its own to
    /// write (nothing happened in the experiment).
    Nudged,
}

/// Keeps the last bytes of a stream.
#[derive(Debug, Default)]
struct Tail {
    buf: Vec<u8>,
}

impl Tail {
    fn push(&mut self, chunk: &[u8]) {
        if chunk.len() >= TAIL_BYTES {
            self.buf.clear();
            self.buf
                .extend_from_slice(&chunk[chunk.len() - TAIL_BYTES..]);
            return;
        }
        let excess = (self.buf.len() + chunk.len()).saturating_sub(TAIL_BYTES);
        self.buf.drain(..excess);
        self.buf.extend_from_slice(chunk);
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.buf).into_owned()
    }
}

/// Finds complete `__PROGRESS__ {json}` lines in a stream. Chunks without
/// a marker cost one SIMD search; only lines holding a marker are copied.
struct ProgressLines {
    finder: memmem::Finder<'static>,
    /// The rest of the current line after a marker, while collecting.
    line: Vec<u8>,
    collecting: bool,
    /// The line grew too long to be a progress record; skip to its end.
    overflow: bool,
    /// Bytes after the last newline of the previous chunk that may begin a
    /// marker (fewer than the marker's length).
    carry: Vec<u8>,
}

const PROGRESS: &[u8] = b"__PROGRESS__";

impl ProgressLines {
    fn new() -> Self {
        ProgressLines {
            finder: memmem::Finder::new(PROGRESS),
            line: Vec::new(),
            collecting: false,
            overflow: false,
            carry: Vec::new(),
        }
    }

    /// Collect the line from `chunk[from..]`; returns where scanning goes on
    /// (past the newline), or `None` when the chunk ended inside the line.
    fn collect(
        &mut self,
        chunk: &[u8],
        from: usize,
        found: &mut impl FnMut(Metrics),
    ) -> Option<usize> {
        let rest = &chunk[from..];
        let (part, end) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], Some(from + i + 1)),
            None => (rest, None),
        };
        if !self.overflow {
            if self.line.len() + part.len() <= MAX_PROGRESS_LINE {
                self.line.extend_from_slice(part);
            } else {
                self.overflow = true;
                self.line.clear();
            }
        }
        if end.is_some() {
            if !self.overflow {
                if let Some(m) = parse_progress_line(&self.line) {
                    found(m);
                }
            }
            self.collecting = false;
            self.overflow = false;
            self.line.clear();
        }
        end
    }

    /// Feed a chunk; call `found` with the metrics of each progress line.
    #[cfg(test)]
    fn feed(&mut self, chunk: &[u8], found: &mut impl FnMut(Metrics)) {
        self.feed_marked(chunk, None, found);
    }

    /// [`ProgressLines::feed`], with the start of every complete marker in
    /// the chunk given by the caller (`None`: search for them here).
    fn feed_marked(
        &mut self,
        chunk: &[u8],
        marks: Option<&[usize]>,
        found: &mut impl FnMut(Metrics),
    ) {
        if chunk.is_empty() {
            return;
        }
        let mut pos = 0;
        let carry = std::mem::take(&mut self.carry);
        if self.collecting {
            match self.collect(chunk, 0, found) {
                Some(next) => pos = next,
                None => return,
            }
        } else if !carry.is_empty() {
            // A marker split across the chunk boundary.
            let mut window = carry.clone();
            let head = &chunk[..chunk.len().min(PROGRESS.len())];
            let carried = window.len();
            window.extend_from_slice(head);
            if let Some(at) = self.finder.find(&window) {
                if at < carried && !window[..at + PROGRESS.len()].contains(&b'\n') {
                    self.collecting = true;
                    match self.collect(chunk, at + PROGRESS.len() - carried, found) {
                        Some(next) => pos = next,
                        None => return,
                    }
                }
            }
        }
        loop {
            let next = match marks {
                None => self.finder.find(&chunk[pos..]).map(|i| pos + i),
                Some(m) => m.iter().copied().find(|&a| a >= pos),
            };
            let Some(at) = next else { break };
            self.collecting = true;
            match self.collect(chunk, at + PROGRESS.len(), found) {
                Some(next) => pos = next,
                None => return,
            }
        }
        // The unfinished last line, which may end in the start of a marker
        // (with the previous carry when the chunk did not end any line).
        let mut tail = match memchr::memrchr(b'\n', &chunk[pos..]) {
            Some(i) => chunk[pos + i + 1..].to_vec(),
            None if pos == 0 && chunk.len() < PROGRESS.len() => [carry.as_slice(), chunk].concat(),
            None if pos == 0 => chunk[chunk.len() - PROGRESS.len()..].to_vec(),
            None => chunk[pos..].to_vec(),
        };
        let keep = tail.len().min(PROGRESS.len() - 1);
        tail.drain(..tail.len() - keep);
        self.carry = tail;
    }
}

/// Finds both markers of a chunk in one pass: every `__` (a SIMD search),
/// then which marker, if any, starts there. Only complete markers are
/// found; the scanners handle markers split across chunks themselves.
struct Markers {
    finder: memmem::Finder<'static>,
    progress: Vec<usize>,
}

const RESULT_MARKER: &[u8] = b"__RESULT__";

impl Markers {
    fn new() -> Self {
        Markers {
            finder: memmem::Finder::new(b"__"),
            progress: Vec::new(),
        }
    }

    /// Scan `chunk`: whether it holds a result marker; the progress
    /// markers' starts are left in `self.progress`.
    fn scan(&mut self, chunk: &[u8]) -> bool {
        self.progress.clear();
        let mut result = false;
        let mut pos = 0;
        while let Some(i) = self.finder.find(&chunk[pos..]) {
            let at = pos + i;
            let rest = &chunk[at..];
            if rest.starts_with(PROGRESS) {
                self.progress.push(at);
            } else if rest.starts_with(RESULT_MARKER) {
                result = true;
            }
            pos = at + 1;
        }
        result
    }
}

enum Msg {
    Result(Metrics),
    /// The progress lines of one chunk (one message, one wake-up).
    Progress(Vec<Metrics>),
    StdoutDone {
        found: Extracted,
        tail: String,
        bytes: u64,
    },
    StderrDone {
        class: (FailureClass, Option<&'static str>),
        tail: String,
        bytes: u64,
    },
    Exited(std::process::ExitStatus),
}

/// A raw handle to one of our own standard streams (no line buffering).
fn sink_file(sink: Sink) -> Option<File> {
    use std::os::fd::AsFd;
    let fd = match sink {
        Sink::Stdout => std::io::stdout().as_fd().try_clone_to_owned().ok()?,
        Sink::Stderr => std::io::stderr().as_fd().try_clone_to_owned().ok()?,
        Sink::Discard => return None,
    };
    Some(File::from(fd))
}

fn read_retrying(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    loop {
        match r.read(buf) {
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

/// Pass a stream through while `inspect` looks at every chunk.
fn pump(
    mut from: impl Read,
    sink: Sink,
    passthrough: &Passthrough,
    mut inspect: impl FnMut(&[u8]),
) -> (Tail, u64) {
    let mut out = sink_file(sink);
    let mut buf = vec![0u8; PUMP_CHUNK];
    let mut tail = Tail::default();
    let mut total = 0u64;
    while let Ok(n) = read_retrying(&mut from, &mut buf) {
        if n == 0 {
            break;
        }
        let chunk = &buf[..n];
        total += n as u64;
        if let Some(f) = out.as_mut() {
            if passthrough.write(f, chunk).is_err() {
                // Our own output is gone (closed pipe): keep reading so the
                // experiment is not killed, stop passing through.
                out = None;
            }
        }
        inspect(chunk);
        tail.push(chunk);
    }
    (tail, total)
}

/// The variables arx reads for itself, removed from the environment of
/// every experiment, check and held-out command: where the held-out
/// journal and configuration are, failpoints, the sandbox program, the
/// portable switch of arx's tests and the state directory. What a run is
/// handed is documented: `ARX_SEED` (paired seeds), `ARX_RUN_ID` and the
/// slot variable (`slot_env`).
pub const INTERNAL_ENV: [&str; 6] = [
    super::platform::PORTABLE_ENV,
    super::holdout::ENV,
    super::holdout::CONFIG_ENV,
    super::failpoint::VAR,
    super::sandbox::BWRAP_ENV,
    "ARX_STATE_DIR",
];

fn build_command(spec: &RunSpec, binding: &Binding) -> Command {
    let mut cmd = if spec.shell {
        let mut c = Command::new("/bin/sh");
        c.arg("-c").arg(spec.argv.join(" "));
        c
    } else {
        let mut c = Command::new(&spec.argv[0]);
        c.args(&spec.argv[1..]);
        c
    };
    if let Some(dir) = &spec.cwd {
        cmd.current_dir(dir);
    }
    // What arx reads for itself is arx's, not the experiment's.
    for var in INTERNAL_ENV {
        cmd.env_remove(var);
    }
    cmd.envs(spec.env.iter().map(|(k, v)| (k, v)));
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    if let Some(fd) = binding.inherit {
        // SAFETY: runs in the child between fork and exec, and calls only
        // fcntl, which is async-signal-safe; `fd` is open in the parent,
        // so in the child.
        unsafe {
            cmd.pre_exec(move || {
                use nix::fcntl::{fcntl, FcntlArg, FdFlag};
                fcntl(fd, FcntlArg::F_SETFD(FdFlag::empty()))
                    .map(drop)
                    .map_err(std::io::Error::from)
            });
        }
    }
    cmd
}

/// Longest a progress line waits in the reader while more output follows.
const PROGRESS_BATCH: Duration = Duration::from_millis(20);

/// Is there output to read at once (without blocking)?
fn readable(fd: std::os::fd::RawFd) -> bool {
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    // SAFETY: the caller owns `fd` and keeps it open for this call.
    let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) };
    let mut fds = [PollFd::new(fd, PollFlags::POLLIN)];
    matches!(poll(&mut fds, PollTimeout::ZERO), Ok(n) if n > 0)
        && fds[0]
            .revents()
            .is_some_and(|r| r.contains(PollFlags::POLLIN))
}

/// Bytes the experiment's stdout pipe may hold (the kernel's default is
/// 64 KiB): a chatty experiment then writes in large blocks and both sides
/// wake up far less often. 1 MiB is the default limit for unprivileged
/// processes; when refused, the pipe stays as it is.
const PIPE_BYTES: i32 = 1 << 20;

fn widen_pipe(pipe: &impl std::os::fd::AsRawFd) {
    super::platform::widen_pipe(pipe.as_raw_fd(), PIPE_BYTES);
}

/// Send `signal` to the whole process group; false when it is gone.
fn signal_group(pgid: Pid, signal: Signal) -> bool {
    killpg(pgid, signal).is_ok()
}

/// Is anything left in the process group?
fn group_alive(pgid: Pid) -> bool {
    killpg(pgid, None).is_ok()
}

/// What the caller wants after an event: go on, or end the experiment
/// now (its progress says it is hopeless: it is pruned).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Go,
    Prune,
}

/// Run one experiment. `interrupt` is raised by the caller's signal handler.
pub fn run(
    spec: &RunSpec,
    interrupt: &Arc<AtomicBool>,
    mut on_event: impl FnMut(&RunEvent),
) -> Result<RunOutcome> {
    run_reacting(spec, interrupt, |e| {
        on_event(e);
        Flow::Go
    })
}

/// Run one experiment; `on_event` may end it (pruned) after any event:
/// SIGTERM to the whole group, the grace period, then SIGKILL, as for a
/// timeout.
pub fn run_reacting(
    spec: &RunSpec,
    interrupt: &Arc<AtomicBool>,
    on_event: impl FnMut(&RunEvent) -> Flow,
) -> Result<RunOutcome> {
    run_bound(spec, &Binding::default(), interrupt, on_event)
}

/// [`run_reacting`], bound to its caller as `binding` says.
pub fn run_bound(
    spec: &RunSpec,
    binding: &Binding,
    interrupt: &Arc<AtomicBool>,
    mut on_event: impl FnMut(&RunEvent) -> Flow,
) -> Result<RunOutcome> {
    anyhow::ensure!(!spec.argv.is_empty(), "no command to run");
    let start = Instant::now();
    let mut child = match build_command(spec, binding).spawn() {
        Ok(c) => c,
        Err(e) => return Ok(spawn_failure(spec, &e, start)),
    };
    let pid = child.id();
    let pgid = Pid::from_raw(pid as i32);
    super::failpoint::hit(super::failpoint::RUN_AFTER_SPAWN);
    let mut flow = on_event(&RunEvent::Started { pid });

    let (tx, rx) = mpsc::channel::<Msg>();
    let stdout = child.stdout.take().context("no stdout pipe")?;
    widen_pipe(&stdout);
    let stderr = child.stderr.take().context("no stderr pipe")?;

    let tx_out = tx.clone();
    let stdout_to = spec.stdout_to;
    let instances = spec.instances.clone();
    let read_instances: Arc<std::sync::Mutex<Option<Result<Scores, Unread>>>> = Arc::default();
    let instances_out = read_instances.clone();
    let passthrough = spec.passthrough.clone();
    let mut scanner = match instances.is_some() {
        true => spec.result.capturing_extractor(MAX_OBJECT_BYTES + 1),
        false => spec.result.extractor(),
    };
    std::thread::Builder::new()
        .name("arx-stdout".into())
        .spawn(move || {
            let mut progress = ProgressLines::new();
            let mut sent = false;
            let fd = std::os::fd::AsRawFd::as_raw_fd(&stdout);
            // Progress lines wait here while more output is ready at once
            // (for at most PROGRESS_BATCH): a chatty experiment wakes the
            // runner a few dozen times a second, not once per chunk.
            let mut pending: Vec<Metrics> = Vec::new();
            let mut since = Instant::now();
            let mut markers = Markers::new();
            let (tail, bytes) = pump(stdout, stdout_to, &passthrough, |chunk| {
                // One pass finds both markers; the scanners skip the rest.
                let has_result = markers.scan(chunk);
                let settled = !sent && scanner.feed(chunk, has_result);
                if settled {
                    sent = true;
                    let m = scanner.settled().cloned().unwrap_or_default();
                    if !pending.is_empty() {
                        let _ = tx_out.send(Msg::Progress(std::mem::take(&mut pending)));
                    }
                    let _ = tx_out.send(Msg::Result(m));
                }
                if pending.is_empty() {
                    since = Instant::now();
                }
                progress.feed_marked(chunk, Some(&markers.progress), &mut |m| pending.push(m));
                if !pending.is_empty() && (since.elapsed() >= PROGRESS_BATCH || !readable(fd)) {
                    let _ = tx_out.send(Msg::Progress(std::mem::take(&mut pending)));
                }
            });
            if !pending.is_empty() {
                let _ = tx_out.send(Msg::Progress(pending));
            }
            let (found, captured) = scanner.finish_captured();
            if let (Some(key), Some(c)) = (&instances, captured) {
                *read_instances.lock().unwrap_or_else(|e| e.into_inner()) = Some(match c {
                    Captured::Text(text) => instance_scores(&text, key),
                    Captured::TooLong => Err(Unread::TooLong),
                });
            }
            if !sent && !found.metrics.is_empty() {
                let _ = tx_out.send(Msg::Result(found.metrics.clone()));
            }
            let _ = tx_out.send(Msg::StdoutDone {
                found,
                tail: tail.text(),
                bytes,
            });
        })
        .context("cannot start the stdout reader")?;

    let tx_err = tx.clone();
    let stderr_to = spec.stderr_to;
    let passthrough = spec.passthrough.clone();
    std::thread::Builder::new()
        .name("arx-stderr".into())
        .spawn(move || {
            let mut scanner = FailureScanner::new();
            let (tail, bytes) = pump(stderr, stderr_to, &passthrough, |chunk| scanner.feed(chunk));
            let _ = tx_err.send(Msg::StderrDone {
                class: scanner.finish(false),
                tail: tail.text(),
                bytes,
            });
        })
        .context("cannot start the stderr reader")?;

    let tx_wait = tx;
    std::thread::Builder::new()
        .name("arx-wait".into())
        .spawn(move || {
            if let Ok(status) = child.wait() {
                let _ = tx_wait.send(Msg::Exited(status));
            }
        })
        .context("cannot start the process waiter")?;

    let mut out = RunOutcome {
        format: spec.result.record_name(),
        ..RunOutcome::default()
    };
    // The result as the stdout reader saw it, should the reader never finish.
    let mut scanned: Option<Metrics> = None;
    let mut status = None;
    let mut readers = Readers::default();
    let mut kill_at: Option<Instant> = None; // SIGKILL deadline after SIGTERM
    let mut killed = false;
    let mut stop_at: Option<Instant> = None; // end after the result
    let mut linger_until: Option<Instant> = None; // readers after exit
    let deadline = spec.timeout.map(|t| start + t);
    let mut next_beat = start + spec.heartbeat;
    let tick = Duration::from_millis(50);

    let terminate = |kill_at: &mut Option<Instant>| {
        if kill_at.is_none() {
            signal_group(pgid, Signal::SIGTERM);
            *kill_at = Some(Instant::now() + spec.grace);
        }
    };

    loop {
        match rx.recv_timeout(tick) {
            Ok(Msg::Result(m)) => {
                flow = on_event(&RunEvent::Result(m.clone()));
                scanned = Some(m);
                if let Some(g) = spec.stop_after_result {
                    stop_at.get_or_insert(Instant::now() + g);
                }
            }
            Ok(Msg::Progress(batch)) => {
                for m in batch {
                    if on_event(&RunEvent::Progress(m)) == Flow::Prune {
                        flow = Flow::Prune;
                    } else if flow != Flow::Prune {
                        flow = Flow::Go;
                    }
                }
            }
            Ok(msg @ (Msg::StdoutDone { .. } | Msg::StderrDone { .. })) => {
                readers.absorb(msg, &mut out);
            }
            Ok(Msg::Exited(s)) => {
                status = Some(s);
                // Output may still be draining; processes left behind that
                // hold the pipes open get one grace period, then the group ends.
                linger_until = Some(Instant::now() + spec.grace);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        let now = Instant::now();
        if status.is_some() && readers.done() {
            break;
        }
        if flow == Flow::Prune && !out.pruned && status.is_none() && !out.interrupted {
            out.pruned = true;
            terminate(&mut kill_at);
        }
        if interrupt.load(Ordering::Relaxed) && !out.interrupted {
            out.interrupted = true;
            terminate(&mut kill_at);
        }
        if let Some(d) = deadline {
            if now >= d
                && status.is_none()
                && !out.timed_out
                && !out.interrupted
                && !out.stopped_on_result
                && !out.pruned
            {
                out.timed_out = true;
                terminate(&mut kill_at);
            }
        }
        if let Some(s) = stop_at {
            if now >= s && status.is_none() && !out.stopped_on_result && !out.pruned {
                out.stopped_on_result = true;
                terminate(&mut kill_at);
            }
        }
        if let Some(l) = linger_until {
            if now >= l {
                terminate(&mut kill_at);
            }
        }
        if let Some(k) = kill_at {
            if now >= k && !killed {
                signal_group(pgid, Signal::SIGKILL);
                killed = true;
                linger_until = None;
            }
        }
        if killed && status.is_some() {
            // A process outside the group may still hold a pipe open.
            collect_readers(&rx, &mut out, &mut readers);
            break;
        }
        if binding
            .nudge
            .as_ref()
            .is_some_and(|n| n.swap(false, Ordering::SeqCst))
        {
            // The caller's news; pruning is decided on the experiment's.
            on_event(&RunEvent::Nudged);
        }
        if now >= next_beat {
            flow = on_event(&RunEvent::Heartbeat {
                elapsed: now - start,
            });
            next_beat = now + spec.heartbeat;
        }
    }
    if !readers.done() {
        // A process outside the group (`setsid`, a daemon) holds the
        // output open: keep what was scanned.
        out.output_held = true;
        if !readers.stdout_done {
            out.metrics = scanned.unwrap_or_default();
        }
    }
    out.instances = instances_out
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
        .filter(|_| !out.metrics.is_empty());
    // Leftovers of the experiment's group do not outlive the run.
    if group_alive(pgid) {
        signal_group(pgid, Signal::SIGKILL);
    }
    out.duration = start.elapsed();
    if let Some(s) = status {
        out.signal = s.signal();
        out.exit_code = match (s.code(), s.signal()) {
            (Some(c), _) => i64::from(c),
            (None, Some(sig)) => -i64::from(sig),
            (None, None) => -1,
        };
    }
    if out.timed_out {
        out.exit_code = TIMEOUT_EXIT_CODE;
    }
    let (class, phrase) = if out.timed_out {
        (FailureClass::H4, None)
    } else if out.pruned {
        // Ended by arx, not by a fault of its own.
        (FailureClass::None, None)
    } else if !out.failed()
        || (out.stderr_bytes == 0 && readers.stderr_class.0 == FailureClass::None)
    {
        (FailureClass::None, None)
    } else {
        readers.stderr_class
    };
    out.failure_class = class;
    out.failure_phrase = phrase;
    Ok(out)
}

/// What the two output readers reported when they finished.
#[derive(Default)]
struct Readers {
    stdout_done: bool,
    stderr_done: bool,
    stderr_class: (FailureClass, Option<&'static str>),
}

impl Readers {
    fn done(&self) -> bool {
        self.stdout_done && self.stderr_done
    }

    /// Take a reader's final message into `out` (other messages are ignored).
    fn absorb(&mut self, msg: Msg, out: &mut RunOutcome) {
        match msg {
            Msg::StdoutDone { found, tail, bytes } => {
                out.ignored = found.ignored_note();
                out.metrics = found.metrics;
                out.stdout_tail = tail;
                out.stdout_bytes = bytes;
                self.stdout_done = true;
            }
            Msg::StderrDone { class, tail, bytes } => {
                self.stderr_class = class;
                out.stderr_tail = tail;
                out.stderr_bytes = bytes;
                self.stderr_done = true;
            }
            _ => {}
        }
    }
}

/// After SIGKILL with the child reaped: collect what the readers have,
/// waiting briefly (a process outside the group may hold a pipe open).
fn collect_readers(rx: &mpsc::Receiver<Msg>, out: &mut RunOutcome, readers: &mut Readers) {
    let until = Instant::now() + Duration::from_secs(2);
    while !readers.done() {
        let left = until.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(msg) => readers.absorb(msg, out),
            Err(_) => break,
        }
    }
}

/// The outcome of a command that could not be started.
fn spawn_failure(spec: &RunSpec, e: &std::io::Error, start: Instant) -> RunOutcome {
    let program = if spec.shell { "/bin/sh" } else { &spec.argv[0] };
    let (code, class, msg) = match e.kind() {
        ErrorKind::NotFound => (
            NOT_FOUND_EXIT_CODE,
            FailureClass::H2,
            format!("{program}: command not found"),
        ),
        ErrorKind::PermissionDenied => (
            NOT_EXECUTABLE_EXIT_CODE,
            FailureClass::H3,
            format!("{program}: permission denied"),
        ),
        _ => (
            NOT_EXECUTABLE_EXIT_CODE,
            FailureClass::H4,
            format!("{program}: cannot run: {e}"),
        ),
    };
    RunOutcome {
        exit_code: code,
        failure_class: class,
        stderr_tail: msg.clone(),
        stderr_bytes: msg.len() as u64,
        spawn_error: Some(msg),
        duration: start.elapsed(),
        format: spec.result.record_name(),
        ..RunOutcome::default()
    }
}

/// Can `program` be started: a path to an executable file, or a name
/// found in one of `$PATH`'s directories?
pub fn installed(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &std::path::Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        return executable(std::path::Path::new(program));
    }
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| executable(&dir.join(program))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(chunks: &[&[u8]]) -> Vec<Vec<(String, f64)>> {
        let mut p = ProgressLines::new();
        let mut found = Vec::new();
        for c in chunks {
            p.feed(c, &mut |m: Metrics| {
                found.push(m.iter().map(|(k, v)| (k.to_string(), v)).collect())
            });
        }
        // The one-pass marker scan finds the same lines.
        let mut p = ProgressLines::new();
        let mut markers = Markers::new();
        let mut marked: Vec<Vec<(String, f64)>> = Vec::new();
        for c in chunks {
            markers.scan(c);
            p.feed_marked(c, Some(&markers.progress), &mut |m: Metrics| {
                marked.push(m.iter().map(|(k, v)| (k.to_string(), v)).collect())
            });
        }
        assert_eq!(found, marked, "{chunks:?}");
        found
    }

    /// The result as `feed` finds it, and as the one-pass marker scan
    /// with `feed_unmarked` finds it.
    fn results(chunks: &[&[u8]]) -> (Metrics, Metrics) {
        use crate::kernel::contract::ResultScanner;
        let mut a = ResultScanner::new();
        let mut b = ResultScanner::new();
        let mut markers = Markers::new();
        let (mut done_a, mut done_b) = (false, false);
        for c in chunks {
            if !done_a {
                done_a = a.feed(c);
            }
            if !done_b {
                done_b = if markers.scan(c) {
                    b.feed(c)
                } else {
                    b.feed_unmarked(c)
                };
            }
        }
        (a.finish(), b.finish())
    }

    #[test]
    fn the_one_pass_marker_scan_finds_the_same_result() {
        let texts: [&[u8]; 4] = [
            b"x __RESULT__ {bad\n___RESULT__ {\"a\": 1}\n__PROGRESS__ {\"s\": 1}\n",
            b"__RESULT__\n  {\"a\": 2} }\n__RESULT__ {\"b\": 3}\n",
            b"____RESULT__RESULT__ {\"c\": 4}",
            b"__PROGRESS____RESULT__ {\"d\": 5}\n",
        ];
        for text in texts {
            let (want, _) = results(&[text]);
            for cut in 0..=text.len() {
                for cut2 in cut..=text.len() {
                    let (a, b) = results(&[&text[..cut], &text[cut..cut2], &text[cut2..]]);
                    assert_eq!(a, want, "cuts {cut} {cut2}");
                    assert_eq!(b, want, "cuts {cut} {cut2}");
                }
            }
        }
    }

    #[test]
    fn progress_lines_are_found_wherever_chunks_split() {
        let text: &[u8] = b"a\n__PROGRESS__ {\"loss\": 0.5}\nnoise __PROGRESS__\n__PROGRESS__{\"step\": 2} tail\nx__PROGRESS__ {bad}\n__PROGRESS__ {\"s\": 3}";
        let want = vec![
            vec![("loss".to_string(), 0.5)],
            vec![("step".to_string(), 2.0)],
        ];
        assert_eq!(progress(&[text]), want);
        for cut in 0..=text.len() {
            for cut2 in cut..=text.len() {
                let got = progress(&[&text[..cut], &text[cut..cut2], &text[cut2..]]);
                assert_eq!(got, want, "cuts {cut} {cut2}");
            }
        }
    }

    #[test]
    fn tails_keep_the_last_bytes() {
        let mut t = Tail::default();
        t.push(&[b'a'; 3000]);
        t.push(&[b'b'; 3000]);
        assert_eq!(t.buf.len(), TAIL_BYTES);
        assert!(t.buf.ends_with(&[b'b'; 3000]));
        t.push(&vec![b'c'; 10_000]);
        assert_eq!(t.buf, vec![b'c'; TAIL_BYTES]);
    }
}
