//! A skim over JSON text: follows its structure without decoding it, and
//! reads the plain forms of scalars (strings with no escape, integers that
//! fit an `i64`, booleans) exactly as serde reads them. Anything else gives
//! `None`, and the caller falls back to serde.

use std::borrow::Cow;

pub fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// End of the JSON string starting at `b[i] == '"'`. The text is read a
/// word (8 bytes) at a time, looking for a quote or a backslash in all of
/// its bytes at once; a long string is searched with SIMD.
pub fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    // The high bit of each byte of `w` equal to `c` (exact up to the first
    // such byte, which is all that is read).
    let bytes_equal = |w: u64, c: u8| {
        let x = w ^ (ONES * c as u64);
        x.wrapping_sub(ONES) & !x & HIGH
    };
    let mut j = i + 1;
    let mut words = 0;
    loop {
        if let Some(word) = b.get(j..j + 8) {
            if words == 8 {
                break; // a long string: SIMD below
            }
            words += 1;
            let w = u64::from_le_bytes(word.try_into().ok()?);
            let hits = bytes_equal(w, b'"') | bytes_equal(w, b'\\');
            if hits == 0 {
                j += 8;
                continue;
            }
            j += (hits.trailing_zeros() / 8) as usize;
        } else {
            // The last bytes of the text.
            while *b.get(j)? != b'"' && b[j] != b'\\' {
                j += 1;
            }
        }
        if b[j] == b'"' {
            return Some(j + 1);
        }
        j += 2; // an escape and the byte it escapes
    }
    loop {
        let at = j + memchr::memchr2(b'"', b'\\', b.get(j..)?)?;
        if b[at] == b'\\' {
            j = at + 2;
        } else {
            return Some(at + 1);
        }
    }
}

/// End of the JSON value starting at `b[i]` (strings are jumped over with
/// a SIMD search; containers are matched by depth).
pub fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match *b.get(j)? {
                    b'"' => {
                        j = skip_string(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            {
                j += 1;
            }
            (j > i).then_some(j)
        }
    }
}

/// The text of a JSON string token (quotes included) when it needs no
/// decoding: no escape, no control character. `None` sends the line to the
/// general path, which decodes (or rejects) it exactly as serde does.
pub fn plain_text(token: &str) -> Option<&str> {
    let inner = token.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.bytes().any(|c| c == b'\\' || c < 0x20)).then_some(inner)
}

/// A string, or `null` for `None`, in the plain form of [`plain_text`].
pub fn plain_opt_text(token: &str) -> Option<Option<Cow<'_, str>>> {
    if token == "null" {
        Some(None)
    } else {
        plain_text(token).map(|t| Some(Cow::Borrowed(t)))
    }
}

/// [`plain_text`] of a token not yet known to be UTF-8.
pub fn plain_str(token: &[u8]) -> Option<&str> {
    plain_text(std::str::from_utf8(token).ok()?)
}

/// [`plain_opt_text`] of a token not yet known to be UTF-8.
pub fn plain_opt_str(token: &[u8]) -> Option<Option<Cow<'_, str>>> {
    plain_opt_text(std::str::from_utf8(token).ok()?)
}

pub fn plain_bool(token: &[u8]) -> Option<bool> {
    match token {
        b"true" => Some(true),
        b"false" => Some(false),
        _ => None,
    }
}

/// A JSON integer that fits an `i64` (a number without fraction or
/// exponent). `-0` is left to serde, which reads it as a float and so
/// rejects it.
pub fn plain_int(token: &[u8]) -> Option<i64> {
    if !json_number(token)
        || token.iter().any(|c| matches!(c, b'.' | b'e' | b'E'))
        || token == b"-0"
    {
        return None;
    }
    std::str::from_utf8(token).ok()?.parse().ok()
}

/// A JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
pub fn json_number(token: &[u8]) -> bool {
    let digits = |t: &[u8]| t.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut t = token.strip_prefix(b"-").unwrap_or(token);
    match t.first() {
        Some(b'0') => t = &t[1..],
        Some(b'1'..=b'9') => t = &t[digits(t)..],
        _ => return false,
    }
    if let Some(rest) = t.strip_prefix(b".") {
        let n = digits(rest);
        if n == 0 {
            return false;
        }
        t = &rest[n..];
    }
    if let Some(rest) = t.strip_prefix(b"e").or_else(|| t.strip_prefix(b"E")) {
        let rest = rest
            .strip_prefix(b"+")
            .or_else(|| rest.strip_prefix(b"-"))
            .unwrap_or(rest);
        let n = digits(rest);
        if n == 0 {
            return false;
        }
        t = &rest[n..];
    }
    t.is_empty()
}

