//! The progress chart as SVG, drawn with `plotters`: runs on the x axis
//! (or hours), the metric on the y axis; kept runs as solid points joined
//! by the best-so-far step line, other runs as faint points, crashes as
//! red triangles on the x axis, intervals as whiskers, the target as a
//! green line, short labels on kept runs. Every run is one mark: a circle
//! (a run with a value) or a triangle (a run without).

use std::io::Write;

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
            .x_labels(12)
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
        // Labels in the right fifth of the chart end at their point.
        let right = x0 + (x1 - x0) * 0.8;
        let labels = chart.points.iter().filter_map(|p| {
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

fn plot_error<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("cannot draw the chart: {e}")
}
