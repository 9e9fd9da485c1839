//! Every command example in README.md and docs/ runs here, and fails the
//! suite when what it prints drifts from what the page shows.
//!
//! A page is read from the top; its fenced blocks are, by info string:
//! - `console`: commands to run. A line `$ CMD` is a command (a line ending
//!   in `\` continues it; a heredoc's body belongs to it), run by `bash` in
//!   the page's directory with stderr merged into stdout. A line `? N` right
//!   after it is the exit code the page expects (0 when absent). The lines
//!   up to the next `$ ` are the output it must print, where `...` on a line
//!   of its own stands for any number of lines, `[..]` for any text within a
//!   line, and `[ROOT]` for the page's directory. `$ cd DIR` changes the
//!   directory for the page's later commands.
//! - any language with `file=PATH` (```` ```toml file=arx.toml ````): the
//!   block's text is written to PATH, for the commands after it.
//! - `sh`, `bash`, `shell`, `zsh`: not allowed unless marked `norun`
//!   (```` ```sh norun ````), for the few commands a test cannot run
//!   (installing arx, registering it with an MCP client): so no shell
//!   example goes unchecked by mistake.
//! - anything else (`json`, `toml`, `text`, ...) is shown data.
//!
//! Each page runs in a directory of its own, in a fresh `HOME`, with the
//! examples of `fixtures/examples/` at `fixtures/examples/` and, when
//! `tests/docs/<page>.sh` exists (`README.sh`, `ratchet.sh`, ...), that
//! script run there first (a git repository with an experiment in it, for
//! instance). Commits get fixed dates, so their hashes do not change.
//!
//! `ARX_UPDATE_DOCS=1 cargo test --test docs` writes what each failing
//! command printed into its page instead of failing (then put `[..]` back
//! where the text changes from run to run).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use libtest_mimic::{Arguments, Failed, Trial};

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut trials = Vec::new();
    let pages = pages(root);
    for page in &pages {
        let rel = page.strip_prefix(root).unwrap().display().to_string();
        let path = page.clone();
        trials.push(Trial::test(rel.clone(), move || {
            check_page(&path, root).map_err(Failed::from)
        }));
    }
    trials.push(Trial::test(
        "a_drifted_example_fails",
        drifted_example_fails,
    ));
    trials.push(Trial::test(
        "an_unmarked_shell_block_fails",
        unmarked_shell_fails,
    ));
    let linked = pages.clone();
    trials.push(Trial::test(
        "every_link_between_pages_resolves",
        move || links_resolve(&linked, root),
    ));
    trials.push(Trial::test("every_page_is_checked", move || {
        every_page_is_checked(&pages, root)
    }));
    libtest_mimic::run(&args, trials).exit();
}

/// README.md and every Markdown page under docs/.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.join("README.md")];
    let mut stack = vec![root.join("docs")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "md") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// One fenced block of a page.
#[derive(Debug)]
struct Block {
    /// The info string's words (language first).
    info: Vec<String>,
    /// Line number (1-based) of the block's first line of text.
    first_line: usize,
    lines: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Option<(String, Block)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match &mut current {
            None => {
                for fence in ["```", "~~~"] {
                    if let Some(info) = trimmed.strip_prefix(fence) {
                        let indent = line.len() - trimmed.len();
                        let marker: String = trimmed
                            .chars()
                            .take_while(|c| *c == fence.chars().next().unwrap())
                            .collect();
                        let info = info.trim_start_matches(fence.chars().next().unwrap());
                        current = Some((
                            format!("{indent}:{marker}"),
                            Block {
                                info: info.split_whitespace().map(String::from).collect(),
                                first_line: i + 2,
                                lines: Vec::new(),
                            },
                        ));
                        break;
                    }
                }
            }
            Some((key, block)) => {
                let (indent, marker) = key.split_once(':').unwrap();
                let indent: usize = indent.parse().unwrap();
                if trimmed.starts_with(marker)
                    && trimmed
                        .trim_start_matches(marker.chars().next().unwrap())
                        .trim()
                        .is_empty()
                {
                    out.push(current.take().unwrap().1);
                } else {
                    let strip = line
                        .char_indices()
                        .take_while(|(j, c)| *j < indent && *c == ' ')
                        .count();
                    block.lines.push(line[strip..].to_string());
                }
            }
        }
    }
    out
}

