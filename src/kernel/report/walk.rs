//! The fast path of the report's line reader: the members the report reads
//! walked out of a journal line (`kernel::skim`), nested objects included,
//! with no copying and no decoding of the members it does not read (the
//! output tails, the command). Every value it reads is read as serde reads
//! it, in the plain forms arx writes (strings without escapes, finite
//! numbers); anything else (an escaped or repeated key, an escaped string,
//! a value of another type) gives `None`, and the line goes to serde
//! whole, which has the last word. So the two agree on every line the walk
//! accepts, except that members the report does not read are followed, not
//! validated.

use std::borrow::Cow;

use super::view::{
    AttemptView, AttemptsView, GitView, LineView, MetricsView, RatchetView, SlotBestView, SpecView,
    VerdictView,
};
use crate::kernel::skim::{
    json_number, plain_bool, plain_int, plain_opt_text, plain_text, skip_value, skip_ws,
    walk_elements, walk_members,
};
use crate::kernel::stats::Direction;

/// A set of member names seen, to refuse a repeated one (serde does).
struct Seen(u32);

impl Seen {
    fn first(&mut self, bit: u32) -> Option<()> {
        if self.0 & (1 << bit) != 0 {
            return None;
        }
        self.0 |= 1 << bit;
        Some(())
    }
}

/// The scalar token starting at `s[i]` and its end.
fn token(s: &str, i: usize) -> Option<(&str, usize)> {
    let end = skip_value(s.as_bytes(), i)?;
    Some((s.get(i..end)?, end))
}

/// Read the scalar at `s[i]` with `read`, storing it with `set`; gives its
/// end.
fn scalar<'a, T>(
    s: &'a str,
    i: usize,
    read: impl FnOnce(&'a str) -> Option<T>,
    set: impl FnOnce(T),
) -> Option<usize> {
    let (t, end) = token(s, i)?;
    set(read(t)?);
    Some(end)
}

fn string(t: &str) -> Option<Cow<'_, str>> {
    plain_text(t).map(Cow::Borrowed)
}

fn boolean(t: &str) -> Option<bool> {
    plain_bool(t.as_bytes())
}

fn int(t: &str) -> Option<i64> {
    plain_int(t.as_bytes())
}

/// The piece `part` of `s` (a slice of its bytes) as text.
fn piece<'a>(s: &'a str, part: &[u8]) -> Option<&'a str> {
    let at = (part.as_ptr() as usize).checked_sub(s.as_ptr() as usize)?;
    s.get(at..at + part.len())
}

fn unsigned(t: &str) -> Option<u64> {
    u64::try_from(int(t)?).ok()
}

/// A number as serde reads it into an `f64` (integers converted; a number
/// out of range is left to serde, which rejects it).
fn number(t: &str) -> Option<f64> {
    if !json_number(t.as_bytes()) {
        return None;
    }
    let x: f64 = t.parse().ok()?;
    x.is_finite().then_some(x)
}

/// `null` (`None`), or the container at `s[i]` read by `read`; with its end.
fn nullable<'a, T>(
    s: &'a str,
    i: usize,
    read: impl FnOnce(&'a str, usize) -> Option<(T, usize)>,
) -> Option<(Option<T>, usize)> {
    if s.as_bytes()[i..].starts_with(b"null") {
        let (t, end) = token(s, i)?;
        return (t == "null").then_some((None, end));
    }
    read(s, i).map(|(x, end)| (Some(x), end))
}

fn numbers(s: &str, i: usize) -> Option<(Vec<f64>, usize)> {
    let mut out = Vec::new();
    let end = walk_elements(s.as_bytes(), i, |at| scalar(s, at, number, |x| out.push(x)))?;
    Some((out, end))
}

/// A key the walks do not read: one escaped may spell one they read, so
/// serde decodes it; any other is skipped.
fn other(key: &[u8], s: &str, i: usize) -> Option<usize> {
    if key.contains(&b'\\') {
        return None;
    }
    skip_value(s.as_bytes(), i)
}

