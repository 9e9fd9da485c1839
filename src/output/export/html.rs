//! The report as one self-contained HTML page: the chart (inline SVG), the
//! segment's facts, the groups, a sortable and paged run table, the rounds
//! and dead ends. Styles and the script are inline and a content security
//! policy forbids every request, so the page opens from a file with no
//! network. `refresh` makes it reload itself.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::Write;

use super::overview::{
    duration, facts, families_table, groups_table, num, one_line, short_commit, short_run, signed,
    with_interval,
};
use super::{Align, Column, Exporter, Table};
use crate::kernel::report::{Chart, Overview, Row};

/// Most runs the page's table holds: the latest ones (the page says how
/// many are left out; `arx log --format csv` lists them all).
pub const TABLE_LIMIT: usize = 5_000;

/// Rows per page of the run table.
const PAGE_ROWS: usize = 100;

/// What the page shows.
pub struct Page<'a> {
    pub overview: &'a Overview,
    pub chart: &'a Chart,
    /// The chart drawn as SVG.
    pub svg: &'a str,
    pub rows: &'a [Row],
    /// Runs in scope (`rows` may hold the latest of them only).
    pub rows_total: usize,
}

/// The HTML page, reloading itself every `refresh` seconds when set.
#[derive(Debug, Clone, Copy, Default)]
pub struct Html {
    pub refresh: Option<u64>,
}

/// `text` with `&`, `<`, `>`, `"` and `'` written as entities: safe in
/// element content and in quoted attribute values; control characters
/// (bidirectional ones included) shown by the escape of
/// [`crate::kernel::text`].
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.contains(['&', '<', '>', '"', '\'']) {
        return crate::kernel::text::visible(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => crate::kernel::text::push_visible(&mut out, c),
        }
    }
    Cow::Owned(out)
}

