//! `MAX_INCREASE=<CUs>` or `MAX_INCREASE=<N>%`: the most a fixture's
//! call may cost more in the new build; every instruction with a fixture
//! past it is named, with its top changed frames.

use super::builds::{Compared, percent, signed};

/// The limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    Cus(u64),
    Percent(f64),
}

impl Limit {
    /// `MAX_INCREASE`'s value: `300` (CUs) or `2.5%`.
    pub fn parse(value: &str) -> Result<Limit, String> {
        let refuse = || {
            format!(
                "MAX_INCREASE={value}: give the most a call may cost more, in CUs (MAX_INCREASE=300) or as a percentage of the base build's (MAX_INCREASE=2.5%)"
            )
        };
        match value.trim().strip_suffix('%') {
            Some(percent) => percent
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|p| p.is_finite() && *p >= 0.0)
                .map(Limit::Percent)
                .ok_or_else(refuse),
            None => value
                .trim()
                .parse::<u64>()
                .map(Limit::Cus)
                .map_err(|_| refuse()),
        }
    }

    /// Whether `c`'s change is past the limit.
    pub fn exceeded_by(&self, c: &Compared) -> bool {
        let change = c.cost.change();
        match *self {
            Limit::Cus(most) => change > most as i64,
            Limit::Percent(most) => {
                change > 0 && (change as f64) * 100.0 > most * c.cost.base_cus as f64
            }
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Limit::Cus(n) => format!("{n} CUs"),
            Limit::Percent(p) => format!("{p}%"),
        }
    }
}

/// How many changed frames a failure's line names.
const FRAMES_NAMED: usize = 3;

/// Each fixture past `limit`, by instruction: one line each, with its top
/// changed frames (or its categories, where frames are not matched).
pub fn over(limit: Limit, compared: &[Compared]) -> Vec<String> {
    compared
        .iter()
        .filter(|c| limit.exceeded_by(c))
        .map(|c| {
            let mut line = format!(
                "`{}` ({}): {} CUs ({}), {} to {}, past MAX_INCREASE={}",
                c.instruction,
                c.fixture,
                signed(c.cost.change()),
                percent(c.cost.change(), c.cost.base_cus),
                c.cost.base_cus,
                c.cost.cus,
                limit.describe()
            );
            let frames: Vec<String> = c
                .cost
                .frames_change
                .iter()
                .take(FRAMES_NAMED)
                .map(|f| format!("`{}` ({}) {}", f.frame, f.category, signed(f.change())))
                .collect();
            if frames.is_empty() {
                let categories: Vec<String> = c
                    .cost
                    .categories_change
                    .iter()
                    .map(|(name, change)| format!("{name} {}", signed(*change)))
                    .collect();
                line.push_str(&format!("; by category: {}", categories.join(", ")));
            } else {
                line.push_str(&format!("; top frames: {}", frames.join(", ")));
            }
            line
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::CostChange;
    use std::collections::BTreeMap;

    fn compared(base_cus: u64, cus: u64) -> Compared {
        Compared {
            fixture: "a.json".into(),
            fixtures: 1,
            instruction: "swap".into(),
            cost: CostChange {
                base_cus,
                cus,
                categories_change: BTreeMap::from([(
                    "checks".into(),
                    cus as i64 - base_cus as i64,
                )]),
                frames_change: Vec::new(),
            },
        }
    }

    #[test]
    fn a_limit_is_cus_or_a_percentage_and_nothing_else() {
        assert_eq!(Limit::parse("300"), Ok(Limit::Cus(300)));
        assert_eq!(Limit::parse("2.5%"), Ok(Limit::Percent(2.5)));
        for bad in ["", "-3", "3 CUs", "%", "-1%", "NaN%"] {
            let error = Limit::parse(bad).unwrap_err();
            assert!(
                error.starts_with(&format!("MAX_INCREASE={bad}: ")),
                "{error}"
            );
        }
    }

    #[test]
    fn only_an_increase_past_the_limit_fails() {
        let limit = Limit::Cus(100);
        assert!(!limit.exceeded_by(&compared(1000, 1100)));
        assert!(limit.exceeded_by(&compared(1000, 1101)));
        assert!(!limit.exceeded_by(&compared(1000, 500)));
        let limit = Limit::Percent(10.0);
        assert!(!limit.exceeded_by(&compared(1000, 1100)));
        assert!(limit.exceeded_by(&compared(1000, 1101)));
        let lines = over(limit, &[compared(1000, 1101), compared(50, 40)]);
        assert_eq!(
            lines,
            [
                "`swap` (a.json): +101 CUs (+10.1%), 1000 to 1101, past MAX_INCREASE=10%; by category: checks +101"
            ]
        );
    }
}
