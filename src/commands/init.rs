//! `arx init`: set up arx in a repository: the state directory, an empty
//! run journal, a commented `arx.toml`, and `merge=union` lines in
//! `.gitattributes` so that branches which both append to the journal and
//! registries merge cleanly. It only creates what is missing and appends
//! what is absent: it never overwrites or rewrites an existing file, so
//! running it again changes nothing.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

use super::shown;
use super::Ctx;
use crate::cli::InitArgs;
use crate::commands::WARN;
use crate::error::{Exit, Hinted};
use crate::io::config::{repo_root, FILE_NAME};
use crate::io::rounds::write_bytes_atomic;
use crate::io::state::{
    append_lines, dead_ends, ensure_dir, journal, knowhow, no_follow, read_text_if_any,
    refuse_symlinks,
};
use crate::kernel::agents;
use crate::kernel::config_text::{self, InitObjective};
use crate::kernel::gate::{resolve_gates, Gate};
use crate::kernel::journal::{derived_ignore_lines, gitattributes_pattern, union_merge_lines};
use crate::output::{bold, dim, Report};

mod migrate;

/// The file `--agent` writes arx's section to, at the repository root.
const AGENTS_FILE: &str = "AGENTS.md";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Status {
    Created,
    Present,
    /// Lines were appended (`.gitattributes`).
    Updated,
    /// Left alone, for the reason given.
    Skipped,
}

#[derive(Serialize)]
struct Item {
    path: String,
    status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<String>,
}

#[derive(Serialize)]
struct InitReport {
    root: String,
    state_dir: String,
    /// `root` is a git repository.
    repository: bool,
    items: Vec<Item>,
    /// `--from`: what was read from the loop's files, and from which.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    decided: Vec<String>,
}

impl Report for InitReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let (b, d) = (bold(), dim());
        for item in &self.items {
            let word = match item.status {
                Status::Created => "created",
                Status::Present => "present",
                Status::Updated => "updated",
                Status::Skipped => "skipped",
            };
            let detail = item
                .detail
                .as_deref()
                .map_or(String::new(), |t| format!("  {d}({t}){d:#}"));
            if item.status == Status::Present {
                writeln!(out, "{d}{word:<8}{d:#} {}{detail}", item.path)?;
            } else {
                writeln!(out, "{b}{word:<8}{b:#} {}{detail}", item.path)?;
            }
        }
        for line in &self.decided {
            // Names read from the loop's files: no control character
            // reaches the terminal.
            let line: String = line
                .chars()
                .map(|c| if c.is_control() { '?' } else { c })
                .collect();
            writeln!(out, "{d}from the loop: {line}{d:#}")?;
        }
        let changed = self
            .items
            .iter()
            .any(|i| matches!(i.status, Status::Created | Status::Updated));
        if !changed {
            writeln!(
                out,
                "{d}arx is set up in {} (nothing to do){d:#}",
                self.root
            )?;
        }
        Ok(())
    }
}

/// Create `path` with `contents` unless it exists. Returns whether it was
/// created; an existing directory in its place is an error, and so is a
/// symbolic link in place of a state file (`state`). `create_new` never
/// writes through a link.
fn create_file(path: &Path, contents: &str, state: bool) -> Result<bool> {
    if path.is_dir() {
        anyhow::bail!("{} is a directory, not a file", path.display());
    }
    if state {
        refuse_symlinks(path.parent().unwrap_or(Path::new(".")), path)?;
    }
    match no_follow(OpenOptions::new().write(true).create_new(true)).open(path) {
        Ok(mut f) => {
            f.write_all(contents.as_bytes())
                .and_then(|()| f.sync_all())
                .with_context(|| format!("cannot write {}", path.display()))?;
            Ok(true)
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e).with_context(|| format!("cannot create {}", path.display())),
    }
}

/// `path` relative to `root`, with `/` separators, when it lies inside it
/// (both resolved, so symbolic links and `..` do not hide that).
fn relative_to(path: &Path, root: &Path) -> Option<String> {
    let path = path.canonicalize().ok()?;
    let root = root.canonicalize().ok()?;
    let rel = path.strip_prefix(&root).ok()?;
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    Some(parts?.join("/"))
}