fn git(s: &str, i: usize) -> Option<(GitView<'_>, usize)> {
    let mut head = None;
    let mut seen = Seen(0);
    let end = walk_members(s.as_bytes(), i, |key, at| match key {
        b"head" => {
            seen.first(0)?;
            scalar(s, at, plain_opt_text, |x| head = x)
        }
        _ => other(key, s, at),
    })?;
    Some((GitView { head }, end))
}

/// A try's `slot_best`: its `value` (required), the rest skipped.
fn slot_best(s: &str, i: usize) -> Option<(SlotBestView, usize)> {
    let mut value = None;
    let mut seen = Seen(0);
    let end = walk_members(s.as_bytes(), i, |key, at| match key {
        b"value" => {
            seen.first(0)?;
            scalar(s, at, number, |x| value = Some(x))
        }
        _ => other(key, s, at),
    })?;
    Some((SlotBestView { value: value? }, end))
}

fn spec(s: &str, i: usize) -> Option<(SpecView<'_>, usize)> {
    let (mut metric_key, mut comparator) = (None, Cow::Borrowed(""));
    let mut seen = Seen(0);
    let end = walk_members(s.as_bytes(), i, |key, at| match key {
        b"metric_key" => {
            seen.first(0)?;
            scalar(s, at, string, |x| metric_key = Some(x))
        }
        b"comparator" => {
            seen.first(1)?;
            scalar(s, at, string, |x| comparator = x)
        }
        _ => other(key, s, at),
    })?;
    let view = SpecView {
        metric_key: metric_key?,
        comparator,
    };
    Some((view, end))
}

fn verdict(s: &str, i: usize) -> Option<(VerdictView<'_>, usize)> {
    let (mut verdict, mut detail) = (None, Cow::Borrowed(""));
    let mut seen = Seen(0);
    let end = walk_members(s.as_bytes(), i, |key, at| match key {
        b"verdict" => {
            seen.first(0)?;
            scalar(s, at, string, |x| verdict = Some(x))
        }
        b"detail" => {
            seen.first(1)?;
            scalar(s, at, string, |x| detail = x)
        }
        _ => other(key, s, at),
    })?;
    let view = VerdictView {
        verdict: verdict?,
        detail,
    };
    Some((view, end))
}

/// The numeric members of the metrics object, in order (others skipped,
/// as serde skips them); `null` is no metrics.
fn metrics(s: &str, i: usize) -> Option<(MetricsView<'_>, usize)> {
    let mut out = Vec::new();
    let end = metric_members(s, i, |key, x| out.push((Cow::Borrowed(key), x)))?;
    Some((MetricsView(out), end))
}

/// Walk the metrics object at `s[i]` as [`metrics`] reads it, handing each
/// numeric member to `each`; gives its end.
fn metric_members<'a>(s: &'a str, i: usize, mut each: impl FnMut(&'a str, f64)) -> Option<usize> {
    let (_, end) = nullable(s, i, |s, i| {
        let end = walk_members(s.as_bytes(), i, |key, at| {
            let key = piece(s, key)?;
            if key.bytes().any(|c| c == b'\\' || c < 0x20) {
                return None; // serde decodes it
            }
            let (t, end) = token(s, at)?;
            match t.as_bytes().first()? {
                // Serde keeps integers whatever their size and drops a
                // float out of range; the walk leaves the latter to it.
                b'-' | b'0'..=b'9' => each(key, number(t)?),
                b'"' => {
                    plain_text(t)?;
                }
                _ if matches!(t, "true" | "false" | "null") => {}
                // Arrays and objects: serde checks them as it skips them.
                _ => return None,
            }
            Some(end)
        })?;
        Some(((), end))
    })?;
    Some(end)
}

