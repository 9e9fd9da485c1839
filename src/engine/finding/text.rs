//! Tokenization for the findings' lexical similarity: Unicode-aware
//! lowercasing, punctuation stripped, a small stop-word list, Snowball
//! (Porter 2) stemming; and the polarity of a statement (negation words and
//! antonym pairs) for the contradiction audit.

use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};

/// Words that carry no content for similarity: function words, and the
/// hedges and quantifiers a mutation adds or swaps ("always" -> "usually"),
/// so a mutated finding stays close to its parent.
pub const STOP_WORDS: &[&str] = &[
    "a",
    "an",
    "the",
    "and",
    "or",
    "but",
    "if",
    "then",
    "so",
    "of",
    "to",
    "in",
    "on",
    "at",
    "by",
    "for",
    "from",
    "with",
    "as",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "being",
    "am",
    "it",
    "its",
    "this",
    "that",
    "these",
    "those",
    "there",
    "here",
    "we",
    "i",
    "you",
    "he",
    "she",
    "they",
    "our",
    "my",
    "your",
    "their",
    "them",
    "us",
    "me",
    "do",
    "does",
    "did",
    "doing",
    "has",
    "have",
    "had",
    "will",
    "would",
    "should",
    "could",
    "can",
    "may",
    "might",
    "must",
    "shall",
    "than",
    "also",
    "just",
    "very",
    "too",
    "which",
    "who",
    "what",
    "when",
    "where",
    "how",
    "why",
    "into",
    "about",
    "while",
    "again",
    "always",
    "usually",
    "often",
    "sometimes",
    "rarely",
    "seldom",
    "generally",
    "typically",
    "all",
    "every",
    "most",
    "some",
    "many",
    "few",
    "least",
    "according",
    "seems",
    "seem",
    "likely",
    "perhaps",
    "maybe",
    "probably",
    "possibly",
    "least",
    "make",
    "makes",
    "made",
    "get",
    "gets",
    "got",
    "really",
    "still",
    "any",
    "each",
    "only",
    "one",
    "same",
    "such",
    "both",
    "either",
];

/// Words that negate a statement. `n't` contractions count too.
pub const NEGATION_WORDS: &[&str] = &[
    "not", "no", "never", "none", "nothing", "neither", "nor", "cannot", "without", "nobody",
    "nowhere", "hardly",
];

/// Opposite pairs: one side in each of two similar statements (and not
/// both in one) flips their polarity. Compared after stemming.
pub const ANTONYM_PAIRS: &[(&str, &str)] = &[
    ("improve", "worsen"),
    ("improve", "degrade"),
    ("improve", "regress"),
    ("help", "hurt"),
    ("help", "harm"),
    ("better", "worse"),
    ("best", "worst"),
    ("increase", "decrease"),
    ("increase", "reduce"),
    ("higher", "lower"),
    ("high", "low"),
    ("faster", "slower"),
    ("fast", "slow"),
    ("more", "less"),
    ("larger", "smaller"),
    ("bigger", "smaller"),
    ("gain", "loss"),
    ("up", "down"),
    ("raise", "lower"),
    ("rise", "fall"),
    ("success", "failure"),
    ("succeed", "fail"),
    ("pass", "fail"),
    ("stable", "unstable"),
    ("good", "bad"),
    ("true", "false"),
    ("positive", "negative"),
    ("correct", "incorrect"),
    ("enable", "disable"),
    ("accept", "reject"),
    ("win", "lose"),
    ("above", "below"),
    ("strong", "weak"),
    ("safe", "unsafe"),
    ("valid", "invalid"),
    ("converge", "diverge"),
    ("include", "exclude"),
    ("add", "remove"),
    ("fix", "break"),
    ("speed", "slow"),
    ("efficient", "inefficient"),
    ("significant", "insignificant"),
    ("useful", "useless"),
    ("keep", "discard"),
    ("leak", "isolate"),
];

fn stemmer() -> &'static Stemmer {
    static S: OnceLock<Stemmer> = OnceLock::new();
    S.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// The lowercased words of `text`: runs of letters, digits and `_`, with a
