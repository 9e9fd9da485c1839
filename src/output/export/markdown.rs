//! Markdown: a GitHub-flavoured pipe table; numbers align right.

use std::borrow::Cow;

use super::markup::{replace, Markup};
use super::table::Align;

/// A pipe table: `|` is escaped and line breaks become `<br>`, so that a
/// cell stays in its cell; the characters that would make a cell's text
/// markup (`*` and `~` emphasis, code, a link or an image, inline HTML, an
/// entity) are escaped (`_` is left: names such as `val_loss` hold it, and
/// inside a word it is no emphasis), so text someone else wrote reads as written; every other
/// control character is shown by the escape of [`crate::kernel::text`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Markdown;

impl Markup for Markdown {
    const START: &'static str = "| ";
    const SEPARATOR: &'static str = " | ";
    const END: &'static str = " |\n";

    fn escape(cell: &str) -> Cow<'_, str> {
        let marked = replace(
            cell,
            &[
                ("|", "\\|"),
                ("\r\n", "<br>"),
                ("\n", "<br>"),
                ("\r", "<br>"),
                ("\\", "\\\\"),
                ("`", "\\`"),
                ("*", "\\*"),
                ("~", "\\~"),
                // A link or an image needs `](` or `][`.
                ("](", "]\\("),
                ("][", "]\\["),
                ("&", "&amp;"),
                ("<", "&lt;"),
                (">", "&gt;"),
            ],
        );
        match crate::kernel::text::visible(&marked) {
            Cow::Borrowed(_) => marked,
            Cow::Owned(v) => Cow::Owned(v),
        }
    }

    fn divider(align: Align) -> Option<&'static str> {
        Some(match align {
            Align::Left => ":---",
            Align::Right => "---:",
        })
    }
}