/// One attempt: its slot, duration and metrics (the rest skipped; the
/// metrics read only when it ran in a slot).
fn attempt(s: &str, i: usize) -> Option<(AttemptView<'_>, usize)> {
    let mut a = AttemptView {
        slot: None,
        duration_ms: 0,
        metrics: MetricsView::default(),
    };
    let mut metrics_at = None;
    let mut seen = Seen(0);
    let end = walk_members(s.as_bytes(), i, |key, at| match key {
        b"slot" => {
            seen.first(0)?;
            scalar(s, at, plain_opt_text, |x| a.slot = x)
        }
        b"duration_ms" => {
            seen.first(1)?;
            scalar(s, at, unsigned, |x| a.duration_ms = x)
        }
        b"metrics" => {
            seen.first(2)?;
            metrics_at = Some(at);
            metric_members(s, at, |_, _| {})
        }
        _ => other(key, s, at),
    })?;
    if let (Some(_), Some(at)) = (&a.slot, metrics_at) {
        a.metrics = metrics(s, at)?.0;
    }
    Some((a, end))
}

fn direction(t: &str) -> Option<Option<Direction>> {
    match t {
        "null" => Some(None),
        "\"max\"" => Some(Some(Direction::Max)),
        "\"min\"" => Some(Some(Direction::Min)),
        _ => None,
    }
}

fn ratchet(s: &str, i: usize) -> Option<(RatchetView<'_>, usize)> {
    let mut r = RatchetView {
        segment: Cow::Borrowed(""),
        new_segment: false,
        status: Cow::Borrowed(""),
        description: None,
        metric: Cow::Borrowed(""),
        direction: None,
        kept: Cow::Borrowed(""),
        commit: None,
        record_from: 0,
        confirmed: true,
        lane: None,
        slot_best: None,
        imported: false,
        family: None,
        class: None,
        fleet_pending: false,
        confirms: None,
    };
    let mut seen = Seen(0);
    let end = walk_members(s.as_bytes(), i, |key, at| match key {
        b"segment" => {
            seen.first(0)?;
            scalar(s, at, string, |x| r.segment = x)
        }
        b"new_segment" => {
            seen.first(1)?;
            scalar(s, at, boolean, |x| r.new_segment = x)
        }
        b"status" => {
            seen.first(2)?;
            scalar(s, at, string, |x| r.status = x)
        }
        b"description" => {
            seen.first(3)?;
            scalar(s, at, plain_opt_text, |x| r.description = x)
        }
        b"metric" => {
            seen.first(4)?;
            scalar(s, at, string, |x| r.metric = x)
        }
        b"direction" => {
            seen.first(5)?;
            scalar(s, at, direction, |x| r.direction = x)
        }
        b"kept" => {
            seen.first(6)?;
            scalar(s, at, string, |x| r.kept = x)
        }
        b"commit" => {
            seen.first(7)?;
            scalar(s, at, plain_opt_text, |x| r.commit = x)
        }
        b"record_from" => {
            seen.first(8)?;
            let read = |t| usize::try_from(unsigned(t)?).ok();
            scalar(s, at, read, |x| r.record_from = x)
        }
        b"confirmed" => {
            seen.first(9)?;
            scalar(s, at, boolean, |x| r.confirmed = x)
        }
        b"lane" => {
            seen.first(10)?;
            scalar(s, at, plain_opt_text, |x| r.lane = x)
        }
        b"slot_best" => {
            seen.first(11)?;
            let (x, end) = nullable(s, at, slot_best)?;
            r.slot_best = x;
            Some(end)
        }
        b"imported" => {
            seen.first(12)?;
            r.imported = !s.as_bytes()[at..].starts_with(b"null");
            other(key, s, at)
        }
        b"family" => {
            seen.first(13)?;
            scalar(s, at, plain_opt_text, |x| r.family = x)
        }
        b"class" => {
            seen.first(14)?;
            scalar(s, at, plain_opt_text, |x| r.class = x)
        }
        b"fleet_pending" => {
            seen.first(15)?;
            scalar(s, at, boolean, |x| r.fleet_pending = x)
        }
        b"confirms" => {
            seen.first(16)?;
            scalar(s, at, plain_opt_text, |x| r.confirms = x)
        }
        _ => other(key, s, at),
    })?;
    // `segment`, `status` and `metric` are required.
    (seen.0 & 0b1_0101 == 0b1_0101).then_some((r, end))
}

