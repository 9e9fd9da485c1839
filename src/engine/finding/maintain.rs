//! One maintenance pass over the store, in a fixed order: reinforcement,
//! decay, contradiction audit, mutation, resolution, then the safety check
//! that refuses a pass deprecating too much at once.

use jiff::Timestamp;
use serde::Serialize;

use super::index::Index;
use super::{parse_time, Finding, Status, MAX_CLUSTER, MAX_DEPTH, REINFORCE_SIMILARITY};

/// Decay per hour: confidence × `DECAY_RATE ^ hours` since the last pass
/// (a half-life of about 5.8 days).
pub const DECAY_RATE: f64 = 0.995;
/// An active finding whose confidence falls below this is decaying.
pub const DECAYING_BELOW: f64 = 0.3;
/// A decaying finding whose confidence falls below this is deprecated.
pub const DEPRECATED_BELOW: f64 = 0.1;
/// A finding never reinforced (use_count 0) and older than this many days
/// is deprecated.
pub const UNUSED_DAYS: i64 = 30;
/// Mutation: a finding with at least this tension ...
pub const MUTATE_TENSION: f64 = 0.6;
/// ... and confidence below this is mutated into a weaker claim.
pub const MUTATE_BELOW_CONFIDENCE: f64 = 0.5;
/// The confidence a mutated finding starts at.
pub const MUTATION_CONFIDENCE: f64 = 0.5;
/// Resolution: a contradiction scoring at least this ...
pub const RESOLVE_SCORE: f64 = 0.7;
/// ... between two findings both at least this confident ...
pub const RESOLVE_MIN_CONFIDENCE: f64 = 0.6;
/// ... deprecates the less confident one when they differ by more than this.
pub const RESOLVE_GAP: f64 = 0.3;
/// A pass that would deprecate more than this share of the live findings is
/// refused (unless forced).
pub const MAX_DEPRECATED_SHARE: f64 = 0.3;
/// Pairs less similar than this are not audited: their contradiction score
/// would stay below it, far under the mutation and resolution thresholds.
pub const AUDIT_MIN_SIMILARITY: f64 = 0.3;

/// What a pass changed in one finding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    pub id: String,
    /// reinforced, decaying, deprecated, contradiction, mutated, resolved.
    pub what: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other: Option<String>,
    pub detail: String,
}

/// The result of a pass.
#[derive(Debug, Clone, Serialize)]
pub struct Pass {
    /// The store after the pass (unchanged when refused).
    #[serde(skip)]
    pub findings: Vec<Finding>,
    pub changes: Vec<Change>,
    pub reinforced: usize,
    pub decayed: usize,
    pub contradictions: usize,
    pub mutated: usize,
    pub resolved: usize,
    pub deprecated: usize,
    /// Live (not deprecated) findings before the pass.
    pub live_before: usize,
    /// Why the pass was refused (nothing is written).
    pub refused: Option<String>,
    pub warnings: Vec<String>,
}

fn hours_between(from: Option<Timestamp>, to: Timestamp) -> f64 {
    from.map_or(0.0, |f| {
        ((to.as_second() - f.as_second()) as f64 / 3600.0).max(0.0)
    })
}

/// One maintenance pass at `now`. With `force`, a pass past the safety
/// limit is applied anyway (and says so).
pub fn maintain(store: Vec<Finding>, now: Timestamp, force: bool) -> Pass {
    let original = store.clone();
    let live_before = store.iter().filter(|f| f.is_live()).count();
    let mut w = Work::new(store, now);
    let reinforced = w.reinforce();
    let decayed = w.decay();
    let pairs = w.audit();
    let contradictions = pairs.len();
    let (mutated, children) = w.mutate();
    let resolved = w.resolve(&pairs);
    w.fs.extend(children);
    let mut warnings = w.cluster_warnings();
    let Work { fs, changes, .. } = w;
    let (deprecated, refused) = safety(&original, &fs, live_before, force, &mut warnings);
    Pass {
        findings: if refused.is_some() { original } else { fs },
        changes,
        reinforced,
        decayed,
        contradictions,
        mutated,
        resolved,
        deprecated,
        live_before,
        refused,
        warnings,
    }
}

