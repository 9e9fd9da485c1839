//! Life-harness rounds: the patch an agent proposes, its validation and
//! dedupe hash, the autonomy settings, the apply gate, the round decision,
//! evidence selection and the interval between rounds.
//!
//! This module owns the *decisions* of a round and nothing else. It must not
//! read or write files, touch git, read the clock or the environment, or
//! print: the host gathers findings, runs the proposing agent and the eval
//! checks, applies and commits, and passes values in. Time arrives as a
//! parameter. Path checks here are string-level only; whether a path is a
//! symlink, or resolves outside the repository, is for the host to check on
//! the filesystem.
//!
//! Parity: [`patch_hash`], [`validate_round_patch`], [`resolve_autonomy`],
//! [`should_apply`], [`decide_round`] and [`select_evidence`] match the
//! reference kernel on its conformance vectors. Checks that go beyond the
//! reference live in separate functions ([`strict_patch_errors`] and the
//! `path_*` predicates) so the parity functions keep the reference's results.
//!
//! Patches arrive as JSON written by agents. [`validate_patch_json`] reads
//! them from a [`serde_json::Value`] so that a malformed field (a kind that
//! does not exist, a number where text belongs) becomes one more validation
//! error rather than a parse failure; a well-formed patch yields a typed
//! [`RoundPatch`]. Deserializing [`RoundPatch`] directly with serde is strict
//! (unknown kinds and ops fail) and is meant for the host's own saved copies.

use std::collections::HashSet;

use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::contract::is_py_whitespace;
use super::names::{one_of, str_enum};
use super::promote::{collapse_whitespace, short_sha256};

/// Where the reference host keeps its project configuration; the default
/// `config_path` for the self-protection rules.
pub const DEFAULT_CONFIG_PATH: &str = ".planning/config.json";

/// The state directory arx keeps in a repository; rounds may not write there.
pub const STATE_DIR: &str = ".arx";

str_enum! {
    /// What kind of file a patch entry changes.
    PatchKind, "kind" {
        /// Prose: prompts, instructions, notes.
        Markdown => "markdown",
        /// A JSON configuration file (its content must parse as JSON).
        Config => "config",
        /// Source code.
        Code => "code",
    }
}

str_enum! {
    /// What a patch entry does to its file.
    PatchOp, "op" {
        /// Replace an existing file's content.
        Modify => "modify",
        /// Write a new file.
        Create => "create",
        /// Remove a file (the entry carries no content).
        Delete => "delete",
    }
}

str_enum! {
    /// Whether a passing round is merged without a person.
    AutonomyMode, "autonomy mode" {
        /// A person reviews every round before it is merged (the default).
        Review => "review",
        /// Rounds that pass the eval and clear the confidence bar are merged.
        Auto => "auto",
    }
}

str_enum! {
    /// Where a round stands. Only [`RoundStatus::Applied`],
    /// [`RoundStatus::Evaluated`] and [`RoundStatus::Rejected`] count for the
    /// interval between rounds (see [`counts_for_interval`]).
    RoundStatus, "round status" {
        /// Nothing was done (kill switch, too little evidence, duplicate).
        Skipped => "skipped",
        /// Evidence was gathered.
        Gathered => "gathered",
        /// An agent proposed a patch.
        Proposed => "proposed",
        /// The patch passed validation.
        Validated => "validated",
        /// The eval passed; the round awaits review.
        Evaluated => "evaluated",
        /// The patch was merged.
        Applied => "applied",
        /// The patch was invalid or its eval failed.
        Rejected => "rejected",
        /// An applied round was undone.
        Reverted => "reverted",
    }
}

str_enum! {
    /// The gate that holds a round back from being applied.
    ApplyGate, "apply gate" {
        /// The kill switch is on.
        KillSwitch => "kill_switch",
        /// At least one eval check failed.
        EvalFailed => "eval_failed",
        /// Review mode: a person must approve.
        HarnessReview => "harness_review",
        /// The patch's confidence is below `min_confidence`.
        LowConfidence => "low_confidence",
    }
}

str_enum! {
    /// Why [`decide_round`] reached its status; lets the host act without
    /// parsing the detail text.
    RoundReason, "round reason" {
        /// The kill switch is on (status skipped).
        KillSwitch => "kill_switch",
        /// The patch failed validation (status rejected).
        Invalid => "invalid",
        /// The patch hash was seen before (status skipped).
        Duplicate => "duplicate",
        /// An eval check failed (status rejected).
        EvalFailed => "eval_failed",
        /// Review mode holds the round (status evaluated).
        HarnessReview => "harness_review",
        /// Confidence below the bar holds the round (status evaluated).
        LowConfidence => "low_confidence",
        /// Eval passed and autonomy approved (status applied).
        Approved => "approved",
    }
}

/// One file change in a round patch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PatchEntry {
    /// Repository-relative POSIX path.
    pub path: String,
    /// What kind of file this is.
    pub kind: PatchKind,
    /// What to do to it.
    pub op: PatchOp,
    /// The full post-image text; `None` for a delete.
    pub content: Option<String>,
    /// Why the change is made.
    pub rationale: String,
    /// The findings this change rests on.
    #[serde(default)]
    pub evidence_refs: Vec<String>,
}

/// A proposed round: the agent's `patch.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundPatch {
    /// One line saying what the round changes.
    pub summary: String,
    /// The agent's confidence, in [0, 1].
    pub confidence: f64,
    /// The file changes.
    pub entries: Vec<PatchEntry>,
    /// The round this patch belongs to (added by the host to its saved copy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_id: Option<String>,
}

/// The harness settings that steer a round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AutonomyState {
    /// Review or auto.
    pub mode: AutonomyMode,
    /// When on, no round runs at all.
    pub kill_switch: bool,
    /// Auto mode applies a patch only at or above this confidence.
    pub min_confidence: f64,
    /// Hours between counted rounds.
    pub min_interval_hours: u64,
    /// Which kinds of file a patch may change.
    pub allowed_targets: Vec<PatchKind>,
    /// Fewer findings than this and the round is skipped.
    pub min_evidence: usize,
    /// At most this many findings go into a round.
    pub max_evidence: usize,
}

impl Default for AutonomyState {
    /// The reference defaults: review mode, kill switch off, confidence 0.7,
    /// 24 hours, every target, 3 to 25 findings.
    fn default() -> Self {
        AutonomyState {
            mode: AutonomyMode::Review,
            kill_switch: false,
            min_confidence: 0.7,
            min_interval_hours: 24,
            allowed_targets: PatchKind::ALL.to_vec(),
            min_evidence: 3,
            max_evidence: 25,
        }
    }
}

