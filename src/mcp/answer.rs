//! What a tool result says first: one line with the outcome and the next
//! step in the tools' words, the warnings the command gave, then the
//! record in short (numbers rounded to the metric's precision, at most
//! [`MAX_TEXT`] characters in all). The full record is the result's structured content.

use serde_json::Value;

use crate::kernel::try_outcome;

/// Most characters of a result's text.
pub const MAX_TEXT: usize = 2000;

/// The text of a result: `head`, the `warnings`, then `value` in short.
pub fn text(head: &str, warnings: &[String], value: Option<&Value>) -> String {
    let mut out = head.to_string();
    for w in warnings {
        out.push_str("\nwarning: ");
        out.push_str(w);
    }
    if let Some(v) = value {
        out.push('\n');
        out.push_str(&rounded(v).to_string());
    }
    cut(&out, MAX_TEXT)
}

/// `text` cut to at most `max` characters, saying where the rest is.
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let note = " … (cut: the full result is the structured content)";
    let keep = max.saturating_sub(note.chars().count());
    let mut out: String = text.chars().take(keep).collect();
    out.push_str(note);
    out
}

/// The commands as MCP names them: `arx idea add` is the tool `idea_add`.
const TOOLS: [(&str, &str); 23] = [
    ("arx deadend add", "deadend_add"),
    ("arx journal verify", "journal_verify"),
    ("arx ps", "ps"),
    ("arx idea add", "idea_add"),
    ("arx idea list", "idea_list"),
    ("arx idea drop", "idea_drop"),
    ("arx deadend check", "deadend_check"),
    ("arx finding rank", "finding_rank"),
    ("arx finding list", "finding_list"),
    ("arx lane add", "lane_add"),
    ("arx lane list", "lane_list"),
    ("arx lane sync", "lane_sync"),
    ("arx journal import", "journal_import"),
    ("arx try", "try"),
    ("arx status", "status"),
    ("arx best", "best"),
    ("arx log", "log"),
    ("arx next", "next"),
    ("arx restore", "restore"),
    ("arx show", "show"),
    ("arx report", "report"),
    ("arx run", "run"),
    ("arx measure", "measure"),
];

/// A command's message in the tools' words: a command named as its tool,
/// a flag as its field (`--because` is `because`).
pub fn in_tool_words(text: &str) -> String {
    let mut out = text.to_string();
    for (command, tool) in TOOLS {
        // In code: "`arx next`" is "the tool `next`".
        out = out.replace(&format!("`{command}"), &format!("the tool `{tool}"));
        out = out.replace(command, &format!("the tool {tool}"));
    }
    let mut said = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(at) = rest.find("--") {
        let (before, after) = rest.split_at(at);
        said.push_str(before);
        let name_len = after[2..]
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .unwrap_or(after.len() - 2);
        if name_len == 0 || !before.ends_with([' ', '(', '`', '"']) && !before.is_empty() {
            said.push_str("--");
            rest = &after[2..];
            continue;
        }
        said.push_str(&after[2..2 + name_len].replace('-', "_"));
        rest = &after[2 + name_len..];
    }
    said.push_str(rest);
    said
}

/// `value` with every number rounded to the metric's precision
/// ([`metric_decimals`]), and never to fewer than 3 significant digits
/// (a probability, a score); nulls left out.
pub fn rounded(value: &Value) -> Value {
    round_with(value, metric_decimals(value))
}

/// Most decimals a number keeps.
const MAX_DECIMALS: i32 = 12;

/// The decimals the metric of a record is known to: two significant
/// digits of its noise, as the command line shows it (`noise` anywhere in
/// the record, the first found); without a noise above zero, the digits
/// the experiment printed (the most decimals among its `samples` and
/// `metrics`); neither: none (each number then keeps 3 significant
/// digits).
pub fn metric_decimals(value: &Value) -> i32 {
    if let Some(noise) = find_noise(value) {
        return (1 - noise.log10().floor() as i32).clamp(0, MAX_DECIMALS);
    }
    printed_decimals(value, false).min(MAX_DECIMALS)
}

