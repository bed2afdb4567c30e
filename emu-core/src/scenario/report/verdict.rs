//! Whether an accounting is correct against the true time, and how a clock is named: what a
//! scenario report's summary and a cycle-diff's headline both say (issue 18).

use super::{ScenarioReport, TimeCheck};
use serde::Serialize;
use std::fmt;

/// One accounted time of one side against the truth.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BucketVerdict {
    /// `utime`, `stime`, `guest`, `hardirq` or `softirq`.
    pub bucket: &'static str,
    /// `(accounted - truth) / truth` in percent; `None` when the truth is zero.
    pub error_percent: Option<f64>,
    /// The side's tolerance in percent of the truth; `None` when the truth is zero.
    pub tolerance_percent: Option<f64>,
    /// Whether `|accounted - truth|` is at most the tolerance.
    pub within_tolerance: bool,
}

/// Whether one side accounts the truth, not merely the same as the other side: every time it
/// keeps, against the true time of the workload, under its own tolerance (the cycles it spent
/// in paths, the most an accounting that stamps inside its paths can be off).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AccountingVerdict {
    /// Every kept time within the tolerance.
    pub correct: bool,
    /// The tolerance in cycles.
    pub tolerance: u64,
    /// utime, stime, then the optional buckets the side keeps.
    pub buckets: Vec<BucketVerdict>,
}

impl AccountingVerdict {
    /// The verdict on `report`'s time checks.
    pub fn of(report: &ScenarioReport) -> AccountingVerdict {
        AccountingVerdict::from_checks(report.time_checks(), report.tolerance)
    }

    /// The verdict on named time checks made under `tolerance` cycles.
    pub fn from_checks<'a>(
        checks: impl Iterator<Item = (&'static str, &'a TimeCheck)>,
        tolerance: u64,
    ) -> AccountingVerdict {
        let percent = |x: u64, truth: u64| (truth > 0).then(|| x as f64 * 100.0 / truth as f64);
        let buckets: Vec<BucketVerdict> = checks
            .map(|(bucket, t)| BucketVerdict {
                bucket,
                error_percent: t.relative_error.map(|r| r * 100.0),
                tolerance_percent: percent(tolerance, t.truth),
                within_tolerance: t.within_tolerance,
            })
            .collect();
        AccountingVerdict { correct: buckets.iter().all(|b| b.within_tolerance), tolerance, buckets }
    }
}

impl fmt::Display for AccountingVerdict {
    /// `correct: utime -0.10% (within ±1.20%), stime +0.30% (within ±4.00%)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.correct { "correct:" } else { "WRONG:" })?;
        for (i, b) in self.buckets.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            let error = b.error_percent.map_or_else(|| "-".to_string(), |e| format!("{e:+.2}%"));
            let bound =
                b.tolerance_percent.map_or_else(|| format!("{} cycles", self.tolerance), |t| format!("{t:.2}%"));
            let within = if b.within_tolerance { "within" } else { "BEYOND" };
            write!(f, "{sep}{} {error} ({within} ±{bound})", b.bucket)?;
        }
        Ok(())
    }
}

/// `1.5 GHz`, `800 MHz`.
pub fn clock_text(hz: u64) -> String {
    if hz >= 1_000_000_000 {
        format!("{} GHz", trim(hz as f64 / 1e9))
    } else if hz >= 1_000_000 {
        format!("{} MHz", trim(hz as f64 / 1e6))
    } else {
        format!("{hz} Hz")
    }
}

fn trim(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