/// A pass under way: the store, its index, the time and the changes so
/// far. Each step of the pass is a method.
struct Work {
    fs: Vec<Finding>,
    ix: Index,
    scratch: Vec<f32>,
    hits: Vec<(usize, f64)>,
    now: Timestamp,
    at: String,
    changes: Vec<Change>,
}

impl Work {
    fn new(fs: Vec<Finding>, now: Timestamp) -> Work {
        let ix = Index::build(fs.iter().map(|f| f.content.as_str()));
        Work {
            scratch: vec![0.0f32; ix.len()],
            hits: Vec::new(),
            ix,
            fs,
            now,
            at: now.to_string(),
            changes: Vec::new(),
        }
    }

    /// 1. Reinforcement: what was added since the last pass reinforces the
    ///    older live findings it agrees with. Returns how many were.
    fn reinforce(&mut self) -> usize {
        let fs = &mut self.fs;
        let (ix, now) = (&self.ix, self.now);
        let mut reinforced = 0;
        let pending: Vec<usize> = (0..fs.len()).filter(|&i| fs[i].pending).collect();
        for &p in &pending {
            if !fs[p].is_live() {
                continue;
            }
            self.hits.clear();
            let v = ix.doc_vector(p).clone();
            ix.query_into(&v, REINFORCE_SIMILARITY, &mut self.scratch, &mut self.hits);
            for &(j, sim) in &self.hits {
                if j == p || fs[j].pending || !fs[j].is_live() || sim <= REINFORCE_SIMILARITY {
                    continue;
                }
                if ix.negation(p, j) > 0.0 {
                    continue;
                }
                let by = fs[p].id.clone();
                if fs[j].reinforce(
                    now,
                    Some(&by),
                    &format!("similar ({sim:.2}) to a new finding"),
                ) {
                    reinforced += 1;
                    self.changes.push(Change {
                        id: fs[j].id.clone(),
                        what: "reinforced".into(),
                        other: Some(by),
                        detail: format!(
                            "similarity {sim:.2} to a new finding; confidence {:.3}",
                            fs[j].confidence
                        ),
                    });
                }
            }
        }
        for f in fs.iter_mut() {
            f.pending = false;
        }
        reinforced
    }

    /// 2. Decay, and the unused. Returns how many findings decayed.
    fn decay(&mut self) -> usize {
        let (now, at) = (self.now, &self.at);
        let mut decayed = 0;
        for f in self.fs.iter_mut().filter(|f| f.is_live()) {
            let since = f
                .decayed_at
                .as_deref()
                .and_then(parse_time)
                .or_else(|| parse_time(&f.last_reinforced));
            let hours = hours_between(since, now);
            if hours > 0.0 {
                f.confidence *= DECAY_RATE.powf(hours);
                f.decayed_at = Some(at.clone());
                f.updated_at = at.clone();
                decayed += 1;
            }
            let old = f.status;
            let (status, why) = decayed_status(f, now);
            if status != old {
                f.status = status;
                f.updated_at = at.clone();
                f.note(at, status.as_str(), None, why.clone());
                self.changes.push(Change {
                    id: f.id.clone(),
                    what: status.as_str().into(),
                    other: None,
                    detail: why,
                });
            }
        }
        decayed
    }

