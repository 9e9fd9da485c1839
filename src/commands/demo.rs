//! `arx demo`: the ratchet on a bundled example, with nothing to write
//! first. A scratch git repository (outside any checkout) gets a toy
//! experiment (POSIX `sh` and `awk`, no network, no packages) and an
//! `arx.toml`; a scripted series of edits then goes through the real
//! `arx try` (this binary, as a child process): a clear win, a null
//! change, a harmful one, a crash, an edit of the protected evaluation, a
//! discarded change brought back with `arx restore`, then `arx status`,
//! `arx report` and an HTML page. The repository stays for the user to
//! look around.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

use super::Ctx;
use crate::error::{Exit, Hinted};
use crate::io::demo::{arx, git, write_file};
use crate::output::{bold, Report};

/// The experiment: a toy training run whose validation loss follows from
/// the settings in `model.txt`, with a little noise (seeded by a run
/// counter, so the demo is the same every time).
const TRAIN_SH: &str = r#"#!/bin/sh
# A toy training run: the validation loss of the settings in model.txt.
n=$(cat .runs 2>/dev/null || echo 0)
echo $((n + 1)) > .runs
exec awk -v seed="$n" -f eval.awk model.txt
"#;

/// The evaluation, protected: a candidate that edits it is refused.
const EVAL_AWK: &str = r#"# The evaluation (protected in arx.toml): val_loss of model.txt's settings.
$1 == "lr" { lr = $3 }
$1 == "width" { width = $3 }
$1 == "dropout" { dropout = $3 }
$1 == "steps" { steps = $3 }
$1 == "schedule" { schedule = $3 }
END {
    if (lr + 0 <= 0) { print "ValueError: lr must be a positive number" > "/dev/stderr"; exit 1 }
    srand(seed + 1)
    l = log(lr) / log(10)
    loss = 1.0 + 0.08 * (l + 1.5) ^ 2 + 0.15 * 64 / width + 0.6 * (dropout - 0.1) ^ 2 + 30 / steps
    if (schedule == "cosine" && steps >= 3000) loss -= 0.01
    noise = (rand() + rand() + rand() - 1.5) * 0.01
    for (s = 1; s <= 5; s++)
        printf "__PROGRESS__ {\"step\": %d, \"val_loss\": %.4f}\n", s * steps / 5, loss + 0.5 / s + noise
    printf "__RESULT__ {\"val_loss\": %.4f}\n", loss + noise
}
"#;

const MODEL_TXT: &str =
    "lr = 0.003\nwidth = 64\ndropout = 0.1\nsteps = 1000\nschedule = constant\n";

const ARX_TOML: &str = r#"# The demo's loop. It runs unattended, so the execute gate is off; in your
# own project `arx init` writes it on (a person approves each run) until
# you turn it off for an unattended loop.
[gates]
execute = false
kg_write = false

[objective]
metric = "val_loss"
direction = "min"
command = "sh train.sh"
protect = ["eval.awk"]
baseline_repeat = 3
"#;

/// One step of the script.
enum Step {
    /// Replace `from` by `to` in a file, then `arx try -m description`.
    Edit {
        file: &'static str,
        from: &'static str,
        to: &'static str,
        description: &'static str,
    },
    /// `arx try` with no change: the baseline.
    Baseline,
    /// `arx restore` the try of step `index` (from 0, among the tries).
    Restore { of_try: usize },
    /// Any arx command, shown as it runs.
    Arx(&'static [&'static str]),
}

