//! The Model Context Protocol front end: `arx mcp` serves the commands as tools
//! to an MCP client (Claude Code, Codex, ...) over stdio, with the official
//! Rust SDK (`rmcp`).
//!
//! Each tool call runs this same binary as a child with the command's flags
//! and `--json` ([`tools`], [`loop_tools`] map a call's arguments to that
//! command line), so a failing command can never take the server down. A
//! result's structured content is the command's `--json` output, declared
//! by the tool's output schema; its text starts with the outcome and the
//! next step in the tools' words ([`answer`]), then the command's warnings
//! and the record in short, at most 2,000 characters. A "no" (exit 1), a
//! crash or an interrupted try (exit 3) are results; an error (exit 2)
//! comes back as a tool error carrying the command's `arx: error:` message
//! and `hint:`. Who opens the `execute` gate is [`gate`]'s. The loop of
//! AGENTS.md is served as the prompt `loop`, the report as the resource
//! `arx://report`. One call runs at a time. stdout belongs to the
//! protocol; the server's own messages go through the caller's [`Warn`]
//! (stderr).

pub mod answer;
#[cfg(test)]
mod command_lines;
mod gate;
pub mod loop_tools;
pub mod tools;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, Result};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, Implementation, ListPromptsResult, ListResourcesResult,
    ListToolsResult, MetaObject, PaginatedRequestParams, ProgressNotificationParam, ProgressToken,
    Prompt, PromptMessage, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    Resource, ResourceContents, Role, ServerCapabilities, ServerConfig, Tool as McpTool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler, ServiceExt};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::sync::Mutex;

use crate::io::Warn;
use tools::{Call, Entry};

/// Most bytes of a command's stdout a tool returns (`arx log` of a huge
/// journal): past this the call is an error that says to ask for less.
const MAX_STDOUT: usize = 16 << 20;
/// Most bytes of a command's stderr kept (its tail): experiments print
/// there under `--json`, and only the last lines carry the error.
const MAX_STDERR: usize = 64 << 10;
/// How often the events file of a running `try` or `run` is read.
const EVENT_POLL: Duration = Duration::from_millis(200);

/// How the server runs each tool.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The arx binary each call runs (this one).
    pub exe: PathBuf,
    /// Global flags given at start, passed to every call (`--state-dir`,
    /// `--config`, `--now`).
    pub global: Vec<String>,
    /// The directory calls run in (the repository).
    pub dir: PathBuf,
    /// Where the server's own messages go.
    pub log: Warn,
    /// The operator approved the gates for every call (`arx mcp
    /// --approve`, or `[mcp] approve = true`): `execute` and `kg_write`.
    pub approve: bool,
}

/// The server: the tool table, and one lock so calls run one at a time.
pub struct Server {
    setup: Setup,
    tools: Vec<Entry>,
    one_at_a_time: Mutex<()>,
}

impl Server {
    pub fn new(setup: Setup) -> Self {
        Server {
            setup,
            tools: tools::table(),
            one_at_a_time: Mutex::new(()),
        }
    }

    fn describe(entry: &Entry) -> McpTool {
        let annotations = ToolAnnotations::new()
            .read_only(entry.read_only)
            .destructive(!entry.read_only && entry.destructive);
        McpTool::new(entry.name, entry.description, (entry.schema)())
            .with_raw_output_schema((entry.output_schema)())
            .with_annotations(annotations)
    }