    /// 3. Contradiction audit: tension is the strongest contradiction
    ///    score of a live finding against another live one. Returns the
    ///    contradicting pairs with their scores.
    fn audit(&mut self) -> Vec<(usize, usize, f64)> {
        let fs = &mut self.fs;
        let before: Vec<f64> = fs.iter().map(|f| f.tension).collect();
        for f in fs.iter_mut() {
            f.tension = 0.0;
        }
        let mut strongest: Vec<Option<(usize, f64)>> = vec![None; fs.len()];
        let mut pairs: Vec<(usize, usize, f64)> = Vec::new();
        for i in 0..fs.len() {
            if !fs[i].is_live() {
                continue;
            }
            let ix = &self.ix;
            ix.neighbours(i, AUDIT_MIN_SIMILARITY, &mut self.scratch, &mut self.hits);
            for &(j, sim) in &self.hits {
                if !fs[j].is_live() {
                    continue;
                }
                let score = sim * ix.negation(i, j);
                if score <= 0.0 {
                    continue;
                }
                pairs.push((i, j, score));
                for (a, b) in [(i, j), (j, i)] {
                    if score > fs[a].tension {
                        fs[a].tension = score;
                        strongest[a] = Some((b, score));
                    }
                }
            }
        }
        let at = &self.at;
        for i in 0..fs.len() {
            if let Some((j, score)) = strongest[i] {
                if score > before[i] + 0.01 {
                    let other = fs[j].id.clone();
                    let detail = format!("tension {:.2} -> {score:.2}", before[i]);
                    fs[i].note(at, "contradicted", Some(&other), detail.clone());
                    fs[i].updated_at = at.clone();
                    self.changes.push(Change {
                        id: fs[i].id.clone(),
                        what: "contradiction".into(),
                        other: Some(other),
                        detail,
                    });
                }
            }
            if (fs[i].tension - before[i]).abs() > 1e-9 {
                fs[i].updated_at = at.clone();
            }
        }
        pairs
    }

    /// 4. Mutation of contested, weakly held findings into weaker claims.
    ///    Returns how many were, and the new findings (added after the
    ///    resolution).
    fn mutate(&mut self) -> (usize, Vec<Finding>) {
        let (now, at) = (self.now, &self.at);
        let mut mutated = 0;
        let existing: std::collections::HashSet<String> =
            self.fs.iter().map(|f| f.id.clone()).collect();
        let mut children = Vec::new();
        for f in self.fs.iter_mut() {
            if !f.is_live()
                || f.tension < MUTATE_TENSION
                || f.confidence >= MUTATE_BELOW_CONFIDENCE
                || f.depth >= MAX_DEPTH
            {
                continue;
            }
            let Some((strategy, content)) = mutate_content(f, now) else {
                continue;
            };
            let mut child =
                Finding::new(f.kind, &content, f.source.clone(), MUTATION_CONFIDENCE, at);
            if existing.contains(&child.id) {
                continue;
            }
            child.parent_id = Some(f.id.clone());
            child.depth = f.depth + 1;
            child.tags = f.tags.clone();
            child.pending = false;
            child.note(
                at,
                "mutated",
                Some(&f.id),
                format!("{strategy} of its parent"),
            );
            f.status = Status::Deprecated;
            f.updated_at = at.clone();
            f.note(
                at,
                "mutated",
                Some(&child.id),
                format!(
                    "tension {:.2}, confidence {:.3}: replaced by a {strategy}",
                    f.tension, f.confidence
                ),
            );
            self.changes.push(Change {
                id: f.id.clone(),
                what: "mutated".into(),
                other: Some(child.id.clone()),
                detail: format!("{strategy}: {}", child.content),
            });
            mutated += 1;
            children.push(child);
        }
        (mutated, children)
    }

    /// 5. Resolution of strong contradictions between confident findings.
    ///    Returns how many were resolved.
    fn resolve(&mut self, pairs: &[(usize, usize, f64)]) -> usize {
        let (fs, at) = (&mut self.fs, &self.at);
        let mut resolved = 0;
        for &(i, j, score) in pairs {
            if score < RESOLVE_SCORE || !fs[i].is_live() || !fs[j].is_live() {
                continue;
            }
            let (ci, cj) = (fs[i].confidence, fs[j].confidence);
            if ci < RESOLVE_MIN_CONFIDENCE
                || cj < RESOLVE_MIN_CONFIDENCE
                || (ci - cj).abs() <= RESOLVE_GAP + 1e-9
            {
                continue;
            }
            let (loser, winner) = if ci < cj { (i, j) } else { (j, i) };
            let wid = fs[winner].id.clone();
            let detail = format!(
                "contradiction {score:.2} with a finding held at {:.3} against {:.3}",
                fs[winner].confidence, fs[loser].confidence
            );
            let l = &mut fs[loser];
            l.status = Status::Deprecated;
            l.updated_at = at.clone();
            l.note(at, "resolved", Some(&wid), detail.clone());
            self.changes.push(Change {
                id: l.id.clone(),
                what: "resolved".into(),
                other: Some(wid),
                detail,
            });
            resolved += 1;
        }
        resolved
    }

