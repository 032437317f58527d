//! Where each message format stops fitting: the largest message whose
//! CUs fit one instruction's default budget and a transaction's maximum,
//! and whose heap fits the default frame, from the measured sizes.

use std::fmt::Write as _;

use crate::report::Run;

/// The limits, and what each measures.
const LIMITS: [(&str, u64, Metric); 3] = [
    (
        "200,000 CUs (one instruction's default)",
        200_000,
        Metric::Cus,
    ),
    (
        "1,400,000 CUs (a transaction's maximum)",
        1_400_000,
        Metric::Cus,
    ),
    ("32 KiB heap (the default frame)", 32 * 1024, Metric::Heap),
];

#[derive(Clone, Copy)]
enum Metric {
    Cus,
    Heap,
}

/// The largest size whose value stays within `limit`, from `points`
/// (size, value) in ascending size: linear between measured sizes; past
/// the largest, the last segment extended (marked).
pub fn largest_within(points: &[(f64, f64)], limit: f64) -> Fit {
    let Some(&(first_size, first)) = points.first() else {
        return Fit::Unmeasured;
    };
    if first > limit {
        return Fit::Below(first_size);
    }
    for pair in points.windows(2) {
        let [(x0, y0), (x1, y1)] = [pair[0], pair[1]];
        if y1 > limit {
            return Fit::Measured(x0 + (x1 - x0) * (limit - y0) / (y1 - y0));
        }
    }
    let n = points.len();
    match n {
        1 => Fit::Unbounded,
        _ => {
            let [(x0, y0), (x1, y1)] = [points[n - 2], points[n - 1]];
            if y1 <= y0 {
                Fit::Unbounded
            } else {
                Fit::Extrapolated(x1 + (x1 - x0) * (limit - y1) / (y1 - y0))
            }
        }
    }
}

/// Where a format stops fitting a limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fit {
    /// Between two measured sizes, interpolated.
    Measured(f64),
    /// Past the largest measured size, on the last segment's slope.
    Extrapolated(f64),
    /// Even the smallest measured size does not fit.
    Below(f64),
    /// Flat or falling at the largest sizes: no limit in sight.
    Unbounded,
    Unmeasured,
}

/// The most data an account may hold (10 MiB): a message past it is not
/// an account's.
const MAX_ACCOUNT_BYTES: f64 = 10.0 * 1024.0 * 1024.0;

impl Fit {
    fn cell(self) -> String {
        match self {
            Fit::Measured(bytes) => format!("{bytes:.0}"),
            Fit::Extrapolated(bytes) if bytes > MAX_ACCOUNT_BYTES => "past 10 MiB *".into(),
            Fit::Extrapolated(bytes) => format!("~{bytes:.0} *"),
            Fit::Below(size) => format!("under {size:.0}"),
            Fit::Unbounded => "no limit in sight".into(),
            Fit::Unmeasured => "-".into(),
        }
    }
}

impl Run {
    /// Per message format and operation, the largest message (nominal
    /// bytes) within each limit.
    pub fn message_limits_section(&self) -> String {
        let (operations, _) = self.message_axes();
        let mut out = String::from(
            "\n## Message family: the largest message that fits\n\nNominal message bytes within each limit, linear between the measured sizes; `*`: past the largest measured size (10136 bytes), the last segment extended (an estimate; past 10 MiB, an account's limit, it is not given); *no limit in sight*: flat at the largest sizes (no heap, or none that grows).\n\n| format | operation |",
        );
        for (name, _, _) in LIMITS {
            let _ = write!(out, " {name} |");
        }
        out.push_str("\n|---|---|");
        out.push_str(&"---:|".repeat(LIMITS.len()));
        out.push('\n');
        for program in self.message_programs() {
            for op in &operations {
                let _ = write!(out, "| {program} | {op} |");
                for (_, limit, metric) in LIMITS {
                    let points = self.message_points(program, op, metric);
                    let _ = write!(out, " {} |", largest_within(&points, limit as f64).cell());
                }
                out.push('\n');
            }
        }
        out
    }

    /// (nominal size, CUs or heap bytes) of one format and operation, by
    /// size.
    fn message_points(&self, program: &str, operation: &str, metric: Metric) -> Vec<(f64, f64)> {
        let mut points: Vec<(f64, f64)> = self
            .message()
            .into_iter()
            .filter(|m| m.program == program && m.operation == operation)
            .filter_map(|m| {
                let value = match metric {
                    Metric::Cus => m.cus,
                    Metric::Heap => m.footprint?.heap_bytes,
                };
                Some((m.size? as f64, value as f64))
            })
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        points
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolates_extrapolates_and_says_when_it_cannot() {
        let points = [(100.0, 10.0), (200.0, 30.0), (300.0, 50.0)];
        assert_eq!(largest_within(&points, 20.0), Fit::Measured(150.0));
        assert_eq!(largest_within(&points, 70.0), Fit::Extrapolated(400.0));
        assert_eq!(largest_within(&points, 5.0), Fit::Below(100.0));
        assert_eq!(
            largest_within(&[(100.0, 0.0), (200.0, 0.0)], 5.0),
            Fit::Unbounded
        );
        assert_eq!(largest_within(&[], 5.0), Fit::Unmeasured);
    }
}
