//! The progress chart as SVG, drawn with `plotters`: runs on the x axis
//! (or hours), the metric on the y axis; kept runs as solid points joined
//! by the best-so-far step line, other runs as faint points, crashes as
//! red triangles on the x axis, intervals as whiskers, the target as a
//! green line, short labels on kept runs. Every run is one mark: a circle
//! (a run with a value) or a triangle (a run without).

use std::io::Write;

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::Exporter;
use crate::kernel::report::{Chart, Mark, XAxis};

/// The chart's size in pixels.
pub const WIDTH: u32 = 960;
pub const HEIGHT: u32 = 480;

const KEPT: RGBColor = RGBColor(31, 119, 180);
const CRASH: RGBColor = RGBColor(214, 39, 40);
const FAINT: RGBColor = RGBColor(120, 120, 120);
const TARGET: RGBColor = RGBColor(44, 160, 44);

/// An SVG document of a [`Chart`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Svg;

impl Exporter<Chart> for Svg {
    fn export(&self, chart: &Chart, out: &mut dyn Write) -> anyhow::Result<()> {
        out.write_all(render(chart)?.as_bytes())?;
        Ok(())
    }
}

/// The y range: every value, interval, best line and the target, padded.
fn y_range(chart: &Chart) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    let mut see = |v: f64| {
        if v.is_finite() {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    };
    for p in &chart.points {
        if let Some(y) = p.y {
            see(y);
        }
        if let Some((a, b)) = p.interval {
            see(a);
            see(b);
        }
    }
    chart.best.iter().flatten().for_each(|&(_, y)| see(y));
    if let Some(t) = chart.target {
        see(t);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = if hi > lo {
        (hi - lo) * 0.08
    } else {
        lo.abs().max(1.0) * 0.05
    };
    (lo - pad, hi + pad)
}

fn x_range(chart: &Chart) -> (f64, f64) {
    let (lo, hi) = chart
        .points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.x), hi.max(p.x))
        });
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.02).max(match chart.x_axis {
        XAxis::Run => 0.5,
        XAxis::Time => 0.01,
    });
    (lo - pad, hi + pad)
}

/// Pixels of the plotting area (the chart less its margins and label
/// areas), for placing labels.
const PLOT_W: f64 = (WIDTH - 2 * 12 - 64) as f64;
const PLOT_H: f64 = (HEIGHT - 2 * 12 - 36 - 30) as f64;
/// Estimated size of a label's text: 13 px sans-serif.
const LABEL_CHAR_W: f64 = 7.0;
const LABEL_H: f64 = 16.0;

/// How many x-axis labels: at most 12, and on a run axis never more than
/// there are whole runs in the range, so every label is a whole number.
fn x_label_count(chart: &Chart, (x0, x1): (f64, f64)) -> usize {
    match chart.x_axis {
        XAxis::Run => ((x1.floor() - x0.ceil()) as usize + 1).clamp(1, 12),
        XAxis::Time => 12,
    }
}

/// An x-axis label: run numbers as whole numbers (a position between two
/// runs has none), hours with the precision plotters picked.
fn x_label(axis: XAxis, x: f64) -> String {
    match axis {
        XAxis::Run if (x - x.round()).abs() < 1e-6 => format!("{}", x.round() as i64),
        XAxis::Run => String::new(),
        XAxis::Time => {
            let text = format!("{x:.2}");
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    }
}

/// Which labelled points get their label drawn: the latest first, each
/// only when its text does not overlap one already placed (estimated
/// boxes in pixels, as `render` places them), so close keeps do not write
/// over each other. Returns their indices in `chart.points`.
pub fn placed_labels(chart: &Chart, (x0, x1): (f64, f64), (y0, y1): (f64, f64)) -> Vec<usize> {
    let right = x0 + (x1 - x0) * 0.8;
    let mut boxes: Vec<(f64, f64, f64, f64)> = Vec::new();
    let mut placed = Vec::new();
    for (i, p) in chart.points.iter().enumerate().rev() {
        let (Some(label), Some(y)) = (&p.label, p.y) else {
            continue;
        };
        let px = (p.x - x0) / (x1 - x0) * PLOT_W;
        let py = (y1 - y) / (y1 - y0) * PLOT_H;
        let w = label.chars().count() as f64 * LABEL_CHAR_W;
        let left = if p.x > right { px - 6.0 - w } else { px + 6.0 };
        let b = (left, py - 16.0, left + w, py - 16.0 + LABEL_H);
        let overlaps = boxes
            .iter()
            .any(|o| b.0 < o.2 && o.0 < b.2 && b.1 < o.3 && o.1 < b.3);
        if !overlaps {
            boxes.push(b);
            placed.push(i);
        }
    }
    placed.sort_unstable();
    placed
}

/// The chart as an SVG document.
pub fn render(chart: &Chart) -> anyhow::Result<String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let (x0, x1) = x_range(chart);
        let (y0, y1) = y_range(chart);
        let mut caption = chart.title.clone();
        if chart.downsampled() {
            caption.push_str(&format!(
                " ({} of {} runs drawn)",
                chart.points.len(),
                chart.total
            ));
        }
        let mut cc = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(64)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(plot_error)?;
        draw_axes(&mut cc, chart, (x0, x1))?;
        draw_points(&mut cc, chart)?;
        draw_labels(&mut cc, chart, (x0, x1), (y0, y1))?;
        if chart.target.is_some() || !chart.best.is_empty() {
            cc.configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(RGBColor(200, 200, 200))
                .position(SeriesLabelPosition::UpperRight)
                .draw()
                .map_err(plot_error)?;
        }
        root.present().map_err(plot_error)?;
    }
    Ok(text)
}