    /// Clusters: a warning for each strongest term more than
    /// [`MAX_CLUSTER`] live findings share.
    fn cluster_warnings(&self) -> Vec<String> {
        let ix = &self.ix;
        let mut clusters: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
        for (d, f) in self.fs.iter().enumerate().take(ix.len()) {
            if f.is_live() {
                if let Some(t) = ix.top_term(d) {
                    *clusters.entry(t).or_default() += 1;
                }
            }
        }
        let mut warnings = Vec::new();
        for (t, n) in clusters {
            if n > MAX_CLUSTER {
                warnings.push(format!(
                    "{n} live findings cluster on the term {:?} (more than {MAX_CLUSTER}): consider merging them",
                    ix.term_name(t)
                ));
            }
        }
        warnings
    }
}

/// The status a live finding's confidence and age give it at `now`, and
/// why (empty when it keeps its own).
fn decayed_status(f: &Finding, now: Timestamp) -> (Status, String) {
    let age_days = hours_between(parse_time(&f.created_at), now) / 24.0;
    if f.confidence < DEPRECATED_BELOW {
        (
            Status::Deprecated,
            format!("confidence {:.3} below {DEPRECATED_BELOW}", f.confidence),
        )
    } else if f.use_count == 0 && age_days > UNUSED_DAYS as f64 {
        (
            Status::Deprecated,
            format!("never reinforced in {age_days:.0} days (over {UNUSED_DAYS})"),
        )
    } else if f.confidence < DECAYING_BELOW {
        (
            Status::Decaying,
            format!("confidence {:.3} below {DECAYING_BELOW}", f.confidence),
        )
    } else {
        (f.status, String::new())
    }
}

/// 6. Safety: how many live findings the pass deprecates, and why it is
///    refused when that is too many (a warning instead with `force`).
fn safety(
    original: &[Finding],
    fs: &[Finding],
    live_before: usize,
    force: bool,
    warnings: &mut Vec<String>,
) -> (usize, Option<String>) {
    let deprecated = original
        .iter()
        .zip(fs)
        .filter(|(o, n)| o.is_live() && !n.is_live())
        .count();
    let mut refused = None;
    if live_before > 0 && deprecated as f64 > MAX_DEPRECATED_SHARE * live_before as f64 {
        let why = format!(
            "the pass would deprecate {deprecated} of {live_before} live findings ({:.0}%, more than {:.0}%)",
            100.0 * deprecated as f64 / live_before as f64,
            100.0 * MAX_DEPRECATED_SHARE
        );
        if force {
            warnings.push(format!("{why}; applied because of --force"));
        } else {
            refused = Some(why);
        }
    }
    (deprecated, refused)
}

/// Scope words narrowed by a mutation (whole words, lowercase).
const NARROWINGS: &[(&str, &str)] = &[
    ("always", "usually"),
    ("all", "most"),
    ("every", "most"),
    ("guarantees", "tends to give"),
    ("definitely", "probably"),
];
const HEDGE: &str = "It may be that ";
const CONDITION: &str = ", at least as of ";
const ATTRIBUTION: &str = "According to ";

