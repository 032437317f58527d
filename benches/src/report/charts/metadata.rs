use plotters::{coord::Shift, prelude::*};

use crate::{
    metadata::INSTANCES,
    report::Run,
    report::charts::{draw_legend, render, series_label},
};

/// `metadata_cus.svg`: one panel per operation, CUs (log) on each
/// instance, one line per format; error-path rows left out.
pub fn metadata_svg(run: &Run) -> Result<String, String> {
    render(
        "metadata_cus.svg",
        (1200, 760),
        "Metadata family: compute units by instance (log, lower is better; error-path rows left out)",
        |page| draw(run, page),
    )
}

fn draw<'a>(
    run: &Run,
    page: &DrawingArea<SVGBackend<'a>, Shift>,
) -> Result<(), Box<dyn std::error::Error + 'a>> {
    let points = run.metadata();
    let max_cus = points.iter().map(|m| m.cus).max().unwrap_or(10) as f64 * 2.0;
    let programs = run.metadata_programs();
    let panels = page.split_evenly((2, 3));
    for (i, (panel, op)) in panels.iter().zip(run.metadata_operations()).enumerate() {
        let mut chart = ChartBuilder::on(panel)
            .caption(op, ("sans-serif", 16))
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.3f64..2.3, (20f64..max_cus).log_scale())?;
        chart
            .configure_mesh()
            .x_labels(3)
            .x_label_formatter(&|x| {
                INSTANCES
                    .get(x.round() as usize)
                    .filter(|_| (x - x.round()).abs() < 0.01)
                    .map_or(String::new(), |name| name.to_string())
            })
            .y_desc("CUs")
            .y_label_formatter(&|c| format!("{c:.0}"))
            .label_style(("sans-serif", 11))
            .draw()?;
        for (j, program) in programs.iter().enumerate() {
            let color = Palette99::pick(j).to_rgba();
            let line: Vec<(f64, f64)> = INSTANCES
                .iter()
                .enumerate()
                .filter_map(|(x, instance)| {
                    let m = run.metadata_cell(program, op, instance)?;
                    m.error.is_none().then_some((x as f64, m.cus as f64))
                })
                .collect();
            chart.draw_series(line.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
            let series = chart.draw_series(LineSeries::new(line, color.stroke_width(2)))?;
            if i == 0 {
                series_label(series, program, color);
            }
        }
        if i == 0 {
            draw_legend(&mut chart)?;
        }
    }
    Ok(())
}
