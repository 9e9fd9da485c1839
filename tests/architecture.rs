//! The layers of the crate and who may import whom, checked on the sources.
//!
//! Every `.rs` file under `src/` is read and each reference to another module
//! of the crate is collected: `use crate::...` and `pub use` trees (groups,
//! nested groups and `self` included), inline paths (`crate::io::git::state(..)`,
//! `super::x`, `super::super::x`, `self::x`) and `$crate::...` in macros.
//! Comments, doc comments and string literals do not count; `#[cfg(test)]`
//! code does. References are resolved against the module path of the file (and
//! of the inline modules around them) and checked against the rules below.
//! All violations are reported together, each as `file:line: edge (path)`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------
// The rules

/// What a top-level module may import from the rest of the crate.
#[derive(Clone, Copy, Debug)]
enum May {
    /// Only these top-level modules (a module may always use its own items).
    Only(&'static [&'static str]),
    /// Anything, except that inside `commands` a command may not import
    /// another command (see [`COMMANDS`]).
    Anything,
}

/// The layers, from the bottom up. A top-level module is the first path
/// segment under `crate`; `src/lib.rs` and `src/main.rs` are the entry and
/// may import anything.
const LAYERS: &[(&str, May)] = &[
    ("error", May::Only(&[])),
    ("kernel", May::Only(&["kernel"])),
    ("engine", May::Only(&["kernel", "engine"])),
    ("io", May::Only(&["kernel", "engine", "io", "error"])),
    (
        "ops",
        May::Only(&["kernel", "engine", "io", "ops", "error"]),
    ),
    (
        "output",
        May::Only(&["kernel", "engine", "output", "error"]),
    ),
    ("cli", May::Only(&["cli", "error", "kernel", "ops"])),
    // The MCP front end: tools run their commands as child processes, so
    // it never imports `commands` or `ops`; `cli` is for the tests that
    // parse every tool's command line with the clap definition.
    ("mcp", May::Only(&["mcp", "cli", "io", "kernel", "error"])),
    ("commands", May::Anything),
];

/// Top-level modules besides `lib.rs` and `main.rs` that are part of the
/// entry and may import anything. A top-level module that is neither here
/// nor in [`LAYERS`] is an error until it is given a place.
const ENTRY_MODULES: &[&str] = &[];

/// The module of the subcommands. A file in it may use the items of its own
/// module, of its descendants and of its ancestors' `mod.rs` (e.g.
/// `super::Ctx`, `crate::commands::verdict_exit`, in a command group
/// `super::recover_landings`), never another command or a sibling file of
/// its group (`super::run::...` from `compare.rs`, `super::apply` from
/// `round/status.rs`).
const COMMANDS: &str = "commands";

// ---------------------------------------------------------------------------
// Tokens: comments and literals dropped, identifiers and punctuation kept

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// An identifier or keyword; `$crate` is one token.
    Ident(String),
    /// `::`
    PathSep,
    /// Any other punctuation character.
    Punct(char),
    /// A string, character or number literal (its text does not matter).
    Literal,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    line: usize,
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

fn tokenize(src: &str) -> Vec<Token> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // The newlines in chars[from..to] (`to` may run past an unterminated literal).
    let lines_in = |from: usize, to: usize| {
        chars[from..to.min(chars.len())]
            .iter()
            .filter(|&&c| c == '\n')
            .count()
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            // Line comment, doc comments included.
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            // Block comment; they nest.
            let start = i;
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            line += lines_in(start, i);
        } else if c == '"' {
            let start = i;
            i = skip_string(&chars, i);
            out.push(Token {
                tok: Tok::Literal,
                line,
            });
            line += lines_in(start, i);
        } else if c == '\'' {
            // A character literal or a lifetime / label.
            if next == Some('\\') {
                i += 3; // the quote, the backslash and the escaped character
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push(Token {
                    tok: Tok::Literal,
                    line,
                });
            } else if chars.get(i + 2) == Some(&'\'') {
                if next == Some('\n') {
                    line += 1;
                }
                i += 3;
                out.push(Token {
                    tok: Tok::Literal,
                    line,
                });
            } else {
                i += 1;
                while i < chars.len() && is_ident_char(chars[i]) {
                    i += 1;
                }
            }
        } else if c.is_ascii_digit() {
            while i < chars.len() && is_ident_char(chars[i]) {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Literal,
                line,
            });
        } else if is_ident_start(c) || (c == '$' && next.is_some_and(is_ident_start)) {
            let start = i;
            i += 1;
            while i < chars.len() && is_ident_char(chars[i]) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let here = chars.get(i).copied();
            if matches!(word.as_str(), "r" | "br" | "cr") && matches!(here, Some('"' | '#')) {
                // A raw string (r"..", r#".."#), or a raw identifier (r#type).
                let mut hashes = 0;
                while chars.get(i + hashes) == Some(&'#') {
                    hashes += 1;
                }
                if chars.get(i + hashes) == Some(&'"') {
                    let start = i;
                    i += hashes + 1;
                    loop {
                        if i >= chars.len() {
                            break;
                        }
                        if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
                            i += hashes + 1;
                            break;
                        }
                        i += 1;
                    }
                    out.push(Token {
                        tok: Tok::Literal,
                        line,
                    });
                    line += lines_in(start, i);
                    continue;
                }
                if word == "r" && hashes == 1 {
                    let start = i + 1;
                    i = start;
                    while i < chars.len() && is_ident_char(chars[i]) {
                        i += 1;
                    }
                    out.push(Token {
                        tok: Tok::Ident(chars[start..i].iter().collect()),
                        line,
                    });
                    continue;
                }
            }
            if matches!(word.as_str(), "b" | "c") && matches!(here, Some('"' | '\'')) {
                // b"..", c"..", b'.': the literal follows as usual.
                continue;
            }
            out.push(Token {
                tok: Tok::Ident(word),
                line,
            });
        } else if c == ':' && next == Some(':') {
            out.push(Token {
                tok: Tok::PathSep,
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                tok: Tok::Punct(c),
                line,
            });
            i += 1;
        }
    }
    out
}

