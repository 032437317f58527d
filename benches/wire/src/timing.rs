//! Client-side timings with criterion: each one a benchmark of its own,
//! whose median criterion writes to `<criterion home>/<id>/new/estimates.json`.

use std::{
    hint::black_box,
    path::{Path, PathBuf},
    time::Duration,
};

use criterion::Criterion;

/// How long criterion spends on each timing.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub warm_up: Duration,
    pub measurement: Duration,
    pub samples: usize,
    /// Criterion's bootstrap resamples per timing (its default is 100,000,
    /// which costs more than the quick budget's measuring itself).
    pub resamples: usize,
}

impl Budget {
    /// The report's: about half a second per timing.
    pub const REPORT: Budget = Budget {
        warm_up: Duration::from_millis(150),
        measurement: Duration::from_millis(350),
        samples: 20,
        resamples: 100_000,
    };
    /// The tests': enough to produce a number, not to trust it.
    pub const QUICK: Budget = Budget {
        warm_up: Duration::from_millis(1),
        measurement: Duration::from_millis(10),
        samples: 10,
        resamples: 2_000,
    };
}

pub struct Timer {
    criterion: Criterion,
    home: PathBuf,
}

impl Timer {
    /// A timer writing criterion's files under `home`, which must be what
    /// `CRITERION_HOME` names (criterion reads it once per process).
    pub fn new(home: &Path, budget: Budget) -> Self {
        let criterion = Criterion::default()
            .warm_up_time(budget.warm_up)
            .measurement_time(budget.measurement)
            .sample_size(budget.samples)
            .nresamples(budget.resamples)
            .without_plots()
            .with_output_color(false);
        Self {
            criterion,
            home: home.to_path_buf(),
        }
    }

    /// The median wall-clock time of `f`, in nanoseconds. `id` must be
    /// unique in the run (`wire/<what>/<format>/<size>`).
    pub fn median_ns<T>(&mut self, id: &str, mut f: impl FnMut() -> T) -> Result<f64, String> {
        self.criterion
            .bench_function(id, |b| b.iter(|| black_box(f())));
        let path = self.home.join(id).join("new/estimates.json");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("criterion wrote no {}: {e}", path.display()))?;
        let estimates: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        estimates["median"]["point_estimate"]
            .as_f64()
            .ok_or_else(|| format!("{}: no median", path.display()))
    }
}
