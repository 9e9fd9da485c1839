//! What the report's formats share: numbers as people read them, the
//! segment's facts as label and value, and the tables of runs and groups.
//! The terminal, Markdown and HTML views are drawn from these, so they say
//! the same thing.

use crate::kernel::journal::fmt_duration;
use crate::kernel::report::{Group, Overview, Row, SegmentSummary};
use crate::kernel::stats::Direction;

use super::{Column, Table};

/// A number with five significant digits (integers as they are).
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return crate::kernel::number::fmt_number(x);
    }
    if x == x.trunc() && x.abs() < 1e15 {
        return format!("{x:.0}");
    }
    let digits = (4 - x.abs().log10().floor() as i64).clamp(0, 12) as usize;
    format!("{x:.digits$}")
}

/// A signed change: `+0.0011`, `−0.0047`.
pub fn signed(x: f64) -> String {
    if x < 0.0 {
        format!("\u{2212}{}", num(-x))
    } else {
        format!("+{}", num(x))
    }
}

/// A value with its interval: `0.9812 [0.9790, 0.9834]`.
pub fn with_interval(value: f64, interval: Option<(f64, f64)>) -> String {
    match interval {
        Some((lo, hi)) => format!("{} [{}, {}]", num(value), num(lo), num(hi)),
        None => num(value),
    }
}

/// A percentage with one decimal.
pub fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// Hours as people read them: `42m`, `7.5 h`.
pub fn hours(h: f64) -> String {
    if h < 1.0 {
        format!("{:.0}m", h * 60.0)
    } else {
        format!("{h:.1} h")
    }
}

/// A commit as people read it.
pub fn short_commit(c: &str) -> &str {
    c.get(..7).unwrap_or(c)
}

/// A run id as `arx log` shows it.
pub fn short_run(id: &str) -> &str {
    id.get(..crate::kernel::journal::SHORT_ID_LEN).unwrap_or(id)
}

/// One line of someone else's text, by the one rule of
/// [`crate::kernel::text`]: every control character shown by its escape,
/// cut to [`crate::kernel::text::CLIP`] characters.
pub fn one_line(text: &str) -> String {
    crate::kernel::text::shown(text)
}

/// The heading of the last rows, each word for one thing: `last 4 tries`,
/// `last 3 runs` (plain runs), `last 5 records` (both).
pub fn last_heading(rows: &[Row]) -> String {
    let tries = rows.iter().filter(|r| r.segment.is_some()).count();
    let n = rows.len() as u64;
    match tries {
        0 => crate::output::count(n, "run", "runs"),
        t if t == rows.len() => crate::output::count(n, "try", "tries"),
        _ => crate::output::count(n, "record", "records"),
    }
}

/// At most `width` characters, made visible, an ellipsis marking a cut.
pub fn truncate(text: &str, width: usize) -> String {
    crate::kernel::text::clip(text, width)
}

fn direction_word(d: Option<Direction>) -> &'static str {
    match d {
        Some(Direction::Min) => "lower is better",
        Some(Direction::Max) => "higher is better",
        None => "direction unknown",
    }
}

/// The segment's facts, label and value, in the order every view shows
/// them.
pub fn facts(s: &SegmentSummary) -> Vec<(&'static str, String)> {
    let mut out = vec![(
        "metric",
        format!("{} ({})", s.metric, direction_word(s.direction)),
    )];
    if let Some(b) = &s.baseline {
        out.push(("baseline", with_interval(b.value, b.interval)));
    }
    best_facts(&mut out, s);
    let mut runs = format!(
        "{} tries, {} runs: {} kept, {} discarded, {} crashed",
        s.tries, s.runs, s.keeps, s.discards, s.crashes
    );
    if s.other > 0 {
        runs.push_str(&format!(", {} other", s.other));
    }
    out.push(("runs", runs));
    if let Some(rate) = s.keep_rate {
        out.push(("keep rate", percent(rate)));
    }
    out.push((
        "since last keep",
        crate::output::count(s.since_keep as u64, "try", "tries"),
    ));
    if let Some(n) = s.noise {
        out.push(("noise (sd)", num(n)));
    }
    lane_facts(&mut out, s);
    class_facts(&mut out, s);
    slot_facts(&mut out, s);
    out.push(("elapsed", hours(s.elapsed_hours)));
    out.push((
        "advice",
        match &s.advice.reason {
            Some(r) => format!("stop: {r}"),
            None => "go on: no stop rule fired".to_string(),
        },
    ));
    out
}