/// The chart area the marks are drawn on.
type Plot<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The mesh, the axes' names and the target line.
fn draw_axes(cc: &mut Plot<'_, '_>, chart: &Chart, (x0, x1): (f64, f64)) -> anyhow::Result<()> {
    let better = match chart.direction {
        Some(crate::kernel::stats::Direction::Min) => " (lower is better)",
        Some(crate::kernel::stats::Direction::Max) => " (higher is better)",
        None => "",
    };
    cc.configure_mesh()
        .x_desc(match chart.x_axis {
            XAxis::Run => "run",
            XAxis::Time => "hours since the first run",
        })
        .y_desc(format!("{}{better}", chart.metric))
        .x_labels(x_label_count(chart, (x0, x1)))
        .x_label_formatter(&|x| x_label(chart.x_axis, *x))
        .y_labels(10)
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 15))
        .bold_line_style(RGBColor(225, 225, 225))
        .light_line_style(TRANSPARENT)
        .draw()
        .map_err(plot_error)?;
    if let Some(t) = chart.target {
        cc.draw_series(LineSeries::new([(x0, t), (x1, t)], TARGET.stroke_width(1)))
            .map_err(plot_error)?
            .label(format!("target {t}"))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], TARGET));
    }
    Ok(())
}

/// The runs: intervals, faint points, the best-so-far line, kept points.
fn draw_points(cc: &mut Plot<'_, '_>, chart: &Chart) -> anyhow::Result<()> {
    // Intervals first, so that points are drawn over them.
    let whiskers = chart.points.iter().filter_map(|p| {
        let (a, b) = p.interval?;
        let color = if p.mark == Mark::Kept {
            KEPT.mix(0.6)
        } else {
            FAINT.mix(0.3)
        };
        Some(PathElement::new(
            [(p.x, a), (p.x, b)],
            color.stroke_width(1),
        ))
    });
    cc.draw_series(whiskers).map_err(plot_error)?;
    let faint = chart
        .points
        .iter()
        .filter(|p| p.mark == Mark::Discarded)
        .filter_map(|p| Some(Circle::new((p.x, p.y?), 3, FAINT.mix(0.35).filled())));
    cc.draw_series(faint).map_err(plot_error)?;
    for (i, line) in chart.best.iter().enumerate() {
        let series = cc
            .draw_series(LineSeries::new(line.iter().copied(), KEPT.stroke_width(2)))
            .map_err(plot_error)?;
        if i == 0 {
            series
                .label("best so far")
                .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], KEPT.stroke_width(2)));
        }
    }
    let kept = chart
        .points
        .iter()
        .filter(|p| p.mark == Mark::Kept)
        .filter_map(|p| Some(Circle::new((p.x, p.y?), 4, KEPT.filled())));
    cc.draw_series(kept).map_err(plot_error)?;
    Ok(())
}