impl AutonomyState {
    /// The same settings in auto mode (`--auto`). The kill switch is kept:
    /// forcing auto never lets a round past it.
    pub fn forced_auto(self) -> Self {
        AutonomyState {
            mode: AutonomyMode::Auto,
            ..self
        }
    }
}

/// One eval check the host ran on the patched tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvalCheck {
    /// What was run (e.g. `lint`).
    pub name: String,
    /// Its exit code; 0 passes.
    pub exit_code: i64,
    /// Free text (an excerpt of the output).
    #[serde(default)]
    pub detail: String,
}

/// The eval of a round: `eval.json`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct EvalReport {
    /// The checks, in the order they ran.
    pub checks: Vec<EvalCheck>,
}

impl EvalReport {
    /// Did every check exit 0? An empty report passes.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.exit_code == 0)
    }
}

/// Whether a round may be applied, and which gate holds it when not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ApplyCheck {
    /// True when the patch may be applied.
    pub proceed: bool,
    /// The first gate that holds it back.
    pub pending_gate: Option<ApplyGate>,
}

/// The outcome of a round: its status, a one-line detail and the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundDecision {
    /// The round's status.
    pub status: RoundStatus,
    /// Why, for people (the reference's detail text).
    pub detail: String,
    /// Why, for programs.
    pub reason: RoundReason,
}

impl RoundDecision {
    /// Rejected for validation errors; the detail joins them with `"; "`.
    pub fn invalid(errors: &[String]) -> Self {
        RoundDecision {
            status: RoundStatus::Rejected,
            detail: errors.join("; "),
            reason: RoundReason::Invalid,
        }
    }

    /// Should the patch hash be remembered (`hashes.jsonl`) so the same
    /// patch is not proposed again? Only for applied rounds and rounds
    /// rejected by a failed eval.
    pub fn records_hash(&self) -> bool {
        matches!(self.reason, RoundReason::Approved | RoundReason::EvalFailed)
    }
}

/// One finding offered as evidence for a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// takeaway, decision, insight, hypothesis, todo or question; any other
    /// kind is accepted and ranks last.
    pub kind: String,
    /// The finding's text.
    pub content: String,
    /// Where it came from.
    pub source: String,
    /// When it was recorded. Compared as text, so hosts should write one
    /// format (RFC 3339 UTC) for the order to be chronological.
    #[serde(default)]
    pub created_at: String,
}

// ---------------------------------------------------------------------------
// patch_hash

/// The dedupe hash of a patch: first 16 hex digits of SHA-256 over the
/// entries rendered `"op kind path"` and lower-cased, sorted, followed by the
/// stripped, lower-cased summary, joined with NUL, with every whitespace run
/// collapsed to one space. Content, rationale, round id and confidence do not
/// count, so a re-proposal of the same change in other words is caught.
pub fn patch_hash(patch: &RoundPatch) -> String {
    let mut parts: Vec<String> = patch
        .entries
        .iter()
        .map(|e| format!("{} {} {}", e.op, e.kind, e.path).to_lowercase())
        .collect();
    parts.sort();
    parts.push(patch.summary.trim_matches(is_py_whitespace).to_lowercase());
    let joined = parts.join("\0");
    short_sha256(&collapse_whitespace(&joined))
}

// ---------------------------------------------------------------------------
// Validation

/// An entry's fields as far as they could be read: `Err` holds the message
/// for a malformed field, which is reported where the rule on that field
/// would stand.
struct EntryFacts<'a> {
    path: Result<&'a str, &'static str>,
    kind: Result<PatchKind, String>,
    op: Result<PatchOp, String>,
    content: Result<Option<&'a str>, &'static str>,
    rationale: Result<&'a str, &'static str>,
    evidence_refs: Result<Vec<&'a str>, &'static str>,
}

impl<'a> EntryFacts<'a> {
    fn of_entry(e: &'a PatchEntry) -> Self {
        EntryFacts {
            path: Ok(&e.path),
            kind: Ok(e.kind),
            op: Ok(e.op),
            content: Ok(e.content.as_deref()),
            rationale: Ok(&e.rationale),
            evidence_refs: Ok(e.evidence_refs.iter().map(String::as_str).collect()),
        }
    }

    fn of_json(obj: &'a Map<String, Value>) -> Self {
        let path = match obj.get("path") {
            Some(Value::String(s)) => Ok(s.as_str()),
            None | Some(Value::Null) => Err("empty path"),
            Some(_) => Err("path must be a string"),
        };
        let kind = match obj.get("kind") {
            Some(Value::String(s)) => s.parse::<PatchKind>(),
            _ => Err(format!("kind must be {}", one_of(PatchKind::ALL))),
        };
        let op = match obj.get("op") {
            Some(Value::String(s)) => s.parse::<PatchOp>(),
            _ => Err(format!("op must be {}", one_of(PatchOp::ALL))),
        };
        let content = match obj.get("content") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(_) => Err("content must be a string or null"),
        };
        let rationale = match obj.get("rationale") {
            Some(Value::String(s)) => Ok(s.as_str()),
            None | Some(Value::Null) => Err("rationale required"),
            Some(_) => Err("rationale must be a string"),
        };
        let evidence_refs = match obj.get("evidence_refs") {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(Value::as_str)
                .collect::<Option<Vec<&str>>>()
                .ok_or("evidence_refs must be a list of strings"),
            Some(_) => Err("evidence_refs must be a list of strings"),
        };
        EntryFacts {
            path,
            kind,
            op,
            content,
            rationale,
            evidence_refs,
        }
    }

    fn to_entry(&self) -> Option<PatchEntry> {
        Some(PatchEntry {
            path: self.path.ok()?.to_string(),
            kind: *self.kind.as_ref().ok()?,
            op: *self.op.as_ref().ok()?,
            content: self.content.ok()?.map(str::to_string),
            rationale: self.rationale.ok()?.to_string(),
            evidence_refs: self
                .evidence_refs
                .as_ref()
                .ok()?
                .iter()
                .map(|s| s.to_string())
                .collect(),
        })
    }
}

/// What a patch is checked against: the host's self-protection.
struct Guards<'a> {
    allowed_targets: &'a [PatchKind],
    denied: HashSet<&'a str>,
    config_path: &'a str,
    current_harness: Option<&'a Map<String, Value>>,
}

