//! The backlog of ideas (`.arx/ideas.jsonl`) as data: its lines
//! ([`IdeaLine`]), the rules a statement, a family and an id follow, and the
//! fold of the lines, the journal's tries and the tries running now into
//! one [`Idea`] per id with its [`IdeaStatus`].
//!
//! The file is append-only: an idea is added once (`add`) and may be dropped
//! later (`drop`); what became of it is read from the journal, whose try
//! records name the idea they tested ([`IdeaTry::of`]). Two working trees or
//! branches that add ideas at once each append their own lines with ids
//! drawn at random, and git merges the file as a union: [`fold`] takes the
//! lines in any order, once or twice, and gives the same backlog.
//!
//! What a ranking needs of an idea is here: [`Idea::status`] (open, in
//! flight in a lane, tried with the outcome of each try, dropped),
//! [`Idea::family`], [`Idea::tries`] with the parent each was measured
//! against, and the retry link ([`Idea::retry_of`], [`Idea::because`]).

use std::collections::{BTreeMap, HashSet};

use serde::{Deserialize, Serialize};

use super::journal::RunRecord;
use super::ratchet_record::TryStatus;

pub use super::ratchet_record::UNSORTED;

/// The longest statement, in bytes.
pub const MAX_STATEMENT_BYTES: usize = 4096;

/// The longest family name, in characters.
pub const MAX_FAMILY_CHARS: usize = 40;

/// The longest reason of a retry or a drop, in bytes.
pub const MAX_REASON_BYTES: usize = 4096;

/// The prefix of every idea id (`i-` and ten hex digits: `i-3f9a2c71e0`).
pub const ID_PREFIX: &str = "i-";

/// One line of the backlog file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum IdeaLine {
    /// An idea added (`arx idea add`, or the ad-hoc idea of `arx try -m
    /// TEXT --family F`).
    Add(IdeaAdded),
    /// An idea dropped (`arx idea drop`): no longer proposed, its tries kept.
    Drop(IdeaDropped),
}

impl IdeaLine {
    /// The id of the idea the line is about.
    pub fn id(&self) -> &str {
        match self {
            IdeaLine::Add(a) => &a.id,
            IdeaLine::Drop(d) => &d.id,
        }
    }
}

/// An `add` line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IdeaAdded {
    /// `i-` and ten hex digits, drawn at random ([`id_from`]).
    pub id: String,
    /// When it was added (RFC 3339).
    pub at: String,
    /// What the idea is: one change, in words.
    pub statement: String,
    /// Its family: a plain word ([`check_family`]); [`UNSORTED`] when none
    /// was given and no idea with one resembles it.
    pub family: String,
    /// The family was not given but taken from the most similar idea.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub family_guessed: bool,
    /// A retry: the idea it tries again (`--retry ID`) ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_of: Option<String>,
    /// ... and what changed since it was discarded (`--because TEXT`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub because: Option<String>,
    /// Added by a try (`arx try -m TEXT --family F`), with the try.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ad_hoc: bool,
}

/// A `drop` line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IdeaDropped {
    pub id: String,
    /// When it was dropped (RFC 3339).
    pub at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A try of an idea, as the journal holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IdeaTry {
    pub run_id: String,
    /// How it ended (`keep`, `discard`, `crash`, ...).
    pub status: TryStatus,
    /// The commit it was measured against ([`crate::kernel::ratchet_record::RatchetInfo::parent_commit`]).
    pub parent: String,
    /// Candidate minus best, positive = better, when measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub improvement: Option<f64>,
    /// The lane it ran in, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lane: Option<String>,
    pub started_at: String,
    /// The objective's segment.
    pub segment: String,
}

impl IdeaTry {
    /// The idea a journal record tried and the try, when the record is a
    /// try (not a baseline or a measurement of the best) that names one.
    pub fn of(record: &RunRecord) -> Option<(&str, IdeaTry)> {
        let r = record.ratchet.as_ref()?;
        let idea = r.idea.as_deref()?;
        if matches!(r.status, TryStatus::Baseline | TryStatus::Remeasure) {
            return None;
        }
        Some((
            idea,
            IdeaTry {
                run_id: record.run_id.clone(),
                status: r.status,
                parent: r.parent_commit().to_string(),
                improvement: r.improvement,
                lane: r.lane.clone(),
                started_at: record.started_at.clone(),
                segment: r.segment.clone(),
            },
        ))
    }
}