/// Append `merge=union` lines for the state files to `.gitattributes`.
fn gitattributes(root: &Path, state_dir: &Path, files: &[PathBuf]) -> Result<Item> {
    let path = root.join(".gitattributes");
    let name = ".gitattributes".to_string();
    let skipped = |why: String| Item {
        path: name.clone(),
        status: Status::Skipped,
        detail: Some(why),
    };
    let Some(dir) = relative_to(state_dir, root) else {
        return Ok(skipped(format!(
            "the state directory {} is outside {}",
            state_dir.display(),
            root.display()
        )));
    };
    let mut patterns = Vec::new();
    for file in files {
        let file_name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        // A pattern without an inner slash would match in every directory.
        let rel = if dir.is_empty() {
            format!("/{file_name}")
        } else {
            format!("{dir}/{file_name}")
        };
        match gitattributes_pattern(&rel) {
            Some(p) => patterns.push(p),
            None => {
                return Ok(skipped(format!(
                    "{rel} cannot be written as a pattern; add `merge=union` for it by hand"
                )))
            }
        }
    }
    let existing = read_text_if_any(&path)?;
    let existed = existing.is_some();
    let existing = existing.unwrap_or_default();
    let lines = union_merge_lines(&existing, &patterns);
    if lines.is_empty() {
        return Ok(Item {
            path: name,
            status: Status::Present,
            detail: Some("merge=union already set".into()),
        });
    }
    append_lines(root, &path, &existing, &lines)?;
    let added = lines.len();
    Ok(Item {
        path: name,
        status: if !existed {
            Status::Created
        } else {
            Status::Updated
        },
        detail: Some(format!(
            "merge=union for {} {}",
            added,
            if added == 1 { "file" } else { "files" }
        )),
    })
}

/// Files arx derives from the journal or uses while it works: never
/// committed (they would conflict on merges), rebuilt when missing.
const DERIVED: [&str; 18] = [
    crate::io::history::CACHE_FILE,
    crate::io::report::CACHE_FILE,
    crate::io::steer::CACHE_FILE,
    crate::io::steer::FAMILIES_FILE,
    "claim-*.json", // crate::io::steer::claim: the idea a lane was given
    crate::io::ratchet::PENDING_FILE,
    crate::io::ratchet::ASIDE_FILE,
    crate::io::ratchet::KEEP_FILE, // a keep's intent until its branches moved
    crate::io::ratchet::OUTPUTS_FILE,
    crate::io::ratchet::PROTECTED_FILE,
    "ratchet-*-*.json", // crate::io::ratchet::Markers: a lane's markers
    "live/",            // crate::io::live::LIVE_DIR: one file per running run
    "slots/",           // crate::io::slots: one lock file per slot
    "try-*.lock",       // crate::io::ratchet::lock_try: a running try's lock
    "keep.lock",        // crate::io::ratchet::lock_keep
    "baseline.lock",    // crate::io::ratchet::lock_baseline
    crate::io::steer::CLAIMS_LOCK,
    ".*.tmp-*", // crate::io::atomic: a file being replaced
];

/// The state directory's own `.gitignore`, when it is new and the journal
/// is not shared: everything in it ignored (arx never commits it, so a
/// tracked journal would keep `git status` from ever being clean).
const IGNORE_ALL: [&str; 2] = [
    "# arx's state, ignored by git as a whole (arx init --share-journal shares the journal).",
    "*",
];

/// Ignore the state directory in its own `.gitignore`: as a whole when it
/// is new and `share` is off; else the derived files (an existing file is
/// only appended to, so a choice made before stands).
fn gitignore(state_dir: &Path, share: bool, show: impl Fn(&Path) -> String) -> Result<Item> {
    let path = state_dir.join(".gitignore");
    let name = show(&path);
    refuse_symlinks(state_dir, &path)?;
    let existing = read_text_if_any(&path)?;
    let existed = existing.is_some();
    let existing = existing.unwrap_or_default();
    if !existed && !share {
        let lines: Vec<String> = IGNORE_ALL.iter().map(|l| l.to_string()).collect();
        append_lines(state_dir, &path, &existing, &lines)?;
        return Ok(Item {
            path: name,
            status: Status::Created,
            detail: Some("the state directory ignored by git".into()),
        });
    }
    let whole = existing.lines().any(|l| l.trim() == "*");
    let mut lines = if whole {
        Vec::new()
    } else {
        derived_ignore_lines(&existing, &DERIVED)
    };
    if lines.is_empty() {
        return Ok(Item {
            path: name,
            status: Status::Present,
            detail: None,
        });
    }
    if !existed {
        lines.insert(
            0,
            "# Derived by arx from the journal; rebuilt when missing.".to_string(),
        );
    }
    append_lines(state_dir, &path, &existing, &lines)?;
    Ok(Item {
        path: name,
        status: if existed {
            Status::Updated
        } else {
            Status::Created
        },
        detail: Some("derived files ignored by git".into()),
    })
}

