//! `compute_units.svg`: one panel per operation, a group of bars per crate,
//! one bar per length shape, CUs on a log axis (the shapes span 10x).

use plotters::{
    coord::Shift,
    prelude::*,
    style::text_anchor::{HPos, Pos, VPos},
};

use crate::{
    program::{Family, Shape},
    report::Run,
    report::charts::{draw_legend, render},
};

pub fn svg(run: &Run) -> Result<String, String> {
    // One full-width panel per operation, stacked, so that every crate's
    // name fits under its bars.
    let height = 40 + 300 * run.operations().len().max(1) as u32;
    render(
        "compute_units.svg",
        (1200, height),
        "Token family: compute units per operation and length shape (log scale, lower is better)",
        |page| draw(run, page),
    )
}

fn draw<'a>(
    run: &Run,
    page: &DrawingArea<SVGBackend<'a>, Shift>,
) -> Result<(), Box<dyn std::error::Error + 'a>> {
    let operations = run.operations();
    let panels = page.split_evenly((operations.len().max(1), 1));
    for (i, (panel, op)) in panels.iter().zip(&operations).enumerate() {
        draw_panel(run, panel, op, i == 0)?;
    }
    Ok(())
}

fn draw_panel<'a>(
    run: &Run,
    area: &DrawingArea<SVGBackend<'a>, Shift>,
    operation: &str,
    legend: bool,
) -> Result<(), Box<dyn std::error::Error + 'a>> {
    let programs = run.programs();
    let shapes = run.shapes();
    let top = run
        .measurements
        .iter()
        .filter(|m| m.family == Family::Token)
        .map(|m| m.cus)
        .max()
        .unwrap_or(1) as f64
        * 2.0;
    let groups = programs.len() as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(operation, ("sans-serif", 18))
        .margin(8)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0f64..groups, (10f64..top).log_scale())?;
    // Labels every half group; only the group centres are named.
    let name_at = |x: &f64| {
        let centre = x - 0.5;
        let index = centre.round();
        match programs.get(index as usize) {
            Some(p) if (centre - index).abs() < 1e-6 && index >= 0.0 => p.to_string(),
            _ => String::new(),
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(2 * programs.len() + 1)
        .x_label_formatter(&name_at)
        .x_label_style(("sans-serif", 11))
        .y_label_formatter(&|cus| format!("{cus:.0}"))
        .y_desc("CUs")
        .draw()?;
    let width = 0.8 / shapes.len().max(1) as f64;
    let value_style = TextStyle::from(
        ("sans-serif", 9)
            .into_font()
            .transform(FontTransform::Rotate270),
    )
    .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, &shape) in shapes.iter().enumerate() {
        let color = shape_color(shape);
        let bars: Vec<(f64, f64, u64)> = programs
            .iter()
            .enumerate()
            .filter_map(|(group, p)| {
                let start = group as f64 + 0.1 + width * i as f64;
                Some((start, start + width * 0.9, run.cus(shape, p, operation)?))
            })
            .collect();
        let series = chart.draw_series(bars.iter().map(|&(x0, x1, cus)| {
            Rectangle::new([(x0, 10.0), (x1, cus as f64)], color.filled())
        }))?;
        if legend {
            series.label(shape.name()).legend(move |(x, y)| {
                Rectangle::new([(x, y - 6), (x + 12, y + 6)], color.filled())
            });
        }
        chart.draw_series(bars.iter().map(|&(x0, x1, cus)| {
            Text::new(
                cus.to_string(),
                ((x0 + x1) / 2.0, cus as f64),
                value_style.clone(),
            )
        }))?;
    }
    if legend {
        draw_legend(&mut chart)?;
    }
    Ok(())
}

fn shape_color(shape: Shape) -> RGBAColor {
    match shape {
        Shape::Exact => Palette99::pick(2).to_rgba(),
        Shape::AtLeast => Palette99::pick(4).to_rgba(),
        Shape::Unchecked => Palette99::pick(1).to_rgba(),
    }
}
