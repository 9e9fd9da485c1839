//! A round's files through the repository's line-ending rules, as git
//! applies them on `git add` and on checkout: the `text` and `eol`
//! attributes (`.gitattributes`), then `core.autocrlf` and `core.eol`. A
//! patch's content is what the working tree holds; its blob is that
//! content checked in (CRLF made LF where the file is text), and the file
//! written is the blob checked out (LF made CRLF where `eol=crlf`). So a
//! round leaves no file that `git status` shows modified.

use std::path::Path;

use git2::{AttrCheckFlags, AttrValue};

use super::RoundRepo;

/// How a path's line endings are converted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rule {
    /// Converted at all: `Some(true)` always (text), `Some(false)` when
    /// the content looks like text (auto), `None` never.
    text: Option<bool>,
    /// CRLF in the working tree.
    crlf: bool,
}

impl RoundRepo {
    fn eol_rule(&self, path: &str) -> Rule {
        let flags = AttrCheckFlags::FILE_THEN_INDEX;
        // `None` for an unspecified attribute; `Some("true")`, `Some("false")`
        // for a set or unset one; else its value.
        let attr = |name: &str| -> Option<String> {
            let raw = self.repo.get_attr(Path::new(path), name, flags).ok()?;
            match AttrValue::from_string(raw) {
                AttrValue::True => Some("true".into()),
                AttrValue::False => Some("false".into()),
                AttrValue::String(v) => Some(v.to_string()),
                AttrValue::Bytes(v) => Some(String::from_utf8_lossy(v).into_owned()),
                AttrValue::Unspecified => None,
            }
        };
        let config = self.repo.config().ok();
        let autocrlf = config
            .as_ref()
            .and_then(|c| c.get_string("core.autocrlf").ok())
            .map(|v| v.to_ascii_lowercase());
        let core_eol = config
            .as_ref()
            .and_then(|c| c.get_string("core.eol").ok())
            .map(|v| v.to_ascii_lowercase());
        let text_attr = attr("text");
        let eol_attr = attr("eol");
        let text = match text_attr.as_deref() {
            Some("true") => Some(true),
            Some("false") => None,
            Some("auto") => Some(false),
            _ if eol_attr.is_some() => Some(true),
            _ => match autocrlf.as_deref() {
                Some("true" | "input") => Some(false),
                _ => None,
            },
        };
        let crlf = match eol_attr.as_deref() {
            Some("crlf") => true,
            Some("lf") => false,
            _ => match autocrlf.as_deref() {
                Some("true") => true,
                Some("input") => false,
                _ => core_eol.as_deref() == Some("crlf") && text.is_some(),
            },
        };
        Rule { text, crlf }
    }

    /// `content` as the blob `git add` would store for `path`.
    pub fn to_blob(&self, path: &str, content: &[u8]) -> Vec<u8> {
        let rule = self.eol_rule(path);
        if converted(rule, content) {
            crlf_to_lf(content)
        } else {
            content.to_vec()
        }
    }

    /// The blob `content` of `path` as checkout writes it.
    pub fn to_worktree(&self, path: &str, blob: &[u8]) -> Vec<u8> {
        let rule = self.eol_rule(path);
        if rule.crlf && converted(rule, blob) {
            lf_to_crlf(blob)
        } else {
            blob.to_vec()
        }
    }
}

fn converted(rule: Rule, content: &[u8]) -> bool {
    match rule.text {
        Some(true) => true,
        // As git's `auto`: a NUL byte means binary.
        Some(false) => !content.contains(&0),
        None => false,
    }
}

fn crlf_to_lf(content: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(content.len());
    for (i, &b) in content.iter().enumerate() {
        if b == b'\r' && content.get(i + 1) == Some(&b'\n') {
            continue;
        }
        out.push(b);
    }
    out
}

fn lf_to_crlf(content: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(content.len() + content.len() / 32);
    for (i, &b) in content.iter().enumerate() {
        if b == b'\n' && (i == 0 || content[i - 1] != b'\r') {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions() {
        assert_eq!(crlf_to_lf(b"a\r\nb\rc\r\n"), b"a\nb\rc\n");
        assert_eq!(lf_to_crlf(b"a\nb\r\nc\n"), b"a\r\nb\r\nc\r\n");
        let auto = Rule {
            text: Some(false),
            crlf: true,
        };
        assert!(!converted(auto, b"a\0b\r\n"));
        assert!(converted(auto, b"ab\r\n"));
    }
}
