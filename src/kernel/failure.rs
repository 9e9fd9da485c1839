//! Failure classes from a run's stderr and its timed-out flag.
//!
//! First rule wins: timed out -> H4; a missing-dependency phrase anywhere ->
//! H2; a missing-file or permission phrase anywhere -> H3; empty stderr ->
//! none; anything else -> H4. Phrases match case-insensitively with the
//! reference's Unicode rules (`İ`/`ı` match `i`, `ſ` matches `s`).
//!
//! [`FailureScanner`] takes stderr in chunks of any size, so the class
//! depends on the whole stream while memory stays a few bytes.

use super::names::str_enum;
use memchr::memmem;

str_enum! {
    /// A failure class.
    #[derive(Default)]
    FailureClass, "failure class" {
        /// Missing dependency.
        H2 => "H2",
        /// Missing file or permission.
        H3 => "H3",
        /// Timeout or runtime failure.
        H4 => "H4",
        /// No failure (empty stderr).
        #[default]
        None => "none",
    }
}

impl FailureClass {
    /// What the class means, for people.
    pub fn describe(self) -> &'static str {
        match self {
            FailureClass::H2 => "missing dependency",
            FailureClass::H3 => "missing file or permission",
            FailureClass::H4 => "timeout or runtime failure",
            FailureClass::None => "no failure",
        }
    }

    /// What the class means for one run that did or did not time out: a
    /// run that failed on its own is a runtime failure, not "timeout or
    /// runtime failure".
    pub fn describe_run(self, timed_out: bool) -> &'static str {
        match (self, timed_out) {
            (FailureClass::H4, true) => "timeout",
            (FailureClass::H4, false) => "runtime failure",
            (c, _) => c.describe(),
        }
    }
}

/// Missing-dependency phrases (H2), folded to lower case.
pub const H2_PHRASES: [&str; 4] = [
    "command not found",
    "not found:",
    "modulenotfounderror",
    "importerror",
];
/// Missing-file and permission phrases (H3), folded to lower case.
pub const H3_PHRASES: [&str; 3] = ["no such file or directory", "enoent", "permission denied"];

/// The phrases as the reference spells them, for messages.
const H2_DISPLAY: [&str; 4] = [
    "command not found",
    "not found:",
    "ModuleNotFoundError",
    "ImportError",
];
const H3_DISPLAY: [&str; 3] = ["No such file or directory", "ENOENT", "permission denied"];

const OVERLAP: usize = 24; // longest phrase length - 1

/// Streaming failure classifier.
pub struct FailureScanner {
    h2: Vec<memmem::Finder<'static>>,
    h3: Vec<memmem::Finder<'static>>,
    /// Folded text: the tail of the previous chunk, then the current one.
    window: Vec<u8>,
    /// A lead byte (0xC4 or 0xC5) waiting for its continuation byte.
    pending_lead: Option<u8>,
    total: u64,
    h2_phrase: Option<&'static str>,
    h3_phrase: Option<&'static str>,
}

impl Default for FailureScanner {
    fn default() -> Self {
        Self::new()
    }
}

impl FailureScanner {
    pub fn new() -> Self {
        FailureScanner {
            h2: H2_PHRASES
                .iter()
                .map(|p| memmem::Finder::new(p.as_bytes()))
                .collect(),
            h3: H3_PHRASES
                .iter()
                .map(|p| memmem::Finder::new(p.as_bytes()))
                .collect(),
            window: Vec::new(),
            pending_lead: None,
            total: 0,
            h2_phrase: None,
            h3_phrase: None,
        }
    }

    /// True once the class can no longer change (an H2 phrase was seen).
    pub fn decided(&self) -> bool {
        self.h2_phrase.is_some()
    }

