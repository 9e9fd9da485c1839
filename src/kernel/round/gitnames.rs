//! Git's own rules for names it treats specially, with its HFS+ and NTFS
//! protections on (`core.protectHFS`, `core.protectNTFS`, as
//! `verify_path` and `fsck` apply them), and `fsck`'s checks of
//! `.gitmodules` content.
//!
//! On HFS+ a name is compared with code points Apple ignores dropped
//! (`.g\u{200c}it` is `.git`) and case folded; on NTFS trailing dots and
//! spaces are dropped, an alternate data stream (`.git::$INDEX_ALLOCATION`)
//! names the same file, and 8.3 short names (`GIT~1`, `GITMOD~1`,
//! `gi7eba~1`) stand for long ones. A patch may not write a file that any
//! of these filesystems would read as `.git`, nor a lookalike of
//! `.gitmodules`, `.gitattributes`, `.gitignore` or `.mailmap`.

/// Code points HFS+ ignores when it compares names (git's
/// `next_hfs_char`).
fn hfs_ignorable(c: char) -> bool {
    matches!(
        c,
        '\u{200c}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{206a}'..='\u{206f}' | '\u{feff}'
    )
}

/// Does HFS+ read `component` as `.` followed by `needle` (ASCII, lower
/// case)? Ignorable code points are skipped and ASCII case is folded; any
/// other non-ASCII character is a mismatch.
fn is_hfs_dot(component: &str, needle: &str) -> bool {
    let mut chars = component.chars().filter(|c| !hfs_ignorable(*c));
    let mut want = std::iter::once('.').chain(needle.chars());
    loop {
        match (chars.next(), want.next()) {
            (None, None) => return true,
            (Some(c), Some(w)) if c.is_ascii() && c.to_ascii_lowercase() == w => {}
            _ => return false,
        }
    }
}

/// The rest of a name after a match: NTFS reads it as the same file when
/// only dots and spaces follow, up to the end or a `:` (a stream).
fn only_dots_and_spaces(rest: &[u8]) -> bool {
    for &c in rest {
        if c == b':' {
            return true;
        }
        if c != b' ' && c != b'.' {
            return false;
        }
    }
    true
}

/// git's `is_ntfs_dotgit`: `.git` or `git~1`, any case, then only dots
/// and spaces up to the end or a stream.
fn is_ntfs_dotgit(component: &str) -> bool {
    let b = component.as_bytes();
    let rest = if b.len() >= 4 && b[0] == b'.' && b[1..4].eq_ignore_ascii_case(b"git") {
        &b[4..]
    } else if b.len() >= 5 && b[..3].eq_ignore_ascii_case(b"git") && &b[3..5] == b"~1" {
        &b[5..]
    } else {
        return false;
    };
    only_dots_and_spaces(rest)
}

/// git's `is_ntfs_dot_generic`: `.<name>`, its short name `<name[..6]>~1`
/// to `~4`, or the fall-back short name `<prefix>~<digits>` (8 bytes at
/// most), any case, then only dots and spaces up to the end or a stream.
fn is_ntfs_dot(component: &str, name: &str, short_prefix: &str) -> bool {
    let b = component.as_bytes();
    let n = name.as_bytes();
    if b.len() > n.len() && b[0] == b'.' && b[1..=n.len()].eq_ignore_ascii_case(n) {
        return only_dots_and_spaces(&b[n.len() + 1..]);
    }
    if b.len() >= 8
        && b[..6].eq_ignore_ascii_case(&n[..6])
        && b[6] == b'~'
        && (b'1'..=b'4').contains(&b[7])
    {
        return only_dots_and_spaces(&b[8..]);
    }
    let prefix = short_prefix.as_bytes();
    let mut i = 0;
    let mut saw_tilde = false;
    while i < 8 {
        let Some(&c) = b.get(i) else {
            return false;
        };
        if saw_tilde {
            if !c.is_ascii_digit() {
                return false;
            }
        } else if c == b'~' {
            i += 1;
            match b.get(i) {
                Some(d) if (b'1'..=b'9').contains(d) => saw_tilde = true,
                _ => return false,
            }
        } else if i >= 6 || c >= 0x80 || c.to_ascii_lowercase() != prefix[i] {
            return false;
        }
        i += 1;
    }
    only_dots_and_spaces(&b[i.min(b.len())..])
}

