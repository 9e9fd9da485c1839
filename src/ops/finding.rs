//! The findings store's steps shared by commands: recording a finding
//! (dedup, reinforcement, contradiction), the findings a try or a run adds
//! on its own, screening a candidate's description against what failed,
//! and drawing round evidence from the store.

use std::path::Path;

use anyhow::Result;
use jiff::Timestamp;
use serde::Serialize;

use crate::engine::finding::add::{add_all, Added};
use crate::engine::finding::index::Index;
use crate::engine::finding::rank::rank;
use crate::engine::finding::{Finding, Kind, Status, DEFAULT_CONFIDENCE, MAX_ACTIVE};
use crate::io::{findings, Warn};
use crate::kernel::journal::RunRecord;
use crate::kernel::number::fmt_number;
use crate::kernel::round::{select_evidence, Finding as EvidenceItem};
use crate::kernel::segment::TryStatus;
use crate::kernel::text::shown;
use crate::kernel::verdict::{EvidenceLevel, Verdict};

/// A finding that a recorded one contradicts.
#[derive(Debug, Clone, Serialize)]
pub struct Against {
    pub id: String,
    pub content: String,
    pub score: f64,
}

/// What recording one finding did.
#[derive(Debug, Clone, Serialize)]
pub struct Recorded {
    /// new, reinforced (the same finding was there), or unchanged (the same
    /// finding, reinforced less than a minute ago).
    pub outcome: &'static str,
    pub finding: Finding,
    /// Similarity to the stored finding it is the same as.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity: Option<f64>,
    pub contradicts: Vec<Against>,
}

/// Record `news` in the store at `now`, in order. Also returns a warning
/// when the store holds more than [`MAX_ACTIVE`] active findings.
pub fn record(
    state: &Path,
    news: Vec<Finding>,
    now: Timestamp,
    warn: Warn,
) -> Result<(Vec<Recorded>, Option<String>)> {
    findings::update(state, warn, |mut store| {
        let (outcomes, contradictions) = add_all(&mut store, news, now);
        let recorded = outcomes
            .iter()
            .map(|o| {
                let i = o.index();
                let (outcome, similarity) = match o {
                    Added::New { .. } => ("new", None),
                    Added::Same {
                        similarity,
                        reinforced,
                        ..
                    } => (
                        if *reinforced {
                            "reinforced"
                        } else {
                            "unchanged"
                        },
                        Some(*similarity),
                    ),
                };
                let contradicts = contradictions
                    .iter()
                    .filter(|c| c.new == i && matches!(o, Added::New { .. }))
                    .map(|c| Against {
                        id: store[c.old].id.clone(),
                        content: store[c.old].content.clone(),
                        score: c.score,
                    })
                    .collect();
                Recorded {
                    outcome,
                    finding: store[i].clone(),
                    similarity,
                    contradicts,
                }
            })
            .collect();
        let active = store.iter().filter(|f| f.status == Status::Active).count();
        let warning = (active > MAX_ACTIVE).then(|| {
            format!(
                "the store holds {active} active findings (more than {MAX_ACTIVE}); run `arx finding maintain` and prune"
            )
        });
        Ok((Some(store), (recorded, warning)))
    })
}

/// A value to 3 significant digits, shortest form (`0.0047`).
fn sig3(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return fmt_number(x);
    }
    let m = 10f64.powi(2 - x.abs().log10().floor() as i32);
    fmt_number((x * m).round() / m)
}

