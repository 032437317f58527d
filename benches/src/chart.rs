//! `compute_units.svg`: one group of bars per operation, one bar per
//! program, the CUs written on each bar.

use plotters::{
    prelude::*,
    style::text_anchor::{HPos, Pos, VPos},
};

use crate::report::Run;

pub fn svg(run: &Run) -> Result<String, String> {
    let mut svg = String::new();
    draw(
        run,
        SVGBackend::with_string(&mut svg, (960, 540)).into_drawing_area(),
    )
    .map_err(|error| format!("drawing compute_units.svg: {error}"))?;
    Ok(svg)
}

fn draw<'a>(
    run: &Run,
    root: DrawingArea<SVGBackend<'a>, plotters::coord::Shift>,
) -> Result<(), Box<dyn std::error::Error + 'a>> {
    root.fill(&WHITE)?;
    let programs = run.programs();
    let operations = run.operations();
    let top = run.measurements.iter().map(|m| m.cus).max().unwrap_or(1) as f64 * 1.3;
    let groups = operations.len() as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Compute units per operation (lower is better)",
            ("sans-serif", 22),
        )
        .margin(16)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(0f64..groups, 0f64..top)?;
    // Labels every half group; only the group centres are named.
    let name_at = |x: &f64| {
        let centre = x - 0.5;
        let index = centre.round();
        match operations.get(index as usize) {
            Some(op) if (centre - index).abs() < 1e-6 && index >= 0.0 => op.to_string(),
            _ => String::new(),
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(2 * operations.len() + 1)
        .x_label_formatter(&name_at)
        .x_label_style(("sans-serif", 16))
        .y_label_formatter(&|cus| format!("{cus:.0}"))
        .y_desc("CUs")
        .draw()?;

    let width = 0.8 / programs.len() as f64;
    let value_style =
        TextStyle::from(("sans-serif", 12).into_font()).pos(Pos::new(HPos::Center, VPos::Bottom));
    for (i, program) in programs.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let bars: Vec<(f64, f64, u64)> = operations
            .iter()
            .enumerate()
            .filter_map(|(group, op)| {
                let start = group as f64 + 0.1 + width * i as f64;
                Some((start, start + width * 0.9, run.cus(program, op)?))
            })
            .collect();
        chart
            .draw_series(bars.iter().map(|&(x0, x1, cus)| {
                Rectangle::new([(x0, 0.0), (x1, cus as f64)], color.filled())
            }))?
            .label(*program)
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 12, y + 6)], color.filled()));
        chart.draw_series(bars.iter().map(|&(x0, x1, cus)| {
            Text::new(
                cus.to_string(),
                ((x0 + x1) / 2.0, cus as f64),
                value_style.clone(),
            )
        }))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()?;
    root.present()?;
    Ok(())
}