const STYLE: &str = "
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px auto;max-width:1400px;padding:0 16px;color:#1d1d1f}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.muted{color:#6e6e73}.chart svg{max-width:100%;height:auto;border:1px solid #e5e5ea;border-radius:6px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{padding:3px 10px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
td.n,th.n{text-align:right;white-space:nowrap}td.t{white-space:nowrap}th{background:#f5f5f7;position:sticky;top:0}
#runs{font-size:13px;width:100%}#runs td.w{overflow-wrap:anywhere;min-width:10em}#runs th{cursor:pointer;user-select:none}#runs th:hover{background:#e8e8ed}
.s-pass{color:#1a7f37;font-weight:600}.s-fail{color:#6e6e73}.s-crash{color:#cf222e;font-weight:600}.s-other{color:#9a6700}
.facts td:first-child{color:#6e6e73;padding-right:18px}
.pager{margin:8px 0}.scroll{overflow-x:auto}.pager button{margin-right:6px}
";

const SCRIPT: &str = "
(function(){
var t=document.getElementById('runs');if(!t)return;
var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows),page=0,size=PAGE;
var info=document.getElementById('page');
function show(){var pages=Math.max(1,Math.ceil(rows.length/size));page=Math.min(Math.max(page,0),pages-1);
rows.forEach(function(r,i){r.style.display=(i>=page*size&&i<(page+1)*size)?'':'none';});
if(info)info.textContent='page '+(page+1)+' of '+pages;}
function key(r,i){var c=r.cells[i];var v=c.getAttribute('data-v');if(v!==null&&v!=='')return parseFloat(v);return c.textContent;}
var dir={};
Array.prototype.forEach.call(t.tHead.rows[0].cells,function(th,i){th.addEventListener('click',function(){
var d=dir[i]=-(dir[i]||-1);rows.sort(function(a,b){var x=key(a,i),y=key(b,i);
if(typeof x==='number'&&typeof y==='number')return (x-y)*d;return String(x).localeCompare(String(y))*d;});
rows.forEach(function(r){body.appendChild(r);});page=0;show();});});
document.getElementById('prev').addEventListener('click',function(){page--;show();});
document.getElementById('next').addEventListener('click',function(){page++;show();});
window.arxRows=function(html,limit){body.insertAdjacentHTML('afterbegin',html);
rows=Array.prototype.slice.call(body.rows);while(rows.length>limit)body.removeChild(rows.pop());show();};
show();})();
";

fn status_class(status: &str) -> &'static str {
    use crate::kernel::report::{Class, Status};
    let class = Status::from_try(status)
        .map(Status::class)
        .unwrap_or(match status {
            "supported" | "ok" => Class::Pass,
            "refuted" => Class::Fail,
            "failed" => Class::Crash,
            _ => Class::Other,
        });
    match class {
        Class::Pass => "s-pass",
        Class::Fail => "s-fail",
        Class::Crash => "s-crash",
        Class::Inconclusive | Class::Other => "s-other",
    }
}

/// A [`Table`] as an HTML table (cells escaped, numbers aligned right).
pub(super) fn table(out: &mut String, t: &Table, class: &str) {
    let _ = write!(out, "<table class=\"{class}\"><thead><tr>");
    for c in t.columns() {
        let n = if c.align == Align::Right {
            " class=\"n\""
        } else {
            ""
        };
        let _ = write!(out, "<th{n}>{}</th>", escape(&c.header));
    }
    out.push_str("</tr></thead><tbody>");
    for row in t.rows() {
        out.push_str("<tr>");
        for (cell, c) in row.iter().zip(t.columns()) {
            let n = if c.align == Align::Right {
                " class=\"n\""
            } else {
                ""
            };
            let _ = write!(out, "<td{n}>{}</td>", escape(cell));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
}

fn cell_num(out: &mut String, value: Option<f64>, text: &str) {
    match value {
        Some(v) if v.is_finite() => {
            let _ = write!(out, "<td class=\"n\" data-v=\"{v}\">{}</td>", escape(text));
        }
        _ => {
            let _ = write!(out, "<td class=\"n\" data-v=\"\">{}</td>", escape(text));
        }
    }
}

fn cell(out: &mut String, text: &str) {
    let _ = write!(out, "<td>{}</td>", escape(text));
}

/// A cell of free text, which wraps anywhere (a long word included), so
/// the runs table fits the window.
fn cell_wrap(out: &mut String, text: &str) {
    let _ = write!(out, "<td class=\"w\">{}</td>", escape(text));
}

fn run_rows<'r>(out: &mut String, rows: impl IntoIterator<Item = &'r Row>) {
    out.push_str(
        "<table id=\"runs\"><thead><tr><th class=\"n\">#</th><th>run</th><th>started</th>\
         <th class=\"n\">duration</th><th class=\"n\">segment</th><th>candidate</th><th>metric</th>\
         <th class=\"n\">value</th><th class=\"n\">change</th><th>verdict</th><th>commit</th>\
         <th>description</th><th>metrics</th></tr></thead><tbody>",
    );
    for r in rows {
        row_html(out, r);
    }
    out.push_str("</tbody></table>");
}

/// One run as a row of the run table.
pub fn row_html(out: &mut String, r: &Row) {
    {
        out.push_str("<tr>");
        cell_num(out, Some(r.number as f64), &r.number.to_string());
        let _ = write!(out, "<td class=\"t\">{}</td>", escape(short_run(&r.run_id)));
        let _ = write!(
            out,
            "<td class=\"t\">{}</td>",
            escape(&start_time(&r.started_at))
        );
        cell_num(out, Some(r.duration_ms as f64), &duration(r.duration_ms));
        cell_num(
            out,
            r.segment.map(|s| s as f64),
            &r.segment.map_or(String::new(), |s| s.to_string()),
        );
        cell_wrap(out, r.candidate.as_deref().unwrap_or(""));
        cell(out, r.metric.as_deref().unwrap_or(""));
        cell_num(
            out,
            r.value,
            &r.value
                .map_or(String::new(), |v| with_interval(v, r.interval)),
        );
        cell_num(out, r.change, &r.change.map_or(String::new(), signed));
        let _ = write!(
            out,
            "<td class=\"{}\">{}</td>",
            status_class(&r.status),
            escape(&r.status)
        );
        cell(out, r.commit.as_deref().map_or("", short_commit));
        let text = match (&r.description, &r.detail) {
            (Some(d), Some(x)) => format!("{} — {}", one_line(d), one_line(x)),
            (Some(d), None) => one_line(d),
            (None, Some(x)) => one_line(x),
            (None, None) => String::new(),
        };
        cell_wrap(out, &text);
        let metrics: Vec<String> = r
            .metrics
            .iter()
            .map(|(k, v)| format!("{}={}", one_line(k), num(*v)))
            .collect();
        cell_wrap(out, &metrics.join(" "));
        out.push_str("</tr>");
    }
}

/// `2026-11-21 10:00:03` from an RFC 3339 time (UTC); other text as is.
fn start_time(text: &str) -> String {
    match text.parse::<jiff::Timestamp>() {
        Ok(ts) => ts.strftime("%Y-%m-%d %H:%M:%S").to_string(),
        Err(_) => one_line(text),
    }
}

/// The inline form of an SVG document: without an XML declaration.
fn inline_svg(svg: &str) -> &str {
    match svg.find("<svg") {
        Some(at) => &svg[at..],
        None => svg,
    }
}

/// The page as a string.
pub fn render(page: &Page<'_>, refresh: Option<u64>) -> String {
    let mut out = String::with_capacity(page.rows.len() * 400 + page.svg.len() + 16_384);
    open(&mut out, &page.chart.title, refresh, "", "");
    out.push_str("<h1>arx report</h1>");
    intro(&mut out, page, refresh);
    chart(&mut out, page);
    segments(&mut out, page.overview);
    runs(&mut out, page, false);
    rounds_and_dead_ends(&mut out, page.overview);
    close(&mut out, "");
    out
}

/// The page's end: the run table's script, and `more` script.
pub(super) fn close(out: &mut String, more: &str) {
    let _ = writeln!(
        out,
        "<script>{}{more}</script></body></html>",
        SCRIPT.replace("PAGE", &PAGE_ROWS.to_string())
    );
}

/// The page's head: the policy (`connect`: the sources it may connect
/// to, none when empty), the title, the styles (and `style`), the body
/// opened.
pub(super) fn open(
    out: &mut String,
    title: &str,
    refresh: Option<u64>,
    connect: &str,
    style: &str,
) {
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    let connect = if connect.is_empty() {
        String::new()
    } else {
        format!("; connect-src {connect}")
    };
    let _ = write!(
        out,
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:{connect}\">",
    );
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    if let Some(s) = refresh {
        let _ = write!(out, "<meta http-equiv=\"refresh\" content=\"{s}\">");
    }
    let _ = write!(out, "<title>arx report — {}</title>", escape(title));
    let _ = write!(out, "<style>{STYLE}{style}</style></head><body>");
}

/// The line that says what the page covers.
pub(super) fn intro(out: &mut String, page: &Page<'_>, refresh: Option<u64>) {
    let o = page.overview;
    let _ = write!(
        out,
        "<p class=\"muted\">{}; generated {}{}.</p>",
        escape(&o.counts()),
        escape(&o.generated_at),
        match refresh {
            Some(s) => format!("; reloads every {s} s"),
            None => String::new(),
        }
    );
}

/// The chart, and what it leaves out.
pub(super) fn chart(out: &mut String, page: &Page<'_>) {
    let _ = write!(out, "<div class=\"chart\">{}</div>", inline_svg(page.svg));
    if page.chart.downsampled() {
        let _ = write!(
            out,
            "<p class=\"muted\">The chart draws {} of {} runs: every kept run and every crash, and the lowest and highest of the others in each stretch of the x axis.</p>",
            page.chart.points.len(),
            page.chart.total
        );
    }
}

/// Each segment's facts, and the groups by metric and candidate.
pub(super) fn segments(out: &mut String, o: &Overview) {
    for s in &o.segments {
        let _ = write!(
            out,
            "<h2>Segment {} <span class=\"muted\">{}</span></h2>",
            s.number,
            escape(&s.id)
        );
        out.push_str("<table class=\"facts\"><tbody>");
        for (label, value) in facts(s) {
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td></tr>",
                escape(label),
                escape(&value)
            );
        }
        out.push_str("</tbody></table>");
        if let Some(t) = families_table(s) {
            out.push_str("<h3>By family</h3>");
            table(out, &t, "families");
        }
    }
    if !o.groups.is_empty() {
        out.push_str("<h2>By metric and candidate</h2>");
        table(out, &groups_table(&o.groups), "groups");
    }
}

/// The table of runs and its pager (newest first: for a page that adds
/// each run as it ends at the top).
pub(super) fn runs(out: &mut String, page: &Page<'_>, newest_first: bool) {
    let _ = write!(
        out,
        "<h2>Runs <span class=\"muted\">(<span id=\"runs-total\">{}</span>)</span></h2>",
        page.rows_total
    );
    if newest_first {
        let _ = write!(
            out,
            "<p class=\"muted\">Newest first, each run added as it ends; the table holds the latest {TABLE_LIMIT}; <code>arx log --format csv</code> lists every run.</p>",
        );
    } else if page.rows.len() < page.rows_total {
        let _ = write!(
            out,
            "<p class=\"muted\">The table holds the latest {} of {} runs; <code>arx log --format csv</code> lists every run.</p>",
            page.rows.len(),
            page.rows_total
        );
    }
    out.push_str("<div class=\"pager\"><button id=\"prev\" type=\"button\">previous</button><button id=\"next\" type=\"button\">next</button><span id=\"page\" class=\"muted\"></span></div>");
    out.push_str("<div class=\"scroll\">");
    if newest_first {
        run_rows(out, page.rows.iter().rev());
    } else {
        run_rows(out, page.rows);
    }
    out.push_str("</div>");
}

/// The rounds and the dead ends, when there are any.
pub(super) fn rounds_and_dead_ends(out: &mut String, o: &Overview) {
    if o.rounds_total > 0 {
        let _ = write!(
            out,
            "<h2>Rounds <span class=\"muted\">({})</span></h2>",
            o.rounds_total
        );
        let mut t = Table::new([
            Column::text("round"),
            Column::text("status"),
            Column::text("created"),
            Column::text("commit"),
            Column::text("detail"),
        ]);
        for r in &o.rounds {
            t.push([
                r.round_id.clone(),
                r.status.clone(),
                r.created_at.clone(),
                r.commit.as_deref().map_or("", short_commit).to_string(),
                r.detail.clone(),
            ]);
        }
        table(out, &t, "rounds");
    }
    if o.dead_ends_total > 0 {
        let _ = write!(
            out,
            "<h2>Dead ends <span class=\"muted\">({})</span></h2>",
            o.dead_ends_total
        );
        let mut t = Table::new([
            Column::text("statement"),
            Column::text("reason"),
            Column::text("recorded"),
        ]);
        for d in &o.dead_ends {
            t.push([
                d.statement.clone(),
                d.reason.clone(),
                d.created_at.clone().unwrap_or_default(),
            ]);
        }
        table(out, &t, "dead-ends");
    }
}

impl Exporter<Page<'_>> for Html {
    fn export(&self, page: &Page<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
        out.write_all(render(page, self.refresh).as_bytes())?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escape_writes_the_five_characters_as_entities() {
        assert_eq!(escape("plain"), "plain");
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
        assert_eq!(escape("é</script>"), "é&lt;/script&gt;");
        assert_eq!(escape("a\u{202e}b\u{1b}"), "a\\u{202e}b\\u{1b}");
        assert_eq!(escape("<\u{2066}"), "&lt;\\u{2066}");
    }
}