    /// Feed the next chunk of stderr.
    pub fn feed(&mut self, chunk: &[u8]) {
        self.total += chunk.len() as u64;
        if self.decided() || chunk.is_empty() {
            return;
        }
        let keep = self.window.len().saturating_sub(OVERLAP);
        self.window.drain(..keep);
        self.window.reserve(chunk.len() + 1);
        for &b in chunk {
            if let Some(lead) = self.pending_lead.take() {
                match (lead, b) {
                    // İ (U+0130) and ı (U+0131) match `i`; ſ (U+017F) matches `s`.
                    (0xc4, 0xb0 | 0xb1) => {
                        self.window.push(b'i');
                        continue;
                    }
                    (0xc5, 0xbf) => {
                        self.window.push(b's');
                        continue;
                    }
                    _ => self.window.push(lead),
                }
            }
            if b == 0xc4 || b == 0xc5 {
                self.pending_lead = Some(b);
            } else {
                self.window.push(b.to_ascii_lowercase());
            }
        }
        let hay = &self.window[..];
        if let Some(i) = self.h2.iter().position(|f| f.find(hay).is_some()) {
            self.h2_phrase = Some(H2_DISPLAY[i]);
            return;
        }
        if self.h3_phrase.is_none() {
            if let Some(i) = self.h3.iter().position(|f| f.find(hay).is_some()) {
                self.h3_phrase = Some(H3_DISPLAY[i]);
            }
        }
    }

    /// The class of everything fed, and the phrase that decided it.
    pub fn finish(&self, timed_out: bool) -> (FailureClass, Option<&'static str>) {
        if timed_out {
            (FailureClass::H4, None)
        } else if let Some(p) = self.h2_phrase {
            (FailureClass::H2, Some(p))
        } else if let Some(p) = self.h3_phrase {
            (FailureClass::H3, Some(p))
        } else if self.total == 0 {
            (FailureClass::None, None)
        } else {
            (FailureClass::H4, None)
        }
    }
}

/// Classify a whole stderr buffer.
pub fn classify_run_failure(stderr: &[u8], timed_out: bool) -> FailureClass {
    let mut scanner = FailureScanner::new();
    scanner.feed(stderr);
    scanner.finish(timed_out).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unicode_case_rules() {
        assert_eq!(
            classify_run_failure("İmportError".as_bytes(), false),
            FailureClass::H2
        );
        assert_eq!(
            classify_run_failure("ımportError".as_bytes(), false),
            FailureClass::H2
        );
        assert_eq!(
            classify_run_failure("Permiſſion denied".as_bytes(), false),
            FailureClass::H3
        );
        assert_eq!(
            classify_run_failure("MöduleNötFöundErrör".as_bytes(), false),
            FailureClass::H4
        );
        assert_eq!(
            classify_run_failure("not\u{a0}found:".as_bytes(), false),
            FailureClass::H4
        );
    }

    #[test]
    fn phrases_split_across_chunks_are_found() {
        let text = "xx İmportError: ſomething";
        let bytes = text.as_bytes();
        for cut in 0..=bytes.len() {
            let mut s = FailureScanner::new();
            s.feed(&bytes[..cut]);
            s.feed(&bytes[cut..]);
            assert_eq!(s.finish(false).0, FailureClass::H2, "cut at {cut}");
        }
        let long = format!("{}No such file{}", "a".repeat(100), " or directory");
        for cut in 0..long.len() {
            let mut s = FailureScanner::new();
            s.feed(&long.as_bytes()[..cut]);
            s.feed(&long.as_bytes()[cut..]);
            assert_eq!(s.finish(false).0, FailureClass::H3, "cut at {cut}");
        }
    }

    #[test]
    fn invalid_utf8_is_tolerated() {
        assert_eq!(
            classify_run_failure(&[0xff, 0xc4, 0xc5, 0xc4], false),
            FailureClass::H4
        );
        assert_eq!(
            classify_run_failure(b"\xc4import\xc4error", false),
            FailureClass::H4
        );
        assert_eq!(
            classify_run_failure(b"\xc4importerror", false),
            FailureClass::H2
        );
    }

    #[test]
    fn a_run_that_did_not_time_out_is_a_runtime_failure() {
        assert_eq!(FailureClass::H4.describe_run(false), "runtime failure");
        assert_eq!(FailureClass::H4.describe_run(true), "timeout");
        assert_eq!(FailureClass::H2.describe_run(false), "missing dependency");
    }
}