    async fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let Some(entry) = self.tools.iter().find(|e| e.name == request.name) else {
            return Err(ErrorData::invalid_params(
                format!("unknown tool {:?}", request.name),
                None,
            ));
        };
        let arguments = request
            .arguments
            .map(serde_json::Value::Object)
            .unwrap_or(serde_json::Value::Null);
        let call = match (entry.parse)(arguments) {
            Ok(call) => call,
            Err(message) => return Ok(tool_error(&message, None)),
        };
        let progress = context
            .meta
            .get_progress_token()
            .map(|token| (context.peer.clone(), token));
        let _turn = tokio::select! {
            turn = self.one_at_a_time.lock() => turn,
            () = context.ct.cancelled() => return Err(ErrorData::internal_error("cancelled", None)),
        };
        let mut call = call;
        if call.gate.is_some() {
            let listed = gate::listed(&self.setup, self.config_flag().as_deref(), &call);
            match gate::approval(&self.setup, &context.peer, entry, &call, listed).await {
                gate::Approval::Approved => approve(&mut call),
                gate::Approval::Open => {}
                gate::Approval::Answer(result) => return Ok(*result),
            }
        }
        (self.setup.log)(&format!("mcp: {} {}", entry.name, call.args.join(" ")));
        // A cancelled call ends its child (SIGTERM: arx journals the run as
        // interrupted) and waits for it, holding the turn meanwhile.
        let outcome = run_child(&self.setup, &call, progress, context.ct.cancelled()).await;
        if context.ct.is_cancelled() {
            // The child journaled the try as interrupted (exit 3, not a
            // crash); its change is left for the next call to take up.
            (self.setup.log)(&format!("mcp: {} cancelled: interrupted", entry.name));
            return Err(ErrorData::internal_error(
                "cancelled: the try was journaled as interrupted; its change is still in the working tree (call try again to take it up)",
                None,
            ));
        }
        match outcome {
            Ok(outcome) => Ok(result(entry, &call, outcome)),
            Err(e) => Ok(tool_error(&format!("arx: error: {e:#}"), None)),
        }
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("arx", env!("CARGO_PKG_VERSION")))
        .with_instructions(instructions())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            "loop",
            Some("The research loop this repository follows with arx (AGENTS.md's arx section, for the objective in arx.toml)."),
            None,
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != "loop" {
            return Err(ErrorData::invalid_params(
                format!("unknown prompt {:?} (there is `loop`)", request.name),
                None,
            ));
        }
        let config = crate::io::config::load(self.config_flag().as_deref(), &self.setup.dir)
            .map_err(|e| ErrorData::internal_error(format!("{e:#}"), None))?;
        let section = crate::kernel::agents::section(&crate::kernel::agents::from_config(
            config.objective.as_ref(),
        ));
        Ok(
            GetPromptResult::new(vec![PromptMessage::new_text(Role::User, section)])
                .with_description("the research loop with arx")
                .into(),
        )
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![Resource::new(
            REPORT_URI, "report",
        )
        .with_description("The loop's report as Markdown (`arx report --markdown`): summary, best, last runs, dead ends.")
        .with_mime_type("text/markdown")]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != REPORT_URI {
            return Err(ErrorData::invalid_params(
                format!("unknown resource {:?} (there is {REPORT_URI})", request.uri),
                None,
            ));
        }
        let call = Call {
            args: vec!["report".into(), "--markdown".into()],
            text_key: Some("markdown"),
            ..Call::default()
        };
        let _turn = self.one_at_a_time.lock().await;
        let outcome = run_child(&self.setup, &call, None, std::future::pending())
            .await
            .map_err(|e| ErrorData::internal_error(format!("{e:#}"), None))?;
        if outcome.code != Some(0) {
            return Err(ErrorData::internal_error(error_text(&outcome.stderr), None));
        }
        let text = String::from_utf8_lossy(&outcome.stdout).into_owned();
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(text, REPORT_URI).with_mime_type("text/markdown")
        ])
        .into())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            self.tools.iter().map(Self::describe).collect(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<McpTool> {
        self.tools
            .iter()
            .find(|e| e.name == name)
            .map(Self::describe)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.call(request, context).await.map(Into::into)
    }
}

/// The resource of the loop's report.
const REPORT_URI: &str = "arx://report";