/// The members the report reads, walked out of `line`; `None` sends the
/// line to serde (see the module's comment).
pub(super) fn walked(line: &[u8]) -> Option<LineView<'_>> {
    walked_with(line, |_, _| {})
}

/// [`walked`], handing every top-level member (raw key and value, in
/// order) to `also` as it goes, for another reader of the same line.
pub(super) fn walked_with<'a>(
    line: &'a [u8],
    mut also: impl FnMut(&'a [u8], &'a [u8]),
) -> Option<LineView<'a>> {
    // Checked as UTF-8 once: every piece read below is then text as it is.
    let s = std::str::from_utf8(line).ok()?;
    let b = line;
    let mut v = LineView::default();
    let mut seen = Seen(0);
    let end = walk_members(b, skip_ws(b, 0), |key, at| {
        let end = member(&mut v, &mut seen, s, key, at)?;
        also(key, &b[at..end]);
        Some(end)
    })?;
    // The whole line is the object, and `run_id` is required.
    (skip_ws(b, end) == b.len() && seen.0 & 1 != 0).then_some(v)
}

/// Read the top-level member `key` whose value starts at `b[at]` into `v`;
/// gives the value's end (the run's own members here, its result in
/// [`result_member`]).
fn member<'a>(
    v: &mut LineView<'a>,
    seen: &mut Seen,
    s: &'a str,
    key: &'a [u8],
    at: usize,
) -> Option<usize> {
    match key {
        b"run_id" => {
            seen.first(0)?;
            scalar(s, at, string, |x| v.run_id = x)
        }
        b"started_at" => {
            seen.first(1)?;
            scalar(s, at, string, |x| v.started_at = x)
        }
        b"duration_ms" => {
            seen.first(2)?;
            scalar(s, at, unsigned, |x| v.duration_ms = x)
        }
        b"hypothesis" => {
            seen.first(3)?;
            scalar(s, at, plain_opt_text, |x| v.hypothesis = x)
        }
        b"candidate" => {
            seen.first(4)?;
            scalar(s, at, plain_opt_text, |x| v.candidate = x)
        }
        b"git" => {
            seen.first(5)?;
            let (x, end) = nullable(s, at, git)?;
            v.git = x;
            Some(end)
        }
        b"spec" => {
            seen.first(6)?;
            let (x, end) = nullable(s, at, spec)?;
            v.spec = x;
            Some(end)
        }
        b"metrics" => {
            seen.first(7)?;
            let (x, end) = metrics(s, at)?;
            v.metrics = x;
            Some(end)
        }
        b"exit_code" => {
            seen.first(8)?;
            scalar(s, at, int, |x| v.exit_code = x)
        }
        b"timed_out" => {
            seen.first(9)?;
            scalar(s, at, boolean, |x| v.timed_out = x)
        }
        b"interrupted" => {
            seen.first(10)?;
            scalar(s, at, boolean, |x| v.interrupted = x)
        }
        b"stopped_on_result" => {
            seen.first(11)?;
            scalar(s, at, boolean, |x| v.stopped_on_result = x)
        }
        b"failure_class" => {
            seen.first(12)?;
            scalar(s, at, plain_opt_text, |x| v.failure_class = x)
        }
        _ => result_member(v, seen, s, key, at),
    }
}

