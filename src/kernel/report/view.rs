//! The shape of one journal line as the report reads it: the few fields
//! a report shows, borrowed from the line where they need no decoding, the
//! rest skipped unread. Both readers fill it: the walk over the text
//! (`walk`) and serde (`line`); [`point`] makes the report's point of it.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::{Point, SlotRun, Status};
use crate::kernel::stats::Direction;

#[derive(Deserialize, Default)]
pub(super) struct LineView<'a> {
    #[serde(borrow)]
    pub(super) run_id: Cow<'a, str>,
    #[serde(borrow, default)]
    pub(super) started_at: Cow<'a, str>,
    #[serde(default)]
    pub(super) duration_ms: u64,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(super) hypothesis: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(super) candidate: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub(super) git: Option<GitView<'a>>,
    #[serde(borrow, default)]
    pub(super) spec: Option<SpecView<'a>>,
    #[serde(borrow, default)]
    pub(super) metrics: MetricsView<'a>,
    #[serde(default)]
    pub(super) exit_code: i64,
    #[serde(default)]
    pub(super) timed_out: bool,
    #[serde(default)]
    pub(super) interrupted: bool,
    #[serde(default)]
    pub(super) stopped_on_result: bool,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(super) failure_class: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub(super) verdict: Option<VerdictView<'a>>,
    #[serde(borrow, default)]
    pub(super) attempts: AttemptsView<'a>,
    #[serde(default)]
    pub(super) samples: Vec<f64>,
    #[serde(default)]
    pub(super) interval: Option<(f64, f64)>,
    #[serde(borrow, default)]
    pub(super) ratchet: Option<RatchetView<'a>>,
    /// How the run ended when arx ended it (`pruned`, `lost`).
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(super) status: Option<Cow<'a, str>>,
    /// The slot its (last) run ran in.
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(super) slot: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
pub(super) struct GitView<'a> {
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(super) head: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
pub(super) struct SpecView<'a> {
    #[serde(borrow)]
    pub(super) metric_key: Cow<'a, str>,
    #[serde(borrow, default)]
    pub(super) comparator: Cow<'a, str>,
}

#[derive(Deserialize)]
pub(super) struct VerdictView<'a> {
    #[serde(borrow)]
    pub(super) verdict: Cow<'a, str>,
    #[serde(borrow, default)]
    pub(super) detail: Cow<'a, str>,
}

#[derive(Deserialize)]
pub(super) struct RatchetView<'a> {
    #[serde(borrow)]
    pub(super) segment: Cow<'a, str>,
    #[serde(default)]
    pub(super) new_segment: bool,
    #[serde(borrow)]
    pub(super) status: Cow<'a, str>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(super) description: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub(super) metric: Cow<'a, str>,
    #[serde(default)]
    pub(super) direction: Option<Direction>,
    #[serde(borrow, default)]
    pub(super) kept: Cow<'a, str>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(super) commit: Option<Cow<'a, str>>,
    #[serde(default)]
    pub(super) record_from: usize,
    #[serde(default = "yes")]
    pub(super) confirmed: bool,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(super) lane: Option<Cow<'a, str>>,
    /// The best on the try's slot it was compared with.
    #[serde(default)]
    pub(super) slot_best: Option<SlotBestView>,
    /// Read from another loop's file (`arx journal import`).
    #[serde(default, deserialize_with = "present")]
    pub(super) imported: bool,
    /// The family of the idea it tested.
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(super) family: Option<Cow<'a, str>>,
    /// In a fleet: the class of the machine it ran on.
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(super) class: Option<Cow<'a, str>>,
    /// In a fleet with `confirm_classes`: a keep waiting for other classes.
    #[serde(default)]
    pub(super) fleet_pending: bool,
    /// In a fleet with `confirm_classes`: the pending keep it measured.
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(super) confirms: Option<Cow<'a, str>>,
}

/// A member that is there and not null.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(Option::<IgnoredAny>::deserialize(d)?.is_some())
}

/// Of a try's `slot_best`, the value its change is taken against.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub(super) struct SlotBestView {
    pub(super) value: f64,
}

fn yes() -> bool {
    true
}

/// A record's attempts: how many, and those that ran in a slot.
#[derive(Default)]
pub(super) struct AttemptsView<'a> {
    pub(super) count: usize,
    pub(super) slotted: Vec<AttemptView<'a>>,
}

/// One attempt as the report reads it.
#[derive(Deserialize)]
pub(super) struct AttemptView<'a> {
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(super) slot: Option<Cow<'a, str>>,
    #[serde(default)]
    pub(super) duration_ms: u64,
    #[serde(borrow, default)]
    pub(super) metrics: MetricsView<'a>,
}

