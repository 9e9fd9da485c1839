//! The live page of `arx serve`: the report's page (`html.rs`) with the
//! runs running now and the backlog of ideas, each part in an element of
//! its own that the page's script replaces when the server sends it again
//! (Server-Sent Events from `events`), and each run added to the top of
//! the run table as it ends. The policy lets the page connect to its own
//! server and nowhere else.

use std::fmt::Write as _;

use serde_json::json;

use super::html::{self, escape, Page, TABLE_LIMIT};
use super::overview::{duration, num, one_line, short_run};
use crate::kernel::idea::Idea;
use crate::kernel::report::Row;

/// Most ideas the page lists (the open and running ones first).
pub const IDEAS_SHOWN: usize = 200;

/// A run running now, as the page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct RunningRow {
    pub run_id: String,
    /// `run` or `try`.
    pub kind: String,
    /// `running`, `queued`, `idle`, `late`, `lost`, ...
    pub state: String,
    /// What runs now (`candidate run 2`).
    pub label: String,
    pub elapsed_ms: u64,
    /// Its last progress metrics (or its result, once there).
    pub progress: Vec<(String, f64)>,
    pub slot: Option<String>,
    /// Set when its pruning rule is stopping it.
    pub pruning: Option<String>,
    pub command: String,
}

/// What the live page shows.
pub struct Live<'a> {
    pub page: Page<'a>,
    pub running: &'a [RunningRow],
    pub ideas: &'a [Idea],
    /// Changes when the server starts again or the journal is replaced: a
    /// page of another generation reloads.
    pub generation: &'a str,
    /// The last run the page holds (its number in the journal).
    pub last_run: usize,
}

const STYLE: &str = "
#live-state{font-weight:600}#live-state.on{color:#1a7f37}#live-state.off{color:#9a6700}
#running td.p{font-family:ui-monospace,monospace;font-size:12px}
";

const SCRIPT: &str = "
(function(){
var b=document.body,G=b.getAttribute('data-generation'),last=+b.getAttribute('data-last-run');
var st=document.getElementById('live-state');
function say(t,c){st.textContent=t;st.className=c;}
var es=new EventSource('events?since='+last);
es.addEventListener('open',function(){say('live','on');});
es.addEventListener('error',function(){say('reconnecting…','off');});
es.addEventListener('hello',function(e){if(JSON.parse(e.data).generation!==G)location.reload();});
es.addEventListener('reload',function(){location.reload();});
es.addEventListener('section',function(e){var d=JSON.parse(e.data),el=document.getElementById(d.id);if(el)el.innerHTML=d.html;});
es.addEventListener('rows',function(e){var d=JSON.parse(e.data),h='';
d.rows.forEach(function(r){if(r.n>last){h=r.html+h;last=r.n;}});
if(h&&window.arxRows)window.arxRows(h,LIMIT);
var t=document.getElementById('runs-total');if(t)t.textContent=d.total;});
})();
";

/// The whole live page.
pub fn render(live: &Live<'_>) -> String {
    let page = &live.page;
    let mut out = String::with_capacity(page.rows.len() * 400 + page.svg.len() + 16_384);
    html::open(&mut out, &page.chart.title, None, "'self'", STYLE);
    // The body's attributes carry what the script starts from.
    let head = out.rfind("<body>").unwrap_or(out.len());
    out.truncate(head);
    let _ = write!(
        out,
        "<body data-generation=\"{}\" data-last-run=\"{}\">",
        escape(live.generation),
        live.last_run
    );
    out.push_str("<h1>arx report <span id=\"live-state\" class=\"off\">connecting…</span></h1>");
    let _ = write!(out, "<div id=\"intro\">{}</div>", intro(page));
    let _ = write!(out, "<div id=\"running\">{}</div>", running(live.running));
    let _ = write!(out, "<div id=\"chart\">{}</div>", chart(page));
    let _ = write!(out, "<div id=\"segments\">{}</div>", segments(page));
    let _ = write!(out, "<div id=\"ideas\">{}</div>", ideas(live.ideas));
    html::runs(&mut out, page, true);
    let _ = write!(out, "<div id=\"rounds\">{}</div>", rounds(page));
    html::close(&mut out, &SCRIPT.replace("LIMIT", &TABLE_LIMIT.to_string()));
    out
}

/// The line that says what the page covers.
pub fn intro(page: &Page<'_>) -> String {
    let mut out = String::new();
    html::intro(&mut out, page, None);
    out
}

/// The chart.
pub fn chart(page: &Page<'_>) -> String {
    let mut out = String::new();
    html::chart(&mut out, page);
    out
}

/// The segments' facts and the groups.
pub fn segments(page: &Page<'_>) -> String {
    let mut out = String::new();
    html::segments(&mut out, page.overview);
    out
}

/// The rounds and dead ends.
pub fn rounds(page: &Page<'_>) -> String {
    let mut out = String::new();
    html::rounds_and_dead_ends(&mut out, page.overview);
    out
}