/// The index just past the string literal that starts at `chars[i]` (`"`).
fn skip_string(chars: &[char], mut i: usize) -> usize {
    i += 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

// ---------------------------------------------------------------------------
// References: paths that start at `crate`, `$crate`, `super` or `self`

/// One path to another part of the crate, as written and resolved.
#[derive(Clone, Debug, PartialEq)]
struct Reference {
    line: usize,
    /// The path as written (a `use` group expanded: `crate::b::c` for
    /// `use crate::{a, b::c}`).
    written: String,
    /// The absolute path from the crate root.
    target: Vec<String>,
}

fn is_root_keyword(word: &str) -> bool {
    matches!(word, "crate" | "$crate" | "super" | "self")
}

/// Resolve `path` (starting at `crate`, `$crate`, `super` or `self`)
/// written in module `module`; `None` when it leaves the crate root.
fn resolve(module: &[String], path: &[String]) -> Option<Vec<String>> {
    let mut segments = path.iter().peekable();
    let mut base: Vec<String> = match segments.peek().map(|s| s.as_str()) {
        Some("crate" | "$crate") => {
            segments.next();
            Vec::new()
        }
        Some("self") => {
            segments.next();
            module.to_vec()
        }
        _ => module.to_vec(),
    };
    while segments.peek().map(|s| s.as_str()) == Some("super") {
        segments.next();
        base.pop()?;
    }
    base.extend(segments.cloned());
    Some(base)
}

struct Scanner<'a> {
    tokens: &'a [Token],
    pos: usize,
    /// The module of the file, then the inline modules open at `pos`
    /// (with the brace depth each was opened at).
    file_module: Vec<String>,
    inline: Vec<(String, usize)>,
    depth: usize,
    found: Vec<Reference>,
}

