//! The text encoding of an output, told by its byte-order mark: UTF-8
//! (with or without a mark) is passed through, UTF-16 with a mark (what
//! Windows PowerShell's `>` writes) is turned into UTF-8 on the way, chunk
//! by chunk, so every reader sees the same text whatever wrote it.
//!
//! A chunk may end anywhere: in the mark, between the two bytes of a code
//! unit, or between the two halves of a surrogate pair. A unit that is not
//! part of a valid pair becomes U+FFFD, as does a last odd byte.

use std::fmt;

use serde::Serialize;

/// What a byte-order mark said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Encoding {
    /// No mark: read as UTF-8.
    Utf8,
    /// UTF-8 behind the mark EF BB BF (dropped).
    Utf8Bom,
    /// UTF-16, little-endian (mark FF FE).
    Utf16Le,
    /// UTF-16, big-endian (mark FE FF).
    Utf16Be,
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Utf8Bom => "UTF-8 with a byte-order mark",
            Encoding::Utf16Le => "UTF-16LE",
            Encoding::Utf16Be => "UTF-16BE",
        })
    }
}

const UTF8_BOM: &[u8] = &[0xef, 0xbb, 0xbf];
const LE_BOM: &[u8] = &[0xff, 0xfe];
const BE_BOM: &[u8] = &[0xfe, 0xff];

/// Turns a stream's chunks into UTF-8, after its byte-order mark.
#[derive(Debug, Default)]
pub struct TextDecoder {
    /// The first bytes, while they may still be a mark.
    head: Vec<u8>,
    encoding: Option<Encoding>,
    /// UTF-16: the first byte of a unit split by a chunk's end.
    odd: Option<u8>,
    /// UTF-16: a high surrogate waiting for its low half.
    high: Option<u16>,
}

impl TextDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    /// The encoding, once the mark (or its absence) is known.
    pub fn encoding(&self) -> Option<Encoding> {
        self.encoding
    }

    /// The UTF-8 text of the next chunk: `chunk` itself when it needs no
    /// change, else its text in `scratch`.
    pub fn feed<'a>(&mut self, chunk: &'a [u8], scratch: &'a mut Vec<u8>) -> &'a [u8] {
        scratch.clear();
        let rest = match self.encoding {
            Some(_) => chunk,
            None => {
                let take = chunk.len().min(3 - self.head.len());
                self.head.extend_from_slice(&chunk[..take]);
                let Some(encoding) = sniff(&self.head) else {
                    return &[];
                };
                self.encoding = Some(encoding);
                let head = std::mem::take(&mut self.head);
                let skip = match encoding {
                    Encoding::Utf8 => 0,
                    Encoding::Utf8Bom => 3,
                    Encoding::Utf16Le | Encoding::Utf16Be => 2,
                };
                if encoding == Encoding::Utf8 && head.len() == take {
                    // Nothing was held back from an earlier chunk.
                    return chunk;
                }
                self.push(&head[skip..], scratch);
                self.push(&chunk[take..], scratch);
                return scratch;
            }
        };
        match self.encoding {
            Some(Encoding::Utf8 | Encoding::Utf8Bom) => rest,
            _ => {
                self.push(rest, scratch);
                scratch
            }
        }
    }

    /// The end of the stream: what was still held back.
    pub fn finish(&mut self, scratch: &mut Vec<u8>) {
        scratch.clear();
        if self.encoding.is_none() {
            // Too short to be a mark.
            self.encoding = Some(Encoding::Utf8);
            scratch.append(&mut self.head);
            return;
        }
        if self.odd.take().is_some() || self.high.take().is_some() {
            push_char(scratch, char::REPLACEMENT_CHARACTER);
        }
    }

    fn push(&mut self, bytes: &[u8], out: &mut Vec<u8>) {
        let big = match self.encoding {
            Some(Encoding::Utf16Le) => false,
            Some(Encoding::Utf16Be) => true,
            _ => return out.extend_from_slice(bytes),
        };
        out.reserve(bytes.len() + bytes.len() / 2);
        let mut bytes = bytes;
        if let Some(first) = self.odd.take() {
            let Some((&second, rest)) = bytes.split_first() else {
                self.odd = Some(first);
                return;
            };
            self.unit(unit(big, first, second), out);
            bytes = rest;
        }
        let mut pairs = bytes.chunks_exact(2);
        for pair in &mut pairs {
            self.unit(unit(big, pair[0], pair[1]), out);
        }
        self.odd = pairs.remainder().first().copied();
    }

    fn unit(&mut self, u: u16, out: &mut Vec<u8>) {
        if let Some(high) = self.high.take() {
            if (0xdc00..0xe000).contains(&u) {
                let c = 0x10000 + ((u32::from(high) - 0xd800) << 10) + (u32::from(u) - 0xdc00);
                push_char(
                    out,
                    char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER),
                );
                return;
            }
            push_char(out, char::REPLACEMENT_CHARACTER);
        }
        if (0xd800..0xdc00).contains(&u) {
            self.high = Some(u);
            return;
        }
        push_char(
            out,
            char::from_u32(u32::from(u)).unwrap_or(char::REPLACEMENT_CHARACTER),
        );
    }
}

