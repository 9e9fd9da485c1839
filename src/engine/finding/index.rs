//! The similarity index: TF-IDF vectors over the store's vocabulary, an
//! inverted index from term to findings, and cosine similarity. Everything
//! that compares two findings goes through [`Index::similarity`] (or
//! [`Index::neighbours`] and [`Index::query`], which compute the same
//! measure for many at once), so a better measure can replace this one.
//!
//! Term weight: `(1 + ln tf) * idf`, `idf = ln((1 + N) / (1 + df)) + 1`
//! (smoothed: a term in every document still counts a little); vectors are
//! L2-normalized, so the cosine is a sparse dot product. Finding the
//! neighbours of a document walks the postings of its own terms only: the
//! cost is the sum of the postings' lengths, not the store's size squared.

use std::collections::HashMap;

use super::text::{analyze_with, negation_signal, Polarity, StemCache};

/// A normalized sparse vector: (term, weight), sorted by term.
pub type Vector = Vec<(u32, f32)>;

#[derive(Debug, Clone, Default)]
pub struct Index {
    vocab: HashMap<String, u32>,
    names: Vec<String>,
    df: Vec<u32>,
    vectors: Vec<Vector>,
    polarity: Vec<Polarity>,
    postings: Vec<Vec<(u32, f32)>>,
}

fn idf(n: usize, df: u32) -> f32 {
    (((1 + n) as f64 / (1.0 + f64::from(df))).ln() + 1.0) as f32
}

fn normalize(mut v: Vec<(u32, f32)>) -> Vector {
    v.sort_unstable_by_key(|&(t, _)| t);
    let norm = v.iter().map(|&(_, w)| w * w).sum::<f32>().sqrt();
    if norm > 0.0 {
        for (_, w) in &mut v {
            *w /= norm;
        }
    }
    v
}

impl Index {
    /// The index of `texts` (document i is `texts[i]`).
    pub fn build<'a>(texts: impl IntoIterator<Item = &'a str>) -> Index {
        let mut ix = Index::default();
        let mut raw: Vec<Vec<(u32, u32)>> = Vec::new();
        let mut cache = StemCache::default();
        for text in texts {
            let mut doc: Vec<(u32, u32)> = Vec::new();
            let pol = analyze_with(text, &mut cache, |t| {
                let id = match ix.vocab.get(t) {
                    Some(&id) => id,
                    None => {
                        let id = ix.names.len() as u32;
                        ix.vocab.insert(t.to_string(), id);
                        ix.names.push(t.to_string());
                        ix.df.push(0);
                        id
                    }
                };
                match doc.iter_mut().find(|(d, _)| *d == id) {
                    Some((_, c)) => *c += 1,
                    None => doc.push((id, 1)),
                }
            });
            for &(id, _) in &doc {
                ix.df[id as usize] += 1;
            }
            raw.push(doc);
            ix.polarity.push(pol);
        }
        let n = raw.len();
        ix.postings = vec![Vec::new(); ix.df.len()];
        for (d, doc) in raw.into_iter().enumerate() {
            let v = normalize(
                doc.into_iter()
                    .map(|(t, c)| (t, (1.0 + (c as f32).ln()) * idf(n, ix.df[t as usize])))
                    .collect(),
            );
            for &(t, w) in &v {
                ix.postings[t as usize].push((d as u32, w));
            }
            ix.vectors.push(v);
        }
        ix
    }

    pub fn len(&self) -> usize {
        self.vectors.len()
    }

    pub fn is_empty(&self) -> bool {
        self.vectors.is_empty()
    }

    /// The vector of a text that is not in the index, weighted by the
    /// index's document frequencies (a term the store lacks counts as
    /// rare; it cannot match anything, but it dilutes the others).
    pub fn vector(&self, text: &str) -> (Vector, Vec<u32>) {
        let n = self.len();
        let mut cache = StemCache::default();
        let mut tf: Vec<(u32, u32)> = Vec::new();
        let mut unknown: Vec<(String, u32)> = Vec::new();
        analyze_with(text, &mut cache, |t| match self.vocab.get(t) {
            Some(&id) => match tf.iter_mut().find(|(d, _)| *d == id) {
                Some((_, c)) => *c += 1,
                None => tf.push((id, 1)),
            },
            None => match unknown.iter_mut().find(|(u, _)| u == t) {
                Some((_, c)) => *c += 1,
                None => unknown.push((t.to_string(), 1)),
            },
        });
        let weight = |c: u32, df: u32| (1.0 + (c as f32).ln()) * idf(n, df);
        let mut v: Vec<(u32, f32)> = tf
            .iter()
            .map(|&(id, c)| (id, weight(c, self.df[id as usize])))
            .collect();
        // A term the store lacks counts as rare: it cannot match anything,
        // but it dilutes the others. Placeholder ids no document holds.
        let ids: Vec<u32> = (0..unknown.len() as u32).map(|i| u32::MAX - i).collect();
        v.extend(
            ids.iter()
                .zip(&unknown)
                .map(|(&id, (_, c))| (id, weight(*c, 0))),
        );
        (normalize(v), ids)
    }

    /// The vector of document `d`.
    pub fn doc_vector(&self, d: usize) -> &Vector {
        &self.vectors[d]
    }

    /// The heaviest term of document `d`.
    pub fn top_term(&self, d: usize) -> Option<u32> {
        self.vectors[d]
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
            .map(|&(t, _)| t)
    }

    /// The stem a term id stands for.
    pub fn term_name(&self, t: u32) -> &str {
        self.names.get(t as usize).map_or("", String::as_str)
    }

    /// Cosine similarity of documents `a` and `b`, in [0, 1].
    pub fn similarity(&self, a: usize, b: usize) -> f64 {
        dot(&self.vectors[a], &self.vectors[b])
    }

    /// The negation signal between documents `a` and `b` (0 or 1).
    pub fn negation(&self, a: usize, b: usize) -> f64 {
        negation_signal(&self.polarity[a], &self.polarity[b])
    }

    /// The polarity of document `d`.
    pub fn polarity(&self, d: usize) -> &Polarity {
        &self.polarity[d]
    }

    /// Documents at least `min` similar to the vector `v` (with their
    /// similarity), through the postings of its terms only. `scratch` must
    /// hold `len()` zeros and is left so.
    pub fn query_into(
        &self,
        v: &Vector,
        min: f64,
        scratch: &mut [f32],
        out: &mut Vec<(usize, f64)>,
    ) {
        let mut touched: Vec<u32> = Vec::new();
        for &(t, w) in v {
            let Some(list) = self.postings.get(t as usize) else {
                continue;
            };
            for &(d, wd) in list {
                let slot = &mut scratch[d as usize];
                if *slot == 0.0 {
                    touched.push(d);
                }
                *slot += w * wd;
            }
        }
        for d in touched {
            let s = f64::from(scratch[d as usize]).min(1.0);
            scratch[d as usize] = 0.0;
            if s >= min {
                out.push((d as usize, s));
            }
        }
    }

    /// Documents at least `min` similar to `text`.
    pub fn query(&self, text: &str, min: f64) -> Vec<(usize, f64)> {
        let (v, _) = self.vector(text);
        let mut scratch = vec![0.0f32; self.len()];
        let mut out = Vec::new();
        self.query_into(&v, min, &mut scratch, &mut out);
        out
    }

    /// Documents after `d` (by index) at least `min` similar to it.
    pub fn neighbours(&self, d: usize, min: f64, scratch: &mut [f32], out: &mut Vec<(usize, f64)>) {
        out.clear();
        self.query_into(&self.vectors[d], min, scratch, out);
        out.retain(|&(e, _)| e > d);
    }
}