/// `.` kept between digits (`0.0047`) and apostrophes kept inside words
/// (`doesn't`); everything else is a separator.
pub fn words(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let chars: Vec<char> = lower.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        let keep = c.is_alphanumeric()
            || c == '_'
            || (c == '.'
                && prev.is_some_and(|p| p.is_ascii_digit())
                && next.is_some_and(|n| n.is_ascii_digit()))
            || ((c == '\'' || c == '\u{2019}')
                && prev.is_some_and(char::is_alphanumeric)
                && next.is_some_and(char::is_alphanumeric));
        if keep {
            cur.push(if c == '\u{2019}' { '\'' } else { c });
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Is `word` (lowercased) a negation?
pub fn is_negation(word: &str) -> bool {
    NEGATION_WORDS.contains(&word) || word.ends_with("n't")
}

/// The stem of a lowercased word.
pub fn stem(word: &str) -> String {
    stemmer().stem(word).into_owned()
}

/// The content terms of `text`: its words without stop words and negations,
/// stemmed; possessive `'s` dropped.
pub fn terms(text: &str) -> Vec<String> {
    words(text)
        .into_iter()
        .filter(|w| !is_negation(w))
        .map(|w| w.strip_suffix("'s").map(str::to_string).unwrap_or(w))
        .filter(|w| !STOP_WORDS.contains(&w.as_str()))
        .map(|w| stem(&w))
        .collect()
}

/// What one distinct word contributes, worked out once per index build
/// (words repeat across findings).
#[derive(Debug, Clone)]
struct WordInfo {
    /// Its stem, when it is a content word.
    term: Option<String>,
    negation: bool,
    first: u64,
    second: u64,
}

/// The analysis of each distinct word seen, memoized across the texts of
/// one index build.
#[derive(Debug, Default)]
pub struct StemCache {
    index: std::collections::HashMap<String, usize>,
    infos: Vec<WordInfo>,
}

impl StemCache {
    fn info(&mut self, w: &str) -> &WordInfo {
        if let Some(&i) = self.index.get(w) {
            return &self.infos[i];
        }
        let negation = is_negation(w);
        let (mut first, mut second) = (0u64, 0u64);
        let mut term = None;
        if !negation {
            let full = stem(w);
            for (k, (a, b)) in antonym_stems().iter().enumerate() {
                if &full == a {
                    first |= 1 << k;
                }
                if &full == b {
                    second |= 1 << k;
                }
            }
            let bare = w.strip_suffix("'s").unwrap_or(w);
            if !STOP_WORDS.contains(&bare) {
                term = Some(if bare.len() == w.len() {
                    full
                } else {
                    stem(bare)
                });
            }
        }
        self.index.insert(w.to_string(), self.infos.len());
        self.infos.push(WordInfo {
            term,
            negation,
            first,
            second,
        });
        self.infos.last().expect("just pushed")
    }
}

/// The content terms of `text` (each passed to `term`, in order) and its
/// polarity, in one pass over its words: the same as [`terms`] and
/// [`polarity`].
pub fn analyze_with(text: &str, cache: &mut StemCache, mut term: impl FnMut(&str)) -> Polarity {
    let mut p = Polarity::default();
    let mut negations = 0;
    for w in words(text) {
        let info = cache.info(&w);
        if info.negation {
            negations += 1;
            continue;
        }
        p.first |= info.first;
        p.second |= info.second;
        if let Some(t) = &info.term {
            term(t);
        }
    }
    p.negated = negations % 2 == 1;
    p
}

/// [`analyze_with`], collecting the terms.
pub fn analyze(text: &str, cache: &mut StemCache) -> (Vec<String>, Polarity) {
    let mut out = Vec::new();
    let p = analyze_with(text, cache, |t| out.push(t.to_string()));
    (out, p)
}

/// The polarity of a statement: whether it is negated (an odd number of
/// negation words) and which side of each antonym pair it holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Polarity {
    pub negated: bool,
    /// Bit k: holds the first word of antonym pair k.
    pub first: u64,
    /// Bit k: holds the second word of antonym pair k.
    pub second: u64,
}

fn antonym_stems() -> &'static Vec<(String, String)> {
    static A: OnceLock<Vec<(String, String)>> = OnceLock::new();
    A.get_or_init(|| {
        ANTONYM_PAIRS
            .iter()
            .map(|(a, b)| (stem(a), stem(b)))
            .collect()
    })
}

/// The polarity of `text`.
pub fn polarity(text: &str) -> Polarity {
    let ws = words(text);
    let negations = ws.iter().filter(|w| is_negation(w)).count();
    let stems: Vec<String> = ws.iter().map(|w| stem(w)).collect();
    let mut p = Polarity {
        negated: negations % 2 == 1,
        ..Polarity::default()
    };
    for (k, (a, b)) in antonym_stems().iter().enumerate() {
        if stems.iter().any(|s| s == a) {
            p.first |= 1 << k;
        }
        if stems.iter().any(|s| s == b) {
            p.second |= 1 << k;
        }
    }
    p
}

/// The negation signal between two statements: 1 when they disagree in
/// polarity (a negation on one side only, or one side of an antonym pair
/// in each, an odd number of such flips in all), else 0. Two flips cancel:
/// "X hurts" and "X does not help" agree.
pub fn negation_signal(a: &Polarity, b: &Polarity) -> f64 {
    let only_a_first = a.first & !a.second;
    let only_a_second = a.second & !a.first;
    let only_b_first = b.first & !b.second;
    let only_b_second = b.second & !b.first;
    let flips = ((only_a_first & only_b_second) | (only_a_second & only_b_first)).count_ones()
        + u32::from(a.negated != b.negated);
    if flips % 2 == 1 {
        1.0
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_lowercase_unicode_and_strip_punctuation() {
        assert_eq!(
            words("Größe: ÉTÉ, val_bpb=0.0047; doesn't!"),
            vec!["größe", "été", "val_bpb", "0.0047", "doesn't"]
        );
        assert_eq!(words("end. Next"), vec!["end", "next"]);
    }

    #[test]
    fn terms_drop_stop_words_and_stem() {
        assert_eq!(
            terms("The batch sizes always improved the accuracy"),
            vec!["batch", "size", "improv", "accuraci"]
        );
        assert!(terms("it is not that").is_empty());
    }

    #[test]
    fn analyze_agrees_with_terms_and_polarity() {
        let mut cache = StemCache::default();
        for t in [
            "The batch sizes always improved the accuracy",
            "X doesn't help; it hurts the model's loss",
            "never better, not worse",
        ] {
            assert_eq!(analyze(t, &mut cache), (terms(t), polarity(t)), "{t}");
        }
    }

    #[test]
    fn negation_and_antonyms_flip_polarity() {
        let p = |t: &str| polarity(t);
        assert_eq!(negation_signal(&p("X helps"), &p("X does not help")), 1.0);
        assert_eq!(negation_signal(&p("X helps"), &p("X hurts")), 1.0);
        assert_eq!(negation_signal(&p("X hurts"), &p("X does not help")), 0.0);
        assert_eq!(negation_signal(&p("X helps"), &p("X really helps")), 0.0);
        assert_eq!(
            negation_signal(
                &p("batch 64 always improves"),
                &p("batch 64 never improves")
            ),
            1.0
        );
    }
}
