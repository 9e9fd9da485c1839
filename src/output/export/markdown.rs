//! Markdown: a GitHub-flavoured pipe table; numbers align right.

use std::borrow::Cow;

use super::markup::{replace, Markup};
use super::table::Align;

/// A pipe table: `|` is escaped and line breaks become `<br>`, so that a
/// cell stays in its cell.
#[derive(Debug, Clone, Copy, Default)]
pub struct Markdown;

impl Markup for Markdown {
    const START: &'static str = "| ";
    const SEPARATOR: &'static str = " | ";
    const END: &'static str = " |\n";

    fn escape(cell: &str) -> Cow<'_, str> {
        replace(
            cell,
            &[
                ("|", "\\|"),
                ("\r\n", "<br>"),
                ("\n", "<br>"),
                ("\r", "<br>"),
            ],
        )
    }

    fn divider(align: Align) -> Option<&'static str> {
        Some(match align {
            Align::Left => ":---",
            Align::Right => "---:",
        })
    }
}
