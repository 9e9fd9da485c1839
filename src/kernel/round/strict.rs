//! Checks stricter than the reference's, on paths and on TOML configs:
//! aliases of protected paths, `.git` at any depth, the state directory,
//! NUL characters and the `[harness]` block of a TOML config.

use serde_json::{Map, Value};

use super::gitnames::{gitmodules_errors, is_dotgit, special_git_name};
use super::validate::{config_content_error, entry_tag};
use super::{PatchKind, PatchOp, RoundPatch, STATE_DIR};
use crate::kernel::contract::is_py_whitespace;

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

/// The blocks of a TOML config that a round may not change: `[harness]`
/// (the rounds' own settings) and `[gates]` (the approval gates).
pub const PROTECTED_TOML_BLOCKS: [&str; 2] = ["harness", "gates"];

/// The protected blocks of a TOML document as values (a missing block is
/// an empty table, which means the same: defaults). Parsed, so every TOML
/// spelling of a block (`[gates]`, `gates.execute = ...`, an inline table,
/// quoted keys) gives the same value.
pub fn toml_protected(table: &toml::Table) -> Map<String, Value> {
    PROTECTED_TOML_BLOCKS
        .iter()
        .map(|name| {
            let value = table
                .get(*name)
                .and_then(|v| serde_json::to_value(v).ok())
                .unwrap_or_else(|| Value::Object(Map::new()));
            (name.to_string(), value)
        })
        .collect()
}

/// The error, if any, of an entry on a TOML config whose protected blocks
/// ([`toml_protected`]) are now `current`: deleting the governing config,
/// invalid TOML, or a changed `[harness]` or `[gates]` block (deleting
/// another config counts as removing its blocks).
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
        None => toml_protected(&toml::Table::new()),
        Some(text) => match text.parse::<toml::Table>() {
            Ok(table) => toml_protected(&table),
            Err(_) => return Some(format!("{path}: not valid TOML")),
        },
    };
    let empty = Value::Object(Map::new());
    let changed: Vec<&str> = PROTECTED_TOML_BLOCKS
        .iter()
        .filter(|name| new.get(**name) != Some(current.get(**name).unwrap_or(&empty)))
        .map(|name| match *name {
            "harness" => "changes the [harness] block that governs rounds",
            _ => "changes the [gates] block (the approval gates)",
        })
        .collect();
    (!changed.is_empty()).then(|| format!("{path}: {}", changed.join("; ")))
}

/// The form of a path that [`paths_alias`] compares: two paths alias
/// exactly when their keys are equal.
fn alias_key(path: &str) -> String {
    meaningful_components(path)
        .map(fold_component)
        .collect::<Vec<_>>()
        .join("/")
}

/// Do two paths name the same file on a case-insensitive filesystem, ignoring
/// `.` and empty components? Errs toward "same" (a false match is safe).
pub fn paths_alias(a: &str, b: &str) -> bool {
    meaningful_components(a)
        .map(fold_component)
        .eq(meaningful_components(b).map(fold_component))
}

/// Does the path touch a git directory at any depth: a component that
/// HFS+ or NTFS reads as `.git`, as git's `verify_path` checks it: any
/// case, code points HFS+ ignores (`.g\u{200c}it`), trailing dots or
/// spaces, a stream (`.git::$INDEX_ALLOCATION`), the short name `git~1`?
/// (`sub/.git/config`, `.GIT/hooks/x`, `a/.git./x`.)
pub fn path_touches_git(path: &str) -> bool {
    path.split('/').any(is_dotgit)
}

