//! What a tool result says first: one line with the outcome and the next
//! step in the tools' words, the warnings the command gave, then the
//! record in short (numbers rounded, at most [`MAX_TEXT`] characters in
//! all). The full record is the result's structured content.

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
const TOOLS: [(&str, &str); 20] = [
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

/// `value` with every number rounded to 4 significant digits.
pub fn rounded(value: &Value) -> Value {
    match value {
        Value::Number(n) if n.is_f64() => n
            .as_f64()
            .and_then(|f| serde_json::Number::from_f64(round(f)))
            .map_or(Value::Null, Value::Number),
        Value::Array(items) => Value::Array(items.iter().map(rounded).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), rounded(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn round(f: f64) -> f64 {
    if f == 0.0 || !f.is_finite() {
        return f;
    }
    let digits = 4 - 1 - f.abs().log10().floor() as i32;
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

/// The first line of a tool's result: what happened and what to do next.
pub fn headline(tool: &str, v: &Value, code: i32) -> String {
    match tool {
        "try" => try_head(v),
        "status" => status_head(v, code),
        "best" if code != 0 => "no best yet: no baseline measured; next: call try to measure it".into(),
        "best" => format!(
            "best: {} {} at {}; next: call status, then next",
            str_of(v, "metric").unwrap_or("metric"),
            v.get("value").map(|x| rounded(x).to_string()).unwrap_or_default(),
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
        _ => format!("{tool}: {}", if code == 0 { "done" } else { "no" }),
    }
}

fn log_head(v: &Value) -> String {
    let runs = v.get("runs").and_then(Value::as_array);
    let n = runs.map_or(0, Vec::len);
    let last = runs.and_then(|r| r.last()).map(|r| {
        let status = r
            .pointer("/ratchet/status")
            .and_then(Value::as_str)
            .or_else(|| r.pointer("/verdict/verdict").and_then(Value::as_str))
            .unwrap_or("run");
        let status = if r.get("interrupted").and_then(Value::as_bool) == Some(true) {
            "interrupted"
        } else {
            status
        };
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
    fn numbers_are_rounded_and_nulls_left_out() {
        let v = json!({"a": 0.123456789, "b": 3187.4567, "c": null, "d": [1.0e-7 / 3.0], "e": 7});
        assert_eq!(
            rounded(&v),
            json!({"a": 0.1235, "b": 3187.0, "d": [3.333e-8], "e": 7})
        );
    }

    #[test]
    fn a_try_starts_with_its_line_and_the_next_step_in_the_tools_words() {
        let v = json!({"outcome": "discard (inconclusive)", "line": "discard (inconclusive): mse 3187 (-355 vs 3542, within noise 733)"});
        let head = headline("try", &v, 1);
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
            "retry needs because; see `the tool idea_list` (the tool try dry_run)"
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
