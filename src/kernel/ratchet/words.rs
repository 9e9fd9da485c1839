//! The words of a decision's detail: a change, a count of runs, a number
//! to four significant digits, a confidence as a percentage and what a
//! kept commit is recorded as.

use super::SHOWN_DIGITS;
use crate::kernel::number::fmt_number;

/// "better by 0.5" or "worse by 0.5".
pub(super) fn better(d: f64) -> String {
    format!(
        "{} by {}",
        if d >= 0.0 { "better" } else { "worse" },
        shown(d.abs())
    )
}

pub(super) fn runs(n: usize) -> String {
    format!("{n} run{}", if n == 1 { "" } else { "s" })
}

/// `x` to four significant digits, in the kernel's number format.
pub(super) fn shown(x: f64) -> String {
    if !x.is_finite() || x == 0.0 {
        return fmt_number(x);
    }
    let rounded = format!("{:.*e}", SHOWN_DIGITS - 1, x).parse().unwrap_or(x);
    fmt_number(rounded)
}

/// `0.95` → `95%`.
pub(super) fn percent(confidence: f64) -> String {
    format!("{}%", shown(confidence * 100.0))
}

/// "; recorded as the mean of its 4 confirmation runs, 2".
pub(super) fn recorded(confirming: &[f64]) -> String {
    format!(
        "; recorded as the mean of its {} confirmation {}, {}",
        confirming.len(),
        if confirming.len() == 1 { "run" } else { "runs" },
        shown(crate::kernel::ratchet_noise::mean(confirming).expect("confirmation runs")),
    )
}