impl<'a> Guards<'a> {
    fn new(
        allowed_targets: &'a [PatchKind],
        deny_paths: &'a [String],
        config_path: &'a str,
        current_harness: Option<&'a Map<String, Value>>,
    ) -> Self {
        Guards {
            allowed_targets,
            denied: deny_paths
                .iter()
                .map(|d| d.trim_matches(is_py_whitespace))
                .collect(),
            config_path,
            current_harness,
        }
    }
}

/// `entries[i] (path)`, or `(?)` when the path is empty or unreadable.
/// Control characters in the path are escaped so a message stays one line.
fn entry_tag(i: usize, path: Option<&str>) -> String {
    let shown = match path {
        Some(p) if !p.is_empty() => p
            .chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
        _ => "?".to_string(),
    };
    format!("entries[{i}] ({shown})")
}

/// Why a path is unacceptable at string level (the reference's rules).
fn bad_path_reason(p: &str) -> Option<&'static str> {
    if p.is_empty() {
        return Some("empty path");
    }
    let b = p.as_bytes();
    let drive = b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':';
    if p.starts_with('/') || p.contains('\\') || drive {
        return Some("absolute or non-posix path");
    }
    let mut parts = p.split('/');
    if parts.clone().any(|s| s == "..") {
        return Some("path traversal");
    }
    if parts.next() == Some(".git") {
        return Some("may not touch .git");
    }
    None
}

/// Does a config patch's content break a rule? `None` when it is fine.
fn config_content_error(
    content: &str,
    on_config_file: bool,
    current_harness: Option<&Map<String, Value>>,
) -> Option<&'static str> {
    let Ok(parsed) = serde_json::from_str::<Value>(content) else {
        return Some("config patch is not valid JSON");
    };
    match (on_config_file, current_harness, parsed) {
        (true, Some(live), Value::Object(new)) => {
            let unchanged = matches!(new.get("harness"), Some(Value::Object(h)) if h == live);
            (!unchanged).then_some("round may not modify its own harness config block")
        }
        _ => None,
    }
}

/// The reference's rules for one entry, in its order; a malformed field is
/// reported where the rule on that field stands, and rules that need it are
/// skipped.
fn entry_errors(i: usize, e: &EntryFacts<'_>, guards: &Guards<'_>, errors: &mut Vec<String>) {
    let tag = entry_tag(i, e.path.ok());
    let mut push = |msg: &str| errors.push(format!("{tag}: {msg}"));

    match e.path {
        Err(msg) => push(msg),
        Ok(p) => {
            if let Some(reason) = bad_path_reason(p) {
                push(reason);
            }
        }
    }
    match &e.kind {
        Err(msg) => push(msg),
        Ok(k) if !guards.allowed_targets.contains(k) => {
            push(&format!("kind '{k}' not in allowed_targets"))
        }
        Ok(_) => {}
    }
    match (&e.op, e.content) {
        (Err(msg), _) => push(msg),
        (Ok(_), Err(msg)) => push(msg),
        (Ok(PatchOp::Delete), Ok(Some(_))) => push("delete must not carry content"),
        (Ok(PatchOp::Delete), Ok(None)) => {}
        (Ok(op), Ok(c)) => {
            if c.is_none_or(str::is_empty) {
                push(&format!("{op} requires content"));
            }
        }
    }
    match e.rationale {
        Err(msg) => push(msg),
        Ok(r) if r.trim_matches(is_py_whitespace).is_empty() => push("rationale required"),
        Ok(_) => {}
    }
    if let Err(msg) = e.evidence_refs {
        push(msg);
    }
    if let Ok(p) = e.path {
        if guards.denied.contains(p) {
            push("path is deny-listed");
        }
        if p == guards.config_path && e.op == Ok(PatchOp::Delete) {
            push("may not delete the project config");
        }
    }
    if let (Ok(PatchKind::Config), Ok(op), Ok(Some(c))) = (&e.kind, &e.op, e.content) {
        if *op != PatchOp::Delete && !c.is_empty() {
            let on_config = e.path == Ok(guards.config_path);
            if let Some(msg) = config_content_error(c, on_config, guards.current_harness) {
                push(msg);
            }
        }
    }
}

fn confidence_ok(c: f64) -> bool {
    (0.0..=1.0).contains(&c)
}

const CONFIDENCE_ERROR: &str = "confidence must be within [0, 1]";

/// Validation errors for a patch (empty = valid), string-level only.
///
/// The rules, as the reference has them: the patch needs entries and a
/// confidence in [0, 1]; each entry needs a non-empty, relative POSIX path
/// (no leading `/`, no backslash, no drive letter, no `..` segment, not
/// starting with `.git`), a kind in `allowed_targets`, content for
/// modify/create and none for delete, and a non-blank rationale. An entry may
/// not touch a path on `deny_paths` (compared after stripping whitespace from
/// the list) or delete `config_path`. A config entry's content must be JSON;
/// on `config_path` itself, when `current_harness` (the live `harness`
/// block) is given, the new content must be an object whose `harness` block
/// equals the live one.
///
/// Two points where arx is stricter than the reference, by design: JSON is
/// read strictly (`NaN`, `Infinity`, numbers beyond f64 and lone surrogates
/// are not valid), and the `harness` blocks must be equal as JSON values
/// (`true`, `1` and `1.0` all differ, as do `0` and `-0`; key order does not
/// matter), so a round cannot turn `"kill_switch": true` into a value that
/// merely compares equal in Python.
///
/// For an existing config without a `harness` block, pass an empty map: the
/// patch must then keep `"harness": {}` (as in the reference, a missing block
/// never equals a given one). `None` skips the check.
///
/// Aliases of a protected path (`./bin/x`, `.GIT/`, a case variant) are not
/// caught here; see [`strict_patch_errors`].
pub fn validate_round_patch(
    patch: &RoundPatch,
    allowed_targets: &[PatchKind],
    deny_paths: &[String],
    config_path: &str,
    current_harness: Option<&Map<String, Value>>,
) -> Vec<String> {
    let guards = Guards::new(allowed_targets, deny_paths, config_path, current_harness);
    let mut errors = Vec::new();
    if patch.entries.is_empty() {
        errors.push("patch has no entries".to_string());
    }
    if !confidence_ok(patch.confidence) {
        errors.push(CONFIDENCE_ERROR.to_string());
    }
    for (i, e) in patch.entries.iter().enumerate() {
        entry_errors(i, &EntryFacts::of_entry(e), &guards, &mut errors);
    }
    errors
}