/// The special names, with git's NTFS short-name prefixes.
const SPECIAL: [(&str, &str, &str); 4] = [
    (".gitmodules", "gitmodules", "gi7eba"),
    (".gitattributes", "gitattributes", "gi7d29"),
    (".gitignore", "gitignore", "gi250a"),
    (".mailmap", "mailmap", "maba30"),
];

/// Does HFS+ or NTFS read this path component as `.git`?
pub fn is_dotgit(component: &str) -> bool {
    is_hfs_dot(component, "git") || is_ntfs_dotgit(component)
}

/// The special git file (`.gitmodules`, `.gitattributes`, `.gitignore`,
/// `.mailmap`) that HFS+ or NTFS reads this component as, if any.
pub fn special_git_name(component: &str) -> Option<&'static str> {
    SPECIAL
        .iter()
        .find(|(_, name, prefix)| {
            is_hfs_dot(component, name) || is_ntfs_dot(component, name, prefix)
        })
        .map(|(full, _, _)| *full)
}

/// A value of a git config file.
struct ConfigEntry {
    /// The subsection (`submodule "<name>"`), if any.
    subsection: Option<String>,
    section: String,
    key: String,
    value: String,
}

/// Parse git config text (the subset `.gitmodules` uses: sections with
/// quoted subsections, `key = value` lines, comments, quotes, escapes,
/// line continuations). `Err` when git would not read it.
fn parse_git_config(text: &str) -> Result<Vec<ConfigEntry>, String> {
    let mut entries = Vec::new();
    let mut section: Option<(String, Option<String>)> = None;
    let mut chars = text.chars().peekable();
    let mut line_no = 1;
    while let Some(&c) = chars.peek() {
        match c {
            '\n' => {
                chars.next();
                line_no += 1;
            }
            ' ' | '\t' | '\r' => {
                chars.next();
            }
            '\u{feff}' if line_no == 1 => {
                chars.next();
            }
            '#' | ';' => while chars.next_if(|c| *c != '\n').is_some() {},
            '[' => {
                chars.next();
                section = Some(section_header(&mut chars, line_no)?);
            }
            c if c.is_ascii_alphabetic() => {
                let Some((sec, sub)) = &section else {
                    return Err(format!("line {line_no}: a key outside any section"));
                };
                let mut key = String::new();
                while let Some(c) = chars.next_if(|c| c.is_ascii_alphanumeric() || *c == '-') {
                    key.push(c.to_ascii_lowercase());
                }
                while chars.next_if(|c| *c == ' ' || *c == '\t').is_some() {}
                let value = match chars.next() {
                    None | Some('\n') => {
                        line_no += 1;
                        "true".to_string()
                    }
                    Some('#') | Some(';') => {
                        while chars.next_if(|c| *c != '\n').is_some() {}
                        "true".to_string()
                    }
                    Some('\r') if chars.peek() == Some(&'\n') => "true".to_string(),
                    Some('=') => parse_value(&mut chars, &mut line_no)?,
                    Some(_) => return Err(format!("line {line_no}: bad key `{key}`")),
                };
                entries.push(ConfigEntry {
                    subsection: sub.clone(),
                    section: sec.clone(),
                    key,
                    value,
                });
            }
            _ => return Err(format!("line {line_no}: not a git config line")),
        }
    }
    Ok(entries)
}

/// A section header after its `[`: the section's name and subsection
/// (`[section "sub"]`, or the old `[section.sub]`).
fn section_header(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    line_no: usize,
) -> Result<(String, Option<String>), String> {
    let mut name = String::new();
    while let Some(c) = chars.next_if(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.')) {
        name.push(c.to_ascii_lowercase());
    }
    let mut sub = None;
    while chars.next_if(|c| *c == ' ' || *c == '\t').is_some() {}
    if chars.next_if_eq(&'"').is_some() {
        let mut s = String::new();
        loop {
            match chars.next() {
                Some('"') => break,
                Some('\\') => match chars.next() {
                    Some('\n') | None => return Err(format!("line {line_no}: bad section header")),
                    Some(c) => s.push(c),
                },
                Some('\n') | None => return Err(format!("line {line_no}: bad section header")),
                Some(c) => s.push(c),
            }
        }
        sub = Some(s);
    }
    if chars.next() != Some(']') || name.is_empty() {
        return Err(format!("line {line_no}: bad section header"));
    }
    // The old `[section.subsection]` spelling.
    let (name, sub) = match (sub, name.split_once('.')) {
        (None, Some((s, rest))) => (s.to_string(), Some(rest.to_string())),
        (sub, _) => (name, sub),
    };
    Ok((name, sub))
}

