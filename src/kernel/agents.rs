//! The arx section of `AGENTS.md`: the loop an agent follows with arx,
//! filled with the repository's objective, and the rule that puts it into
//! an existing file (between markers, replaced in place on a second run).
//! Text in, text out.

/// The line that opens arx's section.
pub const BEGIN: &str =
    "<!-- arx:begin (written by `arx init --agent`; edits inside are replaced) -->";
/// The line that closes it.
pub const END: &str = "<!-- arx:end -->";

/// The objective as `arx.toml` states it (all optional: a repository may
/// not have set it yet).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AgentObjective {
    pub metric: Option<String>,
    /// `min` or `max`.
    pub direction: Option<String>,
    pub command: Option<String>,
    pub checks: Vec<String>,
    pub protect: Vec<String>,
    /// The stop rules, as `name = value` words.
    pub stop: Vec<String>,
    /// How many experiments may run at once (`slots`), when more than one:
    /// the section then tells agents to work in lanes.
    pub slots: Option<usize>,
    /// The guards a keep must respect (`[objective] guards`).
    pub guards: Vec<String>,
    /// A held-out check runs before every keep (`[objective.holdout]`).
    pub holdout: bool,
    /// How the experiment prints its numbers (`[objective] format`; none:
    /// arx's `__RESULT__` line).
    pub format: Option<String>,
}

fn code(text: &str) -> String {
    let ticks = if text.contains('`') { "``" } else { "`" };
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{text}{pad}{ticks}")
}

/// The section (markers included), ending in a newline.
pub fn section(o: &AgentObjective) -> String {
    let mut s = String::new();
    let mut line = |t: &str| {
        s.push_str(t);
        s.push('\n');
    };
    line(BEGIN);
    line("## Research loop (arx)");
    line("");
    line("This repository improves one number with a keep-if-better loop. arx runs");
    line("the experiment, measures it against the noise and decides; you propose.");
    line("");
    line("### Objective");
    line("");
    objective(o, &mut line);
    line("");
    line("### Ideas: the backlog");
    line("");
    line("Write every idea down as it comes, one change each, with its family (one word");
    line("for the kind of change: `lr`, `batch`, `init`, ...):");
    line("`arx idea add --family lr \"halve the learning rate\"` prints its id. The backlog");
    line("lives in `.arx/`, beside the journal: it outlives your context, so after a restart");
    line("or a compaction `arx idea list` is what you had in mind and what became of it.");
    line("When fewer than three ideas are open (`arx idea list --status open`), add more");
    line("before the next try.");
    line("");
    line("### The loop");
    line("");
    line("1. `arx status` — exit 0 means a stop rule fired: **stop** (see below). Exit 1: go on.");
    line("2. `id=$(arx next)` — the open idea to try next, ranked from the loop's own record");
    line("   of each family (`arx next --explain` shows why). Exit 1 means no idea is open:");
    line("   add some with `arx idea add`, then run it again. Read what is known: `arx best`");
    line("   (the value to beat), `arx log --last 20`, `arx finding rank --context \"the idea\"`");
    line("   (what the loop learned about it) and `arx deadend list` (never retry a dead end).");
    line("3. Make **one** change: that idea. Do not touch protected paths, the experiment's");
    line("   evaluation, `arx.toml` or `.arx/`.");
    line("4. `arx try --json --idea \"$id\" -m \"what the change is and why\"` (without `-m`");
    line("   the idea's statement is the description). A change that is in no idea:");
    line("   `arx try --json -m \"what and why\" --family WORD` (it joins the backlog).");
    line("5. The answer names the outcome and the next step: `outcome`, `line` and `next` in");
    line("   the JSON on stdout, and its line on stderr, `arx: LINE; next: STEP` (the one with");
    line("   `; next: `: the experiment's output and arx's progress come before it); the exit");
    line("   code says the same. Do what this table says (the outcome is the line's first words):");
    line("");
    for row in crate::kernel::try_outcome::markdown("   ", false).lines() {
        line(row);
    }
    line("");
    line("   A discard is data, not a failure: note what it tells you and pick the next idea.");
    line("   A discarded idea is not proposed again as it was; when what made it fail has");
    line("   changed, `arx try --idea ID --retry --because \"what changed\"`, or");
    line("   `arx idea add --retry ID --because \"what changed\"`. A parameter tried again with");
    line("   another value is a new idea: add it. `arx idea drop ID` retires one. Every command");
    line("   with an outcome (`arx status`, `arx next`, `arx best`, `arx deadend check`) gives");
    line("   the same `arx: ...; next: ...` line on stderr under `--json`.");
    what_decided(&mut line);
    line("6. Never stop on your own while `arx status` says go on and the table says go on;");
    line("   never commit, reset or stash by hand: `arx try` does it.");
    line("");
    when_to_stop(&mut line);
    line("");
    if let Some(n) = o.slots.filter(|n| *n > 1) {
        lanes(n, &mut line);
    }
    line("");
    line("Over MCP (`arx mcp`) the same steps are the tools `status`, `idea_add`,");
    line("`idea_list`, `next`, `best`, `log`, `finding_rank`, `try` (with `idea` and");
    line("`description`, and `lane` to try in a lane), `restore`, `show`, `deadend_check`");
    line("and `deadend_add`; the server serves this loop as the prompt `loop`. Each result's");
    line("first line is the outcome and the next step in the tools' words.");
    line(END);
    s
}

