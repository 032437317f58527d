//! The report's token sections: the `exact` table (ratios to the raw cast,
//! net of the floor, `.so` sizes) and what the length shapes change.

use std::fmt::Write as _;

use crate::token::BASELINE;
use crate::{
    Program,
    program::{Family, Shape},
    report::{Measurement, Run},
};

impl Run {
    fn find(list: &[Measurement], shape: Shape, program: &str, operation: &str) -> Option<u64> {
        list.iter()
            .find(|m| {
                m.family == Family::Token
                    && m.shape == shape
                    && m.program == program
                    && m.operation == operation
            })
            .map(|m| m.cus)
    }

    /// A token program's CUs for an operation in a shape.
    pub fn cus(&self, shape: Shape, program: &str, operation: &str) -> Option<u64> {
        Self::find(&self.measurements, shape, program, operation)
    }

    pub(crate) fn floor(&self, shape: Shape, operation: &str) -> Option<u64> {
        self.floor
            .iter()
            .find(|m| m.shape == shape && m.operation == operation)
            .map(|m| m.cus)
    }

    /// CUs relative to the raw cast's in the same shape.
    pub(crate) fn ratio(&self, shape: Shape, program: &str, operation: &str) -> Option<f64> {
        let base = self.cus(shape, BASELINE, operation).filter(|b| *b > 0)?;
        Some(self.cus(shape, program, operation)? as f64 / base as f64)
    }

    /// The token family's operations, in the order measured.
    pub fn operations(&self) -> Vec<&str> {
        let mut operations: Vec<&str> = Vec::new();
        for m in self
            .measurements
            .iter()
            .filter(|m| m.family == Family::Token)
        {
            if !operations.contains(&m.operation.as_str()) {
                operations.push(&m.operation);
            }
        }
        operations
    }

    /// The shapes measured, in their order.
    pub fn shapes(&self) -> Vec<Shape> {
        Shape::ALL
            .into_iter()
            .filter(|shape| self.measurements.iter().any(|m| m.shape == *shape))
            .collect()
    }

    /// Token programs, cheapest first operation (`full`, `exact` shape)
    /// first, then by name.
    pub fn programs(&self) -> Vec<&str> {
        let mut programs: Vec<&str> = self
            .measurements
            .iter()
            .filter(|m| m.family == Family::Token)
            .map(|m| m.program.as_str())
            .collect();
        programs.sort();
        programs.dedup();
        let first = self.operations().first().copied().unwrap_or_default();
        programs.sort_by_key(|p| {
            (
                self.cus(Shape::Exact, p, first).unwrap_or(u64::MAX),
                p.to_string(),
            )
        });
        programs
    }

    pub(crate) fn exact_table(&self) -> String {
        let programs = self.programs();
        let operations = self.operations();
        let mut out = String::new();
        let floor: Vec<String> = operations
            .iter()
            .map(|op| {
                let cus = self.floor(Shape::Exact, op);
                format!("{op} {}", cus.map_or("-".into(), |f| f.to_string()))
            })
            .collect();
        let _ = write!(
            out,
            "\nEach cell: CUs (ratio to `{BASELINE}`). Floor, a no-op program with the same \
             entrypoint and checks: {}. The `net` rows subtract it. `account bytes`: the \
             account's length (a varint encoding's largest, so any value fits); `fixture \
             encoded`: the benchmark account's encoding, at the start of it.\n\n| operation |",
            floor.join(", ")
        );
        for p in &programs {
            let _ = write!(out, " {p} |");
        }
        out.push_str("\n|---|");
        out.push_str(&"---:|".repeat(programs.len()));
        out.push('\n');
        let mut row = |label: String, cell: &dyn Fn(&str) -> String| {
            let _ = write!(out, "| {label} |");
            for p in &programs {
                let _ = write!(out, " {} |", cell(p));
            }
            out.push('\n');
        };
        let shape = Shape::Exact;
        for op in &operations {
            row(op.to_string(), &|p| self.token_cell(shape, p, op));
        }
        for op in &operations {
            row(
                format!("net {op}"),
                &|p| match (self.cus(shape, p, op), self.floor(shape, op)) {
                    (Some(c), Some(f)) => (c as i64 - f as i64).to_string(),
                    _ => "-".into(),
                },
            );
        }
        row("account bytes".into(), &|p| {
            self.encodings
                .get(p)
                .map_or("-".into(), |e| e.account_len().to_string())
        });
        row("fixture encoded".into(), &|p| {
            self.encodings
                .get(p)
                .map_or("-".into(), |e| e.fixture_encoded_len().to_string())
        });
        row(".so bytes".into(), &|p| {
            self.sizes
                .get(&Program::label_of(Family::Token, shape, p))
                .map_or("-".into(), u64::to_string)
        });
        out
    }

    /// Per operation, crates x shapes; then each crate's spread.
    pub(crate) fn shapes_section(&self) -> String {
        let shapes = self.shapes();
        let mut out =
            String::from("\n## Token family: what the compiler knows about the length\n\n");
        for (shape, meaning) in crate::report::legend::SHAPES {
            let _ = write!(out, "`{shape}`: {meaning}. ");
        }
        out.push_str("Each cell: CUs (ratio to `transmute` in the same shape).\n");
        for op in self.operations() {
            let _ = write!(out, "\n### {op}\n\n| crate |");
            for shape in &shapes {
                let _ = write!(out, " {} |", shape.name());
            }
            out.push_str("\n|---|");
            out.push_str(&"---:|".repeat(shapes.len()));
            out.push('\n');
            for p in self.programs() {
                let _ = write!(out, "| {p} |");
                for &shape in &shapes {
                    let _ = write!(out, " {} |", self.token_cell(shape, p, op));
                }
                out.push('\n');
            }
        }
        out.push_str("\n### Spread by crate\n\n");
        for p in self.programs() {
            let spreads: Vec<String> = self
                .operations()
                .iter()
                .filter_map(|op| {
                    let by_shape: Vec<(Shape, u64)> = shapes
                        .iter()
                        .filter_map(|&s| Some((s, self.cus(s, p, op)?)))
                        .collect();
                    let cheapest = by_shape.iter().min_by_key(|(_, c)| *c)?;
                    let dearest = by_shape.iter().max_by_key(|(_, c)| *c)?;
                    Some(format!(
                        "`{op}` {} in `{}` to {} in `{}` ({:.1}x)",
                        cheapest.1,
                        cheapest.0.name(),
                        dearest.1,
                        dearest.0.name(),
                        dearest.1 as f64 / cheapest.1.max(1) as f64
                    ))
                })
                .collect();
            let _ = writeln!(out, "- **{p}**: {}.", spreads.join("; "));
        }
        out
    }
}

impl Run {
    /// A token cell: CUs, the ratio to the baseline, the mainnet mark.
    fn token_cell(&self, shape: Shape, program: &str, operation: &str) -> String {
        let row = format!(
            "{}::{operation}",
            Program::label_of(Family::Token, shape, program)
        );
        format!(
            "{}{}",
            cell(
                self.cus(shape, program, operation),
                self.ratio(shape, program, operation)
            ),
            self.mainnet.mark(&row)
        )
    }
}

fn cell(cus: Option<u64>, ratio: Option<f64>) -> String {
    match (cus, ratio) {
        (Some(c), Some(r)) => format!("{c} ({r:.1}x)"),
        (Some(c), None) => c.to_string(),
        (None, _) => "-".into(),
    }
}