/// A config value after `=`, up to the end of its line: quotes, escapes
/// (`\n`, `\t`, `\b`, `\\`, `\"`), comments and continuations as git reads
/// them.
fn parse_value(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    line_no: &mut usize,
) -> Result<String, String> {
    let mut value = String::new();
    let mut quoted = false;
    let mut pending_space = 0usize;
    let mut started = false;
    while let Some(c) = chars.next() {
        match c {
            '\n' => {
                *line_no += 1;
                if quoted {
                    return Err(format!("line {line_no}: unterminated quote"));
                }
                break;
            }
            ' ' | '\t' if !quoted => {
                if started {
                    pending_space += 1;
                }
            }
            '#' | ';' if !quoted => while chars.next_if(|c| *c != '\n').is_some() {},
            '"' => {
                quoted = !quoted;
                started = true;
            }
            '\\' => {
                let escaped = match chars.next() {
                    Some('\n') => {
                        *line_no += 1;
                        continue;
                    }
                    Some('\r') if chars.peek() == Some(&'\n') => {
                        chars.next();
                        *line_no += 1;
                        continue;
                    }
                    Some('n') => '\n',
                    Some('t') => '\t',
                    Some('b') => '\u{8}',
                    Some('\\') => '\\',
                    Some('"') => '"',
                    _ => return Err(format!("line {line_no}: bad escape")),
                };
                value.extend(std::iter::repeat_n(' ', pending_space));
                pending_space = 0;
                value.push(escaped);
                started = true;
            }
            '\r' if !quoted && chars.peek() == Some(&'\n') => {}
            c => {
                value.extend(std::iter::repeat_n(' ', pending_space));
                pending_space = 0;
                value.push(c);
                started = true;
            }
        }
    }
    if quoted {
        return Err(format!("line {line_no}: unterminated quote"));
    }
    Ok(value)
}

/// Does a submodule URL carry something git refuses: a leading `-` (read
/// as an option by the transport, `--upload-pack=...`), or a newline, raw
/// or percent-encoded (it would reach the credential helper)?
fn bad_submodule_url(url: &str) -> Option<&'static str> {
    if url.starts_with('-') {
        return Some("starts with '-' (it would be read as an option)");
    }
    let lower = url.to_ascii_lowercase();
    if url.contains(['\n', '\r']) || lower.contains("%0a") || lower.contains("%0d") {
        return Some("holds a newline");
    }
    None
}