/// Read and validate a patch as an agent wrote it (`patch.json` parsed to a
/// JSON value): the typed patch when it is valid, else every error.
///
/// The rules are those of [`validate_round_patch`], with the same messages
/// and order; a field of the wrong type or an unknown value is one more error
/// where that field's rule stands, never a parse failure:
/// - a value that is not an object: the single error
///   `patch must be a JSON object`;
/// - `entries` missing or null counts as no entries; not a list, or an item
///   that is not an object, is an error;
/// - `confidence` missing or not a number fails the confidence rule;
/// - `summary` must be a string (an empty one is fine); `round_id`, when
///   present and not null, must be a string;
/// - per entry: `path` missing reads as empty, not a string is an error;
///   an unknown `kind` is one error (in place of the allowed-targets rule,
///   as in the reference); an unknown `op` is one error and the content
///   rules are skipped (the reference accepts unknown ops, arx does not);
///   `content` missing means null, anything but a string or null is an
///   error; `rationale` missing or null fails the rationale rule;
///   `evidence_refs` missing or null means none, else it must be a list of
///   strings. Unknown keys are ignored.
pub fn validate_patch_json(
    value: &Value,
    allowed_targets: &[PatchKind],
    deny_paths: &[String],
    config_path: &str,
    current_harness: Option<&Map<String, Value>>,
) -> Result<RoundPatch, Vec<String>> {
    let Some(obj) = value.as_object() else {
        return Err(vec!["patch must be a JSON object".to_string()]);
    };
    let guards = Guards::new(allowed_targets, deny_paths, config_path, current_harness);
    let mut errors = Vec::new();

    let items: Option<&[Value]> = match obj.get("entries") {
        None | Some(Value::Null) => Some(&[]),
        Some(Value::Array(items)) => Some(items),
        Some(_) => None,
    };
    match items {
        None => errors.push("entries must be a list of objects".to_string()),
        Some([]) => errors.push("patch has no entries".to_string()),
        Some(_) => {}
    }
    let confidence = obj
        .get("confidence")
        .and_then(Value::as_f64)
        .filter(|c| confidence_ok(*c));
    if confidence.is_none() {
        errors.push(CONFIDENCE_ERROR.to_string());
    }
    let summary = obj.get("summary").and_then(Value::as_str);
    if summary.is_none() {
        errors.push("summary must be a string".to_string());
    }
    let round_id = match obj.get("round_id") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            errors.push("round_id must be a string".to_string());
            None
        }
    };

    let mut entries = Vec::new();
    for (i, item) in items.unwrap_or_default().iter().enumerate() {
        let Some(entry) = item.as_object() else {
            errors.push(format!("{}: entry must be an object", entry_tag(i, None)));
            continue;
        };
        let facts = EntryFacts::of_json(entry);
        entry_errors(i, &facts, &guards, &mut errors);
        entries.extend(facts.to_entry());
    }

    match (errors.is_empty(), summary, confidence) {
        (true, Some(summary), Some(confidence)) => Ok(RoundPatch {
            summary: summary.to_string(),
            confidence,
            entries,
            round_id,
        }),
        _ => Err(errors),
    }
}

// ---------------------------------------------------------------------------
// Stricter string checks (beyond the reference)

/// A path component as a case-insensitive filesystem (macOS, Windows) would
/// resolve it: ASCII case folded, trailing dots and spaces dropped (Windows)
/// unless nothing would remain.
fn fold_component(c: &str) -> String {
    let trimmed = c.trim_end_matches(['.', ' ']);
    let kept = if trimmed.is_empty() { c } else { trimmed };
    kept.to_ascii_lowercase()
}

/// The components that name something: empty and `.` components dropped.
fn meaningful_components(path: &str) -> impl Iterator<Item = &str> {
    path.split('/').filter(|c| !c.is_empty() && *c != ".")
}

/// The `harness` block of a TOML document (empty when there is none).
pub fn toml_harness(table: &toml::Table) -> Map<String, Value> {
    table
        .get("harness")
        .and_then(|h| serde_json::to_value(h).ok())
        .and_then(|v| v.as_object().cloned())
        .unwrap_or_default()
}

/// The error, if any, of an entry on a TOML config whose `harness` block
/// is now `current`: deleting the governing config, invalid TOML, or a
/// changed `[harness]` block (deleting another config counts as removing
/// its block).
pub fn toml_harness_error(
    path: &str,
    content: Option<&str>,
    current: &Map<String, Value>,
    governing: bool,
) -> Option<String> {
    let new = match content {
        None if governing => {
            return Some(format!(
                "{path}: the config that governs rounds may not be deleted"
            ))
        }
        None => Map::new(),
        Some(text) => match text.parse::<toml::Table>() {
            Ok(table) => toml_harness(&table),
            Err(_) => return Some(format!("{path}: not valid TOML")),
        },
    };
    (&new != current).then(|| format!("{path}: changes the [harness] block that governs rounds"))
}

/// Do two paths name the same file on a case-insensitive filesystem, ignoring
/// `.` and empty components? Errs toward "same" (a false match is safe).
pub fn paths_alias(a: &str, b: &str) -> bool {
    meaningful_components(a)
        .map(fold_component)
        .eq(meaningful_components(b).map(fold_component))
}

/// Does the path touch a git directory at any depth: a component that is
/// `.git` in any case, with trailing dots or spaces, or the Windows short
/// name `git~1`? (`sub/.git/config`, `.GIT/hooks/x`, `a/.git./x`.)
pub fn path_touches_git(path: &str) -> bool {
    path.split('/')
        .map(fold_component)
        .any(|c| c == ".git" || c == "git~1")
}

/// Does the path contain a NUL character (which no filesystem accepts and
/// which would cut the path short in C APIs)?
pub fn path_has_nul(path: &str) -> bool {
    path.contains('\0')
}

/// Is the path inside arx's state directory (`.arx/` at the repository root,
/// in any case, `./` prefixes and doubled slashes ignored)?
pub fn path_in_state_dir(path: &str) -> bool {
    meaningful_components(path)
        .next()
        .is_some_and(|first| fold_component(first) == STATE_DIR)
}