/// What a block is for.
#[derive(Debug, PartialEq)]
enum Kind {
    Console,
    File(String),
    NotRun,
    Data,
}

fn kind(block: &Block) -> Result<Kind, String> {
    if let Some(path) = block.info.iter().find_map(|w| w.strip_prefix("file=")) {
        return Ok(Kind::File(path.to_string()));
    }
    let lang = block.info.first().map(String::as_str).unwrap_or("");
    match lang {
        "console" => Ok(Kind::Console),
        "sh" | "bash" | "shell" | "zsh" | "fish" | "powershell" => {
            if block.info.iter().any(|w| w == "norun") {
                Ok(Kind::NotRun)
            } else {
                Err(format!(
                    "line {}: a ```{lang} block is not run by the tests: make it ```console \
                     (with `$ ` before each command and its output below) or mark it ```{lang} norun",
                    block.first_line
                ))
            }
        }
        _ => Ok(Kind::Data),
    }
}

/// One command of a console block and what the page expects of it.
#[derive(Debug)]
struct Example {
    line: usize,
    command: String,
    code: i32,
    output: String,
    /// Index in the page's lines of the `? N` line, when there is one.
    code_line: Option<usize>,
    /// Range of the block's lines holding the expected output (for
    /// `ARX_UPDATE_DOCS`), as indices into the page's lines.
    output_lines: (usize, usize),
}

fn examples(block: &Block) -> Result<Vec<Example>, String> {
    let mut out: Vec<Example> = Vec::new();
    let mut i = 0;
    let lines = &block.lines;
    while i < lines.len() {
        let Some(first) = lines[i].strip_prefix("$ ") else {
            if out.is_empty() {
                return Err(format!(
                    "line {}: a console block starts with `$ COMMAND`",
                    block.first_line + i
                ));
            }
            unreachable!("output lines are taken with their command");
        };
        let line = block.first_line + i;
        let mut command = first.to_string();
        i += 1;
        while command.ends_with('\\') && i < lines.len() {
            command.push('\n');
            command.push_str(lines[i].trim_start_matches("> "));
            i += 1;
        }
        if let Some(tag) = heredoc_tag(&command) {
            loop {
                let Some(body) = lines.get(i) else {
                    return Err(format!("line {line}: the heredoc has no `{tag}` line"));
                };
                command.push('\n');
                command.push_str(body);
                i += 1;
                if body.trim() == tag {
                    break;
                }
            }
        }
        let mut code = 0;
        let mut code_line = None;
        if let Some(c) = lines.get(i).and_then(|l| l.strip_prefix("? ")) {
            code_line = Some(block.first_line - 1 + i);
            code = c.trim().parse().map_err(|_| {
                format!("line {}: `? {c}` is not an exit code", block.first_line + i)
            })?;
            i += 1;
        }
        let start = i;
        while i < lines.len() && !lines[i].starts_with("$ ") {
            i += 1;
        }
        let mut output = lines[start..i].join("\n");
        while output.ends_with('\n') {
            output.pop();
        }
        out.push(Example {
            line,
            command,
            code,
            output,
            code_line,
            output_lines: (block.first_line - 1 + start, block.first_line - 1 + i),
        });
    }
    Ok(out)
}

/// The end marker of a heredoc the command opens (`<<'EOF'`, `<<EOF`).
fn heredoc_tag(command: &str) -> Option<String> {
    let at = command.find("<<")?;
    let rest = command[at + 2..].trim_start_matches('-').trim_start();
    let tag: String = rest
        .trim_start_matches(['\'', '"'])
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!tag.is_empty()).then_some(tag)
}