/// What `git fsck` rejects in `.gitmodules` content: a submodule name with
/// a `..` component, a `url` or `path` starting with `-`, a `url` with a
/// newline, `update = !command`; and content git cannot read as config.
pub fn gitmodules_errors(content: &str) -> Vec<String> {
    let entries = match parse_git_config(content) {
        Ok(e) => e,
        Err(e) => return vec![format!(".gitmodules is not valid git config ({e})")],
    };
    let mut errors = Vec::new();
    let mut named = std::collections::HashSet::new();
    for e in entries.iter().filter(|e| e.section == "submodule") {
        let Some(name) = &e.subsection else {
            continue;
        };
        if named.insert(name.as_str())
            && (name.is_empty() || name.split(['/', '\\']).any(|part| part == ".."))
        {
            errors.push(format!(
                ".gitmodules: submodule name {:?} is not allowed (empty, or a '..' component)",
                name
            ));
        }
        let quoted = format!("submodule {name:?}");
        match e.key.as_str() {
            "url" => {
                if let Some(why) = bad_submodule_url(&e.value) {
                    errors.push(format!(".gitmodules: {quoted} url {why}"));
                }
            }
            "path" if e.value.starts_with('-') => errors.push(format!(
                ".gitmodules: {quoted} path starts with '-' (it would be read as an option)"
            )),
            "update" if e.value.trim_start().starts_with('!') => errors.push(format!(
                ".gitmodules: {quoted} update runs a command (update = !...)"
            )),
            _ => {}
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotgit_as_hfs_and_ntfs_read_it() {
        for c in [
            ".git",
            ".GIT",
            ".g\u{200c}it",
            "\u{feff}.git",
            ".git\u{200d}",
            ".gi\u{206f}T",
            ".git.",
            ".git ",
            ".git. . ",
            ".git::$INDEX_ALLOCATION",
            ".git:stream",
            "git~1",
            "GIT~1",
            "git~1...",
        ] {
            assert!(is_dotgit(c), "{c:?}");
        }
        for c in [
            ".gitx",
            "git",
            ".github",
            "git~2",
            ".g\u{e9}it",
            "x.git",
            ".gi",
        ] {
            assert!(!is_dotgit(c), "{c:?}");
        }
    }

    #[test]
    fn special_names_as_hfs_and_ntfs_read_them() {
        for (c, name) in [
            (".gitmodules", ".gitmodules"),
            (".GITMODULES", ".gitmodules"),
            (".gitmodules\u{200c}", ".gitmodules"),
            (".gitmodules.", ".gitmodules"),
            (".gitmodules ::$DATA", ".gitmodules"),
            ("GITMOD~1", ".gitmodules"),
            ("gitmod~4", ".gitmodules"),
            ("gi7eba~1", ".gitmodules"),
            ("GI7EBA~9", ".gitmodules"),
            ("gi7eb~12", ".gitmodules"),
            (".gitattributes", ".gitattributes"),
            ("gitatt~1", ".gitattributes"),
            ("gi7d29~1", ".gitattributes"),
            (".gitignore", ".gitignore"),
            ("gitign~1", ".gitignore"),
            ("gi250a~1", ".gitignore"),
            (".mailmap", ".mailmap"),
            (".mail\u{200e}map", ".mailmap"),
            ("mailma~1", ".mailmap"),
            ("maba30~1", ".mailmap"),
        ] {
            assert_eq!(special_git_name(c), Some(name), "{c:?}");
        }
        for c in [
            ".gitmodulesx",
            "gitmodules",
            "gitmod~5",
            "gi7eba~0",
            "x.mailmap",
        ] {
            assert_eq!(special_git_name(c), None, "{c:?}");
        }
    }

    #[test]
    fn gitmodules_content_as_fsck_checks_it() {
        let ok = "[submodule \"lib\"]\n\tpath = vendor/lib\n\turl = https://example.com/lib.git\n\tupdate = rebase\n";
        assert!(
            gitmodules_errors(ok).is_empty(),
            "{:?}",
            gitmodules_errors(ok)
        );
        for (text, want) in [
            (
                "[submodule \"x\"]\n\turl = --upload-pack=touch /tmp/pwn\n",
                "url starts with '-'",
            ),
            ("[submodule \"x\"]\n\turl = \"-u\"\n", "url starts with '-'"),
            ("[submodule \"x\"]\n\tpath = -x\n", "path starts with '-'"),
            (
                "[submodule \"x\"]\n\tupdate = !sh -c pwn\n",
                "update runs a command",
            ),
            (
                "[submodule \"x\"]\n\tupdate = \"!pwn\"\n",
                "update runs a command",
            ),
            (
                "[SubModule \"x\"]\n\tUPDATE = !pwn\n",
                "update runs a command",
            ),
            ("[submodule.x]\n\tupdate = !pwn\n", "update runs a command"),
            (
                "[submodule \"../../.git/modules/x\"]\n\tpath = a\n",
                "is not allowed",
            ),
            ("[submodule \"a\\\\..\"]\n\tpath = a\n", "is not allowed"),
            (
                "[submodule \"x\"]\n\turl = https://h/%0aprotocol=x\n",
                "newline",
            ),
            ("[submodule \"x\"]\n\turl = \"https://h/\\nx\"\n", "newline"),
            ("[submodule \"x\"\n", "not valid git config"),
            ("url = -x\n", "not valid git config"),
        ] {
            let errors = gitmodules_errors(text);
            assert!(
                errors.iter().any(|e| e.contains(want)),
                "{text:?}: want {want:?} in {errors:?}"
            );
        }
        // Continuations and comments are read as git reads them.
        let cont = "[submodule \"x\"] # c\n\turl = a\\\n-b ; comment\n\tupdate = \\\n!pwn\n";
        let errors = gitmodules_errors(cont);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("update"));
    }
}