/// The first positive `noise` of a record, breadth first.
fn find_noise(value: &Value) -> Option<f64> {
    let mut level = vec![value];
    while !level.is_empty() {
        let mut next = Vec::new();
        for v in level {
            match v {
                Value::Object(map) => {
                    let noise = map.get("noise").and_then(Value::as_f64);
                    if let Some(n) = noise.filter(|n| *n > 0.0 && n.is_finite()) {
                        return Some(n);
                    }
                    next.extend(map.values());
                }
                Value::Array(items) => next.extend(items),
                _ => {}
            }
        }
        level = next;
    }
    None
}

/// The most decimals among the numbers under `samples` and `metrics`
/// keys (`inside`: `value` is under one).
fn printed_decimals(value: &Value, inside: bool) -> i32 {
    match value {
        Value::Number(n) if inside && n.is_f64() => n.as_f64().map_or(0, decimals_of),
        Value::Array(items) => items
            .iter()
            .map(|v| printed_decimals(v, inside))
            .max()
            .unwrap_or(0),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| printed_decimals(v, inside || k == "samples" || k == "metrics"))
            .max()
            .unwrap_or(0),
        _ => 0,
    }
}

/// The decimals of `f` as it reads shortest (`0.5012`: 4).
fn decimals_of(f: f64) -> i32 {
    if !f.is_finite() {
        return 0;
    }
    let text = format!("{f}");
    text.split_once('.').map_or(0, |(_, d)| d.len() as i32)
}

fn round_with(value: &Value, decimals: i32) -> Value {
    match value {
        Value::Number(n) if n.is_f64() => n
            .as_f64()
            .and_then(|f| serde_json::Number::from_f64(round(f, decimals)))
            .map_or(Value::Null, Value::Number),
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| round_with(v, decimals)).collect())
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), round_with(v, decimals)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `f` to `decimals`, or to 3 significant digits when that keeps more.
fn round(f: f64, decimals: i32) -> f64 {
    if f == 0.0 || !f.is_finite() {
        return f;
    }
    let significant = 3 - 1 - f.abs().log10().floor() as i32;
    let digits = decimals.max(significant).min(MAX_DECIMALS.max(significant));
    let scale = 10f64.powi(digits.clamp(-300, 300));
    let r = (f * scale).round() / scale;
    // Through its decimal text, so that it prints as short as it reads.
    format!("{r:.*}", digits.clamp(0, 17) as usize)
        .parse()
        .unwrap_or(r)
}

fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// The answer's line the command gave on stderr (`arx: LINE; next:
/// STEP`, under `--json`), in the tools' words.
pub fn said(stderr: &str) -> Option<String> {
    let line = stderr
        .lines()
        .rev()
        .filter_map(|l| l.strip_prefix("arx: "))
        .find(|l| l.contains("; next: "))?;
    Some(cut(&in_tool_words(line), 600))
}

/// The files a command said it wrote (`arx: wrote the page to FILE`).
fn wrote(stderr: &str) -> String {
    let files: Vec<&str> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("arx: wrote "))
        .collect();
    match files.is_empty() {
        true => "wrote nothing".into(),
        false => format!("wrote {}; next: go on", files.join(", ")),
    }
}