/// The environment every example runs in.
struct Scratch {
    dir: tempfile::TempDir,
    cwd: PathBuf,
}

impl Scratch {
    fn new(root: &Path, page: &Path) -> Result<Self, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        // Canonical, so the `[ROOT]` the page shows is the path arx prints.
        let base = dir.path().canonicalize().map_err(|e| e.to_string())?;
        let home = base.join(".home");
        std::fs::create_dir_all(&home).map_err(|e| e.to_string())?;
        std::fs::write(
            home.join(".gitconfig"),
            "[user]\n\tname = Ada\n\temail = ada@example.org\n[init]\n\tdefaultBranch = main\n\
             [advice]\n\tdetachedHead = false\n",
        )
        .map_err(|e| e.to_string())?;
        copy_dir(
            &root.join("fixtures/examples"),
            &base.join("fixtures/examples"),
        )?;
        let scratch = Scratch {
            dir,
            cwd: base.clone(),
        };
        let stem = page
            .strip_prefix(root)
            .unwrap()
            .with_extension("")
            .display()
            .to_string()
            .replace('/', "_");
        let setup = root.join("tests/docs").join(format!("{stem}.sh"));
        if setup.exists() {
            let out = scratch.command(&format!("sh {}", setup.display()))?;
            if out.0 != 0 {
                return Err(format!("{} failed:\n{}", setup.display(), out.1));
            }
        }
        Ok(scratch)
    }

    fn root(&self) -> PathBuf {
        self.dir.path().canonicalize().unwrap()
    }

    /// Run one command; its exit code and what it printed (both streams).
    fn command(&self, command: &str) -> Result<(i32, String), String> {
        let arx = Path::new(env!("CARGO_BIN_EXE_arx"));
        let path = format!(
            "{}:{}",
            arx.parent().unwrap().display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let root = self.root();
        let mut cmd = Command::new("bash");
        cmd.arg("-c")
            .arg(format!("exec 2>&1\n{command}"))
            .current_dir(&self.cwd)
            .env_clear()
            .env("PATH", path)
            .env("HOME", root.join(".home"))
            .env("LANG", "C.UTF-8")
            .env("NO_COLOR", "1")
            .env("TERM", "dumb")
            .env("COLUMNS", "100")
            .env("TZ", "UTC")
            .env("GIT_AUTHOR_DATE", "2026-11-20T09:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-11-20T09:00:00Z")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .stdin(Stdio::null());
        if let Ok(tmp) = std::env::var("TMPDIR") {
            cmd.env("TMPDIR", tmp);
        }
        let out = cmd.output().map_err(|e| format!("cannot run bash: {e}"))?;
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        Ok((out.status.code().unwrap_or(-1), text))
    }
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| e.to_string())?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let dest = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &dest)?;
        } else {
            std::fs::copy(entry.path(), &dest).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// Does `actual` match the page's `expected` (wildcards and `[ROOT]`)?
fn matches(expected: &str, actual: &str, root: &Path) -> Result<(), String> {
    let mut redactions = snapbox::Redactions::new();
    redactions
        .insert("[ROOT]", root.display().to_string())
        .map_err(|e| e.to_string())?;
    let assert = snapbox::Assert::new()
        .redact_with(redactions)
        .normalize_paths(false)
        .palette(snapbox::report::Palette::plain())
        .action(snapbox::assert::Action::Verify);
    assert
        .try_eq(
            None,
            snapbox::Data::text(actual.trim_end().to_string()),
            snapbox::Data::text(expected.to_string()),
        )
        .map_err(|e| e.to_string())
}

/// Run a page's examples; every mismatch, with its line.
fn run_page(text: &str, page: &Path, root: &Path) -> Result<Vec<(Example, String)>, String> {
    let mut scratch = Scratch::new(root, page)?;
    let mut failures = Vec::new();
    for block in blocks(text) {
        match kind(&block)? {
            Kind::Console => {
                for ex in examples(&block)? {
                    if let Some(dir) = ex.command.strip_prefix("cd ") {
                        scratch.cwd = scratch.cwd.join(dir.trim());
                        continue;
                    }
                    let (code, actual) = scratch.command(&ex.command)?;
                    let mut problems = Vec::new();
                    if code != ex.code {
                        problems.push(format!(
                            "exit code {code}, the page says {}\n--- code: {code}",
                            ex.code
                        ));
                    }
                    if let Err(diff) = matches(&ex.output, &actual, &scratch.root()) {
                        problems.push(diff);
                    }
                    if !problems.is_empty() {
                        let mut actual = actual.trim_end().to_string();
                        let root_text = scratch.root().display().to_string();
                        actual = actual.replace(&root_text, "[ROOT]");
                        failures.push((
                            ex,
                            format!("{}\n--- printed:\n{actual}", problems.join("\n")),
                        ));
                    }
                }
            }
            Kind::File(path) => {
                if path.starts_with('/') || path.split('/').any(|p| p == "..") {
                    return Err(format!(
                        "line {}: file={path} must be a relative path inside the example's directory",
                        block.first_line
                    ));
                }
                let dest = scratch.cwd.join(&path);
                if let Some(parent) = dest.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
                }
                let mut body = block.lines.join("\n");
                body.push('\n');
                std::fs::write(&dest, body).map_err(|e| e.to_string())?;
            }
            Kind::NotRun | Kind::Data => {}
        }
    }
    Ok(failures)
}