/// Does the path hold a character that would break a line where it is
/// shown: a control character (a newline or carriage return would forge
/// lines of the round's commit message), or a Unicode line or paragraph
/// separator? NUL is reported on its own ([`path_has_nul`]).
pub fn path_has_control(path: &str) -> bool {
    path.chars()
        .any(|c| c != '\0' && (c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')))
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

/// Is the path inside the directory `dir` (both relative to the
/// repository root), or the directory itself, compared as a
/// case-insensitive filesystem would (`./`, doubled slashes, case and
/// trailing dots ignored)? An empty `dir` (the root) contains every path.
pub fn path_in_dir(path: &str, dir: &str) -> bool {
    let mut parts = meaningful_components(path).map(fold_component);
    meaningful_components(dir)
        .map(fold_component)
        .all(|d| parts.next().is_some_and(|c| c == d))
}

/// File extensions (lower case) of the markdown kind: prose that no check
/// of code needs to see.
const MARKDOWN_EXTENSIONS: &[&str] = &["md", "markdown", "mdown", "mkd", "mkdn", "rst", "adoc"];

/// The kind a path really has, from its name and, where the name cannot
/// tell, its content: a markdown extension (`.md`, `.markdown`, `.rst`,
/// `.adoc`, ...) is markdown, `.json` is config (the config kind's content
/// must be JSON), anything else is code, and so is any content that starts
/// with `#!` (a script, whatever its name).
pub fn path_kind(path: &str, content: Option<&str>) -> PatchKind {
    if content.is_some_and(|c| c.trim_start_matches('\u{feff}').starts_with("#!")) {
        return PatchKind::Code;
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => fold_component(ext),
        _ => return PatchKind::Code,
    };
    if MARKDOWN_EXTENSIONS.contains(&ext.as_str()) {
        PatchKind::Markdown
    } else if ext == "json" {
        PatchKind::Config
    } else {
        PatchKind::Code
    }
}

/// Entries whose declared kind is not the kind of their path
/// ([`path_kind`]): the kind decides which checks run and what
/// `allowed_targets` lets through, so it may not be chosen freely.
pub fn kind_errors(patch: &RoundPatch) -> Vec<String> {
    let mut errors = Vec::new();
    for (i, e) in patch.entries.iter().enumerate() {
        let real = path_kind(&e.path, e.content.as_deref());
        if real != e.kind {
            errors.push(format!(
                "{}: kind '{}' does not match the file: {} is {real}",
                entry_tag(i, Some(&e.path)),
                e.kind,
                e.path.escape_debug()
            ));
        }
    }
    errors
}

/// Errors from checks stricter than the reference's, for every entry; the
/// host adds them to [`validate_round_patch`](super::validate_round_patch)'s. Only what that function
/// does not already report is reported here, so the two lists can be joined
/// without repeats:
/// - a NUL or other control character in a path;
/// - `.git` at any depth, in any case and as HFS+ and NTFS read names
///   (the reference only rejects a first component spelled exactly `.git`);
/// - a lookalike of `.gitmodules`, `.gitattributes`, `.gitignore` or
///   `.mailmap` that HFS+ or NTFS would read as the real name;
/// - `.gitmodules` content that `git fsck` rejects;
/// - a path inside the `.arx/` state directory;
/// - an alias of a deny-listed path (`./bin/driver.py`, `bin//driver.py`,
///   a case variant), which the reference compares only verbatim, and any
///   path below a deny-listed directory (`src` protects `src/run.sh`);
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
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (i, e) in patch.entries.iter().enumerate() {
        let tag = entry_tag(i, Some(&e.path));
        let mut push = |msg: String| errors.push(format!("{tag}: {msg}"));
        let p = e.path.as_str();

        path_errors(e, &mut push);
        if !denied.contains(&p) {
            if let Some(d) = denied.iter().find(|d| paths_alias(p, d)) {
                push(format!("path is deny-listed (same file as {d})"));
            } else if let Some(d) = denied.iter().find(|d| path_in_dir(p, d)) {
                push(format!("path is deny-listed (inside {d})"));
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
        // Keyed by the folded form `paths_alias` compares, so the check is
        // linear in the number of entries.
        match seen.entry(alias_key(p)) {
            std::collections::hash_map::Entry::Occupied(j) => {
                push(format!("same file as entries[{}]", j.get()))
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(i);
            }
        }
    }
    errors
}

/// What is wrong with an entry's path whatever the settings: NUL and
/// control characters, `.git`, names git reads otherwise, a bad
/// `.gitmodules`, the state directory.
fn path_errors(e: &super::PatchEntry, push: &mut dyn FnMut(String)) {
    let p = e.path.as_str();
    if path_has_nul(p) {
        push("path contains a NUL character".to_string());
    }
    if path_has_control(p) {
        push(
            "path contains a control character (a newline would forge lines of the commit message)"
                .to_string(),
        );
    }
    if path_touches_git(p) && p.split('/').next() != Some(".git") {
        push("may not touch .git".to_string());
    }
    for c in p.split('/') {
        if let Some(name) = special_git_name(c).filter(|name| c != *name) {
            push(format!(
                "{} would be read as {name} on macOS or Windows (git refuses such names)",
                c.escape_debug()
            ));
        }
    }
    let last = p.rsplit('/').next().unwrap_or(p);
    if last == ".gitmodules" {
        if let (PatchOp::Create | PatchOp::Modify, Some(c)) = (e.op, e.content.as_deref()) {
            for msg in gitmodules_errors(c) {
                push(format!("{msg} (git fsck rejects it)"));
            }
        }
    }
    if path_in_state_dir(p) {
        push(format!("may not touch the {STATE_DIR}/ state directory"));
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{entry, md, patch};
    use super::super::{validate_round_patch, PatchEntry, DEFAULT_CONFIG_PATH};
    use super::*;
    use serde_json::json;

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
    fn kinds_follow_the_path() {
        use PatchKind::*;
        for (path, content, kind) in [
            ("docs/a.md", Some("# a"), Markdown),
            ("README.MD", None, Markdown),
            ("a.rst", Some("x"), Markdown),
            ("c.json", Some("{}"), Config),
            ("src/run.sh", Some("echo"), Code),
            ("Makefile", None, Code),
            (".md", None, Code),
            ("notes.txt", None, Code),
            ("arx.toml", None, Code),
            ("x.md", Some("#!/bin/sh\n"), Code),
            ("x.md", Some("\u{feff}#!/bin/sh\n"), Code),
        ] {
            assert_eq!(path_kind(path, content), kind, "{path}");
        }
        let p = patch(vec![
            entry("src/run.sh", Markdown, PatchOp::Modify, Some("x")),
            md("docs/a.md"),
        ]);
        assert_eq!(
            kind_errors(&p),
            ["entries[0] (src/run.sh): kind 'markdown' does not match the file: src/run.sh is code"]
        );
    }

    #[test]
    fn paths_in_a_directory() {
        for p in ["st/x", "./ST/x", "st", "st./rounds/a", "st//y"] {
            assert!(path_in_dir(p, "st"), "{p}");
        }
        for p in ["stx/y", "s/t", "x/st/y"] {
            assert!(!path_in_dir(p, "st"), "{p}");
        }
        assert!(path_in_dir("var/state/rounds/x", "var/state"));
        assert!(!path_in_dir("var/x", "var/state"));
        assert!(path_in_dir("anything", ""));
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
        // A directory protects everything below it.
        let deny = vec!["src".to_string(), "lib/".to_string()];
        let check = |p: &str| {
            strict_patch_errors(
                &patch(vec![entry(p, PatchKind::Code, PatchOp::Modify, Some("x"))]),
                &deny,
                DEFAULT_CONFIG_PATH,
                None,
            )
        };
        for p in ["src/run.sh", "src/a/b.rs", "SRC/x", "lib/x.rs"] {
            assert_eq!(
                check(p),
                [format!(
                    "entries[0] ({p}): path is deny-listed (inside {})",
                    if p.starts_with('l') { "lib/" } else { "src" }
                )],
                "{p}"
            );
        }
        assert!(check("srcx/run.sh").is_empty());
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
}