/// The weaker claim a contested finding becomes, and the strategy's name:
/// scope narrowing when it has a sweeping word, else a hedge, else a
/// condition on the date, else an attribution to its source.
pub fn mutate_content(f: &Finding, now: Timestamp) -> Option<(&'static str, String)> {
    let c = f.content.trim();
    for (from, to) in NARROWINGS {
        if let Some(n) = replace_word(c, from, to) {
            return Some(("scope narrowing", n));
        }
    }
    if !c.starts_with(HEDGE) && !c.starts_with(ATTRIBUTION) {
        let mut chars = c.chars();
        let first = chars.next()?;
        let rest: String =
            if first.is_uppercase() && !chars.clone().next().is_some_and(char::is_uppercase) {
                first.to_lowercase().chain(chars).collect()
            } else {
                c.to_string()
            };
        return Some(("hedge", format!("{HEDGE}{rest}")));
    }
    if !c.contains(CONDITION) {
        let date = now.strftime("%Y-%m-%d");
        let body = c.trim_end_matches(['.', '!']);
        return Some(("condition", format!("{body}{CONDITION}{date}")));
    }
    if !c.starts_with(ATTRIBUTION) {
        let who = f
            .source
            .clone()
            .unwrap_or_else(|| "an earlier finding".into());
        return Some(("source attribution", format!("{ATTRIBUTION}{who}, {c}")));
    }
    None
}