fn check_page(page: &Path, root: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(page).map_err(|e| e.to_string())?;
    let failures = run_page(&text, page, root)?;
    if failures.is_empty() {
        return Ok(());
    }
    if std::env::var_os("ARX_UPDATE_DOCS").is_some() {
        return update(page, &text, &failures);
    }
    let mut report = String::new();
    for (ex, why) in &failures {
        report.push_str(&format!(
            "\n{}:{}: $ {}\n{why}\n",
            page.display(),
            ex.line,
            ex.command.lines().next().unwrap_or("")
        ));
    }
    Err(format!(
        "{} example(s) drifted from the page:{report}\n\
         (ARX_UPDATE_DOCS=1 writes what they printed into the page)",
        failures.len()
    ))
}

/// Write each failing command's output into the page.
fn update(page: &Path, text: &str, failures: &[(Example, String)]) -> Result<(), String> {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut sorted: Vec<&(Example, String)> = failures.iter().collect();
    sorted.sort_by_key(|(ex, _)| std::cmp::Reverse(ex.output_lines.0));
    for (ex, why) in sorted {
        let printed = why.split("\n--- printed:\n").nth(1).unwrap_or("");
        let (start, end) = ex.output_lines;
        let mut new: Vec<String> = printed.lines().map(String::from).collect();
        while new.last().is_some_and(|l| l.is_empty()) {
            new.pop();
        }
        lines.splice(start..end, new);
        // The exit code it really had, on the line after the command.
        if let Some(code) = why
            .split("\n--- code: ")
            .nth(1)
            .and_then(|rest| rest.lines().next())
        {
            let line = format!("? {code}");
            match ex.code_line {
                Some(at) if code == "0" => {
                    lines.remove(at);
                }
                Some(at) => lines[at] = line,
                None => lines.insert(start, line),
            }
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    std::fs::write(page, out).map_err(|e| e.to_string())?;
    eprintln!("docs: updated {}", page.display());
    Ok(())
}

/// A page whose example no longer prints what it shows fails, and says
/// where and how.
fn drifted_example_fails() -> Result<(), Failed> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = root.join("drift.md");
    let good = "```console\n$ arx parse fixtures/examples/train.log\n\
                {\"acc\":0.8312,\"mrr\":0.61,\"loss\":0.2607,\"queries\":12480.0}\n```\n";
    if !run_page(good, &page, root)?.is_empty() {
        return Err("the faithful example should pass".into());
    }
    let drifted = good.replace("0.8312", "0.8313");
    let failures = run_page(&drifted, &page, root)?;
    if failures.len() != 1 || failures[0].0.line != 2 || !failures[0].1.contains("0.8312") {
        return Err(format!("the drift was not reported as such: {failures:?}").into());
    }
    let wrong_code = good.replace("train.log\n", "train.log\n? 1\n");
    let failures = run_page(&wrong_code, &page, root)?;
    if failures.len() != 1 || !failures[0].1.contains("exit code 0, the page says 1") {
        return Err(format!("a wrong exit code was not reported: {failures:?}").into());
    }
    let wildcard = good.replace("0.61,", "[..],");
    if !run_page(&wildcard, &page, root)?.is_empty() {
        return Err("`[..]` should match any text within the line".into());
    }
    Ok(())
}

fn unmarked_shell_fails() -> Result<(), Failed> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = root.join("unmarked.md");
    match run_page("```sh\narx parse log\n```\n", &page, root) {
        Err(e) if e.contains("is not run by the tests") => {}
        other => return Err(format!("an unmarked sh block was accepted: {other:?}").into()),
    }
    if !run_page("```sh norun\ncargo install arx\n```\n", &page, root)?.is_empty() {
        return Err("a norun block should not run".into());
    }
    Ok(())
}

