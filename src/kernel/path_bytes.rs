//! Paths are bytes: git and Unix allow any byte but `/` and NUL in a name,
//! UTF-8 or not. arx carries a path as a `String` that holds those bytes
//! losslessly: valid UTF-8 as it is, and each byte that is not part of
//! valid UTF-8 as one character of a private-use range
//! (U+10FF80–U+10FFFF, the byte's value above U+10FF00), as Python's
//! `surrogateescape` does with surrogates. A character of that range
//! written in a path is carried byte by byte the same way, so every byte
//! string has exactly one carrier and comes back unchanged.
//!
//! Git and the file system are given the bytes ([`to_bytes`]); a human
//! view shows each such byte as `\xNN` (see `text::visible`).

use std::borrow::Cow;

/// The first character of the carrier range (byte 0x80).
const FIRST: u32 = 0x10FF80;
/// Carrier characters are this plus the byte they stand for.
const BASE: u32 = 0x10FF00;

/// The byte `c` carries, when it is a carrier character.
pub fn carried(c: char) -> Option<u8> {
    let v = c as u32;
    (v >= FIRST).then(|| (v - BASE) as u8)
}

fn carrier(byte: u8) -> char {
    char::from_u32(BASE + byte as u32).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The carrier of the path `bytes`; borrowed when it is plain UTF-8.
pub fn from_bytes(bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        if !text.chars().any(|c| carried(c).is_some()) {
            return Cow::Borrowed(text);
        }
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if carried(c).is_some() {
                let mut buf = [0u8; 4];
                for &b in c.encode_utf8(&mut buf).as_bytes() {
                    out.push(carrier(b));
                }
            } else {
                out.push(c);
            }
        }
        for &b in chunk.invalid() {
            out.push(carrier(b));
        }
    }
    Cow::Owned(out)
}

/// The bytes of the path `text` carries; borrowed when it carries none.
pub fn to_bytes(text: &str) -> Cow<'_, [u8]> {
    if !text.chars().any(|c| carried(c).is_some()) {
        return Cow::Borrowed(text.as_bytes());
    }
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        match carried(c) {
            Some(b) => out.push(b),
            None => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_string_comes_back_unchanged() {
        let cases: [&[u8]; 6] = [
            b"plain/path.txt",
            b"d\xe9j\xe0.csv",
            b"notes_\xe9\xff.txt",
            "caf\u{e9}/\u{10ff80}x".as_bytes(),
            b"\x80\xbf\xc3",
            b"",
        ];
        for bytes in cases {
            let text = from_bytes(bytes);
            assert_eq!(to_bytes(&text).as_ref(), bytes, "{text:?}");
        }
        assert!(matches!(from_bytes(b"a/b"), Cow::Borrowed(_)));
        assert_eq!(from_bytes(b"d\xe9j").chars().count(), 3);
        assert_eq!(
            carried(from_bytes(b"\xe9").chars().next().unwrap()),
            Some(0xe9)
        );
    }
}