/// Write or update arx's section of `AGENTS.md` at `root`.
fn agents_md(section: &str, root: &Path, show: impl Fn(&Path) -> String) -> Result<Item> {
    let path = root.join(AGENTS_FILE);
    let existing = read_text_if_any(&path)?;
    let merged = agents::merge(existing.as_deref().unwrap_or(""), section);
    let status = match &existing {
        None => Status::Created,
        Some(old) if *old == merged => Status::Present,
        Some(_) => Status::Updated,
    };
    if status != Status::Present {
        refuse_symlinks(root, &path)?;
        write_bytes_atomic(&path, merged.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(Item {
        path: show(&path),
        status,
        detail: Some("the loop for an agent".into()),
    })
}

/// The objective `arx init`'s flags set (validated: no empty value).
fn init_objective(args: &InitArgs) -> Result<InitObjective> {
    let nonempty = |v: &Option<String>, flag: &str| -> Result<Option<String>> {
        match v {
            Some(t) if t.trim().is_empty() => Err(Hinted::error(
                format!("{flag} is empty"),
                format!("give {flag} a value, or leave it out"),
            )),
            other => Ok(other.clone()),
        }
    };
    let list = |v: &[String], flag: &str| -> Result<Vec<String>> {
        if v.iter().any(|t| t.trim().is_empty()) {
            return Err(Hinted::error(
                format!("{flag} has an empty value"),
                format!("give {flag} a path or command, or leave it out"),
            ));
        }
        Ok(v.to_vec())
    };
    if args.pattern.is_some() && !matches!(args.format.as_deref(), None | Some("pattern")) {
        return Err(Hinted::error(
            "--pattern is the regular expression of --format pattern",
            "leave out --format, or give --format pattern",
        ));
    }
    if args.format.as_deref() == Some("pattern") && args.pattern.is_none() {
        return Err(Hinted::error(
            "--format pattern needs --pattern REGEX",
            "give --pattern a regular expression with one named group per metric, as (?P<val_bpb>[0-9.]+)",
        ));
    }
    if let Some(p) = &args.pattern {
        crate::kernel::contract::compile_pattern(p).map_err(|e| {
            Hinted::error(
                format!("--pattern: {e}"),
                "give a regular expression with named groups",
            )
        })?;
    }
    Ok(InitObjective {
        metric: nonempty(&args.metric, "--metric")?,
        direction: args.direction.clone(),
        command: nonempty(&args.command, "--command")?,
        protect: list(&args.protect, "--protect")?,
        checks: list(&args.check, "--check")?,
        format: args
            .format
            .clone()
            .or_else(|| args.pattern.as_ref().map(|_| "pattern".into())),
        pattern: args.pattern.clone(),
        timeout: nonempty(&args.timeout, "--timeout")?,
        inputs: Vec::new(),
    })
}

/// Write `arx.toml`: a new one with the gates and the objective; or, when
/// one exists, the objective appended if it has none (and flags set one),
/// else nothing. An existing `[objective]` is never rewritten: flags that
/// would change it are an error, found before anything is written.
fn write_config(
    path: &Path,
    objective: &InitObjective,
    show: impl Fn(&Path) -> String,
) -> Result<Item> {
    let name = show(path);
    let Some(existing) = read_text_if_any(path)? else {
        create_file(path, &config_text::config(objective), false)?;
        return Ok(Item {
            path: name,
            status: Status::Created,
            detail: (!objective.is_empty()).then(|| "with the objective".into()),
        });
    };
    if objective.is_empty() {
        return Ok(Item {
            path: name,
            status: Status::Present,
            detail: None,
        });
    }
    let mut text = existing;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&config_text::objective(objective));
    refuse_symlinks(path.parent().unwrap_or(Path::new(".")), path)?;
    write_bytes_atomic(path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(Item {
        path: name,
        status: Status::Updated,
        detail: Some("the objective appended".into()),
    })
}

/// Refuse flags that would change an `[objective]` already in `config`.
fn refuse_second_objective(
    config: &crate::io::config::Config,
    objective: &InitObjective,
) -> Result<()> {
    if objective.is_empty() || config.objective.is_none() {
        return Ok(());
    }
    let file = config
        .path
        .as_ref()
        .map_or_else(|| FILE_NAME.to_string(), |p| p.display().to_string());
    Err(Hinted::error(
        format!("{file} already has an [objective]; arx init never rewrites it (nothing was changed)"),
        "edit [objective] in arx.toml, or pass --metric, --direction and --command to arx try instead",
    ))
}

pub fn run(ctx: &Ctx, args: &InitArgs) -> Result<Exit> {
    super::note_outside_git(
        ctx,
        ": setting up here; arx try needs one (git init, then a first commit)",
    )?;
    let cwd = ctx.cwd()?;
    let repo = repo_root(&cwd);
    let root = repo.clone().unwrap_or_else(|| cwd.clone());
    // The project's directory: where an arx.toml already is (here or
    // above), else here. A project in a subdirectory of a larger
    // repository is its own scope: its arx.toml is written there.
    let project = match &repo {
        Some(_) => crate::io::config::discover(&cwd)
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .unwrap_or_else(|| cwd.clone()),
        None => root.clone(),
    };
    let state_dir = ctx.state_dir()?;
    let show = |p: &Path| shown(p, &root);
    let mut items = Vec::new();
    let mut objective = init_objective(args)?;
    let migration = match args.from {
        Some(from) => Some(migrate::read(&root, from, &mut objective)?),
        None => None,
    };
    // The configuration is read before anything is created: a broken
    // arx.toml, or flags that would rewrite its objective, stop init with
    // nothing half done.
    if args.agent || !objective.is_empty() || migration.is_some() {
        let existing = crate::io::config::load(None, &project)?;
        if existing.path.as_deref() == Some(project.join(FILE_NAME).as_path()) {
            refuse_second_objective(&existing, &objective)?;
        }
        if args.agent {
            ctx.config()?;
        }
    }

    // Declared inputs proposed: files the command names that git ignores.
    if let Some(command) = &objective.command {
        let named = crate::kernel::config_text::named_paths(command);
        objective.inputs = crate::io::git::ignored_inputs(&project, &named);
    }

    let existed = state_dir.is_dir();
    ensure_dir(&state_dir)?;
    items.push(Item {
        path: format!("{}/", show(&state_dir)),
        status: if existed {
            Status::Present
        } else {
            Status::Created
        },
        detail: None,
    });

    let journal_path = journal(&state_dir, WARN).path;
    let created = create_file(&journal_path, "", true)?;
    items.push(Item {
        path: show(&journal_path),
        status: if created {
            Status::Created
        } else {
            Status::Present
        },
        detail: None,
    });

    let config_path = project.join(FILE_NAME);
    items.push(write_config(&config_path, &objective, show)?);

    let files = [
        journal_path.clone(),
        dead_ends(&state_dir, WARN).path,
        knowhow(&state_dir, WARN).path,
        state_dir.join(crate::io::findings::FINDINGS_FILE),
        state_dir.join(crate::io::ideas::IDEAS_FILE),
    ];
    items.push(gitattributes(&root, &state_dir, &files)?);
    items.push(gitignore(&state_dir, args.share_journal, show)?);
    if let (Some(m), Some(from)) = (&migration, args.from) {
        items.extend(migrate::write(
            ctx,
            (&root, &journal_path),
            m,
            from,
            !args.agent,
        )?);
    }
    if args.agent {
        // The objective as arx.toml now has it (the flags' included).
        let config = ctx.config()?;
        let section = agents::section(&agents::from_config(config.objective.as_ref()));
        items.push(agents_md(&section, &root, show)?);
        if resolve_gates(&config.grd, false).is_on(Gate::Execute) {
            crate::output::warn(
                "the execute gate is on: an agent cannot approve it, so each of its `arx try` \
                 pauses (exit 1, status `paused`) and changes nothing; for an unattended loop \
                 set `execute = false` under [gates] in arx.toml",
            );
        }
    }

    ctx.out.emit(&InitReport {
        root: root.display().to_string(),
        state_dir: state_dir.display().to_string(),
        repository: repo.is_some(),
        items,
        decided: migration.map(|m| m.notes).unwrap_or_default(),
    })?;
    Ok(Exit::Ok)
}
