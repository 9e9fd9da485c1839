//! The approaches a file names: the `hypothesis` of a metric spec, the
//! `statement`s of a candidates file, or the lines of a plain hypothesis
//! note. `arx deadend scan` looks each one up in the dead-end registry.
//! Text in, statements out.

/// The kind of file, from its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Toml,
    Json,
    /// Anything else: one statement per non-blank line.
    Text,
}

impl Kind {
    pub fn of(name: &str) -> Kind {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".toml") {
            Kind::Toml
        } else if lower.ends_with(".json") {
            Kind::Json
        } else {
            Kind::Text
        }
    }
}

/// Keys whose string values are approaches.
const KEYS: [&str; 2] = ["hypothesis", "statement"];
/// Keys of lists of candidates (`[[candidate]]` tables, a JSON
/// `candidates` array).
const LISTS: [&str; 2] = ["candidate", "candidates"];

fn from_json(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for key in KEYS {
                if let Some(s) = map.get(key).and_then(|v| v.as_str()) {
                    out.push(s.to_string());
                }
            }
            for key in LISTS {
                if let Some(items) = map.get(key).and_then(|v| v.as_array()) {
                    for item in items {
                        from_json(item, out);
                    }
                }
            }
        }
        serde_json::Value::Array(items) => {
            for item in items {
                from_json(item, out);
            }
        }
        _ => {}
    }
}

/// The statements in a file named `name` holding `text`, in order, blank
/// ones left out; an error says why a TOML or JSON file cannot be read.
pub fn statements(name: &str, text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    match Kind::of(name) {
        Kind::Toml => {
            let value: toml::Value =
                toml::from_str(text).map_err(|e| format!("invalid TOML: {e}"))?;
            let json = serde_json::to_value(value).map_err(|e| e.to_string())?;
            from_json(&json, &mut out);
        }
        Kind::Json => {
            let value: serde_json::Value =
                serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
            from_json(&value, &mut out);
        }
        Kind::Text => {
            for line in text.lines() {
                let line = line.trim();
                if line.starts_with('#') || line.starts_with("<!--") {
                    continue;
                }
                let line = line
                    .strip_prefix("- ")
                    .or_else(|| line.strip_prefix("* "))
                    .unwrap_or(line);
                out.push(line.to_string());
            }
        }
    }
    out.retain(|s| !s.trim().is_empty());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_names_its_hypothesis() {
        let s = statements(
            "spec.toml",
            "metric_key = \"acc\"\nhypothesis = \"BM25 alone\"\n",
        )
        .unwrap();
        assert_eq!(s, ["BM25 alone"]);
    }

    #[test]
    fn candidates_files_name_each_statement() {
        let toml = "[[candidate]]\nname = \"a\"\nstatement = \"one\"\n[[candidate]]\nname = \"b\"\nstatement = \"two\"\n";
        assert_eq!(statements("candidates.toml", toml).unwrap(), ["one", "two"]);
        let json = r#"[{"name": "a", "statement": "one"}, {"name": "b", "statement": " "}]"#;
        assert_eq!(statements("c.JSON", json).unwrap(), ["one"]);
    }

    #[test]
    fn a_note_names_one_approach_per_line() {
        let text =
            "# Hypotheses\n\n- hybrid retrieval\n* rerank with a cross-encoder\nplain line\n";
        assert_eq!(
            statements("hypotheses.md", text).unwrap(),
            [
                "hybrid retrieval",
                "rerank with a cross-encoder",
                "plain line"
            ]
        );
    }

    #[test]
    fn an_unreadable_structured_file_is_an_error() {
        assert!(statements("spec.toml", "hypothesis = ").is_err());
        assert!(statements("c.json", "{").is_err());
    }
}