/// A member of the run's result: its verdict, attempts, samples,
/// interval, ratchet record, status and slot (else any other member).
fn result_member<'a>(
    v: &mut LineView<'a>,
    seen: &mut Seen,
    s: &'a str,
    key: &'a [u8],
    at: usize,
) -> Option<usize> {
    match key {
        b"verdict" => {
            seen.first(13)?;
            let (x, end) = nullable(s, at, verdict)?;
            v.verdict = x;
            Some(end)
        }
        b"attempts" => {
            seen.first(14)?;
            let mut out = AttemptsView::default();
            let end = walk_elements(s.as_bytes(), at, |i| {
                let (a, end) = attempt(s, i)?;
                out.count += 1;
                if a.slot.is_some() {
                    out.slotted.push(a);
                }
                Some(end)
            })?;
            v.attempts = out;
            Some(end)
        }
        b"samples" => {
            seen.first(15)?;
            let (x, end) = numbers(s, at)?;
            v.samples = x;
            Some(end)
        }
        b"interval" => {
            seen.first(16)?;
            let (x, end) = nullable(s, at, |b, i| match numbers(b, i)? {
                (xs, end) if xs.len() == 2 => Some(((xs[0], xs[1]), end)),
                _ => None,
            })?;
            v.interval = x;
            Some(end)
        }
        b"ratchet" => {
            seen.first(17)?;
            let (x, end) = nullable(s, at, ratchet)?;
            v.ratchet = x;
            Some(end)
        }
        b"status" => {
            seen.first(18)?;
            scalar(s, at, plain_opt_text, |x| v.status = x)
        }
        b"slot" => {
            seen.first(19)?;
            scalar(s, at, plain_opt_text, |x| v.slot = x)
        }
        _ => other(key, s, at),
    }
}

#[cfg(test)]
mod tests {
    use super::super::view::point;
    use super::*;
    use crate::kernel::report::Point;
    use proptest::prelude::*;

