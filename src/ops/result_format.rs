//! How an experiment's output is read: `--result-format` and
//! `--result-pattern` over `[objective] format` and `pattern`, made into
//! the kernel's [`ResultFormat`] (bad settings are errors that name them).

use anyhow::Result;
use serde_json::Value;

use crate::error::Hinted;
use crate::kernel::contract::{FormatError, ResultFormat, FORMAT_NAMES};

/// The result format's flags, each over its `[objective]` key.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ResultFlags {
    /// How the experiment prints its metrics: arx (a __RESULT__ {json}
    /// line), pi (METRIC name=value lines), summary (name: value lines
    /// after a line ---), pattern ([objective] format).
    #[arg(long = "result-format", value_name = "FORMAT", value_parser = FORMAT_NAMES)]
    pub result_format: Option<String>,
    /// A regular expression with named groups matched against each line of
    /// the output, each group a metric (the format pattern; [objective] pattern).
    #[arg(long = "result-pattern", value_name = "REGEX")]
    pub result_pattern: Option<String>,
}

const FILE_HINT: &str = "set [objective] format to arx, pi, summary or pattern; a pattern names its metrics with groups like (?P<val_bpb>[0-9.]+)";
const FLAG_HINT: &str = "pass --result-format arx, pi, summary or pattern; --result-pattern names its metrics with groups like (?P<val_bpb>[0-9.]+)";

/// Where a format's settings came from: `[objective]` or the flags.
#[derive(Clone, Copy)]
enum From {
    File,
    Flags,
}

/// How to fix `e`, for the settings it came from: a pattern's own problem
/// is fixed in the pattern, a format's by naming one.
fn hint(e: &FormatError, from: From) -> String {
    let (pattern, format) = match from {
        From::File => ("[objective] pattern", "[objective] format"),
        From::Flags => ("--result-pattern", "--result-format"),
    };
    match e {
        FormatError::BadPattern(_) => format!(
            "fix the regular expression of {pattern} as the error says (close each group and bracket; escape a literal ( [ . + * ? | with a backslash), and try it on a saved output: arx parse --result-pattern 'REGEX' LOG"
        ),
        FormatError::NoNamedGroup(_) => format!(
            "name the group of each metric in {pattern}: (?P<val_bpb>[0-9.]+) reads the metric val_bpb"
        ),
        FormatError::PatternWithFormat(_) => format!(
            "remove {format}, or set it to pattern: a pattern alone picks the format pattern"
        ),
        _ => match from {
            From::File => FILE_HINT.to_string(),
            From::Flags => FLAG_HINT.to_string(),
        },
    }
}

/// The format `[objective]` names (`format`, `pattern`), checked.
pub fn from_file(format: Option<&str>, pattern: Option<&str>) -> Result<ResultFormat> {
    ResultFormat::from_settings(format, pattern).map_err(|e| {
        let hint = hint(&e, From::File);
        Hinted::error(format!("invalid [objective]: {e}"), hint)
    })
}

/// `format` and `pattern` of an `[objective]` table read as a whole
/// elsewhere (only these two keys are looked at).
pub fn file_settings(file: Option<&Value>) -> Result<(Option<String>, Option<String>)> {
    let key = |name: &str| -> Result<Option<String>> {
        match file.and_then(|f| f.get(name)) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(Hinted::error(
                format!("invalid [objective] {name}: expected a string, found {other}"),
                FILE_HINT,
            )),
        }
    };
    Ok((key("format")?, key("pattern")?))
}

/// The format output is read in by a command that runs or reads an
/// experiment outside the ratchet (`arx run`, `parse`, `measure`): the
/// flags over `[objective] format` and `pattern` (the rest of the table is
/// not looked at).
pub fn for_output(flags: &ResultFlags, file: Option<&Value>) -> Result<ResultFormat> {
    let (format, pattern) = file_settings(file)?;
    resolve(flags, format.as_deref(), pattern.as_deref())
}

/// The format: the flags over the file's `format` and `pattern` (the
/// file's settings are checked even when a flag overrides them).
pub fn resolve(
    flags: &ResultFlags,
    file_format: Option<&str>,
    file_pattern: Option<&str>,
) -> Result<ResultFormat> {
    let file = from_file(file_format, file_pattern)?;
    let flag_error = |e: FormatError| {
        let hint = hint(&e, From::Flags);
        Hinted::error(format!("invalid result format: {e}"), hint)
    };
    match (
        flags.result_format.as_deref(),
        flags.result_pattern.as_deref(),
    ) {
        (format, Some(pattern)) => {
            ResultFormat::from_settings(format, Some(pattern)).map_err(flag_error)
        }
        (Some("pattern"), None) => match file {
            ResultFormat::Pattern(_) => Ok(file),
            _ => Err(Hinted::error(
                "--result-format pattern needs a pattern",
                "pass --result-pattern REGEX, or set [objective] pattern",
            )),
        },
        (Some(name), None) => ResultFormat::from_settings(Some(name), None).map_err(flag_error),
        (None, None) => Ok(file),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(format: Option<&str>, pattern: Option<&str>) -> ResultFlags {
        ResultFlags {
            result_format: format.map(String::from),
            result_pattern: pattern.map(String::from),
        }
    }

    #[test]
    fn flags_win_over_the_file_and_a_bad_file_is_named() {
        let f = resolve(&flags(Some("pi"), None), Some("summary"), None).unwrap();
        assert_eq!(f, ResultFormat::Pi);
        let f = resolve(&flags(None, None), Some("summary"), None).unwrap();
        assert_eq!(f, ResultFormat::Summary);
        let f = resolve(&flags(Some("pattern"), None), None, Some("(?P<a>\\d)")).unwrap();
        assert_eq!(f.name(), "pattern");
        let f = resolve(&flags(None, Some("(?P<b>\\d)")), Some("pi"), None).unwrap();
        assert_eq!(f.name(), "pattern");
        let err = resolve(&flags(Some("pi"), None), Some("csv"), None).unwrap_err();
        assert!(
            err.to_string()
                .contains("invalid [objective]: unknown result format \"csv\""),
            "{err}"
        );
        let err = resolve(&flags(Some("pattern"), None), None, None).unwrap_err();
        assert!(err.to_string().contains("needs a pattern"), "{err}");
        let err = resolve(&flags(Some("pi"), Some("(?P<b>\\d)")), None, None).unwrap_err();
        assert!(err.to_string().contains("not \"pi\""), "{err}");
        let file = serde_json::json!({"format": 3});
        let err = file_settings(Some(&file)).unwrap_err();
        assert!(err.to_string().contains("[objective] format"), "{err}");
    }
}