impl Scanner<'_> {
    fn ident(&self, at: usize) -> Option<&str> {
        match self.tokens.get(at).map(|t| &t.tok) {
            Some(Tok::Ident(s)) => Some(s),
            _ => None,
        }
    }

    fn is(&self, at: usize, tok: &Tok) -> bool {
        self.tokens.get(at).map(|t| &t.tok) == Some(tok)
    }

    fn module(&self) -> Vec<String> {
        let mut m = self.file_module.clone();
        m.extend(self.inline.iter().map(|(name, _)| name.clone()));
        m
    }

    fn push(&mut self, line: usize, path: &[String], glob: bool) {
        if !path.first().is_some_and(|s| is_root_keyword(s)) {
            return; // an external crate, std, or a name already in scope
        }
        let target = resolve(&self.module(), path).unwrap_or_default();
        let mut written = path.join("::");
        if glob {
            written.push_str("::*");
        }
        self.found.push(Reference {
            line,
            written,
            target,
        });
    }

    fn run(&mut self) {
        while self.pos < self.tokens.len() {
            let tok = self.tokens[self.pos].tok.clone();
            match tok {
                Tok::Punct('{') => {
                    self.depth += 1;
                    self.pos += 1;
                }
                Tok::Punct('}') => {
                    if self.inline.last().is_some_and(|(_, d)| *d == self.depth) {
                        self.inline.pop();
                    }
                    self.depth = self.depth.saturating_sub(1);
                    self.pos += 1;
                }
                Tok::Ident(word) if word == "mod" => {
                    // `mod name { ... }` opens an inline module.
                    if let Some(name) = self.ident(self.pos + 1) {
                        if self.is(self.pos + 2, &Tok::Punct('{')) {
                            let name = name.to_string();
                            self.depth += 1;
                            self.inline.push((name, self.depth));
                            self.pos += 3;
                            continue;
                        }
                    }
                    self.pos += 1;
                }
                Tok::Ident(word) if word == "use" => {
                    self.pos += 1;
                    let mut paths = Vec::new();
                    self.use_tree(&mut Vec::new(), &mut paths);
                    for (line, path, glob) in paths {
                        self.push(line, &path, glob);
                    }
                }
                Tok::Ident(word)
                    if is_root_keyword(&word)
                        && self.is(self.pos + 1, &Tok::PathSep)
                        && !(self.pos > 0 && self.is(self.pos - 1, &Tok::PathSep))
                        && !self.in_visibility() =>
                {
                    self.inline_path();
                }
                _ => self.pos += 1,
            }
        }
    }

    /// `pub(in crate::a)` names a visibility, not a dependency.
    fn in_visibility(&self) -> bool {
        self.pos >= 2
            && self.ident(self.pos - 1) == Some("in")
            && self.is(self.pos - 2, &Tok::Punct('('))
    }

    /// An inline path such as `crate::io::git::state(..)` or
    /// `super::super::x`: identifiers joined by `::`, up to the first
    /// generic argument list or anything else.
    fn inline_path(&mut self) {
        let mut path = Vec::new();
        let mut line = self.tokens[self.pos].line;
        while let Some(seg) = self.ident(self.pos) {
            path.push(seg.to_string());
            line = self.tokens[self.pos].line;
            self.pos += 1;
            if self.is(self.pos, &Tok::PathSep) && self.ident(self.pos + 1).is_some() {
                self.pos += 1;
            } else {
                break;
            }
        }
        self.push(line, &path, false);
    }

    /// One use tree after `prefix`, its leaf paths added to `out` with the
    /// line of their last segment (and whether they are a glob); stops after
    /// `;` at the top level.
    fn use_tree(&mut self, prefix: &mut Vec<String>, out: &mut Vec<(usize, Vec<String>, bool)>) {
        let top = prefix.is_empty();
        if top && self.is(self.pos, &Tok::PathSep) {
            self.pos += 1; // `use ::std::..`: an external crate
        }
        let start_len = prefix.len();
        loop {
            match self.tokens.get(self.pos).map(|t| t.tok.clone()) {
                Some(Tok::Punct('{')) => {
                    self.pos += 1;
                    while self.pos < self.tokens.len() && !self.is(self.pos, &Tok::Punct('}')) {
                        let before = self.pos;
                        self.use_tree(prefix, out);
                        if self.is(self.pos, &Tok::Punct(',')) {
                            self.pos += 1;
                        }
                        if self.pos == before {
                            self.pos += 1; // not a use tree: step over it
                        }
                    }
                    self.pos += 1;
                    break;
                }
                Some(Tok::Punct('*')) => {
                    out.push((self.tokens[self.pos].line, prefix.clone(), true));
                    self.pos += 1;
                    break;
                }
                Some(Tok::Ident(seg)) => {
                    let line = self.tokens[self.pos].line;
                    self.pos += 1;
                    // `self` in a group names the group's prefix itself.
                    if seg != "self" || prefix.is_empty() {
                        prefix.push(seg);
                    }
                    if self.is(self.pos, &Tok::PathSep) {
                        self.pos += 1;
                        continue;
                    }
                    if self.ident(self.pos) == Some("as") {
                        self.pos += 2;
                    }
                    out.push((line, prefix.clone(), false));
                    break;
                }
                _ => break,
            }
        }
        prefix.truncate(start_len);
        if top {
            // Skip to the end of the declaration.
            while self.pos < self.tokens.len() && !self.is(self.pos, &Tok::Punct(';')) {
                self.pos += 1;
            }
            self.pos += 1;
        }
    }
}

/// Every reference to the crate in `src`, a file of module `module`.
fn references(src: &str, module: &[String]) -> Vec<Reference> {
    let tokens = tokenize(src);
    let mut scanner = Scanner {
        tokens: &tokens,
        pos: 0,
        file_module: module.to_vec(),
        inline: Vec::new(),
        depth: 0,
        found: Vec::new(),
    };
    scanner.run();
    scanner.found
}

// ---------------------------------------------------------------------------
// The check

/// The module path of a source file relative to the crate directory
/// (`src/io/state.rs` is `io::state`, `src/io/mod.rs` is `io`); `None` for
/// the crate roots `src/lib.rs` and `src/main.rs`.
fn module_path(rel: &str) -> Option<Vec<String>> {
    let rel = rel.strip_prefix("src/")?.strip_suffix(".rs")?;
    if rel == "lib" || rel == "main" {
        return None;
    }
    let mut segments: Vec<String> = rel.split('/').map(str::to_string).collect();
    if segments.last().is_some_and(|s| s == "mod") {
        segments.pop();
    }
    Some(segments)
}

fn show(module: &[String]) -> String {
    module.join("::")
}