/// A try running now that names an idea (its working tree's try lock
/// says so while the try holds it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InFlight {
    pub idea: String,
    /// The lane it runs in (`None`: the main working tree).
    #[serde(default)]
    pub lane: Option<String>,
    /// When the try started (RFC 3339).
    pub since: String,
}

/// What became of an idea, most telling first: dropped, then in flight,
/// then tried, else open.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum IdeaStatus {
    /// Not tried, not running, not dropped.
    Open,
    /// A try of it runs now, in the lane named (`None`: the main working tree).
    InFlight { lane: Option<String> },
    /// Tried; `last` is how its last try ended.
    Tried { last: TryStatus },
    /// Dropped (`arx idea drop`).
    Dropped,
}

impl IdeaStatus {
    /// One word: `open`, `in_flight`, `tried`, `dropped`.
    pub fn word(&self) -> &'static str {
        match self {
            IdeaStatus::Open => "open",
            IdeaStatus::InFlight { .. } => "in_flight",
            IdeaStatus::Tried { .. } => "tried",
            IdeaStatus::Dropped => "dropped",
        }
    }
}

/// One idea of the backlog, folded.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Idea {
    pub id: String,
    pub statement: String,
    pub family: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub family_guessed: bool,
    pub added_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_of: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub because: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ad_hoc: bool,
    /// Its tries, in the journal's order.
    pub tries: Vec<IdeaTry>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped: Option<IdeaDropped>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_flight: Option<InFlight>,
}

impl Idea {
    fn from_added(a: IdeaAdded) -> Idea {
        Idea {
            id: a.id,
            statement: a.statement,
            family: a.family,
            family_guessed: a.family_guessed,
            added_at: a.at,
            retry_of: a.retry_of,
            because: a.because,
            ad_hoc: a.ad_hoc,
            tries: Vec::new(),
            dropped: None,
            in_flight: None,
        }
    }

    /// What became of it.
    pub fn status(&self) -> IdeaStatus {
        if self.dropped.is_some() {
            IdeaStatus::Dropped
        } else if let Some(f) = &self.in_flight {
            IdeaStatus::InFlight {
                lane: f.lane.clone(),
            }
        } else if let Some(t) = self.tries.last() {
            IdeaStatus::Tried { last: t.status }
        } else {
            IdeaStatus::Open
        }
    }

    /// Open: neither tried, running nor dropped.
    pub fn is_open(&self) -> bool {
        self.status() == IdeaStatus::Open
    }

    /// Was it kept at least once?
    pub fn kept(&self) -> bool {
        self.tries.iter().any(|t| t.status == TryStatus::Keep)
    }

    /// Its tries that ended as `status` at `parent`.
    pub fn tries_at<'a>(
        &'a self,
        parent: &'a str,
        status: TryStatus,
    ) -> impl Iterator<Item = &'a IdeaTry> + 'a {
        self.tries
            .iter()
            .filter(move |t| t.parent == parent && t.status == status)
    }
}

/// The backlog: every idea once, oldest first, and what did not fold.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Backlog {
    pub ideas: Vec<Idea>,
    /// Lines that could not be applied: a second idea under an id taken by
    /// another (told, then left out: the first added wins), a drop of an
    /// unknown id. Messages for warnings.
    #[serde(skip)]
    pub conflicts: Vec<String>,
}

/// Why [`Backlog::find`] found nothing.
#[derive(Debug, Clone, PartialEq)]
pub enum FindError {
    /// No idea has this id (or id prefix).
    Unknown,
    /// Several ideas start with this prefix.
    Ambiguous(Vec<String>),
}

impl Backlog {
    /// The idea with this id, or the one whose id starts with it (with or
    /// without `i-`).
    pub fn find(&self, id: &str) -> Result<&Idea, FindError> {
        let id = id.trim();
        if let Some(i) = self.ideas.iter().find(|i| i.id == id) {
            return Ok(i);
        }
        let wanted = if id.starts_with(ID_PREFIX) {
            id.to_string()
        } else {
            format!("{ID_PREFIX}{id}")
        };
        if id.is_empty() || wanted.len() <= ID_PREFIX.len() {
            return Err(FindError::Unknown);
        }
        let hits: Vec<&Idea> = self
            .ideas
            .iter()
            .filter(|i| i.id.starts_with(&wanted))
            .collect();
        match hits.as_slice() {
            [one] => Ok(one),
            [] => Err(FindError::Unknown),
            many => Err(FindError::Ambiguous(
                many.iter().map(|i| i.id.clone()).collect(),
            )),
        }
    }