fn script() -> Vec<Step> {
    use Step::*;
    vec![
        Baseline,
        Edit {
            file: "model.txt",
            from: "lr = 0.003",
            to: "lr = 0.03",
            description: "raise the learning rate tenfold",
        },
        Edit {
            file: "model.txt",
            from: "steps = 1000\n",
            to: "steps = 1000\n# tidied the settings file\n",
            description: "tidy the settings file (no effect)",
        },
        Edit {
            file: "model.txt",
            from: "dropout = 0.1",
            to: "dropout = 0.5",
            description: "much more dropout",
        },
        Edit {
            file: "model.txt",
            from: "lr = 0.03",
            to: "lr = fast",
            description: "a typo in the learning rate",
        },
        Edit {
            file: "eval.awk",
            from: "0.15 * 64 / width",
            to: "0.10 * 64 / width",
            description: "make the evaluation kinder",
        },
        Edit {
            file: "model.txt",
            from: "schedule = constant",
            to: "schedule = cosine",
            description: "cosine learning-rate schedule",
        },
        Restore { of_try: 6 },
        Edit {
            file: "model.txt",
            from: "steps = 1000",
            to: "steps = 3000",
            description: "cosine schedule, trained three times longer",
        },
        Edit {
            file: "model.txt",
            from: "width = 64",
            to: "width = 128",
            description: "twice the width",
        },
        Edit {
            file: "model.txt",
            from: "lr = 0.03",
            to: "lr = 0.3",
            description: "raise the learning rate tenfold again",
        },
        Arx(&["status"]),
        Arx(&["best"]),
        Arx(&["report", "--last", "12"]),
        Arx(&["report", "--html", "report.html"]),
    ]
}

#[derive(Serialize)]
struct TryDone {
    description: String,
    status: String,
    exit_code: i32,
    run_id: String,
}

#[derive(Serialize)]
struct DemoReport {
    repository: String,
    report_html: String,
    tries: Vec<TryDone>,
}

impl Report for DemoReport {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        let b = bold();
        writeln!(
            out,
            "\n{b}The demo's repository is {}{b:#} (cd there: `git log --oneline`, `arx log`, `arx status`);\n{b}its report page is {}{b:#}",
            self.repository, self.report_html
        )
    }
}

/// Where the demo goes: `dir` (which must not exist, or be empty), or a
/// new directory under the system's temporary directory, kept afterwards.
fn demo_dir(dir: Option<&Path>) -> Result<PathBuf> {
    match dir {
        Some(d) => {
            if d.exists() {
                let empty = std::fs::read_dir(d)
                    .with_context(|| format!("cannot read {}", d.display()))?
                    .next()
                    .is_none();
                if !empty {
                    return Err(Hinted::error(
                        format!("{} is not empty", d.display()),
                        "give a new or empty directory, or leave out --dir for a fresh one",
                    ));
                }
            } else {
                std::fs::create_dir_all(d)
                    .with_context(|| format!("cannot create {}", d.display()))?;
            }
            Ok(d.canonicalize()?)
        }
        None => {
            let d = tempfile::Builder::new()
                .prefix("arx-demo-")
                .tempdir()
                .context("cannot create a directory for the demo")?
                .keep();
            Ok(d)
        }
    }
}

/// The lines of an arx command's stdout worth showing: not the
/// experiment's own result and progress lines.
fn shown_lines(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|l| !l.starts_with("__RESULT__") && !l.starts_with("__PROGRESS__"))
        .collect()
}

pub fn run(ctx: &Ctx, dir: Option<&Path>) -> Result<Exit> {
    let exe = std::env::current_exe().context("cannot find the arx binary to run the demo with")?;
    let demo = Demo {
        exe,
        dir: demo_dir(dir)?,
        quiet: ctx.out.quiet || ctx.out.json,
    };
    demo.set_up()?;
    let mut tries: Vec<TryDone> = Vec::new();
    for step in script() {
        match step {
            Step::Baseline | Step::Edit { .. } => tries.push(demo.try_step(&step)?),
            Step::Restore { of_try } => demo.restore(
                tries
                    .get(of_try)
                    .context("the demo restores a try it ran")?,
            )?,
            Step::Arx(args) => demo.arx_step(args)?,
        }
    }
    ctx.out.emit(&DemoReport {
        repository: demo.dir.display().to_string(),
        report_html: demo.dir.join("report.html").display().to_string(),
        tries,
    })?;
    Ok(Exit::Ok)
}

/// The demo under way: the arx binary it runs, its repository, and
/// whether it shows what it does.
struct Demo {
    exe: PathBuf,
    dir: PathBuf,
    quiet: bool,
}

impl Demo {
    fn say(&self, line: &str) {
        if !self.quiet {
            // A closed stdout only ends what is shown.
            let _ = crate::output::say(line);
        }
    }