/// The finding a try adds: for a keep, "`<description>` improved <metric>
/// by <gain>"; for a discard, "`<description>` did not improve <metric>
/// (<change>, worse within noise)", or "was not shown to improve" for a
/// change that was better. Other tries (baseline, crash, checks failed,
/// protected, interrupted) add none.
pub fn from_try(rec: &RunRecord, now: &str) -> Option<Finding> {
    let info = rec.ratchet.as_ref()?;
    let subject = match info.description.as_deref().map(str::trim) {
        Some(d) if !d.is_empty() => d.to_string(),
        _ if !info.paths.is_empty() => format!(
            "the change to {}",
            info.paths
                .iter()
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => return None,
    };
    let metric = &info.metric;
    // The same effect, in the same words, as the try's own line.
    let one: Vec<f64> = rec.metrics.get(metric).into_iter().collect();
    let samples = if rec.samples.is_empty() {
        &one
    } else {
        &rec.samples
    };
    let effect = crate::kernel::effect::of_try(info, samples)?;
    let change = effect.change?;
    let (content, tag, confidence) = match info.status {
        TryStatus::Keep => (
            format!("`{subject}` improved {metric} by {}", sig3(change.abs())),
            "keep",
            if info.confirmed {
                DEFAULT_CONFIDENCE
            } else {
                0.5
            },
        ),
        TryStatus::Discard => {
            let sign = if change >= 0.0 { "+" } else { "" };
            // "did not improve" only for a change that is not better: a
            // better one the rule could not confirm was not shown to.
            let verb = match effect.way(info.direction) {
                "better" => "was not shown to improve",
                _ => "did not improve",
            };
            (
                format!(
                    "`{subject}` {verb} {metric} ({sign}{}, {})",
                    sig3(change),
                    effect.told(info.direction)
                ),
                "discard",
                DEFAULT_CONFIDENCE,
            )
        }
        _ => return None,
    };
    let mut f = Finding::new(
        Kind::Takeaway,
        &content,
        Some(format!("run:{}", rec.run_id)),
        confidence,
        now,
    );
    f.tags = vec!["try".into(), tag.into(), metric.clone()];
    if tag == "discard" {
        f.tags.push("refuted".into());
    }
    Some(f)
}

/// The finding a deterministic `arx run` verdict adds: "`<hypothesis>`
/// holds (detail)" or "`<hypothesis>` does not hold (detail)"; the subject
/// is the hypothesis, else the named candidate. A run with neither adds
/// none: a command line is not a claim.
pub fn from_run(rec: &RunRecord, now: &str) -> Option<Finding> {
    let v = rec.verdict.as_ref()?;
    if v.evidence_level != EvidenceLevel::Deterministic || v.verdict == Verdict::Inconclusive {
        return None;
    }
    let subject = rec.hypothesis.clone().or_else(|| rec.candidate.clone())?;
    let subject = subject.trim();
    if subject.is_empty() {
        return None;
    }
    let (word, tag) = if v.verdict == Verdict::Supported {
        ("holds", "supported")
    } else {
        ("does not hold", "refuted")
    };
    // The verdict's own pass/fail word would read as a second polarity flip.
    let detail = v
        .detail
        .trim_end_matches(" \u{2192} pass")
        .trim_end_matches(" \u{2192} fail");
    let content: String = format!("`{subject}` {word} ({detail})")
        .chars()
        .take(crate::engine::finding::MAX_CONTENT_CHARS)
        .collect();
    let mut f = Finding::new(
        Kind::Takeaway,
        &content,
        Some(format!("run:{}", rec.run_id)),
        DEFAULT_CONFIDENCE,
        now,
    );
    f.tags = vec!["run".into(), tag.into()];
    Some(f)
}

/// Record the finding a try or a run adds (none for other records); a
/// line for stderr saying what happened.
pub fn record_result(
    state: &Path,
    rec: &RunRecord,
    now: Timestamp,
    warn: Warn,
) -> Result<Option<String>> {
    let at = now.to_string();
    let finding = if rec.ratchet.is_some() {
        from_try(rec, &at)
    } else {
        from_run(rec, &at)
    };
    let Some(finding) = finding else {
        return Ok(None);
    };
    let (recorded, _) = record(state, vec![finding], now, warn)?;
    let Some(r) = recorded.into_iter().next() else {
        return Ok(None);
    };
    let mut line = format!(
        "finding {} {}: {}",
        r.finding.id,
        r.outcome,
        shown(&r.finding.content)
    );
    for a in &r.contradicts {
        line.push_str(&format!(
            "\n  contradicts {} ({:.2}): {}",
            a.id,
            a.score,
            shown(&a.content)
        ));
    }
    Ok(Some(line))
}

/// A description matching something that failed.
#[derive(Debug, Clone, Serialize)]
pub struct DeadMatch {
    /// deprecated finding, refuted finding, or dead end.
    pub what: &'static str,
    /// The finding id or the dead end's approach hash.
    pub id: String,
    pub content: String,
    pub similarity: f64,
}

/// Least similarity between a description and the subject of a failed
/// finding (or a dead end's statement) for them to match.
pub const MATCH_SIMILARITY: f64 = 0.7;

/// The subject of a finding: its first backquoted part (the description of
/// a try, the hypothesis of a run), else the whole text.
pub fn subject(content: &str) -> &str {
    let mut parts = content.splitn(3, '`');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(_), Some(inner), Some(_)) if !inner.trim().is_empty() => inner,
        _ => content,
    }
}

