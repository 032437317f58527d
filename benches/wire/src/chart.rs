//! The wire report's charts: bytes on the wire by size, and the zstd ratio's
//! quartiles by size bucket, for the message family's formats.

use benches::report::charts::format_line;
use benches::{
    Family,
    message::{Content, SIZES},
};
use plotters::{coord::Shift, prelude::*};

use crate::report::{WireReport, message_formats};

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type Fallible<'a> = Result<(), Box<dyn std::error::Error + 'a>>;

fn svg(
    name: &str,
    size: (u32, u32),
    draw: impl for<'a> FnOnce(Area<'a>) -> Fallible<'a>,
) -> Result<String, String> {
    let mut svg = String::new();
    draw(SVGBackend::with_string(&mut svg, size).into_drawing_area())
        .map_err(|error| format!("drawing {name}: {error}"))?;
    Ok(svg)
}

fn formats(report: &WireReport) -> Vec<&str> {
    message_formats(&report.rows)
}

fn x_range() -> std::ops::Range<f64> {
    SIZES[0] as f64 / 1.3..SIZES[SIZES.len() - 1] as f64 * 1.3
}

/// `wire_sizes.svg`: per transport (`base64`, `base64+zstd`), bytes sent
/// against the instance's nominal size, a line per format, log-log.
pub fn sizes_svg(report: &WireReport) -> Result<String, String> {
    svg("wire_sizes.svg", (1100, 460), |root| {
        root.fill(&WHITE)?;
        let root = root.titled(
            "Message family: bytes the RPC sends, by instance size (log-log)",
            ("sans-serif", 20),
        )?;
        let panels = root.split_evenly((1, 2));
        let top = report
            .rows
            .iter()
            .map(|r| r.sizes.base64)
            .max()
            .unwrap_or(10) as f64
            * 1.5;
        for (i, (panel, (title, pick))) in panels
            .iter()
            .zip([
                (
                    "base64",
                    (|s: &crate::report::Sizes| s.base64) as fn(&crate::report::Sizes) -> usize,
                ),
                ("base64+zstd", |s| s.base64_zstd),
            ])
            .enumerate()
        {
            let mut chart = ChartBuilder::on(panel)
                .caption(title, ("sans-serif", 16))
                .margin(10)
                .x_label_area_size(36)
                .y_label_area_size(60)
                .build_cartesian_2d(x_range().log_scale(), (50f64..top).log_scale())?;
            chart
                .configure_mesh()
                .x_desc("nominal size (bytes)")
                .y_desc("bytes sent")
                .x_label_formatter(&|v| format!("{v:.0}"))
                .y_label_formatter(&|v| format!("{v:.0}"))
                .draw()?;
            for (j, format) in formats(report).into_iter().enumerate() {
                let color = Palette99::pick(j).to_rgba();
                let line: Vec<(f64, f64)> = report
                    .rows
                    .iter()
                    .filter(|r| r.family == Family::Message && r.format == format)
                    .map(|r| (r.size as f64, pick(&r.sizes) as f64))
                    .collect();
                format_line(&mut chart, line, color, (i == 0).then_some(format))?;
            }
            if i == 0 {
                chart
                    .configure_series_labels()
                    .position(SeriesLabelPosition::UpperLeft)
                    .background_style(WHITE.mix(0.9))
                    .border_style(BLACK)
                    .draw()?;
            }
        }
        root.present()?;
        Ok(())
    })
}

/// `wire_ratios.svg`: the zstd ratio's median (dot) and q1-q3 (bar) by size
/// bucket, a panel per content, a series per format.
pub fn ratios_svg(report: &WireReport) -> Result<String, String> {
    svg("wire_ratios.svg", (1100, 460), |root| {
        root.fill(&WHITE)?;
        let root = root.titled(
            "Message family: zstd ratio (compressed / raw) by size bucket, median and quartiles",
            ("sans-serif", 20),
        )?;
        let panels = root.split_evenly((1, 2));
        let names = formats(report);
        for (i, (panel, content)) in panels
            .iter()
            .zip([Content::Realistic, Content::Random])
            .enumerate()
        {
            let mut chart = ChartBuilder::on(panel)
                .caption(format!("{content:?} content"), ("sans-serif", 16))
                .margin(10)
                .x_label_area_size(36)
                .y_label_area_size(50)
                .build_cartesian_2d(x_range().log_scale(), 0f64..1.1)?;
            chart
                .configure_mesh()
                .x_desc("nominal size (bytes)")
                .y_desc("zstd / raw")
                .x_label_formatter(&|v| format!("{v:.0}"))
                .draw()?;
            for (j, format) in names.iter().enumerate() {
                let color = Palette99::pick(j).to_rgba();
                // Each format a little to the side, so the bars do not overlap.
                let shift = 1.0 + 0.03 * (j as f64 - names.len() as f64 / 2.0);
                let points: Vec<(f64, f64, f64, f64)> = report
                    .distributions
                    .iter()
                    .filter(|d| d.content == content && d.format == *format && d.codec == "zstd")
                    .map(|d| (d.size as f64 * shift, d.q1, d.median, d.q3))
                    .collect();
                chart.draw_series(points.iter().map(|&(x, q1, _, q3)| {
                    PathElement::new(vec![(x, q1), (x, q3)], color.stroke_width(3))
                }))?;
                let series = chart.draw_series(
                    points
                        .iter()
                        .map(|&(x, _, median, _)| Circle::new((x, median), 3, color.filled())),
                )?;
                if i == 0 {
                    series.label(*format).legend(move |(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled())
                    });
                }
            }
            if i == 0 {
                chart
                    .configure_series_labels()
                    .position(SeriesLabelPosition::LowerLeft)
                    .background_style(WHITE.mix(0.9))
                    .border_style(BLACK)
                    .draw()?;
            }
        }
        root.present()?;
        Ok(())
    })
}