/// The kept runs' labels, and the runs without a value on the x axis.
fn draw_labels(
    cc: &mut Plot<'_, '_>,
    chart: &Chart,
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
) -> anyhow::Result<()> {
    // Labels in the right fifth of the chart end at their point.
    let right = x0 + (x1 - x0) * 0.8;
    let shown = placed_labels(chart, (x0, x1), (y0, y1));
    let labels = shown.iter().filter_map(|&i| {
        let p = &chart.points[i];
        let label = p.label.as_ref()?;
        let font = ("sans-serif", 13).into_font().color(&KEPT.mix(0.9));
        let (offset, font) = if p.x > right {
            (
                (-6, -16),
                font.pos(plotters::style::text_anchor::Pos::new(
                    plotters::style::text_anchor::HPos::Right,
                    plotters::style::text_anchor::VPos::Top,
                )),
            )
        } else {
            ((6, -16), font)
        };
        Some(EmptyElement::at((p.x, p.y?)) + Text::new(label.clone(), offset, font))
    });
    cc.draw_series(labels).map_err(plot_error)?;
    // Runs without a value sit on the x axis.
    let axis = chart
        .points
        .iter()
        .filter(|p| matches!(p.mark, Mark::Crash | Mark::NoValue))
        .map(|p| {
            let color = if p.mark == Mark::Crash {
                CRASH.filled()
            } else {
                FAINT.mix(0.5).filled()
            };
            TriangleMarker::new((p.x, y0), 5, color)
        });
    cc.draw_series(axis).map_err(plot_error)?;
    Ok(())
}

fn plot_error<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("cannot draw the chart: {e}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::report::ChartPoint;

    fn chart(points: Vec<ChartPoint>) -> Chart {
        let total = points.len();
        Chart {
            title: "t".into(),
            metric: "m".into(),
            direction: None,
            x_axis: XAxis::Run,
            points,
            best: Vec::new(),
            target: None,
            total,
        }
    }

    fn kept(x: f64, y: f64, label: &str) -> ChartPoint {
        ChartPoint {
            x,
            y: Some(y),
            interval: None,
            mark: Mark::Kept,
            label: Some(label.into()),
        }
    }

    /// Every `<text x=".." y="..">content</text>` of an SVG.
    fn texts(svg: &str) -> Vec<(f64, f64, String)> {
        let re = regex::Regex::new(r#"<text x="([-0-9.]+)" y="([-0-9.]+)"[^>]*>([^<]*)</text>"#)
            .unwrap();
        re.captures_iter(svg)
            .map(|c| {
                (
                    c[1].parse().unwrap(),
                    c[2].parse().unwrap(),
                    c[3].trim().to_string(),
                )
            })
            .collect()
    }

    #[test]
    fn the_run_axis_is_labelled_with_whole_runs() {
        let svg = render(&chart(vec![
            kept(1.0, 150.0, "a"),
            kept(2.0, 160.0, "b"),
            kept(3.0, 170.0, "c"),
        ]))
        .unwrap();
        let all: Vec<String> = texts(&svg).into_iter().map(|t| t.2).collect();
        for run in ["1", "2", "3"] {
            assert!(all.iter().any(|t| t == run), "{run} in {all:?}");
        }
        for half in ["0.5", "1.0", "1.5", "2.0", "2.5", "3.0", "3.5"] {
            assert!(!all.iter().any(|t| t == half), "{half} in {all:?}");
        }
        assert_eq!(x_label(XAxis::Run, 10.0), "10");
        assert_eq!(x_label(XAxis::Run, 10.5), "");
        assert_eq!(x_label(XAxis::Time, 1.5), "1.5");
    }

    #[test]
    fn labels_of_close_keeps_are_thinned_so_none_overlap() {
        let points: Vec<ChartPoint> = (1..=30)
            .map(|i| {
                kept(
                    f64::from(i),
                    100.0 - f64::from(i) * 0.01,
                    &format!("keep number {i}"),
                )
            })
            .collect();
        let svg = render(&chart(points)).unwrap();
        let labels: Vec<(f64, f64, String)> = texts(&svg)
            .into_iter()
            .filter(|t| t.2.starts_with("keep number"))
            .collect();
        assert!(
            !labels.is_empty() && labels.len() < 30,
            "{} labels",
            labels.len()
        );
        assert!(
            labels.iter().any(|t| t.2 == "keep number 30"),
            "the latest keep keeps its label"
        );
        // No two drawn labels' boxes (13 px text) overlap.
        for (i, a) in labels.iter().enumerate() {
            for b in &labels[i + 1..] {
                let wa = a.2.len() as f64 * LABEL_CHAR_W;
                let wb = b.2.len() as f64 * LABEL_CHAR_W;
                let apart_x = a.0 + wa <= b.0 || b.0 + wb <= a.0;
                let apart_y = (a.1 - b.1).abs() >= LABEL_H;
                assert!(apart_x || apart_y, "{a:?} overlaps {b:?}");
            }
        }
    }
}