/// The first line of a tool's result: what happened and what to do next;
/// `stderr` is the command's (its answer's line, the files it wrote).
pub fn headline(tool: &str, v: &Value, code: i32, stderr: &str) -> String {
    match tool {
        "report_write" => wrote(stderr),
        "finding_rank" if code != 0 => {
            "no finding is relevant to it; next: go on (nothing learned stands in the way)".into()
        }
        "finding_rank" => format!(
            "{} findings relevant, the most relevant first (under `findings`); next: weigh them before the change",
            v.get("findings").and_then(Value::as_array).map_or(0, Vec::len)
        ),
        "show" => show_head(v),
        "ps" => format!(
            "ps: {} live runs (under `runs`); next: go on",
            v.get("runs").and_then(Value::as_array).map_or(0, Vec::len)
        ),
        "try" => try_head(v),
        "status" => status_head(v, code),
        "best" if code != 0 => "no best yet: no baseline measured; next: call try to measure the baseline".into(),
        "best" => format!(
            "best: {} {} at {}; next: call status, then next",
            str_of(v, "metric").unwrap_or("metric"),
            v.get("value")
                .map(|x| round_with(x, metric_decimals(v)).to_string())
                .unwrap_or_default(),
            str_of(v, "commit").map_or("?", |c| &c[..c.len().min(12)])
        ),
        "next" if code != 0 => "no open idea: next: call idea_add with new ideas, then next".into(),
        "next" => match str_of(v, "idea") {
            Some(id) => format!(
                "next idea: {id} \"{}\"; next: make that one change, then call try with `idea` {id}",
                str_of(v, "statement").unwrap_or_default()
            ),
            None => "next: the pick is in the structured content".into(),
        },
        "deadend_check" if code == 1 => {
            "known dead end: do not try it; next: pick another approach (call next)".into()
        }
        "deadend_check" => "not a known dead end; next: go on".into(),
        "idea_add" => format!(
            "added idea {}; next: call try with `idea` {0} once the change is made",
            str_of(v, "id").unwrap_or("?")
        ),
        "log" => log_head(v),
        "idea_drop" if v.get("dropped").and_then(Value::as_bool) == Some(false) => format!(
            "idea {} was dropped already: nothing changed",
            str_of(v, "id").unwrap_or("?")
        ),
        "idea_drop" => format!("dropped idea {}", str_of(v, "id").unwrap_or("?")),
        "restore" => "restored: the change is back in the working tree; next: change it further, then call try".into(),
        "idea_list" | "finding_list" | "lane_list" => {
            let key = match tool {
                "idea_list" => "ideas",
                "finding_list" => "findings",
                _ => "lanes",
            };
            let n = v.get(key).and_then(Value::as_array).map_or(0, Vec::len);
            format!("{tool}: {n} {key} (the most recent; a larger `limit` for more)")
        }
        _ => said(stderr)
            .unwrap_or_else(|| format!("{tool}: {}", if code == 0 { "done" } else { "no" })),
    }
}

/// The status of a journaled run: its try's, its verdict's, or how it
/// ended.
fn run_status(r: &Value) -> &str {
    if r.get("interrupted").and_then(Value::as_bool) == Some(true) {
        return "interrupted";
    }
    r.pointer("/ratchet/status")
        .and_then(Value::as_str)
        .or_else(|| r.pointer("/verdict/verdict").and_then(Value::as_str))
        .unwrap_or("run")
}

fn show_head(v: &Value) -> String {
    let id = str_of(v, "run_id").unwrap_or("?");
    let what = v
        .pointer("/ratchet/description")
        .and_then(Value::as_str)
        .or_else(|| str_of(v, "hypothesis"))
        .map(|d| format!(" \"{}\"", cut(d, 200)))
        .unwrap_or_default();
    format!(
        "run {id}: {}{what}; next: the record is the structured content",
        run_status(v)
    )
}

fn log_head(v: &Value) -> String {
    let runs = v.get("runs").and_then(Value::as_array);
    let n = runs.map_or(0, Vec::len);
    let last = runs.and_then(|r| r.last()).map(|r| {
        let status = run_status(r);
        format!(
            "; the last: {status} {}",
            str_of(r, "run_id").map_or("", |id| &id[..id.len().min(13)])
        )
    });
    format!("log: {n} runs{}", last.unwrap_or_default())
}

fn try_head(v: &Value) -> String {
    if v.get("dry_run").and_then(Value::as_bool) == Some(true) {
        return "dry run: nothing changed; next: call try without `dry_run` to run it".into();
    }
    let name = str_of(v, "outcome").unwrap_or("");
    let line = str_of(v, "line").unwrap_or(name);
    match try_outcome::find(name) {
        Some(o) => format!("{line}; next: {}", o.next_mcp),
        None => line.to_string(),
    }
}