/// Errors from checks stricter than the reference's, for every entry; the
/// host adds them to [`validate_round_patch`]'s. Only what that function
/// does not already report is reported here, so the two lists can be joined
/// without repeats:
/// - a NUL character in a path;
/// - `.git` at any depth or in any case (the reference only rejects a first
///   component spelled exactly `.git`);
/// - a path inside the `.arx/` state directory;
/// - an alias of a deny-listed path (`./bin/driver.py`, `bin//driver.py`,
///   a case variant), which the reference compares only verbatim;
/// - an alias of `config_path`: deleting it, or writing content that is not
///   JSON or that changes the `harness` block (whatever the entry's kind;
///   the reference checks only kind config on the exact path);
/// - two entries on the same file (the result would depend on order).
///
/// Filesystem checks (symlinks, the real location of a path) remain the
/// host's.
pub fn strict_patch_errors(
    patch: &RoundPatch,
    deny_paths: &[String],
    config_path: &str,
    current_harness: Option<&Map<String, Value>>,
) -> Vec<String> {
    let denied: Vec<&str> = deny_paths
        .iter()
        .map(|d| d.trim_matches(is_py_whitespace))
        .filter(|d| !d.is_empty())
        .collect();
    let mut errors = Vec::new();
    for (i, e) in patch.entries.iter().enumerate() {
        let tag = entry_tag(i, Some(&e.path));
        let mut push = |msg: String| errors.push(format!("{tag}: {msg}"));
        let p = e.path.as_str();

        if path_has_nul(p) {
            push("path contains a NUL character".to_string());
        }
        if path_touches_git(p) && p.split('/').next() != Some(".git") {
            push("may not touch .git".to_string());
        }
        if path_in_state_dir(p) {
            push(format!("may not touch the {STATE_DIR}/ state directory"));
        }
        if let Some(d) = denied.iter().find(|d| paths_alias(p, d)) {
            if !denied.contains(&p) {
                push(format!("path is deny-listed (same file as {d})"));
            }
        }
        if paths_alias(p, config_path) {
            let exact = p == config_path;
            match (e.op, e.content.as_deref()) {
                (PatchOp::Delete, _) if !exact => {
                    push(format!("may not delete the project config ({config_path})"))
                }
                (PatchOp::Delete, _) | (_, None | Some("")) => {}
                (_, Some(c)) if !(exact && e.kind == PatchKind::Config) => {
                    if let Some(msg) = config_content_error(c, true, current_harness) {
                        push(format!("{msg} ({config_path})"));
                    }
                }
                _ => {}
            }
        }
        if let Some(j) = patch.entries[..i]
            .iter()
            .position(|other| paths_alias(&other.path, p))
        {
            push(format!("same file as entries[{j}]"));
        }
    }
    errors
}

// ---------------------------------------------------------------------------
// Autonomy

/// The harness settings from a GRD-shaped configuration object, tolerant as
/// the reference is: a `harness` value that is not an object is ignored;
/// `autonomy` is auto only when it is the string `"auto"`; `kill_switch` is
/// on only when literally `true`; `min_confidence` must be a number (not a
/// boolean) in [0, 1]; `min_interval_hours` a non-negative integer (`2.5`,
/// `-2`, `true` fall back to the default); `allowed_targets` keeps the known
/// kinds of a list, in order, and an empty or invalid list means all kinds.
/// Beyond the reference's fields: `min_evidence` must be a non-negative
/// integer and `max_evidence` a positive one, else 3 and 25.
///
/// One unavoidable difference: an integer above `u64::MAX` (about 1.8e19
/// hours) arrives from JSON as a float and falls back to the default,
/// where the reference would keep it.
///
/// `force_auto` (`--auto`, the reference's `no_gates`) forces auto mode and
/// never touches the kill switch.
pub fn resolve_autonomy(config: &Value, force_auto: bool) -> AutonomyState {
    let defaults = AutonomyState::default();
    let empty = Map::new();
    let h = config
        .get("harness")
        .and_then(Value::as_object)
        .unwrap_or(&empty);

    let mut allowed_targets: Vec<PatchKind> = match h.get("allowed_targets") {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|t| t.as_str()?.parse().ok())
            .collect(),
        _ => Vec::new(),
    };
    if allowed_targets.is_empty() {
        allowed_targets = defaults.allowed_targets;
    }
    let count = |key: &str, min: u64| {
        h.get(key)
            .and_then(Value::as_u64)
            .filter(|n| *n >= min)
            .and_then(|n| usize::try_from(n).ok())
    };

    let state = AutonomyState {
        mode: if h.get("autonomy").and_then(Value::as_str) == Some("auto") {
            AutonomyMode::Auto
        } else {
            AutonomyMode::Review
        },
        kill_switch: h.get("kill_switch") == Some(&Value::Bool(true)),
        min_confidence: h
            .get("min_confidence")
            .and_then(Value::as_f64)
            .filter(|c| (0.0..=1.0).contains(c))
            .unwrap_or(defaults.min_confidence),
        min_interval_hours: h
            .get("min_interval_hours")
            .and_then(Value::as_u64)
            .unwrap_or(defaults.min_interval_hours),
        allowed_targets,
        min_evidence: count("min_evidence", 0).unwrap_or(defaults.min_evidence),
        max_evidence: count("max_evidence", 1).unwrap_or(defaults.max_evidence),
    };
    if force_auto {
        state.forced_auto()
    } else {
        state
    }
}

// ---------------------------------------------------------------------------
// The apply gate and the round decision

/// The apply gate, first hold wins: kill switch, then a failed eval, then
/// review mode, then confidence below `min_confidence`.
pub fn should_apply(eval: &EvalReport, autonomy: &AutonomyState, confidence: f64) -> ApplyCheck {
    let pending_gate = if autonomy.kill_switch {
        Some(ApplyGate::KillSwitch)
    } else if !eval.passed() {
        Some(ApplyGate::EvalFailed)
    } else if autonomy.mode == AutonomyMode::Review {
        Some(ApplyGate::HarnessReview)
    } else if confidence < autonomy.min_confidence {
        Some(ApplyGate::LowConfidence)
    } else {
        None
    };
    ApplyCheck {
        proceed: pending_gate.is_none(),
        pending_gate,
    }
}

/// The decisions that come before the eval: the kill switch (skipped), any
/// validation errors (rejected, joined with `"; "`), a patch hash already
/// seen (skipped). `None` means the round goes on to the eval and
/// [`gate_round`].
///
/// `errors` is whatever the host's validation found: [`validate_round_patch`]
/// plus, as arx does, [`strict_patch_errors`] and its filesystem checks.
pub fn screen_round(
    patch: &RoundPatch,
    autonomy: &AutonomyState,
    errors: &[String],
    seen_hashes: &HashSet<String>,
) -> Option<RoundDecision> {
    if autonomy.kill_switch {
        return Some(RoundDecision {
            status: RoundStatus::Skipped,
            detail: "kill switch is on".to_string(),
            reason: RoundReason::KillSwitch,
        });
    }
    if !errors.is_empty() {
        return Some(RoundDecision::invalid(errors));
    }
    let hash = patch_hash(patch);
    seen_hashes.contains(&hash).then(|| RoundDecision {
        status: RoundStatus::Skipped,
        detail: format!("duplicate of a prior round (patch_hash {hash})"),
        reason: RoundReason::Duplicate,
    })
}