fn unit(big: bool, a: u8, b: u8) -> u16 {
    if big {
        u16::from_be_bytes([a, b])
    } else {
        u16::from_le_bytes([a, b])
    }
}

fn push_char(out: &mut Vec<u8>, c: char) {
    let mut buf = [0u8; 4];
    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
}

/// The encoding the first bytes tell; `None` while they may still be a mark.
fn sniff(head: &[u8]) -> Option<Encoding> {
    for (mark, encoding) in [
        (UTF8_BOM, Encoding::Utf8Bom),
        (LE_BOM, Encoding::Utf16Le),
        (BE_BOM, Encoding::Utf16Be),
    ] {
        if head.starts_with(mark) {
            return Some(encoding);
        }
        if mark.starts_with(head) {
            return None;
        }
    }
    Some(Encoding::Utf8)
}

/// A whole text's UTF-8 and its encoding (convenience over [`TextDecoder`]).
pub fn decode_text(bytes: &[u8]) -> (Vec<u8>, Encoding) {
    let mut decoder = TextDecoder::new();
    let mut scratch = Vec::new();
    let mut out = decoder.feed(bytes, &mut scratch).to_vec();
    decoder.finish(&mut scratch);
    out.extend_from_slice(&scratch);
    (out, decoder.encoding().unwrap_or(Encoding::Utf8))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(text: &str, big: bool) -> Vec<u8> {
        let mut out = if big {
            BE_BOM.to_vec()
        } else {
            LE_BOM.to_vec()
        };
        for u in text.encode_utf16() {
            out.extend_from_slice(&if big {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            });
        }
        out
    }

    fn in_chunks(bytes: &[u8], cuts: &[usize]) -> (Vec<u8>, Option<Encoding>) {
        let mut d = TextDecoder::new();
        let mut scratch = Vec::new();
        let mut out = Vec::new();
        let mut from = 0;
        for &cut in cuts.iter().chain(std::iter::once(&bytes.len())) {
            out.extend_from_slice(d.feed(&bytes[from..cut], &mut scratch));
            from = cut;
        }
        d.finish(&mut scratch);
        out.extend_from_slice(&scratch);
        (out, d.encoding())
    }

    #[test]
    fn every_encoding_at_every_split_reads_the_same_text() {
        let text = "x\r\n__RESULT__ {\"a\": 1} é 😀\n";
        let cases = [
            (text.as_bytes().to_vec(), Encoding::Utf8),
            ([UTF8_BOM, text.as_bytes()].concat(), Encoding::Utf8Bom),
            (utf16(text, false), Encoding::Utf16Le),
            (utf16(text, true), Encoding::Utf16Be),
        ];
        for (bytes, encoding) in cases {
            for a in 0..=bytes.len() {
                for b in a..=bytes.len().min(a + 5) {
                    let (out, got) = in_chunks(&bytes, &[a, b]);
                    assert_eq!(
                        String::from_utf8(out).unwrap(),
                        text,
                        "{encoding:?} {a} {b}"
                    );
                    assert_eq!(got, Some(encoding));
                }
            }
        }
    }

    #[test]
    fn short_and_broken_inputs() {
        assert_eq!(decode_text(b""), (vec![], Encoding::Utf8));
        assert_eq!(
            decode_text(&[0xef, 0xbb]),
            (vec![0xef, 0xbb], Encoding::Utf8)
        );
        assert_eq!(
            decode_text(&[0xef, 0xbb, 0xbf]),
            (vec![], Encoding::Utf8Bom)
        );
        assert_eq!(
            decode_text(&[0xff, 0xfe, b'a', 0, b'b']).0,
            "a\u{fffd}".as_bytes()
        );
        // A lone surrogate.
        assert_eq!(
            decode_text(&[0xff, 0xfe, 0x3d, 0xd8, b'a', 0]).0,
            "\u{fffd}a".as_bytes()
        );
        // Not a mark: passed through as it is.
        assert_eq!(decode_text(&[0xfe, b'a']).0, vec![0xfe, b'a']);
    }
}