/// What the server tells the client about itself: the loop, the outcome
/// table, what stop means, and who opens gates.
fn instructions() -> String {
    format!(
        "arx decides an autoresearch loop: you propose one change at a time, arx runs the \
         experiment, measures it against the noise, keeps it as a commit or sets it aside and \
         undoes it.\n\
         The loop: call status (exit_code 0 in _meta: a stop rule fired, stop); call next for \
         the idea to try (none open: add some with idea_add); read best, log, finding_rank; make \
         ONE change (never to protected paths, the evaluation, arx.toml or .arx/); call try with \
         `idea` (or `description` and `family`); do what the result's first line says. Never \
         commit, reset or stash by hand. The prompt `loop` holds the whole loop.\n\
         Every result's first line is the outcome and the next step; `_meta.exit_code` says the \
         same and the structured content is the full record. The outcomes of try:\n{}\n\
         Stop means: make no further change, call no further try, and tell the person why (the \
         stop rule, the pause or the error), the best (best) and what was tried (report or the \
         resource {REPORT_URI}).\n\
         Gates are the person's: when the execute gate is on, the person is asked (the command \
         and the change shown) before a try runs; a declined, dismissed or unaskable question \
         is a pause: stop. An edit to [gates] in arx.toml is ignored until a person commits it: \
         never edit it. An idea discarded at the same best is refused unless `retry` and \
         `because` say what changed.",
        crate::kernel::try_outcome::markdown("", true)
    )
}

impl Server {
    /// `--config` among the server's global flags, if given.
    fn config_flag(&self) -> Option<PathBuf> {
        let g = &self.setup.global;
        g.iter()
            .enumerate()
            .find_map(|(i, w)| match w.strip_prefix("--config=") {
                Some(v) => Some(PathBuf::from(v)),
                None if w == "--config" => g.get(i + 1).map(PathBuf::from),
                None => None,
            })
    }
}

/// Serve `setup` over stdin and stdout until the client closes the
/// connection.
pub fn serve(setup: Setup) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let log = setup.log;
        let service = Server::new(setup)
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| {
                crate::error::Hinted::error(
                    format!("the MCP client did not initialize the connection: {e}"),
                    "`arx mcp` is started by an MCP client, which speaks JSON-RPC on its stdin and stdout (see the README, `arx mcp`)",
                )
            })?;
        log("mcp: serving on stdio");
        let reason = service.waiting().await.context("the MCP server stopped")?;
        log(&format!("mcp: closed ({reason:?})"));
        Ok(())
    })
}

/// What a child command left.
struct Outcome {
    code: Option<i32>,
    stdout: Vec<u8>,
    stdout_cut: bool,
    stderr: Vec<u8>,
}

/// Ends a child that is still running when its call is dropped (the client
/// cancelled): SIGTERM, so arx journals the run as interrupted.
struct EndOnDrop(Option<u32>);

impl EndOnDrop {
    /// SIGTERM to the child, once.
    fn end(&mut self) {
        if let Some(pid) = self.0.take() {
            let pid = nix::unistd::Pid::from_raw(pid as i32);
            let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        }
    }
}

impl Drop for EndOnDrop {
    fn drop(&mut self) {
        self.end();
    }
}

