//! The one table of how a try ends: each outcome, its exit code, what
//! happened and what the agent does next. `arx try`'s answer (its stderr
//! line, its `--json`), the MCP server's first line of a `try` result, the
//! generated AGENTS.md, `arx try --help` and the docs all read it from here,
//! so they cannot disagree.
//!
//! The rule of the exit codes: 0 a keep (or a baseline, or a config change
//! taken up), 1 every "no" (a discard of any kind, inconclusive included, a
//! refusal, a pause), 3 only a crash or an interrupted try, 2 an error.

/// One outcome of a try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// The outcome as results name it (`discard (inconclusive)`,
    /// `paused: declined`): the first words of the answer's line.
    pub name: &'static str,
    /// `ratchet.status` in the record (`discard` for an inconclusive one).
    pub status: &'static str,
    pub exit: u8,
    /// What happened, in a few words.
    pub happened: &'static str,
    /// What to do next, in the command line's words.
    pub next: &'static str,
    /// What to do next, in the MCP server's words (tools and fields).
    pub next_mcp: &'static str,
}

const fn row(
    name: &'static str,
    status: &'static str,
    exit: u8,
    happened: &'static str,
    next: &'static str,
    next_mcp: &'static str,
) -> Outcome {
    Outcome {
        name,
        status,
        exit,
        happened,
        next,
        next_mcp,
    }
}

/// Every outcome, in the order the tables list them.
pub const OUTCOMES: &[Outcome] = &[
    row(
        "keep",
        "keep",
        0,
        "beat the best beyond the noise; committed",
        "go on: `arx status`, then the next idea",
        "go on: call status, then next",
    ),
    row(
        "baseline",
        "baseline",
        0,
        "the starting point was measured; nothing to undo",
        "go on: `arx status`, then the next idea",
        "go on: call status, then next",
    ),
    row(
        "config_change",
        "config_change",
        0,
        "only arx.toml changed (a person's setting); nothing ran",
        "go on: `arx status`; never edit arx.toml yourself",
        "go on: call status; never edit arx.toml yourself",
    ),
    row(
        "discard",
        "discard",
        1,
        "not better; set aside and undone",
        "go on: `arx next` for another idea",
        "go on: call next for another idea",
    ),
    row(
        "discard (inconclusive)",
        "discard",
        1,
        "within the noise: not shown better; set aside and undone",
        "go on: `arx next`, or try it again with more runs (`--repeat N --retry --because TEXT`)",
        "go on: call next, or call try again with a larger `repeat` and `retry`/`because`",
    ),
    row(
        "protected",
        "protected",
        1,
        "it changed a protected path; set aside and undone",
        "go on: `arx next`; leave the protected paths alone",
        "go on: call next; leave the protected paths alone",
    ),
    row(
        "checks_failed",
        "checks_failed",
        1,
        "better, but a check failed; set aside and undone",
        "go on: `arx next`, or fix what the check says",
        "go on: call next, or fix what the check says",
    ),
    row(
        "guard",
        "guard",
        1,
        "better, but it broke a guard; set aside and undone",
        "go on: `arx next`, minding that guard",
        "go on: call next, minding that guard",
    ),
    row(
        "holdout",
        "holdout",
        1,
        "better, but the held-out check failed; set aside and undone",
        "go on: `arx next` for another idea",
        "go on: call next for another idea",
    ),
    row(
        "pruned",
        "pruned",
        1,
        "its progress was hopeless; ended, set aside and undone",
        "go on: `arx next` for another idea",
        "go on: call next for another idea",
    ),
    row(
        "stale",
        "stale",
        1,
        "another lane kept first and the change conflicts (set aside), or a commit moved the branch while it ran (left in the working tree)",
        "go on: `arx next`, starting from the new best",
        "go on: call next, starting from the new best",
    ),
    row(
        "already_in_best",
        "already_in_best",
        1,
        "another lane kept the same change first; nothing ran",
        "go on: `arx next` for another idea",
        "go on: call next for another idea",
    ),
    row(
        "refused: a repeat",
        "refused",
        1,
        "this idea was discarded at this parent already; nothing ran, nothing was undone",
        "undo your change (still in the working tree), then `arx next`; or retry it with `--retry --because \"what changed\"`",
        "call try again with `retry` true and `because` (what changed); or undo your change (still in the working tree), then call next",
    ),
    row(
        "refused: a failed approach",
        "refused",
        1,
        "it matches a failed approach (`--strict`); nothing ran, nothing was undone",
        "undo your change (still in the working tree), then `arx next`",
        "undo your change (still in the working tree), then call next",
    ),
    row(
        "paused",
        "paused",
        1,
        "the execute gate stopped it before anything ran; the change is still in the working tree",
        "stop: ask the person to approve (`arx try --approve`); never edit arx.toml",
        "stop: tell the person the execute gate is on; never edit arx.toml",
    ),
    row(
        "paused: declined",
        "paused",
        1,
        "the person declined to run it; nothing ran, the change is still in the working tree",
        "stop: tell the person; never edit arx.toml",
        "stop: tell the person; do not call try again nor edit arx.toml",
    ),
    row(
        "paused: cancelled",
        "paused",
        1,
        "the person dismissed the question; nothing ran, the change is still in the working tree",
        "stop: tell the person; never edit arx.toml",
        "stop: tell the person; do not call try again nor edit arx.toml",
    ),
    row(
        "paused: no person to ask",
        "paused",
        1,
        "the execute gate is on and no person could be asked; nothing ran",
        "stop: ask the person to approve (`arx try --approve`); never edit arx.toml",
        "stop: tell the person; only they can approve (a client that can ask them, or the operator's `[mcp] approve`); never edit arx.toml",
    ),
    row(
        "crash",
        "crash",
        3,
        "it failed or printed no metric; set aside and undone",
        "go on: fix the change or drop the idea (`arx idea drop`), then `arx next`",
        "go on: fix the change or call idea_drop, then next",
    ),
    row(
        "interrupted",
        "interrupted",
        3,
        "stopped before it ended; journaled, nothing kept or undone: the change is still in the working tree",
        "run `arx try` again to take the change up (or undo it by hand first)",
        "call try again to take the change up (or undo it first)",
    ),
];