/// The decision after the eval, from [`should_apply`]: applied when it
/// proceeds, rejected when the eval failed, else evaluated and awaiting
/// review (`harness_review` or `low_confidence`; `kill_switch` too, though
/// [`screen_round`] stops a round at the kill switch first).
pub fn gate_round(eval: &EvalReport, autonomy: &AutonomyState, confidence: f64) -> RoundDecision {
    let check = should_apply(eval, autonomy, confidence);
    match check.pending_gate {
        None => RoundDecision {
            status: RoundStatus::Applied,
            detail: "eval passed; autonomy approved".to_string(),
            reason: RoundReason::Approved,
        },
        Some(ApplyGate::EvalFailed) => RoundDecision {
            status: RoundStatus::Rejected,
            detail: "eval failed".to_string(),
            reason: RoundReason::EvalFailed,
        },
        Some(gate) => RoundDecision {
            status: RoundStatus::Evaluated,
            detail: format!("awaiting review ({gate})"),
            reason: match gate {
                ApplyGate::LowConfidence => RoundReason::LowConfidence,
                ApplyGate::KillSwitch => RoundReason::KillSwitch,
                _ => RoundReason::HarnessReview,
            },
        },
    }
}

/// The whole round decision, as the reference's facade: kill switch ->
/// skipped; validation errors ([`validate_round_patch`] with the autonomy's
/// allowed targets) -> rejected; hash already seen -> skipped; eval failed
/// -> rejected; review mode -> evaluated, "awaiting review
/// (harness_review)"; confidence below the bar -> evaluated, "awaiting
/// review (low_confidence)"; else applied.
pub fn decide_round(
    patch: &RoundPatch,
    autonomy: &AutonomyState,
    seen_hashes: &HashSet<String>,
    eval: &EvalReport,
    deny_paths: &[String],
    config_path: &str,
    current_harness: Option<&Map<String, Value>>,
) -> RoundDecision {
    let errors = validate_round_patch(
        patch,
        &autonomy.allowed_targets,
        deny_paths,
        config_path,
        current_harness,
    );
    screen_round(patch, autonomy, &errors, seen_hashes)
        .unwrap_or_else(|| gate_round(eval, autonomy, patch.confidence))
}

// ---------------------------------------------------------------------------
// Evidence

/// Rank of a finding kind: takeaway, decision, insight, hypothesis, todo,
/// question; any other kind after all of them.
pub fn finding_priority(kind: &str) -> u8 {
    match kind {
        "takeaway" => 0,
        "decision" => 1,
        "insight" => 2,
        "hypothesis" => 3,
        "todo" => 4,
        "question" => 5,
        _ => u8::MAX,
    }
}

/// The evidence for a round: findings by kind priority, newest first within
/// a kind (`created_at` compared as text; ties keep their input order),
/// capped at `max_items`. Fewer than `min_items` findings give nothing: too
/// little evidence to justify a round.
pub fn select_evidence(findings: &[Finding], min_items: usize, max_items: usize) -> Vec<Finding> {
    if findings.len() < min_items {
        return Vec::new();
    }
    let mut pool: Vec<&Finding> = findings.iter().collect();
    // Stable sorts: newest first, then by priority keeping that order.
    pool.sort_by(|a, b| b.created_at.cmp(&a.created_at));
    pool.sort_by_key(|f| finding_priority(&f.kind));
    pool.into_iter().take(max_items).cloned().collect()
}

// ---------------------------------------------------------------------------
// Interval between rounds

/// Does a round with this status count for `min_interval_hours`? Applied,
/// evaluated and rejected rounds do; skipped ones and unfinished stages do
/// not, nor reverted ones (a reverted round's interval was counted while it
/// stood as applied; hosts that record the revert in place should keep the
/// original time for the interval).
pub fn counts_for_interval(status: RoundStatus) -> bool {
    matches!(
        status,
        RoundStatus::Applied | RoundStatus::Evaluated | RoundStatus::Rejected
    )
}

/// The time of the latest round that counts for the interval, from
/// `(status, time)` pairs in any order.
pub fn last_counted_round(
    rounds: impl IntoIterator<Item = (RoundStatus, Timestamp)>,
) -> Option<Timestamp> {
    rounds
        .into_iter()
        .filter(|(status, _)| counts_for_interval(*status))
        .map(|(_, at)| at)
        .max()
}

/// When the next round is allowed: `min_interval_hours` after the last
/// counted round, or `None` when there was none (allowed now). An interval
/// that overflows the calendar gives [`Timestamp::MAX`].
pub fn next_round_allowed(
    last_counted: Option<Timestamp>,
    min_interval_hours: u64,
) -> Option<Timestamp> {
    let last = last_counted?;
    let next = i64::try_from(min_interval_hours)
        .ok()
        .and_then(|h| h.checked_mul(3600))
        .and_then(|secs| last.checked_add(SignedDuration::from_secs(secs)).ok())
        .unwrap_or(Timestamp::MAX);
    Some(next)
}

