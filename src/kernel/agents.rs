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
    line("1. `arx status` — exit 0 means a stop rule fired: stop and report. Exit 1: go on.");
    line("2. `id=$(arx next)` — the open idea to try next, ranked from the loop's own record");
    line("   of each family (`arx next --explain` shows why). Exit 1 means no idea is open:");
    line("   add some with `arx idea add`, then run it again. Read what is known: `arx best`");
    line("   (the value to beat), `arx log --last 20`, `arx finding rank --context \"the idea\"`");
    line("   (what the loop learned about it) and `arx deadend list` (never retry a dead end).");
    line("3. Make **one** change: that idea. Do not touch protected paths, the experiment's");
    line("   evaluation or `.arx/`.");
    line("4. `arx try --json --idea \"$id\" -m \"what the change is and why\"` (without `-m`");
    line("   the idea's statement is the description). A change that is in no idea:");
    line("   `arx try --json -m \"what and why\" --family WORD` (it joins the backlog).");
    line("5. Read `ratchet.status` in its output (not only the exit code: exit 1 is both a");
    line("   discard and a pause) and do what this table says:");
    line("");
    line("   | `ratchet.status` | exit | what happened | what you do |");
    line("   |---|---|---|---|");
    line(
        "   | `keep` | 0 | beat the best beyond the noise; committed for you | Go on: back to 1. |",
    );
    line("   | `baseline` | 0 | the starting point was measured; nothing to undo | Go on: back to 1. |");
    line("   | `discard` | 1 | not better; set aside under `refs/arx/discarded/` and undone | Go on: back to 1. |");
    line("   | `protected` | 1 | it changed a protected path; set aside and undone | Go on: back to 1, and leave those paths alone. |");
    line("   | `checks_failed` | 1 | a check failed; set aside and undone | Go on: back to 1. |");
    line("   | `guard` | 1 | better, but it broke a guard (the line names it and its values) or did not print its metric; set aside and undone | Go on: back to 1 (mind that guard). |");
    line("   | `holdout` | 1 | better, but the held-out check failed; set aside and undone | Go on: back to 1 with another idea. |");
    line("   | `pruned` | 1 | its progress was hopeless; ended, set aside and undone | Go on: back to 1. |");
    line("   | `stale` | 1 | another lane kept first and your change conflicts with its keep; set aside, your lane is now at the new best | Go on: back to 1 (start from the new best). |");
    line("   | `already_in_best` | 1 | another lane kept the same change first; nothing ran again, your lane is now at the new best | Go on: back to 1 with another idea. |");
    line("   | `crash` | 3 | it failed or printed no metric; set aside and undone | Go on: back to 1 (fix the idea or drop it). |");
    line("   | `paused` | 1 | a gate stopped the try before anything ran: nothing was measured and **nothing was undone**; your change is still in the working tree | Stop: make no other change. Ask the person to approve (`arx try --approve`) or to set `execute = false` under `[gates]` in `arx.toml`. |");
    line("   | `interrupted` | 3 | stopped by a signal; nothing was undone | Stop: ask the person. |");
    line("   | `config_change` | 0 | only `arx.toml` changed (a person's setting, never part of a try); nothing ran, nothing was undone | Go on: back to 1. Never edit `arx.toml` yourself. |");
    line("   | (none: an error) | 2 | nothing changed | Stop: fix what `arx: error:` and its `hint:` say, then run the same try again. |");
    line("");
    line("   A discard is data, not a failure: note what it tells you and pick the next idea.");
    line("   A discarded idea is not proposed again as it was; when what made it fail has");
    line("   changed, `arx idea add --retry ID --because \"what changed\"`. A parameter tried");
    line("   again with another value is a new idea: add it. `arx idea drop ID` retires one.");
    line("6. Never stop on your own while `arx status` says go on and the table says go on;");
    line("   never commit, reset or stash by hand: `arx try` does it.");
    line("");
    if let Some(n) = o.slots.filter(|n| *n > 1) {
        lanes(n, &mut line);
    }
    line("");
    line("Over MCP (`arx mcp`) the same steps are the tools `status`, `idea_add`,");
    line("`idea_list`, `next`, `best`, `log`, `finding_rank`, `try` (with `idea` and");
    line("`description`, and `lane` to try in a lane) and `deadend_check`.");
    line(END);
    s
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
    line("run the same loop there. When another lane keeps first, arx replays your change");
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
            "arx idea add --retry ID --because",
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
    fn backticks_in_values_stay_code() {
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x"), "`` `x ``");
    }
}
