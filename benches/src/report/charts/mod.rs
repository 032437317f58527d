//! The SVG charts (`plotters`): what every chart shares, and each
//! family's.

pub mod message;
pub mod metadata;
pub mod token;

use plotters::{chart::SeriesAnno, coord::Shift, prelude::*};

/// A titled page of `size` drawn by `draw`, as an SVG string; `name` is the
/// file's, for the error.
pub fn render(
    name: &str,
    size: (u32, u32),
    title: &str,
    draw: impl for<'a> FnOnce(
        &DrawingArea<SVGBackend<'a>, Shift>,
    ) -> Result<(), Box<dyn std::error::Error + 'a>>,
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let drawn = root
            .fill(&WHITE)
            .map_err(|e| e.to_string())
            .and_then(|()| {
                root.titled(title, ("sans-serif", 20))
                    .map_err(|e| e.to_string())
            })
            .and_then(|page| draw(&page).map_err(|e| e.to_string()))
            .and_then(|()| root.present().map_err(|e| e.to_string()));
        drawn.map_err(|error| format!("drawing {name}: {error}"))?;
    }
    Ok(svg)
}

/// A chart with both axes logarithmic, as the message and wire charts are.
pub type LogLog<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<LogCoord<f64>, LogCoord<f64>>>;

/// One format's points and the line through them, with a legend entry when
/// `label` is given.
pub fn format_line<'a, 'b>(
    chart: &mut LogLog<'a, 'b>,
    line: Vec<(f64, f64)>,
    color: RGBAColor,
    label: Option<&str>,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    chart.draw_series(line.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
    let series = chart.draw_series(LineSeries::new(line, color.stroke_width(2)))?;
    if let Some(label) = label {
        series_label(series, label, color);
    }
    Ok(())
}

/// A format's legend entry: its name beside a square of its colour.
pub fn series_label<DB: DrawingBackend>(
    series: &mut SeriesAnno<'_, DB>,
    label: &str,
    color: RGBAColor,
) {
    series
        .label(label)
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
}

/// The legend, in the panel's upper left.
pub fn draw_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 11))
        .draw()
}