/// May a round start at `now`? True at or after [`next_round_allowed`].
pub fn round_allowed_at(
    now: Timestamp,
    last_counted: Option<Timestamp>,
    min_interval_hours: u64,
) -> bool {
    next_round_allowed(last_counted, min_interval_hours).is_none_or(|next| now >= next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(path: &str, kind: PatchKind, op: PatchOp, content: Option<&str>) -> PatchEntry {
        PatchEntry {
            path: path.to_string(),
            kind,
            op,
            content: content.map(str::to_string),
            rationale: "r".to_string(),
            evidence_refs: Vec::new(),
        }
    }

    fn patch(entries: Vec<PatchEntry>) -> RoundPatch {
        RoundPatch {
            summary: "s".to_string(),
            confidence: 0.9,
            entries,
            round_id: None,
        }
    }

    fn md(path: &str) -> PatchEntry {
        entry(path, PatchKind::Markdown, PatchOp::Modify, Some("x"))
    }

    fn strict(p: &RoundPatch) -> Vec<String> {
        strict_patch_errors(p, &[], DEFAULT_CONFIG_PATH, None)
    }

    #[test]
    fn git_at_any_depth_and_case() {
        for p in [
            ".GIT/config",
            "sub/.git/config",
            "sub/.Git",
            "a/.git./x",
            "a/.git /x",
            "GIT~1/config",
        ] {
            assert!(path_touches_git(p), "{p}");
            let errors = strict(&patch(vec![md(p)]));
            assert_eq!(errors.len(), 1, "{p}: {errors:?}");
            assert!(errors[0].ends_with("may not touch .git"), "{errors:?}");
        }
        for p in ["gitignore.md", ".gitignore", "a/.github/x.md", "git/x"] {
            assert!(!path_touches_git(p), "{p}");
        }
        // The reference already rejects `.git/...`; no second report.
        assert!(strict(&patch(vec![md(".git/config")])).is_empty());
    }

    #[test]
    fn nul_bytes() {
        assert!(path_has_nul("a\0b.md"));
        assert!(!path_has_nul("a.md"));
        let errors = strict(&patch(vec![md("a\0b.md")]));
        assert_eq!(
            errors,
            ["entries[0] (a\\u{0}b.md): path contains a NUL character"]
        );
    }

    #[test]
    fn state_directory() {
        for p in [".arx/state.json", "./.arx/x", ".ARX/x", ".arx", "//.arx/x"] {
            assert!(path_in_state_dir(p), "{p}");
        }
        for p in ["sub/.arx/x", ".arxive/x", "arx/x"] {
            assert!(!path_in_state_dir(p), "{p}");
        }
        let errors = strict(&patch(vec![md(".arx/journal.jsonl")]));
        assert_eq!(errors.len(), 1);
        assert!(errors[0].contains(".arx/ state directory"));
    }

    #[test]
    fn deny_list_aliases() {
        let deny = vec![" bin/driver.py ".to_string()];
        let check = |p: &str| {
            strict_patch_errors(
                &patch(vec![entry(p, PatchKind::Code, PatchOp::Modify, Some("x"))]),
                &deny,
                DEFAULT_CONFIG_PATH,
                None,
            )
        };
        // The exact path is the parity function's report, not repeated here.
        assert!(check("bin/driver.py").is_empty());
        for p in ["./bin/driver.py", "bin//driver.py", "BIN/Driver.py"] {
            assert_eq!(check(p).len(), 1, "{p}");
        }
        assert!(check("bin/other.py").is_empty());
    }

    #[test]
    fn config_file_aliases() {
        let live = json!({"autonomy": "review", "kill_switch": true});
        let live = live.as_object().unwrap();
        let check = |e: PatchEntry| {
            strict_patch_errors(&patch(vec![e]), &[], DEFAULT_CONFIG_PATH, Some(live))
        };
        let changed = r#"{"harness": {"autonomy": "auto", "kill_switch": true}}"#;
        let kept = r#"{"harness": {"kill_switch": true, "autonomy": "review"}, "x": 1}"#;
        // Through an alias, whatever the kind.
        for path in ["./.planning/config.json", ".planning//CONFIG.json"] {
            for kind in PatchKind::ALL {
                let e = entry(path, *kind, PatchOp::Modify, Some(changed));
                assert_eq!(check(e).len(), 1, "{path} {kind}");
                let e = entry(path, *kind, PatchOp::Modify, Some(kept));
                assert!(check(e).is_empty(), "{path} {kind}");
            }
            let e = entry(path, PatchKind::Config, PatchOp::Delete, None);
            assert_eq!(check(e).len(), 1, "{path}");
        }
        // The exact path as markdown escapes the reference's config rules.
        let e = entry(
            DEFAULT_CONFIG_PATH,
            PatchKind::Markdown,
            PatchOp::Modify,
            Some(changed),
        );
        assert_eq!(check(e).len(), 1);
        let e = entry(
            DEFAULT_CONFIG_PATH,
            PatchKind::Code,
            PatchOp::Create,
            Some("nope"),
        );
        assert_eq!(check(e).len(), 1);
        // The exact path as config is the parity function's report.
        let e = entry(
            DEFAULT_CONFIG_PATH,
            PatchKind::Config,
            PatchOp::Modify,
            Some(changed),
        );
        assert!(check(e).is_empty());
        let e = entry(
            DEFAULT_CONFIG_PATH,
            PatchKind::Config,
            PatchOp::Delete,
            None,
        );
        assert!(check(e).is_empty());
    }

    #[test]
    fn duplicate_files() {
        let errors = strict(&patch(vec![md("a.md"), md("b.md"), md("./a.md")]));
        assert_eq!(errors, ["entries[2] (./a.md): same file as entries[0]"]);
    }

    #[test]
    fn strict_checks_leave_parity_alone() {
        let p = patch(vec![md(".GIT/config"), md(".arx/x"), md("a\0b")]);
        let parity = validate_round_patch(&p, PatchKind::ALL, &[], DEFAULT_CONFIG_PATH, None);
        assert!(parity.is_empty(), "{parity:?}");
        assert_eq!(strict(&p).len(), 3);
    }

    #[test]
    fn harness_blocks_compare_as_json_values() {
        let live = json!({"kill_switch": true, "min_interval_hours": 6});
        let live = live.as_object().unwrap();
        let check = |content: &str| {
            let e = entry(
                DEFAULT_CONFIG_PATH,
                PatchKind::Config,
                PatchOp::Modify,
                Some(content),
            );
            validate_round_patch(
                &patch(vec![e]),
                PatchKind::ALL,
                &[],
                DEFAULT_CONFIG_PATH,
                Some(live),
            )
        };
        assert!(check(r#"{"harness": {"min_interval_hours": 6, "kill_switch": true}}"#).is_empty());
        // Equal in Python, different in effect: both rejected.
        assert_eq!(
            check(r#"{"harness": {"kill_switch": 1, "min_interval_hours": 6}}"#).len(),
            1
        );
        assert_eq!(
            check(r#"{"harness": {"kill_switch": true, "min_interval_hours": 6.0}}"#).len(),
            1
        );
        // A missing block never equals a given one.
        let empty = Map::new();
        let e = entry(
            DEFAULT_CONFIG_PATH,
            PatchKind::Config,
            PatchOp::Modify,
            Some("{}"),
        );
        let errors = validate_round_patch(
            &patch(vec![e]),
            PatchKind::ALL,
            &[],
            DEFAULT_CONFIG_PATH,
            Some(&empty),
        );
        assert_eq!(errors.len(), 1);
    }

    #[test]
    fn json_patches_report_malformed_fields() {
        let v = json!({
            "summary": 3,
            "confidence": "high",
            "round_id": 7,
            "entries": [
                {"path": 5, "kind": "exe", "op": "rename", "content": "x", "rationale": null,
                 "evidence_refs": "f1"},
                "not an object",
                {"path": "ok.md", "kind": "markdown", "op": "modify", "content": 12, "rationale": "r"}
            ]
        });
        let errors =
            validate_patch_json(&v, PatchKind::ALL, &[], DEFAULT_CONFIG_PATH, None).unwrap_err();
        assert_eq!(
            errors,
            [
                "confidence must be within [0, 1]",
                "summary must be a string",
                "round_id must be a string",
                "entries[0] (?): path must be a string",
                "entries[0] (?): unknown kind \"exe\" (expected markdown, config or code)",
                "entries[0] (?): unknown op \"rename\" (expected modify, create or delete)",
                "entries[0] (?): rationale required",
                "entries[0] (?): evidence_refs must be a list of strings",
                "entries[1] (?): entry must be an object",
                "entries[2] (ok.md): content must be a string or null",
            ]
        );
        assert_eq!(
            validate_patch_json(&json!([]), PatchKind::ALL, &[], DEFAULT_CONFIG_PATH, None)
                .unwrap_err(),
            ["patch must be a JSON object"]
        );
        let v = json!({"summary": "s", "confidence": 0.5, "entries": 3});
        assert_eq!(
            validate_patch_json(&v, PatchKind::ALL, &[], DEFAULT_CONFIG_PATH, None).unwrap_err(),
            ["entries must be a list of objects"]
        );
    }

    #[test]
    fn json_patches_read_when_valid() {
        let v = json!({
            "summary": "s", "confidence": 1,
            "entries": [{"path": "x.md", "kind": "markdown", "op": "delete", "rationale": "r",
                         "evidence_refs": null, "extra": true}]
        });
        let p = validate_patch_json(&v, PatchKind::ALL, &[], DEFAULT_CONFIG_PATH, None).unwrap();
        assert_eq!(p.confidence, 1.0);
        assert_eq!(p.entries[0].op, PatchOp::Delete);
        assert_eq!(p.entries[0].content, None);
        assert_eq!(p.round_id, None);
        // The saved copy round-trips through serde.
        let saved = serde_json::to_value(&p).unwrap();
        assert!(saved.get("round_id").is_none());
        assert_eq!(serde_json::from_value::<RoundPatch>(saved).unwrap(), p);
    }

    #[test]
    fn forced_auto_keeps_the_kill_switch() {
        let cfg = json!({"harness": {"kill_switch": true}});
        let state = resolve_autonomy(&cfg, true);
        assert_eq!(state.mode, AutonomyMode::Auto);
        assert!(state.kill_switch);
        assert!(!should_apply(&EvalReport::default(), &state, 1.0).proceed);
    }

    #[test]
    fn evidence_bounds_from_config() {
        let s = resolve_autonomy(
            &json!({"harness": {"min_evidence": 0, "max_evidence": 5}}),
            false,
        );
        assert_eq!((s.min_evidence, s.max_evidence), (0, 5));
        let s = resolve_autonomy(
            &json!({"harness": {"min_evidence": -1, "max_evidence": 0}}),
            false,
        );
        assert_eq!((s.min_evidence, s.max_evidence), (3, 25));
        let s = resolve_autonomy(
            &json!({"harness": {"min_evidence": 2.0, "max_evidence": "9"}}),
            false,
        );
        assert_eq!((s.min_evidence, s.max_evidence), (3, 25));
    }

    #[test]
    fn interval_statuses() {
        use RoundStatus::*;
        for s in [Applied, Evaluated, Rejected] {
            assert!(counts_for_interval(s), "{s}");
        }
        for s in [Skipped, Gathered, Proposed, Validated, Reverted] {
            assert!(!counts_for_interval(s), "{s}");
        }
    }

    #[test]
    fn next_round_time() {
        let t = |s: &str| s.parse::<Timestamp>().unwrap();
        let last = t("2026-01-01T10:00:00Z");
        assert_eq!(next_round_allowed(None, 24), None);
        assert_eq!(
            next_round_allowed(Some(last), 24),
            Some(t("2026-01-02T10:00:00Z"))
        );
        assert_eq!(next_round_allowed(Some(last), 0), Some(last));
        assert_eq!(
            next_round_allowed(Some(last), u64::MAX),
            Some(Timestamp::MAX)
        );
        assert_eq!(
            next_round_allowed(Some(last), 1 << 40),
            Some(Timestamp::MAX)
        );

        assert!(round_allowed_at(last, None, 24));
        assert!(!round_allowed_at(t("2026-01-02T09:59:59Z"), Some(last), 24));
        assert!(round_allowed_at(t("2026-01-02T10:00:00Z"), Some(last), 24));
        assert!(round_allowed_at(last, Some(last), 0));

        let rounds = [
            (RoundStatus::Applied, t("2026-01-01T00:00:00Z")),
            (RoundStatus::Skipped, t("2026-01-05T00:00:00Z")),
            (RoundStatus::Rejected, t("2026-01-03T00:00:00Z")),
            (RoundStatus::Evaluated, t("2026-01-02T00:00:00Z")),
        ];
        assert_eq!(last_counted_round(rounds), Some(t("2026-01-03T00:00:00Z")));
        assert_eq!(last_counted_round([(RoundStatus::Skipped, last)]), None);
    }

    #[test]
    fn hash_recording() {
        let eval_ok = EvalReport::default();
        let eval_bad = EvalReport {
            checks: vec![EvalCheck {
                name: "lint".into(),
                exit_code: 2,
                detail: String::new(),
            }],
        };
        let auto = AutonomyState::default().forced_auto();
        assert!(gate_round(&eval_ok, &auto, 0.9).records_hash());
        assert!(gate_round(&eval_bad, &auto, 0.9).records_hash());
        assert!(!gate_round(&eval_ok, &auto, 0.1).records_hash());
        assert!(!RoundDecision::invalid(&["x".into()]).records_hash());
    }

    #[test]
    fn names_round_trip() {
        for s in RoundStatus::ALL {
            assert_eq!(s.as_str().parse::<RoundStatus>().unwrap(), *s);
            assert_eq!(serde_json::to_value(s).unwrap(), json!(s.as_str()));
        }
        for g in ApplyGate::ALL {
            assert_eq!(serde_json::to_value(g).unwrap(), json!(g.as_str()));
        }
        assert!("exe".parse::<PatchKind>().is_err());
    }
}