/// Run `call` as a child arx. When `cancelled` completes (the client
/// cancelled the call), the child gets SIGTERM and is still waited for, so
/// what it journals on the way out is there before the next call.
async fn run_child(
    setup: &Setup,
    call: &Call,
    progress: Option<(Peer<RoleServer>, ProgressToken)>,
    cancelled: impl std::future::Future<Output = ()>,
) -> Result<Outcome> {
    // Events only when they will be reported: a call without a progress
    // token (or a tool without events) costs no directory.
    let events_dir = match call.events && progress.is_some() {
        true => Some(tempfile::tempdir().context("cannot create a directory for events")?),
        false => None,
    };
    let events = events_dir.as_ref().map(|d| d.path().join("events.ndjson"));
    let mut cmd = tokio::process::Command::new(&setup.exe);
    cmd.current_dir(&setup.dir)
        .args(command_line(&setup.global, call, events.as_deref()));
    cmd.stdin(if call.stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot run {}", setup.exe.display()))?;
    let mut guard = EndOnDrop(child.id());
    let stdin = child.stdin.take();
    let text = call.stdin.clone();
    let feed = async move {
        if let (Some(mut stdin), Some(text)) = (stdin, text) {
            // A command that stops reading early is not an error here.
            let _ = stdin.write_all(text.as_bytes()).await;
        }
    };
    let stdout = child.stdout.take().context("no stdout")?;
    let stderr = child.stderr.take().context("no stderr")?;
    let read_out = read_head(stdout, MAX_STDOUT);
    let read_err = read_tail(stderr, MAX_STDERR);
    let pid = child.id();
    let wait = async {
        let mut follow = Follow::new(events.as_deref(), progress);
        tokio::pin!(cancelled);
        let mut ended = false;
        loop {
            tokio::select! {
                status = child.wait() => {
                    follow.poll().await;
                    break status;
                }
                () = &mut cancelled, if !ended => {
                    ended = true;
                    EndOnDrop(pid).end();
                }
                () = tokio::time::sleep(EVENT_POLL) => follow.poll().await,
            }
        }
    };
    let ((), (stdout, stdout_cut), stderr, status) = tokio::join!(feed, read_out, read_err, wait);
    guard.0 = None;
    let status = status.context("waiting for the command")?;
    Ok(Outcome {
        code: status.code(),
        stdout,
        stdout_cut,
        stderr,
    })
}

/// The command line of a call after the binary's name: the server's global
/// flags, `--color never`, `--json` (unless the command prints text), the
/// subcommand's words, the events flags when `events` is given, then the
/// call's flags (which may end with `--` and positional words).
fn command_line(global: &[String], call: &Call, events: Option<&Path>) -> Vec<String> {
    let mut line = global.to_vec();
    line.extend(["--color".into(), "never".into()]);
    if call.text_key.is_none() {
        line.push("--json".into());
    }
    let words = subcommand_words(&call.args);
    line.extend_from_slice(&call.args[..words]);
    if let Some(events) = events {
        line.push(format!("--events={}", events.display()));
        line.push("--heartbeat=2s".into());
    }
    line.extend_from_slice(&call.args[words..]);
    line
}

/// Approve a gated call's gate (the operator or the person did):
/// `--approve` right after the subcommand's words, before any `--`.
fn approve(call: &mut Call) {
    let at = subcommand_words(&call.args);
    call.args.insert(at, "--approve".into());
}

/// How many leading words of `args` are the subcommand (`try`, `deadend
/// check`): the words before the first flag or `--`.
fn subcommand_words(args: &[String]) -> usize {
    match args.split_first() {
        None => 0,
        Some((_, rest)) => 1 + rest.iter().take_while(|w| !w.starts_with('-')).count(),
    }
}

/// Read at most `limit` bytes, then drain the rest (the child must not
/// block on a full pipe); says whether anything was cut.
async fn read_head(mut from: impl AsyncRead + Unpin, limit: usize) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut cut = false;
    let mut buf = vec![0u8; 64 << 10];
    loop {
        match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = limit.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
                cut |= n > room;
            }
        }
    }
    (kept, cut)
}

/// Read everything and keep the last `limit` bytes.
async fn read_tail(mut from: impl AsyncRead + Unpin, limit: usize) -> Vec<u8> {
    let mut kept: Vec<u8> = Vec::new();
    let mut buf = vec![0u8; 64 << 10];
    loop {
        match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                kept.extend_from_slice(&buf[..n]);
                if kept.len() > 2 * limit {
                    kept.drain(..kept.len() - limit);
                }
            }
        }
    }
    if kept.len() > limit {
        kept.drain(..kept.len() - limit);
    }
    kept
}

/// Follows the events file of a running command and reports each new
/// event as a progress notification.
struct Follow<'a> {
    path: Option<&'a Path>,
    progress: Option<(Peer<RoleServer>, ProgressToken)>,
    offset: u64,
    pending: Vec<u8>,
    count: u64,
}

impl<'a> Follow<'a> {
    fn new(path: Option<&'a Path>, progress: Option<(Peer<RoleServer>, ProgressToken)>) -> Self {
        Follow {
            path,
            progress,
            offset: 0,
            pending: Vec::new(),
            count: 0,
        }
    }