    /// The ideas that are open.
    pub fn open(&self) -> impl Iterator<Item = &Idea> {
        self.ideas.iter().filter(|i| i.is_open())
    }

    /// The families of the backlog, sorted, once each.
    pub fn families(&self) -> Vec<&str> {
        let mut f: Vec<&str> = self.ideas.iter().map(|i| i.family.as_str()).collect();
        f.sort_unstable();
        f.dedup();
        f
    }
}

/// Fold the backlog's lines (any order, duplicates allowed: a union merge
/// may repeat or interleave them), the journal's tries of ideas
/// ([`IdeaTry::of`], in the journal's order) and the tries running now
/// into the backlog. A try of an id the backlog does not hold is left out.
pub fn fold<'a>(
    lines: impl IntoIterator<Item = IdeaLine>,
    tries: impl IntoIterator<Item = (&'a str, IdeaTry)>,
    in_flight: &[InFlight],
) -> Backlog {
    // Each add with the place of its id's first line: ideas added in the
    // same instant stay in the file's order.
    let mut adds: BTreeMap<String, (usize, IdeaAdded)> = BTreeMap::new();
    let mut drops: Vec<IdeaDropped> = Vec::new();
    let mut conflicts = Vec::new();
    for (n, line) in lines.into_iter().enumerate() {
        match line {
            IdeaLine::Add(a) => match adds.get_mut(&a.id).map(|(_, old)| old) {
                None => {
                    adds.insert(a.id.clone(), (n, a));
                }
                Some(old) if *old == a => {}
                Some(old) => {
                    // The same id drawn twice (two branches merged): the
                    // earlier add wins, whatever order the lines came in.
                    let (keep, lost) = if (&a.at, &a.statement) < (&old.at, &old.statement) {
                        (a, old.clone())
                    } else {
                        (old.clone(), a)
                    };
                    conflicts.push(format!(
                        "idea {} was added twice with different statements; kept {:?}, left out {:?}",
                        keep.id, keep.statement, lost.statement
                    ));
                    *old = keep;
                }
            },
            IdeaLine::Drop(d) => drops.push(d),
        }
    }
    let mut order: BTreeMap<String, usize> = BTreeMap::new();
    let mut ideas: BTreeMap<String, Idea> = BTreeMap::new();
    for (id, (n, a)) in adds {
        order.insert(id.clone(), n);
        ideas.insert(id, Idea::from_added(a));
    }
    // The earliest drop of an idea counts.
    drops.sort_by(|a, b| (&a.at, &a.id).cmp(&(&b.at, &b.id)));
    for d in drops {
        match ideas.get_mut(&d.id) {
            Some(i) if i.dropped.is_none() => i.dropped = Some(d),
            Some(_) => {}
            None => conflicts.push(format!("a drop of unknown idea {} was left out", d.id)),
        }
    }
    let mut seen: HashSet<String> = HashSet::new();
    for (id, t) in tries {
        if let Some(i) = ideas.get_mut(id) {
            if seen.insert(t.run_id.clone()) {
                i.tries.push(t);
            }
        }
    }
    for f in in_flight {
        if let Some(i) = ideas.get_mut(&f.idea) {
            i.in_flight = Some(f.clone());
        }
    }
    let mut ideas: Vec<Idea> = ideas.into_values().collect();
    ideas.sort_by(|a, b| {
        (&a.added_at, order[&a.id], &a.id).cmp(&(&b.added_at, order[&b.id], &b.id))
    });
    Backlog { ideas, conflicts }
}

/// A statement's error, if any: empty (or blank), or longer than
/// [`MAX_STATEMENT_BYTES`].
pub fn check_statement(statement: &str) -> Result<(), String> {
    if statement.trim().is_empty() {
        return Err("the statement is empty".into());
    }
    if statement.len() > MAX_STATEMENT_BYTES {
        return Err(format!(
            "the statement is {} bytes, more than {MAX_STATEMENT_BYTES}",
            statement.len()
        ));
    }
    Ok(())
}

