//! GitHub Actions workflow commands on stderr (`::error file=…::message`),
//! which the runner shows as annotations on the run and the pull request.

use std::io::Write;

/// How loud an annotation is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
    Notice,
}

/// One annotation: where (a file relative to the repository root) and
/// what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    pub level: Level,
    pub file: Option<String>,
    pub title: String,
    pub message: String,
}

/// A workflow command's data: `%`, CR and LF escaped.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property: the data's escapes, and `:` and `,`.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

impl Annotation {
    /// The workflow command line.
    pub fn line(&self) -> String {
        let level = match self.level {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Notice => "notice",
        };
        let mut props = Vec::new();
        if let Some(file) = &self.file {
            props.push(format!("file={}", escape_property(file)));
        }
        props.push(format!("title={}", escape_property(&self.title)));
        format!(
            "::{level} {}::{}",
            props.join(","),
            escape_data(&self.message)
        )
    }
}

/// Print annotations on stderr, one line each.
pub fn annotate(annotations: &[Annotation]) {
    let mut err = std::io::stderr().lock();
    for a in annotations {
        let _ = writeln!(err, "{}", a.line());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_and_properties_are_escaped() {
        let a = Annotation {
            level: Level::Error,
            file: Some("patches/a,b:c.json".into()),
            title: "arx round r1: rejected".into(),
            message: "100% wrong\nsecond line".into(),
        };
        assert_eq!(
            a.line(),
            "::error file=patches/a%2Cb%3Ac.json,title=arx round r1%3A rejected::100%25 wrong%0Asecond line"
        );
    }
}