    /// The toy project, in a new git repository with arx set up.
    fn set_up(&self) -> Result<()> {
        let dir = &self.dir;
        write_file(dir, "train.sh", TRAIN_SH)?;
        write_file(dir, "eval.awk", EVAL_AWK)?;
        write_file(dir, "model.txt", MODEL_TXT)?;
        write_file(dir, "arx.toml", ARX_TOML)?;
        write_file(dir, ".gitignore", ".runs\nreport.html\n")?;
        git(dir, &["init", "-q", "-b", "main"])?;
        git(dir, &["config", "user.name", "arx demo"])?;
        git(dir, &["config", "user.email", "demo@arx.invalid"])?;
        git(dir, &["config", "commit.gpgsign", "false"])?;
        let init = arx(&self.exe, dir, &["init"])?;
        if init.code != 0 {
            anyhow::bail!("arx init failed in the demo: {}", init.stderr);
        }
        git(dir, &["add", "-A"])?;
        git(dir, &["commit", "-q", "-m", "a toy training run"])?;
        self.say(&format!(
            "A toy training run in a new git repository, {}: train.sh prints\n`__RESULT__ {{\"val_loss\": ...}}`; arx.toml asks arx try to lower val_loss and\nprotects eval.awk. Each edit below goes through the real `arx try`.\n",
            dir.display()
        ));
        Ok(())
    }

    /// A baseline, or an edit then `arx try -m`: what the try did.
    fn try_step(&self, step: &Step) -> Result<TryDone> {
        let dir = &self.dir;
        let description = match step {
            Step::Edit {
                file,
                from,
                to,
                description,
            } => {
                let path = dir.join(file);
                let text = std::fs::read_to_string(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                anyhow::ensure!(
                    text.contains(from),
                    "the demo's {file} has no {from:?} to edit"
                );
                write_file(dir, file, &text.replacen(from, to, 1))?;
                self.say(&format!("# edit {file}: {from:?} -> {to:?}"));
                description.to_string()
            }
            _ => "baseline".to_string(),
        };
        let args: Vec<&str> = match step {
            Step::Edit { .. } => vec!["try", "-m", &description],
            _ => vec!["try"],
        };
        self.say(&format!("$ arx {}", quote(&args)));
        let out = arx(&self.exe, dir, &args)?;
        for l in shown_lines(&out.stdout) {
            self.say(l);
        }
        let json = arx(&self.exe, dir, &["--json", "log", "--last", "1"])?;
        let record: serde_json::Value =
            serde_json::from_str(json.stdout.trim()).unwrap_or_default();
        self.say("");
        Ok(TryDone {
            description,
            status: record["ratchet"]["status"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            exit_code: out.code,
            run_id: record["run_id"].as_str().unwrap_or_default().to_string(),
        })
    }

    /// `arx restore` of a discarded try, to build on it.
    fn restore(&self, t: &TryDone) -> Result<()> {
        let id = t.run_id.get(..13).unwrap_or(&t.run_id).to_string();
        self.say(&format!(
            "# bring back the discarded \"{}\" to build on it",
            t.description
        ));
        self.say(&format!("$ arx restore {id}"));
        let out = arx(&self.exe, &self.dir, &["restore", &id])?;
        for l in shown_lines(&out.stdout) {
            self.say(l);
        }
        if out.code != 0 {
            anyhow::bail!("arx restore failed in the demo: {}", out.stderr);
        }
        self.say("");
        Ok(())
    }

    /// Any other arx command, shown as it runs.
    fn arx_step(&self, args: &[&str]) -> Result<()> {
        self.say(&format!("$ arx {}", quote(args)));
        let out = arx(&self.exe, &self.dir, args)?;
        if args.contains(&"--html") {
            // The same summary as the terminal report: not twice.
            self.say(&format!("wrote {}", args[args.len() - 1]));
        } else {
            for l in shown_lines(&out.stdout) {
                self.say(l);
            }
        }
        self.say("");
        Ok(())
    }
}

/// Words as a shell would need them.
fn quote(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| {
            if w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=".contains(c))
            {
                w.to_string()
            } else {
                format!("\"{w}\"")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