/// The outcome named `name` (`discard (inconclusive)`, `paused: declined`).
pub fn find(name: &str) -> Option<&'static Outcome> {
    OUTCOMES.iter().find(|o| o.name == name)
}

/// The outcome of a try whose record says `status`; `inconclusive` for a
/// discard the rule could not decide either way.
pub fn of_status(status: &str, inconclusive: bool) -> Option<&'static Outcome> {
    match (status, inconclusive) {
        ("discard", true) => find("discard (inconclusive)"),
        ("refused", _) => find("refused: a repeat"),
        _ => OUTCOMES.iter().find(|o| o.name == status),
    }
}

/// The outcome table as Markdown (`| outcome | exit | what happened | what
/// you do |`), each line prefixed by `indent`; `mcp` picks the words of
/// the next step.
pub fn markdown(indent: &str, mcp: bool) -> String {
    let mut s = format!(
        "{indent}| outcome (first words) | exit | what happened | what you do next |\n{indent}|---|---|---|---|\n"
    );
    for o in OUTCOMES {
        s.push_str(&format!(
            "{indent}| `{}` | {} | {} | {} |\n",
            o.name,
            o.exit,
            o.happened,
            if mcp { o.next_mcp } else { o.next }
        ));
    }
    s.push_str(&format!(
        "{indent}| (an error) | 2 | nothing changed | fix what `arx: error:` and its `hint:` say, then call again |\n"
    ));
    s
}

/// The outcome table as plain lines for `--help` (`exit  outcome`).
pub fn help_lines() -> String {
    let mut s = String::new();
    for exit in [0u8, 1, 3] {
        let names: Vec<&str> = OUTCOMES
            .iter()
            .filter(|o| o.exit == exit)
            .map(|o| o.name)
            .collect();
        s.push_str(&format!("  {exit}  {}\n", names.join(", ")));
    }
    s.push_str("  2  an error: nothing changed");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_discard_is_always_one_and_three_is_only_a_crash_or_an_interruption() {
        for o in OUTCOMES {
            match o.status {
                "discard" | "protected" | "checks_failed" | "guard" | "holdout" | "pruned"
                | "stale" | "already_in_best" | "refused" | "paused" => {
                    assert_eq!(o.exit, 1, "{}", o.name)
                }
                "crash" | "interrupted" => assert_eq!(o.exit, 3, "{}", o.name),
                _ => assert_eq!(o.exit, 0, "{}", o.name),
            }
        }
        assert_eq!(of_status("discard", true).unwrap().exit, 1);
        assert_eq!(
            of_status("discard", true).unwrap().name,
            "discard (inconclusive)"
        );
        assert_eq!(of_status("discard", false).unwrap().name, "discard");
        assert_eq!(of_status("keep", false).unwrap().exit, 0);
    }

    #[test]
    fn every_name_is_unique_and_the_mcp_words_name_no_flag() {
        for (i, o) in OUTCOMES.iter().enumerate() {
            assert!(OUTCOMES[..i].iter().all(|p| p.name != o.name), "{}", o.name);
            assert!(!o.next_mcp.contains("--"), "{}: {}", o.name, o.next_mcp);
        }
        let table = markdown("", true);
        assert!(
            table.contains("| `discard (inconclusive)` | 1 |"),
            "{table}"
        );
        assert!(help_lines().contains("  3  crash, interrupted"));
    }
}