/// A family name as stored (lowercase), or why it is not a plain word:
/// 1 to [`MAX_FAMILY_CHARS`] ASCII letters, digits, `_`, `-` or `.`,
/// starting with a letter or a digit.
pub fn check_family(family: &str) -> Result<String, String> {
    let f = family.trim();
    if f.is_empty() {
        return Err("the family is empty".into());
    }
    if f.chars().count() > MAX_FAMILY_CHARS {
        return Err(format!(
            "the family {f:?} is longer than {MAX_FAMILY_CHARS} characters"
        ));
    }
    let plain = f
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if !plain || !f.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(format!(
            "the family {f:?} is not a plain word (letters, digits, _, - and ., starting with a letter or a digit)"
        ));
    }
    Ok(f.to_ascii_lowercase())
}

/// A family name suggested for a string that is not a plain word: its
/// words joined by `_`, lowercase (`None`: nothing left).
pub fn family_suggestion(family: &str) -> Option<String> {
    let words: Vec<String> = family
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let s = words.join("_");
    check_family(&s).ok()
}

/// A reason's (`--because`, a drop's) error, if any.
pub fn check_reason(reason: &str, flag: &str) -> Result<(), String> {
    if reason.trim().is_empty() {
        return Err(format!("{flag} is empty"));
    }
    if reason.len() > MAX_REASON_BYTES {
        return Err(format!(
            "{flag} is {} bytes, more than {MAX_REASON_BYTES}",
            reason.len()
        ));
    }
    Ok(())
}