/// `text` with the first whole-word, case-insensitive `from` replaced by `to`.
fn replace_word(text: &str, from: &str, to: &str) -> Option<String> {
    let lower = text.to_lowercase();
    if lower.len() != text.len() {
        return None;
    }
    let mut start = 0;
    while let Some(pos) = lower[start..].find(from) {
        let i = start + pos;
        let j = i + from.len();
        let before_ok = lower[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let after_ok = lower[j..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric());
        if before_ok && after_ok {
            return Some(format!("{}{}{}", &text[..i], to, &text[j..]));
        }
        start = j;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::{Finding, Kind};
    use super::*;

    const T0: &str = "2026-01-01T00:00:00Z";

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    fn f(content: &str, confidence: f64) -> Finding {
        let mut f = Finding::new(Kind::Takeaway, content, None, confidence, T0);
        f.pending = false;
        f.use_count = 1;
        f
    }

    fn filler(n: usize) -> Vec<Finding> {
        let topics = [
            "tokenizer",
            "dropout",
            "warmup",
            "optimizer",
            "eval",
            "dataset",
            "scheduler",
            "kernel",
            "cache",
            "embedding",
            "attention",
            "gradient",
            "checkpoint",
            "sampler",
            "shuffle",
        ];
        (0..n)
            .map(|i| {
                f(
                    &format!(
                        "{} setting {i} changes throughput",
                        topics[i % topics.len()]
                    ),
                    0.9,
                )
            })
            .collect()
    }

    #[test]
    fn decay_follows_the_hourly_rate_and_thresholds() {
        assert_eq!(DECAY_RATE, 0.995);
        let mut store = filler(10);
        store.push(f("the eval leaks labels into training", 0.8));
        let pass = maintain(store, ts("2026-01-01T10:00:00Z"), false);
        let got = pass.findings[10].confidence;
        assert!((got - 0.8 * 0.995f64.powi(10)).abs() < 1e-9, "{got}");
        assert_eq!(pass.findings[10].status, Status::Active);

        // 0.31 for an hour: 0.3085 stays active; 0.301 falls below 0.3.
        let mut store = filler(10);
        store.push(f("alpha beta gamma", 0.31));
        store.push(f("delta epsilon zeta", 0.3014));
        let pass = maintain(store, ts("2026-01-01T01:00:00Z"), false);
        assert_eq!(pass.findings[10].status, Status::Active);
        assert_eq!(pass.findings[11].status, Status::Decaying);
        assert_eq!(DECAYING_BELOW, 0.3);

        let mut store = filler(10);
        let mut d = f("eta theta iota", 0.1004);
        d.status = Status::Decaying;
        store.push(d);
        let mut e = f("kappa lambda mu", 0.1006);
        e.status = Status::Decaying;
        store.push(e);
        let pass = maintain(store, ts("2026-01-01T01:00:00Z"), false);
        assert_eq!(pass.findings[10].status, Status::Deprecated);
        assert_eq!(pass.findings[11].status, Status::Decaying);
        assert_eq!(DEPRECATED_BELOW, 0.1);
    }

    #[test]
    fn unused_findings_older_than_30_days_are_deprecated() {
        assert_eq!(UNUSED_DAYS, 30);
        let mut store = filler(20);
        for x in &mut store {
            x.use_count = 1;
            x.confidence = 0.95;
        }
        let mut old = f("nu xi omicron", 0.95);
        old.use_count = 0;
        let mut used = f("pi rho sigma", 0.95);
        used.use_count = 1;
        store.push(old.clone());
        store.push(used);
        // No decay in this test: only the age counts.
        for x in &mut store {
            x.decayed_at = Some("2026-02-01T00:00:00Z".into());
        }
        // 30 days and one minute: deprecated; 29 days 23 h: kept.
        let pass = maintain(store.clone(), ts("2026-01-31T00:01:00Z"), true);
        assert_eq!(pass.findings[20].status, Status::Deprecated);
        assert_ne!(pass.findings[21].status, Status::Deprecated);
        let pass = maintain(store, ts("2026-01-30T23:00:00Z"), true);
        assert_ne!(pass.findings[20].status, Status::Deprecated);
    }

    #[test]
    fn pending_findings_reinforce_similar_older_ones_above_07() {
        assert_eq!(REINFORCE_SIMILARITY, 0.7);
        let mut store = filler(10);
        store.push(f("doubling the learning rate made val_bpb worse", 0.5));
        let mut new = f("doubling the learning rate made val_bpb much worse", 0.5);
        new.pending = true;
        store.push(new);
        store.push(f("doubling the learning rate made val_bpb better", 0.5));
        let now = ts("2026-01-01T01:00:00Z");
        let pass = maintain(store, now, true);
        // Reinforced after the hour's decay: 0.5 × 0.995 + 0.1.
        assert!((pass.findings[10].confidence - (0.5 * 0.995 + 0.1)).abs() < 1e-9);
        // The contradicting one is not reinforced, only decayed.
        assert!((pass.findings[12].confidence - 0.5 * 0.995).abs() < 1e-9);
        assert!(pass.findings.iter().all(|f| !f.pending));
    }

    #[test]
    fn tension_is_the_strongest_contradiction_score() {
        let mut store = filler(10);
        store.push(f("batch size 64 always improves accuracy", 0.9));
        store.push(f("batch size 64 never improves accuracy", 0.9));
        let pass = maintain(store, ts(T0), false);
        let a = &pass.findings[10];
        let b = &pass.findings[11];
        assert!(a.tension > 0.9, "{}", a.tension);
        assert_eq!(a.tension, b.tension);
        assert_eq!(pass.findings[0].tension, 0.0);
        assert_eq!(pass.contradictions, 1);
    }

    #[test]
    fn mutation_needs_tension_06_and_confidence_below_05() {
        assert_eq!(MUTATE_TENSION, 0.6);
        assert_eq!(MUTATE_BELOW_CONFIDENCE, 0.5);
        assert_eq!(MUTATION_CONFIDENCE, 0.5);
        let mut store = filler(20);
        store.push(f("batch size 64 always improves accuracy", 0.49));
        store.push(f("batch size 64 never improves accuracy", 0.5));
        let pass = maintain(store, ts(T0), false);
        assert_eq!(pass.mutated, 1);
        let child = pass.findings.last().unwrap();
        assert_eq!(child.content, "batch size 64 usually improves accuracy");
        assert_eq!(
            child.parent_id.as_deref(),
            Some(pass.findings[20].id.as_str())
        );
        assert_eq!(child.confidence, 0.5);
        assert_eq!(child.depth, 1);
        assert_eq!(pass.findings[20].status, Status::Deprecated);
        assert_eq!(pass.findings[21].status, Status::Active);
    }

    #[test]
    fn mutation_stops_at_depth_5() {
        assert_eq!(MAX_DEPTH, 5);
        for (depth, expect) in [(4, 1), (5, 0)] {
            let mut store = filler(20);
            let mut g = f("warmup helps the loss", 0.4);
            g.depth = depth;
            store.push(g);
            store.push(f("warmup does not help the loss", 0.45));
            let pass = maintain(store, ts(T0), false);
            let mutated_first = pass
                .changes
                .iter()
                .filter(|c| c.what == "mutated" && c.id == pass.findings[20].id)
                .count();
            assert_eq!(mutated_first, expect, "depth {depth}");
        }
    }

    #[test]
    fn mutation_strategies_in_order() {
        let now = ts("2026-03-04T00:00:00Z");
        let mut g = f("Warmup helps the loss", 0.4);
        assert_eq!(
            mutate_content(&g, now).unwrap(),
            ("hedge", "It may be that warmup helps the loss".into())
        );
        g.content = "It may be that warmup helps the loss.".into();
        assert_eq!(
            mutate_content(&g, now).unwrap(),
            (
                "condition",
                "It may be that warmup helps the loss, at least as of 2026-03-04".into()
            )
        );
        g.content = "It may be that warmup helps, at least as of 2026-03-04".into();
        g.source = Some("run:0193".into());
        assert_eq!(mutate_content(&g, now).unwrap().0, "source attribution");
        g.content = "All runs diverge".into();
        assert_eq!(mutate_content(&g, now).unwrap().1, "most runs diverge");
    }

    #[test]
    fn resolution_deprecates_the_clearly_weaker_of_two_confident_findings() {
        assert_eq!(RESOLVE_SCORE, 0.7);
        assert_eq!(RESOLVE_MIN_CONFIDENCE, 0.6);
        assert_eq!(RESOLVE_GAP, 0.3);
        let run = |a: f64, b: f64| {
            let mut store = filler(20);
            store.push(f("batch size 64 always improves accuracy", a));
            store.push(f("batch size 64 never improves accuracy", b));
            let pass = maintain(store, ts(T0), false);
            (pass.findings[20].status, pass.findings[21].status)
        };
        assert_eq!(run(0.95, 0.64), (Status::Active, Status::Deprecated));
        // Gap exactly 0.3 or less: both stay.
        assert_eq!(run(0.9, 0.6), (Status::Active, Status::Active));
        // The weaker below 0.6: no resolution.
        assert_eq!(run(0.95, 0.59).1, Status::Active);
    }

    #[test]
    fn a_pass_deprecating_more_than_30_percent_is_refused() {
        assert_eq!(MAX_DEPRECATED_SHARE, 0.3);
        // 10 live findings; k of them fall below 0.1.
        for (k, refused) in [(3, false), (4, true)] {
            let mut store = filler(10);
            for x in store.iter_mut().take(k) {
                x.confidence = 0.05;
            }
            let pass = maintain(store.clone(), ts(T0), false);
            assert_eq!(pass.refused.is_some(), refused, "k={k}");
            if refused {
                assert_eq!(pass.findings, store);
                let forced = maintain(store, ts(T0), true);
                assert!(forced.refused.is_none());
                assert_eq!(forced.deprecated, k);
            }
        }
    }
}

#[cfg(test)]
mod cluster_tests {
    use super::super::{Finding, Kind, MAX_CLUSTER};
    use super::*;

    #[test]
    fn more_than_500_findings_on_one_term_warn() {
        assert_eq!(MAX_CLUSTER, 500);
        let now: Timestamp = "2026-01-01T00:00:00Z".parse().unwrap();
        for (n, warns) in [(500, false), (501, true)] {
            let store: Vec<Finding> = (0..n)
                .map(|_| {
                    let mut f = Finding::new(
                        Kind::Insight,
                        "zebra stripes",
                        None,
                        0.9,
                        "2026-01-01T00:00:00Z",
                    );
                    f.pending = false;
                    f.use_count = 1;
                    f
                })
                .collect();
            let pass = maintain(store, now, false);
            let warned = pass.warnings.iter().any(|w| w.contains("cluster"));
            assert_eq!(warned, warns, "{n}: {:?}", pass.warnings);
        }
    }
}