/// The runs running now.
pub fn running(runs: &[RunningRow]) -> String {
    let mut out = format!(
        "<h2>Running now <span class=\"muted\">({})</span></h2>",
        runs.len()
    );
    if runs.is_empty() {
        out.push_str("<p class=\"muted\">Nothing runs now.</p>");
        return out;
    }
    out.push_str(
        "<table id=\"running-runs\"><thead><tr><th>run</th><th>kind</th><th>state</th><th>now</th>\
         <th class=\"n\">elapsed</th><th>progress</th><th>slot</th><th>command</th></tr></thead><tbody>",
    );
    for r in runs {
        let progress: Vec<String> = r
            .progress
            .iter()
            .map(|(k, v)| format!("{}={}", one_line(k), num(*v)))
            .collect();
        let mut now = one_line(&r.label);
        if let Some(p) = &r.pruning {
            let _ = write!(now, " (pruning: {})", one_line(p));
        }
        let _ = write!(
            out,
            "<tr data-run=\"{}\"><td class=\"t\">{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td class=\"n\">{}</td><td class=\"p\">{}</td><td>{}</td><td>{}</td></tr>",
            escape(&r.run_id),
            escape(short_run(&r.run_id)),
            escape(&r.kind),
            escape(&r.state),
            escape(&now),
            escape(&duration(r.elapsed_ms)),
            escape(&progress.join(" ")),
            escape(r.slot.as_deref().unwrap_or("")),
            escape(&one_line(&r.command)),
        );
    }
    out.push_str("</tbody></table>");
    out
}

/// The backlog of ideas: the running and open ones first, then the tried
/// and dropped, at most [`IDEAS_SHOWN`].
pub fn ideas(ideas: &[Idea]) -> String {
    let mut out = String::new();
    if ideas.is_empty() {
        return out;
    }
    let rank = |i: &Idea| match i.status().word() {
        "in_flight" => 0,
        "open" => 1,
        "tried" => 2,
        _ => 3,
    };
    let mut shown: Vec<&Idea> = ideas.iter().collect();
    shown.sort_by_key(|i| rank(i));
    let open = ideas.iter().filter(|i| i.is_open()).count();
    let _ = write!(
        out,
        "<h2>Ideas <span class=\"muted\">({} open of {})</span></h2>",
        open,
        ideas.len()
    );
    if ideas.len() > IDEAS_SHOWN {
        let _ = write!(
            out,
            "<p class=\"muted\">The first {IDEAS_SHOWN} are listed; <code>arx idea list</code> lists them all.</p>"
        );
    }
    out.push_str(
        "<table id=\"idea-list\"><thead><tr><th>idea</th><th>status</th><th>family</th>\
         <th class=\"n\">tries</th><th>statement</th></tr></thead><tbody>",
    );
    for i in shown.into_iter().take(IDEAS_SHOWN) {
        let status = match i.status() {
            crate::kernel::idea::IdeaStatus::Tried { last } => format!("tried: {last}"),
            s => s.word().replace('_', " "),
        };
        let _ = write!(
            out,
            "<tr><td class=\"t\">{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            escape(&i.id),
            escape(&status),
            escape(&one_line(&i.family)),
            i.tries.len(),
            escape(&one_line(&i.statement)),
        );
    }
    out.push_str("</tbody></table>");
    out
}

/// One Server-Sent Event: its name, its id (when given) and its data, a
/// JSON value on one line.
pub fn event(name: &str, id: Option<usize>, data: &serde_json::Value) -> String {
    let mut out = format!("event: {name}\n");
    if let Some(id) = id {
        let _ = writeln!(out, "id: {id}");
    }
    let _ = write!(out, "data: {data}\n\n");
    out
}

/// The event that replaces the part `id` of the page with `html`.
pub fn section(id: &str, html: &str) -> String {
    event("section", None, &json!({"id": id, "html": html}))
}

/// The event that adds `rows` (oldest first) to the top of the run table,
/// with the count of runs in the journal; its id is the last row's number.
pub fn rows<'r>(rows: impl IntoIterator<Item = &'r Row>, total: usize) -> String {
    let mut last = None;
    let rows: Vec<serde_json::Value> = rows
        .into_iter()
        .map(|r| {
            let mut tr = String::new();
            html::row_html(&mut tr, r);
            last = Some(r.number);
            json!({"n": r.number, "html": tr})
        })
        .collect();
    event("rows", last, &json!({"rows": rows, "total": total}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_is_one_data_line_whatever_its_text() {
        let e = section("chart", "<p>a\nb\r\nc</p>");
        assert!(e.starts_with("event: section\ndata: {"));
        assert!(e.ends_with("}\n\n"));
        assert_eq!(e.lines().filter(|l| !l.is_empty()).count(), 2, "{e}");
        let e = event("hello", Some(7), &json!({"generation": "g"}));
        assert_eq!(e, "event: hello\nid: 7\ndata: {\"generation\":\"g\"}\n\n");
    }

    #[test]
    fn running_runs_are_escaped() {
        let html = running(&[RunningRow {
            run_id: "019a-<b>".into(),
            kind: "try".into(),
            state: "running".into(),
            label: "candidate <script>".into(),
            elapsed_ms: 61_000,
            progress: vec![("loss".into(), 0.5)],
            slot: None,
            pruning: None,
            command: "python train.py".into(),
        }]);
        assert!(html.contains("candidate &lt;script&gt;"));
        assert!(html.contains("loss=0.5"));
        assert!(!html.contains("<script>"));
    }
}