/// The count of what the pages hold, and no page without an example that
/// runs unless it says why.
fn every_page_is_checked(pages: &[PathBuf], root: &Path) -> Result<(), Failed> {
    let (mut run, mut not_run) = (0, 0);
    for page in pages {
        let text = std::fs::read_to_string(page).map_err(|e| e.to_string())?;
        for block in blocks(&text) {
            match kind(&block).map_err(|e| format!("{}: {e}", page.display()))? {
                Kind::Console => run += examples(&block)?.len(),
                Kind::NotRun => not_run += 1,
                _ => {}
            }
        }
    }
    eprintln!(
        "docs: {} pages, {run} commands run by the tests, {not_run} blocks marked norun",
        pages.len()
    );
    let _ = root;
    if run == 0 {
        return Err("no example found".into());
    }
    Ok(())
}

/// GitHub's anchor of a heading: lower case, punctuation but `-` and `_`
/// dropped, spaces to `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings (outside fenced blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            let heading = line.trim_start_matches('#');
            if heading.starts_with(' ') {
                let base = slug(heading);
                let n = out
                    .iter()
                    .filter(|a: &&String| **a == base || a.starts_with(&format!("{base}-")))
                    .count();
                out.push(if n == 0 { base } else { format!("{base}-{n}") });
            }
        }
    }
    out
}

/// The targets of a page's Markdown links (`[text](target)`), outside
/// fenced blocks and code spans.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let before_ticks = rest[..at].matches('`').count();
            if before_ticks % 2 == 0 {
                out.push((i + 1, after[..end].to_string()));
            }
            rest = &after[end..];
        }
    }
    out
}

/// Every relative link of README.md and docs/ names a file that exists,
/// and every `#anchor` a heading of its page.
fn links_resolve(pages: &[PathBuf], root: &Path) -> Result<(), Failed> {
    let mut broken = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(page).map_err(|e| e.to_string())?;
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            let where_ = format!(
                "{}:{line}: ({target})",
                page.strip_prefix(root).unwrap().display()
            );
            if !path.exists() {
                broken.push(format!("{where_}: no such file"));
                continue;
            }
            if let Some(anchor) = anchor {
                let target_text = std::fs::read_to_string(&path).unwrap_or_default();
                if !anchors(&target_text).iter().any(|a| a == anchor) {
                    broken.push(format!("{where_}: no heading with that anchor"));
                }
            }
        }
    }
    if broken.is_empty() {
        Ok(())
    } else {
        Err(format!("broken links:\n{}", broken.join("\n")).into())
    }
}