    /// Send what was appended since the last look.
    async fn poll(&mut self) {
        let (Some(path), Some((peer, token))) = (self.path, &self.progress) else {
            return;
        };
        let fresh = read_from(path, self.offset);
        self.offset += fresh.len() as u64;
        self.pending.extend_from_slice(&fresh);
        let Some(end) = self.pending.iter().rposition(|b| *b == b'\n') else {
            if self.pending.len() > MAX_STDERR {
                self.pending.clear();
            }
            return;
        };
        let lines: Vec<u8> = self.pending.drain(..=end).collect();
        for line in lines.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            self.count += 1;
            let note = ProgressNotificationParam::new(token.clone(), self.count as f64)
                .with_message(event_message(line));
            if peer.notify_progress(note).await.is_err() {
                // The client went away: stop reporting.
                self.progress = None;
                return;
            }
        }
    }
}

/// What the file at `path` holds past `offset` (at most 1 MiB; nothing when
/// it is not there yet).
fn read_from(path: &Path, offset: u64) -> Vec<u8> {
    use std::io::{Read, Seek, SeekFrom};
    let mut buf = Vec::new();
    if let Ok(mut f) = std::fs::File::open(path) {
        if f.seek(SeekFrom::Start(offset)).is_ok() {
            let _ = f.take(1 << 20).read_to_end(&mut buf);
        }
    }
    buf
}

/// A one-line summary of an `--events` record: its kind and its fields.
fn event_message(line: &[u8]) -> String {
    let Ok(serde_json::Value::Object(mut map)) = serde_json::from_slice(line) else {
        return String::from_utf8_lossy(line).chars().take(500).collect();
    };
    let kind = map
        .remove("event")
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "event".into());
    map.remove("run_id");
    map.remove("time");
    let rest = serde_json::Value::Object(map).to_string();
    format!("{kind} {rest}").chars().take(500).collect()
}

/// The error lines (`arx: error: ...` and `hint: ...`) of a command's
/// stderr, or its last lines when it has none.
fn error_text(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("arx: error:") || l.starts_with("hint:"))
        .collect();
    if !lines.is_empty() {
        return lines.join("\n");
    }
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(20)..].join("\n")
}

fn tool_error(message: &str, code: Option<i32>) -> CallToolResult {
    // Hints name the tools and their fields, not the command line's.
    let message = &answer::in_tool_words(message);
    let hint = message
        .lines()
        .find_map(|l| l.strip_prefix("hint: "))
        .map(str::to_string);
    let error = message
        .lines()
        .find_map(|l| l.strip_prefix("arx: error: "))
        .unwrap_or(message)
        .to_string();
    let mut result = CallToolResult::error(vec![ContentBlock::text(message)]);
    result.structured_content = Some(serde_json::json!({"error": error, "hint": hint}));
    result.meta = code.map(exit_meta);
    result
}

fn exit_meta(code: i32) -> MetaObject {
    let mut map = serde_json::Map::new();
    map.insert("exit_code".into(), code.into());
    MetaObject(map)
}

/// A command's `--json` stdout as a structured value: one JSON value as it
/// is, several (NDJSON) as an array; an object stays the result, anything
/// else is put under the tool's list key (a structured result is an object).
fn structured(stdout: &str, list_key: &str) -> Option<serde_json::Value> {
    let mut values: Vec<serde_json::Value> = serde_json::Deserializer::from_str(stdout)
        .into_iter::<serde_json::Value>()
        .collect::<Result<_, _>>()
        .ok()?;
    // A listing tool (one with a list key of its own) always gives a list,
    // of one item too.
    let value = match values.len() {
        1 if list_key == tools::ITEMS || values[0].is_array() => values.pop()?,
        _ => serde_json::Value::Array(values),
    };
    match value {
        serde_json::Value::Object(_) => Some(value),
        serde_json::Value::Array(_) => Some(serde_json::json!({ list_key: value })),
        other => Some(serde_json::json!({ "value": other })),
    }
}

fn result(entry: &Entry, call: &Call, outcome: Outcome) -> CallToolResult {
    result_of(entry.name, entry.list_key, call.text_key, outcome)
}