#[derive(Debug, PartialEq)]
struct Violation {
    file: String,
    line: usize,
    what: String,
    paths: Vec<String>,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.what)
        } else {
            write!(
                f,
                "{}:{}: {} ({})",
                self.file,
                self.line,
                self.what,
                self.paths.join(", ")
            )
        }
    }
}

/// Check the sources `(path relative to the crate, text)`; the violations
/// in file and line order, references of one line to one module together.
fn check(files: &[(String, String)]) -> Vec<Violation> {
    let modules: BTreeSet<Vec<String>> = files.iter().filter_map(|(p, _)| module_path(p)).collect();
    let rules: BTreeMap<&str, May> = LAYERS.iter().copied().collect();
    let mut violations: Vec<Violation> = Vec::new();
    let mut unplaced: BTreeSet<String> = BTreeSet::new();

    for (rel, text) in files {
        let Some(module) = module_path(rel) else {
            continue; // the entry
        };
        let own = module[0].as_str();
        if ENTRY_MODULES.contains(&own) {
            continue;
        }
        let Some(&may) = rules.get(own) else {
            if unplaced.insert(own.to_string()) {
                violations.push(Violation {
                    file: rel.clone(),
                    line: 0,
                    what: format!(
                        "top-level module {own} has no layer rule \
                         (add it to LAYERS, or to ENTRY_MODULES if it may import anything)"
                    ),
                    paths: Vec::new(),
                });
            }
            continue;
        };
        for r in references(text, &module) {
            // The module the reference lands in: the longest prefix of the
            // target that is a file of the crate.
            let landed: Vec<String> = (0..=r.target.len())
                .rev()
                .map(|n| r.target[..n].to_vec())
                .find(|p| p.is_empty() || modules.contains(p))
                .unwrap_or_default();
            let what = match may {
                May::Only(allowed) => {
                    let Some(top) = landed.first().map(String::as_str) else {
                        violations_push(
                            &mut violations,
                            rel,
                            &r,
                            format!("{own} must not import the crate root"),
                        );
                        continue;
                    };
                    if top == own || allowed.contains(&top) {
                        continue;
                    }
                    format!("{own} must not import {top}")
                }
                May::Anything if own == COMMANDS => {
                    // Within the commands: only ancestors, itself and its
                    // descendants; never a command or a sibling of its group.
                    let related = landed.is_empty()
                        || landed.first().map(String::as_str) != Some(COMMANDS)
                        || module.starts_with(&landed)
                        || landed.starts_with(&module);
                    if related {
                        continue;
                    }
                    format!("{} must not import {}", show(&module), show(&landed))
                }
                May::Anything => continue,
            };
            violations_push(&mut violations, rel, &r, what);
        }
    }
    violations
}

/// Add a violation, merged with the previous one when it is the same edge
/// on the same line (`use super::run::{a, b}`).
fn violations_push(out: &mut Vec<Violation>, file: &str, r: &Reference, what: String) {
    if let Some(last) = out.last_mut() {
        if last.file == file && last.line == r.line && last.what == what {
            last.paths.push(r.written.clone());
            return;
        }
    }
    out.push(Violation {
        file: file.to_string(),
        line: r.line,
        what,
        paths: vec![r.written.clone()],
    });
}

/// Every `.rs` file under `dir`, sorted, as (path relative to `root`, text).
fn read_sources(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_sources(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap();
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            out.push((rel, text));
        }
    }
}