/// The deprecated or refuted finding, or dead end, that `description`
/// matches best (similarity at least [`MATCH_SIMILARITY`]).
pub fn screen(state: &Path, description: &str, warn: Warn) -> Result<Option<DeadMatch>> {
    let store = findings::load_light(state, warn)?;
    let dead = crate::io::state::dead_ends(state, warn).read()?;
    let mut items: Vec<(&'static str, String, String)> = Vec::new();
    for f in &store {
        let refuted = f.tags.iter().any(|t| t == "refuted");
        if f.status == Status::Deprecated {
            items.push(("deprecated finding", f.id.clone(), f.content.clone()));
        } else if refuted {
            items.push(("refuted finding", f.id.clone(), f.content.clone()));
        }
    }
    for d in &dead {
        items.push(("dead end", d.approach_hash.clone(), d.statement.clone()));
    }
    if items.is_empty() {
        return Ok(None);
    }
    let ix = Index::build(items.iter().map(|(_, _, c)| subject(c)));
    let best = ix
        .query(description, MATCH_SIMILARITY)
        .into_iter()
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
    Ok(best.map(|(d, sim)| {
        let (what, id, content) = items[d].clone();
        DeadMatch {
            what,
            id,
            content,
            similarity: sim,
        }
    }))
}

/// Round evidence from the store's active findings: all of them in the
/// reference's selection order, or (with a context) those relevant to it,
/// best ranked first. Returns how many were available and the selection.
pub fn evidence(
    state: &Path,
    context: Option<&str>,
    now: Timestamp,
    min: usize,
    max: usize,
    warn: Warn,
) -> Result<(usize, Vec<EvidenceItem>)> {
    let store: Vec<Finding> = findings::load_light(state, warn)?
        .into_iter()
        .filter(|f| f.status == Status::Active)
        .collect();
    let item = |f: &Finding| EvidenceItem {
        kind: f.kind.as_str().to_string(),
        content: f.content.clone(),
        source: format!("finding:{}", f.id),
        created_at: f.created_at.clone(),
    };
    match context {
        None => {
            let pool: Vec<EvidenceItem> = store.iter().map(item).collect();
            Ok((pool.len(), select_evidence(&pool, min, max)))
        }
        Some(c) => {
            let ix = Index::build(store.iter().map(|f| f.content.as_str()));
            let ranked = rank(&store, &ix, c, now, usize::MAX);
            let n = ranked.len();
            if n < min {
                return Ok((n, Vec::new()));
            }
            Ok((
                n,
                ranked
                    .iter()
                    .take(max)
                    .map(|r| item(&store[r.index]))
                    .collect(),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: &str = "2026-01-01T00:00:00Z";

    fn quiet(_: &str) {}

    #[test]
    fn more_than_10000_active_findings_warn() {
        assert_eq!(MAX_ACTIVE, 10_000);
        let dir = tempfile::tempdir().unwrap();
        let now: Timestamp = NOW.parse().unwrap();
        // 9,999 stored; the 10,000th does not warn, the 10,001st does.
        let mut text = String::new();
        for i in 0..9_999 {
            let f = Finding::new(
                Kind::Insight,
                &format!("setting s{i} changes t{i}"),
                None,
                0.7,
                NOW,
            );
            text.push_str(&serde_json::to_string(&f).unwrap());
            text.push('\n');
        }
        std::fs::write(dir.path().join(findings::FINDINGS_FILE), text).unwrap();
        let one = |c: &str| vec![Finding::new(Kind::Insight, c, None, 0.7, NOW)];
        let (_, w) = record(dir.path(), one("the eval leaks labels"), now, quiet).unwrap();
        assert!(w.is_none());
        let (_, w) = record(dir.path(), one("warmup stabilizes the loss"), now, quiet).unwrap();
        assert!(w.unwrap().contains("10001 active findings"));
    }

    #[test]
    fn subjects_are_the_backquoted_part() {
        assert_eq!(subject("`lr 2x` did not improve val_bpb"), "lr 2x");
        assert_eq!(subject("plain text"), "plain text");
        assert_eq!(subject("an `unclosed quote"), "an `unclosed quote");
    }

    #[test]
    fn try_findings_use_the_metric_direction() {
        use crate::kernel::segment::RatchetInfo;
        let mut rec: RunRecord = serde_json::from_value(serde_json::json!({
            "run_id": "r1", "started_at": NOW, "ended_at": NOW, "duration_ms": 0,
            "command": ["x"], "cwd": ".", "metrics": {}, "exit_code": 0,
            "timed_out": false, "failure_class": "none", "samples": [1.0012]
        }))
        .unwrap();
        let info: RatchetInfo = serde_json::from_value(serde_json::json!({
            "segment": "s", "status": "discard", "description": "lr 2x",
            "metric": "val_bpb", "direction": "min", "kept": "abc",
            "best": 1.0, "improvement": -0.0012, "noise": 0.002
        }))
        .unwrap();
        rec.ratchet = Some(info);
        let f = from_try(&rec, NOW).unwrap();
        assert_eq!(
            f.content,
            "`lr 2x` did not improve val_bpb (+0.0012, worse within noise)"
        );
        assert!(f.tags.contains(&"refuted".to_string()));
        // A discard that was better, but not enough to keep, did improve
        // the value: it was not shown to.
        rec.samples = vec![0.9988];
        let f = from_try(&rec, NOW).unwrap();
        assert_eq!(
            f.content,
            "`lr 2x` was not shown to improve val_bpb (-0.0012, better within noise)"
        );
        rec.samples = vec![1.0012];
        let info = rec.ratchet.as_mut().unwrap();
        info.status = TryStatus::Keep;
        info.improvement = Some(0.0047);
        rec.samples = vec![0.9953];
        let f = from_try(&rec, NOW).unwrap();
        assert_eq!(f.content, "`lr 2x` improved val_bpb by 0.0047");
        let info = rec.ratchet.as_mut().unwrap();
        info.status = TryStatus::Crash;
        assert!(from_try(&rec, NOW).is_none());
    }
}