/// A scalar serde accepts as it is: `null`, `true`, `false`, a number or
/// a plain string.
pub fn plain_scalar(token: &[u8]) -> bool {
    matches!(token, b"null" | b"true" | b"false")
        || json_number(token)
        || plain_str(token).is_some()
}

/// `["a", "b"]`: an array of plain strings.
pub fn plain_str_array(token: &[u8]) -> Option<Vec<Cow<'_, str>>> {
    let mut out = Vec::new();
    let end = walk_elements(token, skip_ws(token, 0), |i| {
        if *token.get(i)? != b'"' {
            return None;
        }
        let end = skip_string(token, i)?;
        out.push(Cow::Borrowed(plain_str(&token[i..end])?));
        Some(end)
    })?;
    (end == token.len()).then_some(out)
}

/// Walk the members of the JSON object `b` (the whole slice) at its top
/// level, calling `each(key, value)` with the raw key (quotes stripped,
/// escapes left as written) and the raw value token. `None` when the walk
/// cannot follow the text or `each` gives up.
pub fn walk_object<'a>(
    b: &'a [u8],
    mut each: impl FnMut(&'a [u8], &'a [u8]) -> Option<()>,
) -> Option<()> {
    let end = walk_members(b, skip_ws(b, 0), |key, start| {
        let end = skip_value(b, start)?;
        each(key, &b[start..end])?;
        Some(end)
    })?;
    (skip_ws(b, end) == b.len()).then_some(())
}

/// Walk the members of the JSON object starting at `b[i]`, calling
/// `each(key, start)` with the raw key and where its value starts; `each`
/// reads or skips the value and gives where it ends. Gives the end of the
/// object, so a caller reads nested values in the same pass.
pub fn walk_members<'a>(
    b: &'a [u8],
    mut i: usize,
    mut each: impl FnMut(&'a [u8], usize) -> Option<usize>,
) -> Option<usize> {
    if *b.get(i)? != b'{' {
        return None;
    }
    i = skip_ws(b, i + 1);
    if b.get(i) == Some(&b'}') {
        return Some(i + 1);
    }
    loop {
        if *b.get(i)? != b'"' {
            return None;
        }
        let key_end = skip_string(b, i)?;
        let key = &b[i + 1..key_end - 1];
        i = skip_ws(b, key_end);
        if *b.get(i)? != b':' {
            return None;
        }
        let end = each(key, skip_ws(b, i + 1))?;
        i = skip_ws(b, end);
        match *b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            b'}' => return Some(i + 1),
            _ => return None,
        }
    }
}

/// Walk the elements of the JSON array starting at `b[i]`, calling
/// `each(start)`, which reads or skips the element and gives where it
/// ends. Gives the end of the array.
pub fn walk_elements(
    b: &[u8],
    mut i: usize,
    mut each: impl FnMut(usize) -> Option<usize>,
) -> Option<usize> {
    if *b.get(i)? != b'[' {
        return None;
    }
    i = skip_ws(b, i + 1);
    if b.get(i) == Some(&b']') {
        return Some(i + 1);
    }
    loop {
        i = skip_ws(b, each(i)?);
        match *b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            b']' => return Some(i + 1),
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The end of a string by the definition: the first quote not escaped.
    fn by_definition(b: &[u8], i: usize) -> Option<usize> {
        let mut j = i + 1;
        loop {
            match *b.get(j)? {
                b'"' => return Some(j + 1),
                b'\\' => j += 2,
                _ => j += 1,
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn a_string_ends_at_its_first_unescaped_quote(
            text in proptest::collection::vec(
                prop_oneof![4 => Just(b'a'), 1 => Just(b'"'), 1 => Just(b'\\'), 1 => any::<u8>()],
                0..200,
            ),
            start in 0..8usize,
        ) {
            let mut b = vec![b'x'; start];
            b.push(b'"');
            b.extend(&text);
            prop_assert_eq!(skip_string(&b, start), by_definition(&b, start));
        }
    }
}