/// What stop means and when to stop.
fn when_to_stop(line: &mut dyn FnMut(&str)) {
    line("### When to stop");
    line("");
    line("Stop means: make no further change and call no further try; leave the working tree");
    line("as it is; tell the person why you stopped (the stop rule `arx status` names, or the");
    line("pause or error you met), the best (`arx best`) and what was tried (`arx report`).");
    line("Stop when `arx status` exits 0 (a stop rule fired), when a try is `paused` (only");
    line("the person opens a gate: never edit `[gates]` in `arx.toml`; an uncommitted edit");
    line("there is ignored anyway), and on an error you cannot fix.");
}

/// The objective in the configuration's `[objective]` table, as written
/// (what is missing or of another type is left out).
pub fn from_config(objective: Option<&serde_json::Value>) -> AgentObjective {
    let Some(o) = objective else {
        return AgentObjective::default();
    };
    let text = |v: Option<&serde_json::Value>| v.and_then(|v| v.as_str()).map(str::to_string);
    let list = |v: Option<&serde_json::Value>| -> Vec<String> {
        v.and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let command = match o.get("command") {
        Some(serde_json::Value::Array(words)) => Some(
            words
                .iter()
                .filter_map(|w| w.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        ),
        other => text(other),
    };
    let stop = o
        .get("stop")
        .and_then(|s| s.as_object())
        .map(|s| s.iter().map(|(k, v)| format!("{k} = {v}")).collect())
        .unwrap_or_default();
    AgentObjective {
        metric: text(o.get("metric")),
        direction: text(o.get("direction")),
        command,
        checks: list(o.get("checks")),
        protect: list(o.get("protect")),
        stop,
        slots: match o.get("slots") {
            Some(serde_json::Value::Number(n)) => n.as_u64().map(|n| n as usize),
            Some(serde_json::Value::Array(a)) => Some(a.len()),
            _ => None,
        },
        guards: list(o.get("guards")),
        holdout: o.get("holdout").is_some(),
        format: text(o.get("format")).or_else(|| o.get("pattern").map(|_| "pattern".into())),
    }
}

/// How to read a try's line: its numbers are what decided.
fn what_decided(line: &mut dyn FnMut(&str)) {
    line("   The line's numbers are what decided: the value over the runs the rule weighed,");
    line("   its change against the best (\"vs\", the same seeds when paired) in the metric's");
    line("   units with \"better\" or \"worse\" (`ratchet.change`; `ratchet.improvement` is");
    line("   positive when better). A change no better than the best is kept at most");
    line("   1 − `confidence` of the time (0.95 by default): a discard \"better within noise\"");
    line("   may be a small real gain, worth a retry with more runs only if it matters.");
}

/// The objective's lines: metric, experiment, checks, protected paths,
/// stop rules.
fn objective(o: &AgentObjective, line: &mut dyn FnMut(&str)) {
    match (&o.metric, &o.direction) {
        (Some(m), Some(d)) => {
            let way = if d == "min" { "lower" } else { "higher" };
            line(&format!("- Metric: {} ({d}: {way} is better).", code(m)));
        }
        (Some(m), None) => line(&format!(
            "- Metric: {} (direction not set in `arx.toml`).",
            code(m)
        )),
        _ => line("- Metric: not set yet. Fill `[objective]` in `arx.toml` (metric, direction, command) and run `arx init --agent` again."),
    }
    if let Some(c) = &o.command {
        let prints = match o.format.as_deref() {
            Some("summary") => {
                "arx reads its closing summary block, `---` then `name: value` lines"
            }
            Some("pi") => "arx reads its `METRIC name=value` lines",
            Some("pattern") => "arx reads the lines `[objective] pattern` matches",
            _ => "it prints `__RESULT__ {\"metric\": value}`",
        };
        line(&format!("- Experiment: {} ({prints}).", code(c)));
    }
    if !o.checks.is_empty() {
        let list: Vec<String> = o.checks.iter().map(|c| code(c)).collect();
        line(&format!(
            "- Checks that must pass before a keep: {}.",
            list.join(", ")
        ));
    }
    if o.protect.is_empty() {
        line("- Protected paths: none configured; still never edit the evaluation.");
    } else {
        let list: Vec<String> = o.protect.iter().map(|c| code(c)).collect();
        line(&format!(
            "- Protected paths (never edit them; a change there is refused): {}.",
            list.join(", ")
        ));
    }
    if !o.guards.is_empty() {
        let list: Vec<String> = o.guards.iter().map(|c| code(c)).collect();
        line(&format!(
            "- Guards a keep must respect (the experiment prints their metrics): {}.",
            list.join(", ")
        ));
    }
    if o.holdout {
        line("- A held-out check runs before every keep: an evaluation you never see. `arx try`");
        line("  says only whether it passed (`ratchet.holdout`), never its values; its files are");
        line("  protected. Do not look for them: aim at the metric, not at the check.");
    }
    if !o.stop.is_empty() {
        let list: Vec<String> = o.stop.iter().map(|c| code(c)).collect();
        line(&format!("- Stop rules: {}.", list.join(", ")));
    }
}

/// The lanes' paragraph, for `n` slots.
fn lanes(n: usize, line: &mut dyn FnMut(&str)) {
    line("");
    line("### Lanes: several agents at once");
    line("");
    line(&format!(
        "Up to {n} experiments run at once here (`slots = {n}`), so several agents can"
    ));
    line("work side by side, each in a lane of its own: a git worktree on its own branch,");
    line("sharing one journal and one best. The person adds them (`arx lane add a b c`);");
    line("`arx lane list` shows where each one is. Work only in your lane's directory and");
    line("run the same loop there, asking with your lane's name: `id=$(arx next --lane NAME)`");
    line("never gives you an idea another lane holds, and `arx try --idea` refuses an idea");
    line("in flight in another lane (exit 2): take another. When another lane keeps first, arx replays your change");
    line("onto the new best and measures it again (or sets it aside as `stale`); before");
    line("your next try it brings your lane up to the best. Never run `arx try` in the");
    line("main working tree while lanes exist (it refuses), and never merge lanes by hand.");
    line("When `arx try` stops because your lane's work conflicts with the best (exit 2,");
    line("`conflicts with the best`), run `arx lane sync --theirs`: it takes up the best,");
    line("its side winning in those files, and stores your work as it was under");
    line("`refs/arx/discarded/`; then make your change again on top of the best.");
    line("Slots can differ (a faster card): arx compares your candidate with the best as");
    line("it measures on your slot, and may first measure the best there, with your change");
    line("set aside and put back (`remeasure`): leave the files alone until the try ends.");
}

/// The arx section of `existing` (an `AGENTS.md`), markers included, when
/// it has one.
pub fn current(existing: &str) -> Option<String> {
    let lines: Vec<&str> = existing.split_inclusive('\n').collect();
    let b = lines.iter().position(|l| l.trim_end() == BEGIN)?;
    let e = b + lines[b..].iter().position(|l| l.trim_end() == END)?;
    let mut s: String = lines[b..=e].concat();
    if !s.ends_with('\n') {
        s.push('\n');
    }
    Some(s)
}

/// `existing` (an `AGENTS.md`, maybe empty) with `section` in it: in place
/// of the old section when the markers are there, else appended after a
/// blank line.
pub fn merge(existing: &str, section: &str) -> String {
    let lines: Vec<&str> = existing.split_inclusive('\n').collect();
    let begin = lines.iter().position(|l| l.trim_end() == BEGIN);
    let end = begin.and_then(|b| {
        lines[b..]
            .iter()
            .position(|l| l.trim_end() == END)
            .map(|e| b + e)
    });
    if let (Some(b), Some(e)) = (begin, end) {
        let mut out: String = lines[..b].concat();
        out.push_str(section);
        out.push_str(&lines[e + 1..].concat());
        return out;
    }
    let mut out = existing.to_string();
    if !out.is_empty() {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        if !out.ends_with("\n\n") {
            out.push('\n');
        }
    }
    out.push_str(section);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn objective() -> AgentObjective {
        AgentObjective {
            metric: Some("val_bpb".into()),
            direction: Some("min".into()),
            command: Some("uv run train.py".into()),
            checks: vec!["pytest -q".into()],
            protect: vec!["prepare.py".into(), "eval/**".into()],
            stop: vec!["max_runs = 200".into()],
            slots: None,
            guards: vec![],
            holdout: false,
            format: None,
        }
    }

    #[test]
    fn the_experiment_line_says_how_arx_reads_it() {
        assert!(section(&objective()).contains("(it prints `__RESULT__"));
        let o = AgentObjective {
            format: Some("summary".into()),
            ..objective()
        };
        let s = section(&o);
        assert!(!s.contains("__RESULT__"), "{s}");
        assert!(s.contains("arx reads its closing summary block"), "{s}");
    }

    #[test]
    fn the_section_names_the_guards_and_says_the_held_out_check_tells_passed_or_failed() {
        let s = section(&objective());
        assert!(
            !s.contains("- Guards") && !s.contains("- A held-out check"),
            "{s}"
        );
        assert!(
            s.contains("| `guard` | 1 |") && s.contains("| `holdout` | 1 |"),
            "{s}"
        );
        let o = AgentObjective {
            guards: vec!["peak_vram_gb <= 40".into()],
            holdout: true,
            ..objective()
        };
        let s = section(&o);
        assert!(s.contains("`peak_vram_gb <= 40`"), "{s}");
        assert!(s.contains("A held-out check runs before every keep"), "{s}");
        assert!(s.contains("says only whether it passed"), "{s}");
    }

    #[test]
    fn the_section_describes_lanes_only_with_more_than_one_slot() {
        assert!(!section(&objective()).contains("### Lanes"));
        let one = AgentObjective {
            slots: Some(1),
            ..objective()
        };
        assert!(!section(&one).contains("### Lanes"));
        let four = AgentObjective {
            slots: Some(4),
            ..objective()
        };
        let s = section(&four);
        assert!(
            s.contains("### Lanes") && s.contains("`slots = 4`") && s.contains("arx lane add"),
            "{s}"
        );
        // A lane in conflict with the best has a command, not a hand merge.
        assert!(s.contains("arx lane sync --theirs"), "{s}");
        // A lane asks for its idea by its name.
        assert!(s.contains("id=$(arx next --lane NAME)"), "{s}");
    }

    #[test]
    fn the_section_names_the_objective_and_the_loop() {
        let s = section(&objective());
        for needle in [
            "`val_bpb` (min: lower is better)",
            "`uv run train.py`",
            "`prepare.py`, `eval/**`",
            "`pytest -q`",
            "`max_runs = 200`",
            "arx try --json --idea \"$id\" -m",
            "arx try --json -m \"what and why\" --family WORD",
            "arx idea add --family lr",
            "id=$(arx next)",
            "arx idea list --status open",
            "arx idea add --retry",
            "arx try --idea ID --retry --because",
            "| `discard (inconclusive)` | 1 |",
            "| `crash` | 3 |",
            "### When to stop",
            "outlives your context",
            "`idea_add`",
            "arx status",
            "arx best",
            "arx finding rank",
        ] {
            assert!(s.contains(needle), "{needle}\n{s}");
        }
        assert!(s.starts_with(BEGIN) && s.ends_with(&format!("{END}\n")));
        let empty = section(&AgentObjective::default());
        assert!(empty.contains("not set yet"), "{empty}");
    }

    #[test]
    fn merging_appends_once_and_then_replaces_in_place() {
        let mine = "# Agents\n\nBe nice.\n";
        let first = merge(mine, &section(&AgentObjective::default()));
        assert!(first.starts_with("# Agents\n\nBe nice.\n\n<!-- arx:begin"));
        let tail = format!("{first}\n## Later\nmine\n");
        let second = merge(&tail, &section(&objective()));
        assert_eq!(second.matches(BEGIN).count(), 1);
        assert!(second.contains("val_bpb"));
        assert!(!second.contains("not set yet"));
        assert!(second.starts_with("# Agents\n\nBe nice.\n\n"));
        assert!(second.ends_with("\n## Later\nmine\n"));
        assert_eq!(merge(&second, &section(&objective())), second);
        assert_eq!(merge("", "S\n"), "S\n");
        assert_eq!(merge("x", "S\n"), "x\n\nS\n");
    }

    #[test]
    fn an_unclosed_section_is_left_alone_and_a_new_one_appended() {
        let broken = format!("{BEGIN}\nhalf\n");
        let out = merge(&broken, "S\n");
        assert_eq!(out, format!("{BEGIN}\nhalf\n\nS\n"));
    }

    #[test]
    fn the_current_section_is_found_between_the_markers() {
        let s = section(&objective());
        let file = merge("# Agents\n", &s);
        assert_eq!(current(&file).as_deref(), Some(s.as_str()));
        assert_eq!(current("# Agents\n"), None);
        let o =
            serde_json::json!({"metric": "val_bpb", "direction": "min", "stop": {"max_runs": 200}});
        let read = from_config(Some(&o));
        assert_eq!(read.stop, ["max_runs = 200"]);
        assert_ne!(section(&read), s, "another objective, another section");
    }

    #[test]
    fn backticks_in_values_stay_code() {
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x"), "`` `x ``");
    }
}