/// The best, and its change against the baseline.
fn best_facts(out: &mut Vec<(&'static str, String)>, s: &SegmentSummary) {
    let Some(best) = &s.best else {
        return;
    };
    let mut text = with_interval(best.value.value, best.value.interval);
    if !best.commit.is_empty() {
        text.push_str(&format!(" at {}", short_commit(&best.commit)));
    }
    if let Some(d) = &best.description {
        text.push_str(&format!(" \"{}\"", truncate(d, 40)));
    }
    if !best.confirmed {
        text.push_str(" (unconfirmed)");
    }
    out.push(("best", text));
    if let (Some(c), Some(b)) = (best.change, &s.baseline) {
        // Against the baseline as it measures on the best's slot, when
        // the two were recorded on slots that differ.
        let (mut text, base) = match &best.baseline_on_slot {
            Some(o) => (
                format!("{} vs baseline on slot {}", signed(c), o.slot),
                o.value,
            ),
            None => (format!("{} vs baseline", signed(c)), b.value),
        };
        if base != 0.0 {
            text.push_str(&format!(" ({})", signed_percent(c / base.abs())));
        }
        out.push(("change", text));
    }
}

/// Each lane's tries.
fn lane_facts(out: &mut Vec<(&'static str, String)>, s: &SegmentSummary) {
    if s.lanes.is_empty() {
        return;
    }
    let lanes: Vec<String> = s
        .lanes
        .iter()
        .map(|l| {
            let mut t = format!(
                "{} {}, {} kept",
                l.lane,
                crate::output::count(l.tries as u64, "try", "tries"),
                l.keeps
            );
            if l.stale > 0 {
                t.push_str(&format!(", {} stale", l.stale));
            }
            t
        })
        .collect();
    out.push(("lanes", lanes.join(" · ")));
}

/// Each class of machine's tries and best as it measured it, and the
/// fleet's best as it measured it (a fleet): never one class's value set
/// against another's.
fn class_facts(out: &mut Vec<(&'static str, String)>, s: &SegmentSummary) {
    if s.classes.is_empty() {
        return;
    }
    // One line a class: a class's name is long (a GPU's model).
    for c in &s.classes {
        let mut t = format!(
            "{}: {}, {} kept",
            truncate(&c.class, 28),
            crate::output::count(c.tries as u64, "try", "tries"),
            c.keeps
        );
        if let Some(b) = &c.best {
            t.push_str(&format!(
                ", best {} at {}",
                num(b.value),
                short_commit(&b.commit)
            ));
        }
        if let Some(p) = &c.pending {
            t.push_str(&format!(
                ", best {} pending (run {}: waits for other classes)",
                num(p.value),
                truncate(&p.run, 12)
            ));
        }
        match c.fleet_best {
            Some(v) => t.push_str(&format!(", the fleet's {}", num(v))),
            None => t.push_str(", the fleet's not measured"),
        }
        out.push(("class", t));
    }
}

/// Each slot's use, effect and offset.
fn slot_facts(out: &mut Vec<(&'static str, String)>, s: &SegmentSummary) {
    if s.slots.is_empty() {
        return;
    }
    let slots: Vec<String> = s
        .slots
        .iter()
        .map(|x| match x.utilisation {
            Some(u) => format!("{} {} busy", x.slot, percent(u)),
            None => format!("{} {} runs", x.slot, x.tries),
        })
        .collect();
    out.push(("slots", slots.join(" · ")));
    let effects: Vec<String> = s
        .slots
        .iter()
        .filter_map(|x| {
            let e = x.effect.as_ref()?;
            Some(format!(
                "{} {} ± {} ({})",
                x.slot,
                signed(e.effect),
                num(e.se),
                crate::output::count(e.tries as u64, "try", "tries")
            ))
        })
        .collect();
    if !effects.is_empty() {
        out.push(("slot effect", effects.join(" · ")));
    }
    let offsets: Vec<String> = s
        .slots
        .iter()
        .filter_map(|x| {
            let o = x.offset.as_ref()?;
            let se = o.se.map(|se| format!(" ± {}", num(se))).unwrap_or_default();
            Some(format!(
                "{} {}{se} over {}",
                x.slot,
                signed(o.value),
                o.over
            ))
        })
        .collect();
    if !offsets.is_empty() {
        out.push(("slot offset", offsets.join(" · ")));
    }
}

fn signed_percent(x: f64) -> String {
    if x < 0.0 {
        format!("\u{2212}{:.2}%", -x * 100.0)
    } else {
        format!("+{:.2}%", x * 100.0)
    }
}

/// The last runs as a table: number, commit, value, change, status and
/// description, then the lane and the slot when any run has one.
pub fn runs_table(rows: &[Row], metric: &str) -> Table {
    let lanes = rows.iter().any(|r| r.lane.is_some());
    let slots = rows.iter().any(|r| r.slot.is_some());
    let mut columns = vec![
        Column::number("#"),
        Column::text("commit"),
        Column::number(if metric.is_empty() { "value" } else { metric }),
        Column::number("change"),
        Column::text("status"),
        Column::text("description"),
    ];
    if lanes {
        columns.push(Column::text("lane"));
    }
    if slots {
        columns.push(Column::text("slot"));
    }
    let mut t = Table::new(columns);
    for r in rows {
        let mut cells = vec![
            r.number.to_string(),
            r.commit
                .as_deref()
                .map_or(String::new(), |c| short_commit(c).to_string()),
            r.value
                .map_or(String::new(), |v| with_interval(v, r.interval)),
            r.change.map_or(String::new(), signed),
            r.status.clone(),
            r.description
                .as_deref()
                .or(r.detail.as_deref())
                .map_or(String::new(), one_line),
        ];
        if lanes {
            cells.push(r.lane.clone().unwrap_or_default());
        }
        if slots {
            cells.push(r.slot.clone().unwrap_or_default());
        }
        t.push(cells);
    }
    t
}

/// A segment's tries per family of ideas as a table: family, tries,
/// keeps, keep rate with its interval, and the keeps' total gain
/// (positive = better). `None` when no try named a family.
pub fn families_table(s: &SegmentSummary) -> Option<Table> {
    if s.families.is_empty() {
        return None;
    }
    let mut t = Table::new([
        Column::text("family"),
        Column::number("tries"),
        Column::number("keeps"),
        Column::text("keep rate [95%]"),
        Column::number("total gain"),
    ]);
    for f in &s.families {
        let rate = match f.interval {
            Some((lo, hi)) => format!(
                "{} [{}, {}]",
                percent(f.keep_rate),
                percent(lo),
                percent(hi)
            ),
            None => percent(f.keep_rate),
        };
        t.push([
            f.family.clone(),
            f.tries.to_string(),
            f.keeps.to_string(),
            rate,
            if f.keeps == 0 {
                "-".to_string()
            } else {
                signed(f.gain)
            },
        ]);
    }
    Some(t)
}

/// The groups as a table: metric, candidate, runs, statuses, best, latest.
pub fn groups_table(groups: &[Group]) -> Table {
    let mut t = Table::new([
        Column::text("metric"),
        Column::text("candidate"),
        Column::number("runs"),
        Column::text("verdicts"),
        Column::number("best"),
        Column::number("latest"),
    ]);
    for g in groups {
        t.push([
            g.metric.clone().unwrap_or_else(|| "-".into()),
            g.candidate.clone().unwrap_or_else(|| "-".into()),
            g.runs.to_string(),
            statuses(&g.statuses),
            g.best.map_or("-".into(), num),
            g.latest.map_or("-".into(), num),
        ]);
    }
    t
}

/// `12 keep, 80 discard` from counts by status.
pub fn statuses(counts: &std::collections::BTreeMap<String, usize>) -> String {
    let mut v: Vec<(&String, &usize)> = counts.iter().collect();
    v.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    v.iter()
        .map(|(s, n)| format!("{n} {s}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The metric the last-runs table is headed by: the focused segment's, or
/// the one every listed run shares.
pub fn table_metric(o: &Overview) -> String {
    if let Some(s) = o.segments.last() {
        if o.last_runs
            .iter()
            .all(|r| r.metric.as_deref() == Some(s.metric.as_str()))
        {
            return s.metric.clone();
        }
    }
    let first = o.last_runs.first().and_then(|r| r.metric.clone());
    if o.last_runs.iter().all(|r| r.metric == first) {
        return first.unwrap_or_default();
    }
    String::new()
}

/// A duration as `arx log` shows it.
pub fn duration(ms: u64) -> String {
    fmt_duration(ms)
}