fn dot(a: &Vector, b: &Vector) -> f64 {
    let (mut i, mut j, mut s) = (0, 0, 0.0f32);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                s += a[i].1 * b[j].1;
                i += 1;
                j += 1;
            }
        }
    }
    f64::from(s).clamp(0.0, 1.0)
}

/// Similarity of a vector and a document.
pub fn similarity_to(ix: &Index, v: &Vector, d: usize) -> f64 {
    dot(v, &ix.vectors[d])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_texts_are_fully_similar_and_unrelated_ones_not() {
        let ix = Index::build([
            "batch size 64 improves accuracy",
            "Batch size 64 improves accuracy!",
            "the eval leaks test labels",
        ]);
        assert!((ix.similarity(0, 1) - 1.0).abs() < 1e-6);
        assert_eq!(ix.similarity(0, 2), 0.0);
    }

    #[test]
    fn neighbours_agree_with_pairwise_similarity() {
        let texts = [
            "doubling the learning rate made val_bpb worse",
            "a higher learning rate made val_bpb worse",
            "warmup of 500 steps helps the learning rate schedule",
            "batch size 64 improves accuracy",
        ];
        let ix = Index::build(texts);
        let mut scratch = vec![0.0; ix.len()];
        let mut out = Vec::new();
        for d in 0..ix.len() {
            ix.neighbours(d, 0.0, &mut scratch, &mut out);
            for e in d + 1..ix.len() {
                let got = out.iter().find(|&&(x, _)| x == e).map_or(0.0, |&(_, s)| s);
                assert!((got - ix.similarity(d, e)).abs() < 1e-5);
            }
            assert!(scratch.iter().all(|&x| x == 0.0));
        }
    }

    #[test]
    fn a_query_matches_through_the_postings() {
        let ix = Index::build(["batch size 64 improves accuracy", "the eval leaks"]);
        let hits = ix.query("does batch size matter for accuracy", 0.1);
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].0, 0);
    }
}