#[test]
fn layers_import_only_what_they_may() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    read_sources(&root, &root.join("src"), &mut files);
    assert!(
        files.iter().any(|(p, _)| p == "src/lib.rs"),
        "no src/lib.rs under {}",
        root.display()
    );
    // The scan must see the crate's references, or it checks nothing.
    let seen: usize = files
        .iter()
        .filter_map(|(p, text)| module_path(p).map(|m| references(text, &m).len()))
        .sum();
    assert!(seen > 100, "only {seen} references found under src/");

    let violations = check(&files);
    assert!(
        violations.is_empty(),
        "{} imports break the layer rules (tests/architecture.rs):\n{}",
        violations.len(),
        violations
            .iter()
            .map(|v| format!("  {v}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

// ---------------------------------------------------------------------------
// The scanner on small sources

fn m(path: &str) -> Vec<String> {
    path.split("::").map(str::to_string).collect()
}

/// (line, written, resolved target) of every reference.
fn refs(src: &str, module: &str) -> Vec<(usize, String, String)> {
    references(src, &m(module))
        .into_iter()
        .map(|r| (r.line, r.written, show(&r.target)))
        .collect()
}

fn check_files(files: &[(&str, &str)]) -> Vec<String> {
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    check(&files).iter().map(ToString::to_string).collect()
}

#[test]
fn a_forbidden_use_is_caught() {
    let got = check_files(&[
        ("src/lib.rs", "pub mod io;\npub mod output;\n"),
        ("src/output.rs", "pub fn warn() {}\n"),
        ("src/io/mod.rs", "pub mod state;\n"),
        (
            "src/io/state.rs",
            "use std::path::Path;\nuse crate::kernel::journal::RunRecord;\nuse crate::output::warn;\n",
        ),
        ("src/kernel/mod.rs", "pub mod journal;\n"),
        ("src/kernel/journal.rs", "pub struct RunRecord;\n"),
    ]);
    assert_eq!(
        got,
        ["src/io/state.rs:3: io must not import output (crate::output::warn)"]
    );
}

#[test]
fn comments_and_strings_do_not_count() {
    let src = r####"
//! Renders through [`crate::output`].
/// See `crate::output::warn`.
// use crate::output::warn;
/* use crate::output::warn; /* nested */ crate::output::warn(); */
const A: &str = "crate::output::warn";
const B: &str = "quote \" crate::output::warn";
const C: &str = r#"crate::output::warn "quoted""#;
const D: &[u8] = b"crate::output";
const E: char = '"';
const F: char = '\'';
fn f<'a>(x: &'a str) -> &'a str { x }
pub(crate) fn g() {}
pub(in crate::io) fn h() {}
fn after() { crate::kernel::x(); }
"####;
    assert_eq!(
        refs(src, "io::state"),
        [(15, "crate::kernel::x".into(), "kernel::x".into())]
    );
}

#[test]
fn use_groups_are_expanded_over_lines() {
    let src = "use crate::{\n    io,\n    kernel::{self, verdict::Verdict},\n    output::{warn as w, *},\n};\npub use crate::cli::Cli;\n";
    assert_eq!(
        refs(src, "commands::log"),
        [
            (2, "crate::io".into(), "io".into()),
            (3, "crate::kernel".into(), "kernel".into()),
            (
                3,
                "crate::kernel::verdict::Verdict".into(),
                "kernel::verdict::Verdict".into()
            ),
            (4, "crate::output::warn".into(), "output::warn".into()),
            (4, "crate::output::*".into(), "output".into()),
            (6, "crate::cli::Cli".into(), "cli::Cli".into()),
        ]
    );
}

#[test]
fn super_and_self_resolve_from_the_module_of_the_code() {
    let src = "\
use super::Ctx;
use super::super::error::Exit;
fn f() { super::recover_landings(); self::g(); let _ = crate::io::git::state::<u8>(); }
#[cfg(test)]
mod tests {
    use super::*;
    use super::super::apply::run;
    mod deeper { fn h() { super::super::super::x(); } }
}
fn after() { super::y(); }
";
    assert_eq!(
        refs(src, "commands::round::status"),
        [
            (1, "super::Ctx".into(), "commands::round::Ctx".into()),
            (
                2,
                "super::super::error::Exit".into(),
                "commands::error::Exit".into()
            ),
            (
                3,
                "super::recover_landings".into(),
                "commands::round::recover_landings".into()
            ),
            (3, "self::g".into(), "commands::round::status::g".into()),
            (3, "crate::io::git::state".into(), "io::git::state".into()),
            (6, "super::*".into(), "commands::round::status".into()),
            (
                7,
                "super::super::apply::run".into(),
                "commands::round::apply::run".into()
            ),
            (
                8,
                "super::super::super::x".into(),
                "commands::round::x".into()
            ),
            (10, "super::y".into(), "commands::round::y".into()),
        ]
    );
}

#[test]
fn dollar_crate_in_a_macro_is_a_reference() {
    let src = "macro_rules! m { () => { $crate::engine::efe::Model::ALL }; }\n";
    assert_eq!(
        refs(src, "kernel::names"),
        [(
            1,
            "$crate::engine::efe::Model::ALL".into(),
            "engine::efe::Model::ALL".into()
        )]
    );
}

#[test]
fn test_modules_are_checked_too() {
    let got = check_files(&[
        ("src/engine/mod.rs", "pub mod efe;\n"),
        ("src/engine/efe.rs", "pub struct Model;\n"),
        ("src/kernel/mod.rs", "pub mod names;\n"),
        (
            "src/kernel/names.rs",
            "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn t() {\n        use crate::engine::efe::Model;\n    }\n}\n",
        ),
    ]);
    assert_eq!(
        got,
        ["src/kernel/names.rs:6: kernel must not import engine (crate::engine::efe::Model)"]
    );
}

#[test]
fn commands_use_their_parents_but_not_their_siblings() {
    let mod_rs = "mod compare;\nmod run;\nmod round;\npub struct Ctx;\npub fn verdict_exit() {}\n";
    let got = check_files(&[
        ("src/commands/mod.rs", mod_rs),
        ("src/commands/run.rs", "pub fn interrupt_flag() {}\n"),
        (
            "src/commands/compare.rs",
            "use super::{verdict_exit, Ctx};\nuse crate::commands::Ctx as C;\nuse super::run::{interrupt_flag, Origin};\nfn f() { crate::commands::run::interrupt_flag(); }\n",
        ),
        ("src/commands/round/mod.rs", "mod apply;\nmod status;\npub fn recover_landings() {}\n"),
        ("src/commands/round/apply.rs", "pub fn run() {}\n"),
        (
            "src/commands/round/status.rs",
            "use super::recover_landings;\nuse crate::commands::Ctx;\nuse super::apply;\nuse super::super::run::interrupt_flag;\n",
        ),
    ]);
    assert_eq!(
        got,
        [
            "src/commands/compare.rs:3: commands::compare must not import commands::run \
             (super::run::interrupt_flag, super::run::Origin)",
            "src/commands/compare.rs:4: commands::compare must not import commands::run \
             (crate::commands::run::interrupt_flag)",
            "src/commands/round/status.rs:3: commands::round::status must not import \
             commands::round::apply (super::apply)",
            "src/commands/round/status.rs:4: commands::round::status must not import \
             commands::run (super::super::run::interrupt_flag)",
        ]
    );
}

#[test]
fn the_mcp_front_end_runs_commands_as_children_never_their_code() {
    let got = check_files(&[
        ("src/commands/mod.rs", "mod mcp;\npub struct Ctx;\n"),
        ("src/commands/mcp.rs", "use crate::mcp::{serve, Setup};\n"),
        ("src/ops/mod.rs", "pub mod gate;\n"),
        ("src/ops/gate.rs", "pub fn check() {}\n"),
        ("src/cli/mod.rs", "pub struct Cli;\n"),
        ("src/io/mod.rs", "pub type Warn = fn(&str);\n"),
        (
            "src/mcp/mod.rs",
            "use crate::io::Warn;\nfn f() { crate::ops::gate::check(); }\n#[cfg(test)]\nmod tests {\n    use crate::cli::Cli;\n    use crate::commands::Ctx;\n}\n",
        ),
        ("src/io/state.rs", "use crate::mcp::Setup;\n"),
    ]);
    assert_eq!(
        got,
        [
            "src/mcp/mod.rs:2: mcp must not import ops (crate::ops::gate::check)",
            "src/mcp/mod.rs:6: mcp must not import commands (crate::commands::Ctx)",
            "src/io/state.rs:1: io must not import mcp (crate::mcp::Setup)",
        ]
    );
}

#[test]
fn unplaced_modules_and_the_crate_root_are_reported() {
    let got = check_files(&[
        (
            "src/lib.rs",
            "pub mod app;\npub mod cli;\npub use app::run;\n",
        ),
        ("src/app.rs", "use crate::cli::Cli;\n"),
        (
            "src/cli.rs",
            "fn f() -> crate::Exit { crate::error::Exit::Ok }\n",
        ),
        ("src/error.rs", "pub enum Exit { Ok }\n"),
    ]);
    assert_eq!(
        got,
        [
            "src/app.rs: top-level module app has no layer rule \
             (add it to LAYERS, or to ENTRY_MODULES if it may import anything)",
            "src/cli.rs:1: cli must not import the crate root (crate::Exit)",
        ]
    );
}

// ---------------------------------------------------------------------------
// The fleet's remote is reached through ops

/// The modules that talk to the fleet's git remote.
const FLEET_DOORS: &[&str] = &["io::fleet", "io::fleet_queue"];

/// Where a command reaches the fleet's remote itself, rather than through a
/// step of `ops` (`ops::fleet`, `ops::fleet_status`, `ops::ratchet`): an
/// import of [`FLEET_DOORS`], or a use of a fleet's `door` (`fleet.door.fetch()`).
/// Each as `file:line: what`.
fn fleet_doors_in_commands(files: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (rel, text) in files {
        let Some(module) = module_path(rel) else {
            continue;
        };
        if module[0] != COMMANDS {
            continue;
        }
        for r in references(text, &module) {
            let target = show(&r.target);
            if FLEET_DOORS
                .iter()
                .any(|d| target == *d || target.starts_with(&format!("{d}::")))
            {
                out.push(format!("{rel}:{}: imports {}", r.line, r.written));
            }
        }
        let tokens = tokenize(text);
        for pair in tokens.windows(2) {
            if pair[0].tok == Tok::Punct('.') && pair[1].tok == Tok::Ident("door".into()) {
                out.push(format!("{rel}:{}: uses a fleet's door", pair[1].line));
            }
        }
    }
    out
}

#[test]
fn commands_reach_the_fleets_remote_only_through_ops() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    read_sources(&root, &root.join("src"), &mut files);
    let found = fleet_doors_in_commands(&files);
    assert!(
        found.is_empty(),
        "commands reach the fleet's remote themselves; give ops a step (tests/architecture.rs):\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn a_command_using_the_fleets_door_is_caught() {
    let files: Vec<(String, String)> = [
        (
            "src/commands/fleet.rs",
            "use crate::io::fleet::Door;\n// fleet.door.fetch()\nfn f(fleet: &Fleet) {\n    let s = \"x.door\";\n    fleet\n        .door\n        .fetch();\n}\n",
        ),
        (
            "src/commands/next/ideas.rs",
            "fn g(fleet: &Fleet) { crate::io::fleet_queue::read(); let door = 1; fleet.fetch(); }\n",
        ),
        (
            "src/ops/fleet_status.rs",
            "fn h(fleet: &Fleet) { fleet.door.fetch(); crate::io::fleet::lock_sync(); }\n",
        ),
    ]
    .iter()
    .map(|(p, t)| (p.to_string(), t.to_string()))
    .collect();
    assert_eq!(
        fleet_doors_in_commands(&files),
        [
            "src/commands/fleet.rs:1: imports crate::io::fleet::Door",
            "src/commands/fleet.rs:6: uses a fleet's door",
            "src/commands/next/ideas.rs:1: imports crate::io::fleet_queue::read",
        ]
    );
}

// ---------------------------------------------------------------------------
// No import cycles inside the kernel

/// The import cycles among the kernel's modules (files), each as
/// `a -> b -> a`. A module's use of its ancestors or descendants (a
/// parent re-exporting a child, a child using its parent's items) is not an
/// edge; test code counts, as it does for the layers.
fn kernel_cycles(files: &[(String, String)]) -> Vec<String> {
    let modules: BTreeSet<Vec<String>> = files.iter().filter_map(|(p, _)| module_path(p)).collect();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (rel, text) in files {
        let Some(module) = module_path(rel) else {
            continue;
        };
        if module[0] != "kernel" {
            continue;
        }
        for r in references(text, &module) {
            let landed: Vec<String> = (0..=r.target.len())
                .rev()
                .map(|n| r.target[..n].to_vec())
                .find(|p| p.is_empty() || modules.contains(p))
                .unwrap_or_default();
            if landed.first().map(String::as_str) != Some("kernel")
                || landed.starts_with(&module)
                || module.starts_with(&landed)
            {
                continue;
            }
            edges.entry(module.clone()).or_default().insert(landed);
        }
    }
    // Each cycle once, found from its smallest module: a path back to the
    // start through modules greater than it.
    let mut cycles = Vec::new();
    for start in edges.keys() {
        let mut stack: Vec<(Vec<String>, Vec<Vec<String>>)> =
            vec![(start.clone(), vec![start.clone()])];
        let mut seen: BTreeSet<Vec<String>> = BTreeSet::new();
        while let Some((at, path)) = stack.pop() {
            for next in edges.get(&at).into_iter().flatten() {
                if next == start {
                    let mut names: Vec<String> = path.iter().map(|m| show(m)).collect();
                    names.push(show(start));
                    cycles.push(names.join(" -> "));
                } else if next > start && seen.insert(next.clone()) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
    cycles
}

#[test]
fn kernel_modules_import_no_cycle() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    read_sources(&root, &root.join("src"), &mut files);
    let cycles = kernel_cycles(&files);
    assert!(
        cycles.is_empty(),
        "import cycles among the kernel's modules (tests/architecture.rs):\n{}",
        cycles
            .iter()
            .map(|c| format!("  {c}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn a_kernel_import_cycle_is_caught_but_not_a_parent_and_its_child() {
    let files: Vec<(String, String)> = [
        (
            "src/kernel/mod.rs",
            "pub mod a;\npub mod b;\npub mod c;\npub mod r;\n",
        ),
        ("src/kernel/a.rs", "use super::b::X;\n"),
        (
            "src/kernel/b.rs",
            "pub struct X;\nfn f() { crate::kernel::c::g(); }\n",
        ),
        (
            "src/kernel/c.rs",
            "pub fn g() {}\n#[cfg(test)]\nmod tests { use super::super::a; }\n",
        ),
        (
            "src/kernel/r/mod.rs",
            "mod l;\npub use l::P;\npub struct Q;\n",
        ),
        ("src/kernel/r/l.rs", "use super::Q;\npub struct P;\n"),
    ]
    .iter()
    .map(|(p, t)| (p.to_string(), t.to_string()))
    .collect();
    assert_eq!(
        kernel_cycles(&files),
        ["kernel::a -> kernel::b -> kernel::c -> kernel::a"]
    );
}

// ---------------------------------------------------------------------------
// Size: a reader sees a module whole

/// The most lines a source file holds before its tests.
const MAX_FILE_LINES: usize = 650;

/// The lines of `text` before its first `#[cfg(test)]` (all of them when
/// it has none).
fn lines_before_tests(text: &str) -> usize {
    text.lines()
        .take_while(|l| l.trim_start() != "#[cfg(test)]")
        .count()
}

#[test]
fn no_source_file_is_longer_than_a_reader_can_hold() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    read_sources(&root, &root.join("src"), &mut files);
    let long: Vec<String> = files
        .iter()
        .map(|(p, text)| (p, lines_before_tests(text)))
        .filter(|(_, n)| *n > MAX_FILE_LINES)
        .map(|(p, n)| format!("  {p}: {n} lines"))
        .collect();
    assert!(
        long.is_empty(),
        "{} files hold more than {MAX_FILE_LINES} lines before their tests; split them into submodules:\n{}",
        long.len(),
        long.join("\n")
    );
}

#[test]
fn lines_before_tests_stop_at_the_test_module() {
    assert_eq!(lines_before_tests("a\nb\n#[cfg(test)]\nmod tests {}\n"), 2);
    assert_eq!(lines_before_tests("a\n    #[cfg(test)]\nb\n"), 1);
    assert_eq!(lines_before_tests("a\nb\nc\n"), 3);
}

/// A long function: one of at least this many lines ...
const LONG_FN_LINES: usize = 80;
/// ... of which the crate holds at most this many: a longer piece of work
/// is a sequence of named steps.
const MAX_LONG_FNS: usize = 20;

/// `line` with its string and character literals emptied and its `//`
/// comment cut, so that only code braces remain.
fn code_of(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '\'' => {
                // A character literal ('x', '\n', '{'), not a lifetime.
                let rest: String = chars.clone().take(3).collect();
                let r: Vec<char> = rest.chars().collect();
                if r.len() >= 2 && r[0] != '\\' && r[1] == '\'' {
                    chars.nth(1);
                } else if r.len() >= 3 && r[0] == '\\' && r[2] == '\'' {
                    chars.nth(2);
                }
            }
            '/' if chars.peek() == Some(&'/') => break,
            _ => out.push(c),
        }
    }
    out
}

/// Whether `line` starts a function (`fn`, with any of `pub`, `pub(...)`,
/// `const`, `async`, `unsafe` before it).
fn starts_fn(line: &str) -> bool {
    let mut rest = line.trim_start();
    loop {
        if let Some(r) = rest.strip_prefix("pub(") {
            rest = r.split_once(')').map_or("", |(_, r)| r).trim_start();
        } else if let Some(r) = ["pub ", "const ", "async ", "unsafe "]
            .iter()
            .find_map(|p| rest.strip_prefix(p))
        {
            rest = r.trim_start();
        } else {
            break;
        }
    }
    rest.strip_prefix("fn ")
        .is_some_and(|r| r.starts_with(|c: char| c.is_alphabetic() || c == '_'))
}

/// The functions of `text` (before its tests) with at least
/// [`LONG_FN_LINES`] lines: (first line, lines).
fn long_fns(text: &str) -> Vec<(usize, usize)> {
    let lines: Vec<&str> = text
        .lines()
        .take_while(|l| l.trim_start() != "#[cfg(test)]")
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !starts_fn(lines[i]) {
            i += 1;
            continue;
        }
        let (mut depth, mut started, mut j) = (0i64, false, i);
        while j < lines.len() {
            let code = code_of(lines[j]);
            for c in code.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        started = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if (started && depth == 0) || (!started && code.trim_end().ends_with(';')) {
                break;
            }
            j += 1;
        }
        let n = j.min(lines.len() - 1) - i + 1;
        if n >= LONG_FN_LINES {
            out.push((i + 1, n));
        }
        i = if started { j + 1 } else { i + 1 };
    }
    out
}

#[test]
fn few_functions_are_long() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    read_sources(&root, &root.join("src"), &mut files);
    let mut long: Vec<(usize, String)> = files
        .iter()
        .flat_map(|(p, text)| {
            long_fns(text)
                .into_iter()
                .map(move |(at, n)| (n, format!("  {p}:{at}: {n} lines")))
        })
        .collect();
    long.sort_by_key(|(n, _)| std::cmp::Reverse(*n));
    assert!(
        long.len() <= MAX_LONG_FNS,
        "{} functions have {LONG_FN_LINES} lines or more (at most {MAX_LONG_FNS}); split the longest into named steps:\n{}",
        long.len(),
        long.iter().map(|(_, l)| l.as_str()).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn a_long_function_is_measured_from_its_line_to_its_closing_brace() {
    let body = "    let s = \"}}}\";\n    let c = '{';\n    // }\n".repeat(30);
    let text = format!("pub(crate) fn f<'a>(x: &'a str) {{\n{body}}}\nfn g() {{}}\n");
    assert_eq!(long_fns(&text), vec![(1, 92)]);
    assert!(long_fns("fn short() {\n}\n").is_empty());
    assert!(starts_fn("    pub async fn x() {"));
    assert!(!starts_fn("    let fn_name = 1;"));
}