impl<'de: 'a, 'a> Deserialize<'de> for AttemptsView<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = AttemptsView<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of attempts")
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                let mut out = AttemptsView::default();
                while let Some(attempt) = a.next_element::<AttemptView<'de>>()? {
                    out.count += 1;
                    if attempt.slot.is_some() {
                        out.slotted.push(attempt);
                    }
                }
                Ok(out)
            }
        }
        d.deserialize_seq(V(std::marker::PhantomData))
    }
}

/// A record's metrics: the numeric members of an object, in order.
#[derive(Default)]
pub(super) struct MetricsView<'a>(pub(super) Vec<(Cow<'a, str>, f64)>);

impl MetricsView<'_> {
    /// The value of metric `name`, if it is one of them.
    fn get(&self, name: &str) -> Option<f64> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, x)| *x)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for MetricsView<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = MetricsView<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of metrics")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
                let mut out = Vec::new();
                while let Some(key) = map.next_key::<Key<'de>>()? {
                    if let Number(Some(v)) = map.next_value::<Number>()? {
                        out.push((key.0, v));
                    }
                }
                Ok(MetricsView(out))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(MetricsView(Vec::new()))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// An optional string borrowed from the line when it has no escapes
/// (serde's own `Option<Cow<str>>` always copies).
fn borrowed<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Cow<'de, str>>, D::Error> {
    Ok(Option::<Key<'de>>::deserialize(d)?.map(|k| k.0))
}

/// A borrowed key (owned when it has escapes).
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Cow<'de, str>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Cow::Borrowed(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Cow::Owned(v.to_string()))
            }
        }
        d.deserialize_str(V).map(Key)
    }
}