/// The warnings a command gave on stderr (`arx: warning: ...`).
fn warnings(stderr: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stderr)
        .lines()
        .filter_map(|l| l.strip_prefix("arx: warning: "))
        .map(|w| answer::cut(&answer::in_tool_words(w), 400))
        .collect()
}

fn result_of(
    name: &str,
    list_key: &str,
    text_key: Option<&str>,
    outcome: Outcome,
) -> CallToolResult {
    match outcome.code {
        Some(code @ (0 | 1 | 3)) => {
            if outcome.stdout_cut {
                return tool_error(
                    &format!(
                        "arx: error: the output of `{name}` is larger than {} MiB\nhint: ask for less (a smaller `limit`)",
                        MAX_STDOUT >> 20
                    ),
                    Some(code),
                );
            }
            let stdout = String::from_utf8_lossy(&outcome.stdout).into_owned();
            let warned = warnings(&outcome.stderr);
            let (text, structured) = match text_key {
                Some(key) => (
                    answer::text(&stdout, &warned, None),
                    Some(serde_json::json!({ key: stdout })),
                ),
                None => {
                    let value = structured(&stdout, list_key);
                    let head = answer::headline(
                        name,
                        value.as_ref().unwrap_or(&serde_json::Value::Null),
                        code,
                        &String::from_utf8_lossy(&outcome.stderr),
                    );
                    (answer::text(&head, &warned, value.as_ref()), value)
                }
            };
            let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
            result.structured_content = structured;
            result.meta = Some(exit_meta(code));
            result
        }
        Some(code) => tool_error(&error_text(&outcome.stderr), Some(code)),
        None => tool_error(
            &format!(
                "arx: error: `{name}` was ended by a signal\n{}",
                error_text(&outcome.stderr)
            ),
            None,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ndjson_becomes_a_list_under_the_key() {
        let v = structured("{\"a\":1}\n{\"a\":2}\n", "runs").unwrap();
        assert_eq!(v, serde_json::json!({"runs": [{"a": 1}, {"a": 2}]}));
        let v = structured("{\"a\":1}\n", "runs").unwrap();
        assert_eq!(v, serde_json::json!({"runs": [{"a": 1}]}));
        let v = structured("{\"a\":1}\n", tools::ITEMS).unwrap();
        assert_eq!(v, serde_json::json!({"a": 1}));
        assert_eq!(
            structured("", "runs").unwrap(),
            serde_json::json!({"runs": []})
        );
        assert!(structured("not json", "runs").is_none());
    }

    #[test]
    fn the_error_and_hint_lines_are_picked_from_stderr() {
        let stderr = b"noise\narx: error: no metric configured\nhint: set [objective] metric\n";
        assert_eq!(
            error_text(stderr),
            "arx: error: no metric configured\nhint: set [objective] metric"
        );
        let r = tool_error(&error_text(stderr), Some(2));
        assert_eq!(r.is_error, Some(true));
        let s = r.structured_content.unwrap();
        assert_eq!(s["error"], "no metric configured");
        assert_eq!(s["hint"], "set [objective] metric");
    }

    #[test]
    fn subcommand_words_stop_at_the_first_flag() {
        let args: Vec<String> = ["deadend", "check", "--", "x"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(subcommand_words(&args), 2);
        let args: Vec<String> = ["try", "--dry-run"].iter().map(|s| s.to_string()).collect();
        assert_eq!(subcommand_words(&args), 1);
    }

    #[test]
    fn stderr_keeps_only_its_tail() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let mut data = vec![b'x'; 1 << 20];
        data.extend_from_slice(b"end");
        let tail = runtime.block_on(read_tail(&data[..], 1000));
        assert_eq!(tail.len(), 1000);
        assert!(tail.ends_with(b"xend"));
        let (head, cut) = runtime.block_on(read_head(&data[..], 1000));
        assert_eq!(head.len(), 1000);
        assert!(cut);
        let (all, cut) = runtime.block_on(read_head(&b"short"[..], 1000));
        assert_eq!((all.as_slice(), cut), (&b"short"[..], false));
    }
}