    fn by_serde(line: &str) -> Option<Point<'_>> {
        serde_json::from_slice::<LineView<'_>>(line.as_bytes())
            .ok()
            .map(point)
    }

    fn by_walk(line: &str) -> Option<Point<'_>> {
        walked(line.as_bytes()).map(point)
    }

    /// What the walk accepts, serde accepts and reads the same.
    fn agree(line: &str) {
        if let Some(w) = by_walk(line) {
            assert_eq!(Some(w), by_serde(line), "{line}");
        }
    }

    const TRY: &str = r#"{"run_id":"r1","started_at":"2026-11-02T10:00:00Z","ended_at":"x","duration_ms":29227,"command":["uv","run"],"cwd":"/h","git":{"head":"abc","branch":"b","dirty":true},"hypothesis":null,"candidate":"c","tags":["t"],"spec":null,"metrics":{"val_bpb":1.0013588500034107,"peak":44000,"note":"x","ok":true,"none":null},"exit_code":0,"timed_out":false,"interrupted":false,"failure_class":"none","verdict":null,"stdout_tail":"step 1\n__RESULT__ {\"val_bpb\": 1.0}\n","stderr_tail":"","attempts":[{"exit_code":0},{"exit_code":1}],"samples":[1.0,2,3.5],"interval":[0.5,1.5],"ratchet":{"segment":"s1","new_segment":true,"status":"keep","description":"try 3","metric":"val_bpb","direction":"min","rule":"confirm","kept":"k","commit":"c1","paths":["a"],"record_from":1,"confirmed":false,"best":0.99}}"#;

    const RUN: &str = r#"{"run_id":"r2","started_at":"2026-11-02T10:00:00Z","duration_ms":5,"candidate":null,"spec":{"metric_key":"acc","comparator":">=","target":0.9},"metrics":{"acc":0.8},"exit_code":1,"timed_out":true,"interrupted":false,"stopped_on_result":false,"failure_class":"oom","verdict":{"verdict":"refuted","strategy":"deterministic","detail":"acc=0.8 >= 0.9 → fail","raw_evidence_ref":null},"status":"pruned"}"#;

    #[test]
    fn the_walk_reads_the_lines_arx_writes_as_serde_does() {
        for line in [
            TRY,
            RUN,
            r#"{"run_id":"x"}"#,
            r#" { "run_id" : "x" , "metrics" : { } } "#,
        ] {
            assert!(by_walk(line).is_some(), "{line}");
            agree(line);
        }
        let p = by_walk(TRY).unwrap();
        assert_eq!((p.runs, p.record_from, p.confirmed), (2, 1, false));
        assert_eq!(p.samples, vec![1.0, 2.0, 3.5]);
        assert_eq!(p.metrics.len(), 2);
        assert_eq!(p.commit.as_deref(), Some("c1"));
        let p = by_walk(RUN).unwrap();
        assert_eq!(p.detail.as_deref(), Some("acc=0.8 >= 0.9 → fail"));
        assert_eq!(p.failure_class.as_deref(), Some("oom"));
    }

    #[test]
    fn what_the_walk_cannot_read_plainly_goes_to_serde() {
        let cases = [
            // Escapes: in a value read, in a key (which may spell a member).
            TRY.replace("\"try 3\"", "\"try \\\"3\\\"\""),
            TRY.replace("\"run_id\"", "\"run\\u005fid\""),
            // A repeated member (serde refuses the line).
            TRY.replace(
                "\"hypothesis\":null",
                "\"hypothesis\":null,\"hypothesis\":\"h\"",
            ),
            TRY.replace("\"head\":\"abc\"", "\"head\":\"abc\",\"head\":\"d\""),
            // Numbers serde reads otherwise or refuses.
            TRY.replace("\"duration_ms\":29227", "\"duration_ms\":29227.0"),
            TRY.replace(
                "\"duration_ms\":29227",
                "\"duration_ms\":18446744073709551615",
            ),
            TRY.replace("\"val_bpb\":1.0013588500034107", "\"val_bpb\":1e400"),
            TRY.replace("[1.0,2,3.5]", "[1.0,2,1e999]"),
            TRY.replace("\"exit_code\":0,\"timed", "\"exit_code\":-0,\"timed"),
            // Other types.
            TRY.replace("\"git\":{", "\"git\":[\"abc\"],\"x\":{"),
            TRY.replace("\"peak\":44000", "\"peak\":[1,2]"),
            TRY.replace("[0.5,1.5]", "[0.5,1.5,2]"),
            TRY.replace("\"direction\":\"min\"", "\"direction\":\"down\""),
            TRY.replace("\"metrics\":{", "\"metrics\":\"x\",\"m\":{"),
            RUN.replace("\"verdict\":\"refuted\",", ""),
            RUN.replace("\"metric_key\":\"acc\",", ""),
            TRY.replace("\"segment\":\"s1\",", ""),
            TRY.replace("\"run_id\":\"r1\",", ""),
            TRY.replace("\"timed_out\":false", "\"timed_out\":0"),
            // Not an object, or more than one.
            format!("{TRY} {{}}"),
            "[1]".to_string(),
            "{\"run_id\":\"x\"".to_string(),
        ];
        for line in &cases {
            assert!(by_walk(line).is_none(), "{line}");
            // The reader as a whole is serde's on these lines.
            assert_eq!(super::super::parse_line(line.as_bytes()), by_serde(line));
        }
        // Serde reads some of them.
        assert!(by_serde(&cases[0]).is_some() && by_serde(&cases[1]).is_some());
        assert!(by_serde(&cases[6]).is_none() && by_serde(&cases[2]).is_none());
    }

    #[test]
    fn a_line_that_is_not_utf8_is_serdes_to_read() {
        let mut line = TRY.as_bytes().to_vec();
        let at = TRY.find("step 1").unwrap();
        line[at] = 0xff;
        assert!(walked(&line).is_none());
        let by_serde = serde_json::from_slice::<LineView<'_>>(&line)
            .ok()
            .map(point);
        assert_eq!(super::super::parse_line(&line), by_serde);
    }

    /// Values of each type and form, plain and not, for each member the
    /// walk reads (and for others).
    fn forms(key: &str) -> &'static [&'static str] {
        const TEXT: &[&str] = &[
            "\"s\"",
            "\"\"",
            "\"a\\\"b\"",
            "\"\\u00e9\"",
            "\"é\"",
            "null",
            "1",
        ];
        const INT: &[&str] = &[
            "0",
            "7",
            "-3",
            "-0",
            "1.5",
            "2e3",
            "18446744073709551616",
            "null",
        ];
        const BOOL: &[&str] = &["true", "false", "0", "null"];
        const NUMBERS: &[&str] = &[
            "[]", "[1,2]", "[1.5,-2]", "[1,2,3]", "[1e400]", "[[1]]", "null",
        ];
        match key {
            "run_id" | "started_at" | "hypothesis" | "candidate" | "failure_class" | "status"
            | "stdout_tail" => TEXT,
            "duration_ms" | "exit_code" => INT,
            "timed_out" | "interrupted" | "stopped_on_result" => BOOL,
            "attempts" | "samples" | "interval" => NUMBERS,
            "git" => &["{\"head\":\"h\"}", "{\"head\":null,\"dirty\":true}", "{}", "{\"head\":1}", "null", "[\"h\"]"],
            "spec" => &["{\"metric_key\":\"m\",\"comparator\":\"<\"}", "{\"metric_key\":\"m\"}", "{\"comparator\":\">\"}", "null"],
            "metrics" => &["{\"m\":1,\"n\":2.5}", "{\"m\":1e400,\"n\":2}", "{\"m\":[1],\"n\":-0}", "{\"m\":\"x\",\"o\":{\"a\":1}}", "{\"m\":18446744073709551616}", "{\"m\\n\":1}", "{}", "null", "[1]"],
            "verdict" => &["{\"verdict\":\"supported\",\"detail\":\"d\"}", "{\"verdict\":\"odd\"}", "{\"detail\":\"d\"}", "null"],
            "ratchet" => &[
                "{\"segment\":\"s\",\"status\":\"discard\",\"metric\":\"m\",\"direction\":\"max\",\"kept\":\"k\"}",
                "{\"segment\":\"s\",\"status\":\"keep\",\"metric\":\"m\",\"record_from\":1,\"confirmed\":false,\"commit\":null,\"best\":1}",
                "{\"segment\":\"s\",\"status\":\"x\",\"metric\":\"n\",\"direction\":\"up\"}",
                "{\"segment\":\"s\",\"metric\":\"m\"}",
                "{\"segment\":\"s\",\"status\":\"baseline\",\"metric\":\"m\",\"new_segment\":true,\"record_from\":-1}",
                "null",
            ],
            _ => &["1", "\"x\"", "[1,{\"a\":[]}]", "{\"b\":null}", "null"],
        }
    }

    const KEYS: &[&str] = &[
        "run_id",
        "started_at",
        "duration_ms",
        "hypothesis",
        "candidate",
        "git",
        "spec",
        "metrics",
        "exit_code",
        "timed_out",
        "interrupted",
        "stopped_on_result",
        "failure_class",
        "verdict",
        "attempts",
        "samples",
        "interval",
        "ratchet",
        "status",
        "stdout_tail",
        "run\\u005fid",
        "a",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn the_walk_never_reads_a_line_otherwise_than_serde(
            keys in proptest::sample::subsequence(KEYS, 0..KEYS.len()),
            picks in proptest::collection::vec(0..64usize, KEYS.len()),
            repeat in proptest::option::of(0..KEYS.len()),
            spaced in any::<bool>(),
        ) {
            let sep = if spaced { " , " } else { "," };
            let mut keys = keys;
            keys.insert(0, "run_id");
            if let Some(r) = repeat {
                keys.push(KEYS[r]);
            }
            let parts: Vec<String> = keys
                .iter()
                .zip(&picks)
                .map(|(k, &i)| {
                    let f = forms(k);
                    format!("\"{k}\":{}", f[i % f.len()])
                })
                .collect();
            let line = format!("{{{}}}", parts.join(sep));
            agree(&line);
        }
    }
}