/// The id made of five random bytes: `i-` and ten hex digits (2^40 ids:
/// two branches that add a thousand ideas each draw the same one about
/// once in a million merges, and [`fold`] tells it).
pub fn id_from(bytes: [u8; 5]) -> String {
    let mut s = String::from(ID_PREFIX);
    for b in bytes {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// Is this an idea id as arx makes them?
pub fn valid_id(id: &str) -> bool {
    id.strip_prefix(ID_PREFIX)
        .is_some_and(|h| h.len() == 10 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add(id: &str, at: &str, statement: &str, family: &str) -> IdeaLine {
        IdeaLine::Add(IdeaAdded {
            id: id.into(),
            at: at.into(),
            statement: statement.into(),
            family: family.into(),
            family_guessed: false,
            retry_of: None,
            because: None,
            ad_hoc: false,
        })
    }

    fn tried(run: &str, status: TryStatus, parent: &str) -> IdeaTry {
        IdeaTry {
            run_id: run.into(),
            status,
            parent: parent.into(),
            improvement: None,
            lane: None,
            started_at: "2026-01-01T00:00:00Z".into(),
            segment: "s".into(),
        }
    }

    #[test]
    fn lines_fold_into_ideas_with_their_status() {
        let lines = vec![
            add("i-0000000001", "2026-01-01T00:00:00Z", "lower lr", "lr"),
            add(
                "i-0000000002",
                "2026-01-01T00:01:00Z",
                "bigger batch",
                "batch",
            ),
            add("i-0000000003", "2026-01-01T00:02:00Z", "wider mlp", "width"),
            add("i-0000000004", "2026-01-01T00:03:00Z", "gelu", "act"),
            IdeaLine::Drop(IdeaDropped {
                id: "i-0000000004".into(),
                at: "2026-01-01T00:04:00Z".into(),
                reason: None,
            }),
        ];
        let tries = vec![
            ("i-0000000001", tried("r1", TryStatus::Discard, "c0")),
            ("i-0000000001", tried("r2", TryStatus::Keep, "c0")),
            ("i-0000000009", tried("r3", TryStatus::Keep, "c0")),
        ];
        let flying = [InFlight {
            idea: "i-0000000002".into(),
            lane: Some("a".into()),
            since: "2026-01-01T00:05:00Z".into(),
        }];
        let b = fold(lines, tries, &flying);
        let status: Vec<IdeaStatus> = b.ideas.iter().map(Idea::status).collect();
        assert_eq!(
            status,
            [
                IdeaStatus::Tried {
                    last: TryStatus::Keep
                },
                IdeaStatus::InFlight {
                    lane: Some("a".into())
                },
                IdeaStatus::Open,
                IdeaStatus::Dropped,
            ]
        );
        assert_eq!(b.ideas[0].tries.len(), 2);
        assert!(b.ideas[0].kept());
        assert_eq!(b.ideas[0].tries_at("c0", TryStatus::Discard).count(), 1);
        assert_eq!(b.open().count(), 1);
        assert!(b.conflicts.is_empty());
        assert_eq!(b.families(), ["act", "batch", "lr", "width"]);
    }

    #[test]
    fn a_union_of_two_backlogs_folds_alike_in_any_order_and_repeated() {
        let ours = vec![
            add("i-00000000aa", "2026-01-01T00:00:00Z", "a", "x"),
            add("i-00000000bb", "2026-01-01T00:02:00Z", "b", "x"),
        ];
        let theirs = vec![add("i-00000000cc", "2026-01-01T00:01:00Z", "c", "y")];
        let one: Vec<IdeaLine> = ours.iter().chain(&theirs).cloned().collect();
        let two: Vec<IdeaLine> = theirs.iter().chain(&ours).chain(&ours).cloned().collect();
        let (a, b) = (fold(one, vec![], &[]), fold(two, vec![], &[]));
        assert_eq!(a, b);
        let ids: Vec<&str> = a.ideas.iter().map(|i| i.id.as_str()).collect();
        assert_eq!(ids, ["i-00000000aa", "i-00000000cc", "i-00000000bb"]);
    }

    #[test]
    fn the_same_id_twice_keeps_the_earlier_add_and_says_so() {
        let early = add("i-00000000aa", "2026-01-01T00:00:00Z", "early", "x");
        let late = add("i-00000000aa", "2026-01-02T00:00:00Z", "late", "x");
        for lines in [
            vec![early.clone(), late.clone()],
            vec![late.clone(), early.clone()],
        ] {
            let b = fold(lines, vec![], &[]);
            assert_eq!(b.ideas.len(), 1);
            assert_eq!(b.ideas[0].statement, "early");
            assert_eq!(b.conflicts.len(), 1, "{:?}", b.conflicts);
        }
    }

    #[test]
    fn find_takes_an_id_or_a_unique_prefix() {
        let b = fold(
            vec![
                add("i-abc0000001", "1", "a", "x"),
                add("i-abc0000002", "2", "b", "x"),
                add("i-def0000003", "3", "c", "x"),
            ],
            vec![],
            &[],
        );
        assert_eq!(b.find("i-abc0000001").unwrap().statement, "a");
        assert_eq!(b.find("def").unwrap().statement, "c");
        assert_eq!(b.find("i-def").unwrap().statement, "c");
        assert!(matches!(b.find("abc"), Err(FindError::Ambiguous(v)) if v.len() == 2));
        assert_eq!(b.find("fff"), Err(FindError::Unknown));
        assert_eq!(b.find(""), Err(FindError::Unknown));
        assert_eq!(b.find("i-"), Err(FindError::Unknown));
    }

    #[test]
    fn statements_families_and_ids_follow_their_rules() {
        assert!(check_statement("lower the lr").is_ok());
        assert!(check_statement("  \n").is_err());
        assert!(check_statement(&"x".repeat(MAX_STATEMENT_BYTES)).is_ok());
        assert!(check_statement(&"x".repeat(MAX_STATEMENT_BYTES + 1)).is_err());
        assert_eq!(check_family("Batch_Size").unwrap(), "batch_size");
        assert_eq!(check_family("lr-2.0").unwrap(), "lr-2.0");
        for bad in ["", "two words", "-x", "a/b", "é", &"x".repeat(41)] {
            assert!(check_family(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            family_suggestion("Batch Size").as_deref(),
            Some("batch_size")
        );
        assert_eq!(family_suggestion("  "), None);
        let id = id_from([0, 1, 0xab, 0xcd, 0xff]);
        assert_eq!(id, "i-0001abcdff");
        assert!(valid_id(&id));
        assert!(!valid_id("i-0001abcdf") && !valid_id("0001abcdff0") && !valid_id("i-0001abcdfg"));
        assert!(check_reason("the lr schedule changed", "--because").is_ok());
        assert!(check_reason(" ", "--because").is_err());
    }

    #[test]
    fn a_line_reads_and_writes_as_one_json_object_tagged_with_its_type() {
        let line = add("i-0000000001", "2026-01-01T00:00:00Z", "lower lr", "lr");
        let text = serde_json::to_string(&line).unwrap();
        assert_eq!(
            text,
            r#"{"type":"add","id":"i-0000000001","at":"2026-01-01T00:00:00Z","statement":"lower lr","family":"lr"}"#
        );
        assert_eq!(serde_json::from_str::<IdeaLine>(&text).unwrap(), line);
        let drop: IdeaLine =
            serde_json::from_str(r#"{"type":"drop","id":"i-0000000001","at":"x"}"#).unwrap();
        assert_eq!(drop.id(), "i-0000000001");
        assert!(serde_json::from_str::<IdeaLine>(r#"{"type":"edit","id":"x"}"#).is_err());
    }
}