/// A metric value: a finite number, or anything else (skipped).
struct Number(Option<f64>);

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Number;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a metric value")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Number, E> {
                Ok(Number(v.is_finite().then_some(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Number, E> {
                Ok(Number(Some(v as f64)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Number, E> {
                Ok(Number(Some(v as f64)))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Number, E> {
                Ok(Number(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Number, E> {
                Ok(Number(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Number, E> {
                Ok(Number(None))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut a: A) -> Result<Number, A::Error> {
                while a.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Number(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Number, A::Error> {
                while a.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Number(None))
            }
        }
        d.deserialize_any(V)
    }
}

fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// The status of a plain run (`arx run`, `arx compare`): its verdict, or
/// whether it ran cleanly when it had no metric spec.
fn plain_status(v: &LineView<'_>) -> (Status, Option<String>) {
    match v.status.as_deref() {
        None => {}
        Some("pruned") => return (Status::Pruned, None),
        Some("lost") => return (Status::Lost, None),
        Some(other) => return (Status::Other, Some(other.to_string())),
    }
    if let Some(verdict) = &v.verdict {
        let status = match verdict.verdict.as_ref() {
            "supported" => Status::Supported,
            "refuted" => Status::Refuted,
            "inconclusive" => Status::Inconclusive,
            _ => Status::Other,
        };
        return (status, Some(verdict.verdict.to_string()));
    }
    let ok = !v.timed_out
        && !v.interrupted
        && (v.exit_code == 0 || (v.stopped_on_result && !v.metrics.0.is_empty()));
    (if ok { Status::Ok } else { Status::Failed }, None)
}

/// The report's point of a record read.
pub(super) fn point(v: LineView<'_>) -> Point<'_> {
    let (status, unknown) = point_status(&v);
    let (metric, direction) = metric_of(&v);
    let metric_value = metric.as_deref().and_then(|m| v.metrics.get(m));
    let crashed = matches!(
        status,
        Status::Crash | Status::Failed | Status::Lost | Status::Interrupted
    );
    // A keep's value is the mean of the runs it is recorded with (its
    // confirmation runs), as the try told it and as the best reads.
    let record_from = match (status, &v.ratchet) {
        (Status::Keep, Some(r)) if r.record_from < v.samples.len() => r.record_from,
        _ => 0,
    };
    let value = if crashed {
        None
    } else {
        mean(&v.samples[record_from..]).or(metric_value)
    };
    let head = v.git.as_ref().and_then(|g| g.head.clone());
    let detail = point_detail(&v, crashed);
    // An imported record is one value shown: never a run, replicates of
    // the noise or a run on a slot.
    let imported = v.ratchet.as_ref().is_some_and(|r| r.imported);
    let runs =
        crate::kernel::tally::runs_of(v.attempts.count, status == Status::Protected, imported);
    let slot_runs = match imported {
        true => Vec::new(),
        false => slot_runs(v.attempts.slotted, metric.as_deref()),
    };
    let lane = v.ratchet.as_ref().and_then(|r| r.lane.clone());
    let family = v.ratchet.as_ref().and_then(|r| r.family.clone());
    let class = v.ratchet.as_ref().and_then(|r| r.class.clone());
    let fleet_pending = v.ratchet.as_ref().is_some_and(|r| r.fleet_pending);
    let confirms = v.ratchet.as_ref().and_then(|r| r.confirms.clone());
    let slot_best = v
        .ratchet
        .as_ref()
        .and_then(|r| r.slot_best)
        .map(|b| b.value);
    let (commit, description, segment, new_segment, record_from, confirmed) = match v.ratchet {
        Some(r) => {
            let commit = match status {
                // Another loop's row: the commit it names, if this
                // repository holds it.
                _ if r.imported => r.commit,
                // A keep waiting for other classes is no commit of the
                // best's (not the best it was kept over either).
                Status::Keep if r.fleet_pending => None,
                Status::Keep => r.commit.or(Some(r.kept.clone())),
                Status::Baseline => Some(r.kept.clone()),
                _ => head.or(Some(r.kept.clone())),
            };
            (
                commit,
                r.description.or(v.hypothesis),
                Some(r.segment),
                r.new_segment,
                r.record_from,
                r.confirmed,
            )
        }
        None => (head, v.hypothesis, None, false, 0, true),
    };
    Point {
        segment_number: 0,
        run_id: v.run_id,
        started_at: v.started_at,
        duration_ms: v.duration_ms,
        candidate: v.candidate,
        metric,
        direction,
        value,
        samples: if v.samples.len() >= 2 && !imported {
            v.samples
        } else {
            Vec::new()
        },
        record_from,
        confirmed,
        interval: v.interval,
        status,
        unknown_status: unknown,
        segment,
        new_segment,
        commit,
        description,
        detail,
        failure_class: v.failure_class.filter(|f| f != "none").map(Cow::into_owned),
        metrics: v.metrics.0,
        runs,
        lane,
        family,
        class,
        fleet_pending,
        confirms,
        slot_best,
        slot: v.slot.filter(|_| !imported),
        slot_runs,
    }
}

/// A record's status: its try's, or its plain run's (the text of a status
/// this version does not know).
fn point_status(v: &LineView<'_>) -> (Status, Option<String>) {
    match &v.ratchet {
        Some(r) => match Status::from_try(&r.status) {
            Some(s) => (s, None),
            None => (Status::Other, Some(r.status.to_string())),
        },
        None => match plain_status(v) {
            (Status::Other, text) => (Status::Other, text),
            (s, _) => (s, None),
        },
    }
}

/// The metric a record measured (the ratchet's, the spec's, or its first)
/// and its direction.
fn metric_of<'a>(v: &LineView<'a>) -> (Option<Cow<'a, str>>, Option<Direction>) {
    let metric: Option<Cow<'a, str>> = match (&v.ratchet, &v.spec) {
        (Some(r), _) => Some(r.metric.clone()),
        (None, Some(s)) => Some(s.metric_key.clone()),
        (None, None) => v.metrics.0.first().map(|(k, _)| k.clone()),
    };
    let direction = match (&v.ratchet, &v.spec) {
        (Some(r), _) => r.direction,
        (None, Some(s)) => match s.comparator.as_ref() {
            ">" | ">=" => Some(Direction::Max),
            "<" | "<=" => Some(Direction::Min),
            _ => None,
        },
        _ => None,
    };
    (metric, direction)
}

/// The runs of a record that ran in a slot, with their value of `metric`.
fn slot_runs<'a>(slotted: Vec<AttemptView<'a>>, metric: Option<&str>) -> Vec<SlotRun<'a>> {
    slotted
        .into_iter()
        .filter_map(|a| {
            Some(SlotRun {
                value: metric.and_then(|m| a.metrics.get(m)),
                slot: a.slot?,
                duration_ms: a.duration_ms,
            })
        })
        .collect()
}

/// The verdict's detail, or why a crashed record crashed.
fn point_detail(v: &LineView<'_>, crashed: bool) -> Option<String> {
    match (&v.verdict, crashed) {
        (Some(verdict), _) if !verdict.detail.is_empty() => Some(verdict.detail.to_string()),
        (_, true) => Some(failure_detail(v)),
        _ => None,
    }
}

/// Why a run crashed, in words: timeout, interruption, exit code and class.
fn failure_detail(v: &LineView<'_>) -> String {
    let mut parts = Vec::new();
    if v.timed_out {
        parts.push("timed out".to_string());
    } else if v.interrupted {
        parts.push("interrupted".to_string());
    } else if v.exit_code != 0 {
        parts.push(format!("exit code {}", v.exit_code));
    } else {
        parts.push("no metric".to_string());
    }
    if let Some(class) = v.failure_class.as_deref().filter(|c| *c != "none") {
        parts.push(format!("failure class {class}"));
    }
    parts.join(", ")
}