fn status_head(v: &Value, code: i32) -> String {
    if v.get("segment_number").and_then(Value::as_u64) == Some(0) {
        return "go on: no baseline yet; next: call try to measure it".into();
    }
    let in_a_row = v
        .get("non_keeps_in_a_row")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    if code == 0 {
        format!(
            "stop: {}; next: stop: make no further change, tell the person why, the best (best) and what was tried (report)",
            str_of(v, "reason").unwrap_or("a stop rule fired")
        )
    } else {
        format!("go on: no stop rule fired ({in_a_row} not kept in a row); next: call next, make that one change, call try")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_keep_the_noise_s_digits_and_nulls_are_left_out() {
        // Noise 0.0034: two significant digits of it, 4 decimals; a number
        // that small keeps 3 significant digits.
        let v = json!({"ratchet": {"noise": 0.0034, "best": 1.234567, "improvement": 0.000123456},
                       "c": null, "p": 0.08481626894395067, "e": 7, "big": 3187.4567});
        assert_eq!(
            rounded(&v),
            json!({"ratchet": {"noise": 0.0034, "best": 1.2346, "improvement": 0.000123},
                   "p": 0.0848, "e": 7, "big": 3187.4567})
        );
        // Four significant digits would lose the difference of two values
        // the noise tells apart.
        let v = json!({"noise": 0.00002, "best": 1.234567, "candidate": 1.234612});
        let r = rounded(&v);
        assert_ne!(r["best"], r["candidate"], "{r}");
        assert_eq!(r["best"], json!(1.234567));
    }

    #[test]
    fn without_a_noise_numbers_keep_the_digits_the_experiment_printed() {
        // A deterministic metric (noise 0): the samples' digits.
        let v = json!({"samples": [0.6, 0.6], "ratchet": {"noise": 0.0, "improvement": 0.09999999999999998,
                       "best": 0.5}, "keep_rate": 0.7500000000000001, "g": -0.4433943701573704});
        assert_eq!(
            rounded(&v),
            json!({"samples": [0.6, 0.6], "ratchet": {"noise": 0.0, "improvement": 0.1, "best": 0.5},
                   "keep_rate": 0.75, "g": -0.443})
        );
        assert_eq!(metric_decimals(&json!({"metrics": {"loss": 2.34512}})), 5);
        assert_eq!(metric_decimals(&json!({"scores": {"g": 0.123456}})), 0);
        // A large value keeps its integer digits and its metric's decimals.
        assert_eq!(
            rounded(&json!({"noise": 733.0, "v": 3187.4567})),
            json!({"noise": 733.0, "v": 3187.0})
        );
    }

    #[test]
    fn a_try_starts_with_its_line_and_the_next_step_in_the_tools_words() {
        let v = json!({"outcome": "discard (inconclusive)", "line": "discard (inconclusive): mse 3187 (-355 vs 3542, within noise 733)"});
        let head = headline("try", &v, 1, "");
        assert!(
            head.starts_with("discard (inconclusive): mse 3187"),
            "{head}"
        );
        assert!(head.contains("; next: go on: call next"), "{head}");
        assert!(!head.contains("--"), "{head}");
    }

    #[test]
    fn commands_and_flags_become_tools_and_fields() {
        assert_eq!(
            in_tool_words("--retry needs --because; see `arx idea list` (arx try --dry-run)"),
            "retry needs because; see the tool `idea_list` (the tool try dry_run)"
        );
        assert_eq!(in_tool_words("a -- b, x--y"), "a -- b, x--y");
    }

    #[test]
    fn the_text_is_never_longer_than_the_limit() {
        let big = json!({"runs": vec!["x".repeat(100); 100]});
        let t = text("head", &["w".into()], Some(&big));
        assert!(t.chars().count() <= MAX_TEXT, "{}", t.len());
        assert!(t.starts_with("head\nwarning: w\n{"));
        assert!(t.ends_with("structured content)"));
    }
}
