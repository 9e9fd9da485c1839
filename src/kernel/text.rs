//! The one rule for text someone else wrote (a try's description, an
//! idea, a finding, a failure's excerpt) shown in a human view or a text
//! export: no character in it may drive the terminal, forge a line or
//! reorder what follows it.
//!
//! A character is a hazard when it is a control character (C0, DEL, C1:
//! escapes, bells, carriage returns, line feeds, tabs), a line or
//! paragraph separator (U+2028, U+2029), or a bidirectional control
//! (U+202A–202E, U+2066–2069). Each hazard is shown by a visible escape
//! (`\n`, `\r`, `\t`, a byte of a path that is not UTF-8 as `\xe9`
//! (see `path_bytes`), else `\u{1b}`), so the reader sees that it was
//! there and the text stays on one line. Long text is cut to [`CLIP`]
//! characters in a human view, an ellipsis marking the cut.

use std::borrow::Cow;

/// The most characters of someone else's text a human view shows.
pub const CLIP: usize = 300;

/// Is `c` a character that must not reach a terminal as it is?
pub fn is_hazard(c: char) -> bool {
    c.is_control()
        || crate::kernel::path_bytes::carried(c).is_some()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` with every hazard shown by its visible escape; borrowed when
/// there is none.
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hazard) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_visible(&mut out, c);
    }
    Cow::Owned(out)
}

/// Push `c`, or its visible escape when it is a hazard.
pub fn push_visible(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if is_hazard(c) => match crate::kernel::path_bytes::carried(c) {
            Some(b) => out.push_str(&format!("\\x{b:02x}")),
            None => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        },
        c => out.push(c),
    }
}

/// `text` made visible and cut to at most `width` characters (escapes
/// count as the characters they are shown with), an ellipsis marking a
/// cut. Only the first `width` characters of `text` are read, so a
/// description of any size costs the same.
pub fn clip(text: &str, width: usize) -> String {
    let mut out = String::new();
    // Where each shown character (or escape) starts in `out`, and how many
    // characters it shows: a cut never splits an escape.
    let mut pieces: Vec<(usize, usize)> = Vec::new();
    let mut shown = 0;
    let mut piece = String::new();
    for c in text.chars() {
        piece.clear();
        push_visible(&mut piece, c);
        let n = piece.chars().count();
        if shown + n > width {
            // Make room for the ellipsis.
            while shown + 1 > width {
                let Some((at, k)) = pieces.pop() else { break };
                out.truncate(at);
                shown -= k;
            }
            out.push('…');
            return out;
        }
        pieces.push((out.len(), n));
        out.push_str(&piece);
        shown += n;
    }
    out
}

/// Someone else's text for a human view: visible and cut to [`CLIP`].
pub fn shown(text: &str) -> String {
    clip(text, CLIP)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hazard_is_escaped_and_nothing_else() {
        let text = "a\u{1b}[2J\u{1b}]0;T\u{7}b\rc\nd\te\u{7f}f\u{9b}g\u{202e}h\u{2066}i\u{2028}j";
        let v = visible(text);
        assert_eq!(
            v,
            "a\\u{1b}[2J\\u{1b}]0;T\\u{7}b\\rc\\nd\\te\\u{7f}f\\u{9b}g\\u{202e}h\\u{2066}i\\u{2028}j"
        );
        assert!(!v.chars().any(is_hazard));
        assert!(matches!(visible("plain é 日本 — ok"), Cow::Borrowed(_)));
        for c in [
            '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{2067}', '\u{2069}',
        ] {
            assert!(is_hazard(c), "{c:?}");
        }
        assert!(!is_hazard('\u{2065}') && !is_hazard('\u{200b}'));
        assert!(is_hazard('\u{2029}'));
    }

    #[test]
    fn clip_cuts_at_the_width_with_an_ellipsis() {
        assert_eq!(clip("abcdef", 6), "abcdef");
        assert_eq!(clip("abcdefg", 6), "abcde…");
        assert_eq!(clip("ab\ncd", 4), "ab…");
        assert_eq!(clip("ab\ncd", 6), "ab\\ncd");
        let long = "x".repeat(10_000_000);
        assert_eq!(shown(&long).chars().count(), CLIP);
    }
}
