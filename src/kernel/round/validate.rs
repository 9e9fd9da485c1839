//! The reference's validation rules for a patch, from a typed patch
//! ([`validate_round_patch`]) or from the JSON an agent wrote
//! ([`validate_patch_json`]).

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::{PatchEntry, PatchKind, PatchOp, RoundPatch};
use crate::kernel::contract::is_py_whitespace;
use crate::kernel::names::one_of;

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
pub(super) fn entry_tag(i: usize, path: Option<&str>) -> String {
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
pub(super) fn config_content_error(
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
/// caught here; see [`strict_patch_errors`](super::strict_patch_errors).
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

#[cfg(test)]
mod tests {
    use super::super::testing::{entry, patch};
    use super::super::DEFAULT_CONFIG_PATH;
    use super::*;
    use serde_json::json;

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
}
