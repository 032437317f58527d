use plotters::{coord::Shift, prelude::*};

use crate::{
    report::charts::{draw_legend, format_line, render},
    report::{Measurement, Run},
};

/// What a chart plots of a measurement, if anything.
type Value = fn(&Measurement) -> Option<f64>;

/// `message_cus.svg`: one panel per operation, CUs against the format's
/// encoded size, one line per format, both axes logarithmic.
pub fn message_svg(run: &Run) -> Result<String, String> {
    render(
        "message_cus.svg",
        (1200, 760),
        "Message family: compute units against encoded size (log-log, lower is better)",
        |page| draw_message(run, page, "CUs", |m| Some(m.cus as f64)),
    )
}

/// `message_heap.svg`: the same panels, heap bytes touched (formats that
/// allocate nothing have no line: a log axis has no zero).
pub fn message_heap_svg(run: &Run) -> Result<String, String> {
    render(
        "message_heap.svg",
        (1200, 760),
        "Message family: heap bytes against encoded size (log-log; formats with no heap left out)",
        |page| {
            draw_message(run, page, "heap bytes", |m| {
                m.footprint
                    .map(|f| f.heap_bytes as f64)
                    .filter(|&heap| heap > 0.0)
            })
        },
    )
}

fn draw_message<'a>(
    run: &Run,
    page: &DrawingArea<SVGBackend<'a>, Shift>,
    y_desc: &str,
    value: Value,
) -> Result<(), Box<dyn std::error::Error + 'a>> {
    let (operations, _) = run.message_axes();
    let programs = run.message_programs();
    let points = run.message();
    let top = points.iter().filter_map(|m| value(m)).fold(10.0, f64::max) * 2.0;
    let max_bytes = points
        .iter()
        .filter_map(|m| m.encoded_bytes)
        .max()
        .unwrap_or(10) as f64
        * 1.5;
    let min_bytes = points
        .iter()
        .filter_map(|m| m.encoded_bytes)
        .min()
        .unwrap_or(1) as f64
        / 1.5;
    let panels = page.split_evenly((2, 3));
    for (i, (panel, op)) in panels.iter().zip(&operations).enumerate() {
        let mut chart = ChartBuilder::on(panel)
            .caption(*op, ("sans-serif", 16))
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d((min_bytes..max_bytes).log_scale(), (20f64..top).log_scale())?;
        chart
            .configure_mesh()
            .x_desc("encoded bytes")
            .y_desc(y_desc)
            .x_label_formatter(&|b| format!("{b:.0}"))
            .y_label_formatter(&|c| format!("{c:.0}"))
            .label_style(("sans-serif", 11))
            .draw()?;
        for (j, program) in programs.iter().enumerate() {
            // A colour per format, the same in both charts.
            let color = Palette99::pick(j).to_rgba();
            let mut line: Vec<(f64, f64)> = points
                .iter()
                .filter(|m| m.program == *program && m.operation == *op)
                .filter_map(|m| Some((m.encoded_bytes? as f64, value(m)?)))
                .collect();
            line.sort_by(|a, b| a.0.total_cmp(&b.0));
            format_line(&mut chart, line, color, (i == 0).then_some(*program))?;
        }
        if i == 0 {
            draw_legend(&mut chart)?;
        }
    }
    Ok(())
}
