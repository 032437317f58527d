//! What every family's chart shares.

use plotters::prelude::*;

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
        series
            .label(label)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
    }
    Ok(())
}
