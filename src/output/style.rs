//! Styles of the human view and the one warning line on stderr; `anstream`
//! strips them when the stream is not a terminal or colour is off.

use std::io::Write;

use anstyle::{AnsiColor, Style};

use crate::kernel::verdict::Verdict;

/// Print a warning on stderr.
pub fn warn(message: impl std::fmt::Display) {
    let mut err = anstream::stderr().lock();
    let style = Style::new().fg_color(Some(AnsiColor::Yellow.into())).bold();
    let _ = writeln!(err, "{style}arx: warning:{style:#} {message}");
}

/// The colour of a verdict word.
pub fn verdict_style(v: Verdict) -> Style {
    let color = match v {
        Verdict::Supported => AnsiColor::Green,
        Verdict::Refuted => AnsiColor::Red,
        Verdict::Inconclusive => AnsiColor::Yellow,
    };
    Style::new().fg_color(Some(color.into())).bold()
}

/// Bold text.
pub fn bold() -> Style {
    Style::new().bold()
}

/// Dimmed text.
pub fn dim() -> Style {
    Style::new().dimmed()
}
