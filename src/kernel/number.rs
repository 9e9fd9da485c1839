//! Number rendering shared by verdict details, human output and the
//! canonical JSON of state fingerprints.
//!
//! One function, [`shortest_round_trip`], renders a float: the shortest
//! digits that read back to the same `f64`, in the layout of Python's
//! `repr` (`0.001`, `1e-05`, `1.5e+16`). Its callers differ only in
//! spelling: [`fmt_number`] writes integral values as integers (`5`, not
//! `5.0`) so verdict details match the reference byte for byte, and the
//! fingerprints' canonical JSON writes Python's `repr` exactly. Both break
//! exact ties to the even digit, as Python does.

/// How to choose between two shortest digit strings when `x` lies exactly
/// halfway between them (808126711593748.25: `…748.2` or `…748.3`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tie {
    /// The upper one, as Rust's float formatting (`{}`, `{:e}`) does.
    Up,
    /// The one with an even last digit, as Python's `repr` (David Gay's
    /// dtoa) does, when it reads back to `x`.
    Even,
}

/// Decimals that show a metric to the resolution of its noise: two
/// significant digits of the noise, or of a thousandth of the value when
/// there is no noise to go by. (JSON keeps every digit.)
pub fn decimals(noise: Option<f64>, value: f64) -> usize {
    let scale = match noise {
        Some(n) if n > 0.0 && n.is_finite() => n,
        _ => (value.abs() * 1e-3).max(1e-12),
    };
    (1.0 - scale.log10().floor()).clamp(0.0, 12.0) as usize
}

/// A number with `d` decimals; non-finite values as arx prints them.
pub fn num(x: f64, d: usize) -> String {
    if x.is_finite() {
        format!("{x:.d$}")
    } else {
        fmt_number(x)
    }
}

/// A signed change with `d` decimals: `+0.0011`, `−0.0047`.
pub fn signed(x: f64, d: usize) -> String {
    if x < 0.0 {
        format!("\u{2212}{}", num(-x, d))
    } else {
        format!("+{}", num(x, d))
    }
}

/// Render a number the way the reference renders verdict details: `nan`,
/// `inf` and `-inf`; integral values as integers (`5`, `0` for `-0.0`,
/// every digit of `1e20`); other values as Python's `repr` prints them:
/// [`shortest_round_trip`] with [`Tie::Even`] (`808126711593748.25` reads
/// `808126711593748.2`).
pub fn fmt_number(x: f64) -> String {
    if x.is_finite() && x == x.trunc() {
        if x == 0.0 {
            return "0".to_string();
        }
        // Exact decimal expansion of an integral float.
        return format!("{x:.0}");
    }
    shortest_round_trip(x, Tie::Even)
}

/// A mean or other computed value in a table: at most 7 significant
/// digits, so neither the float noise of arithmetic (`1.1811500000000001`)
/// nor a repeating decimal (`1.1036666666666668`) shows, then as
/// [`fmt_number`] prints it (`1.18115`, `1.103667`).
pub fn fmt_table_value(x: f64) -> String {
    if !x.is_finite() || x == 0.0 {
        return fmt_number(x);
    }
    let rounded: f64 = format!("{x:.6e}").parse().unwrap_or(x);
    fmt_number(rounded)
}

/// A computed value (a mean, a bound, a difference) for people: integral
/// values below 1e16 as integers, every other value as Python's `repr`
/// prints it (`0.25`, `1.2e-09`, `1.1e+300`), never hundreds of digits.
pub fn fmt_compact(x: f64) -> String {
    if x.is_finite() && x == x.trunc() && x.abs() < 1e16 {
        if x == 0.0 {
            return "0".to_string();
        }
        return format!("{x:.0}");
    }
    shortest_round_trip(x, Tie::Even)
}

/// `x` rounded to `digits` significant digits, by [`fmt_compact`].
pub fn fmt_sig(x: f64, digits: usize) -> String {
    fmt_compact(round_sig(x, digits))
}

/// `x` rounded to `digits` (at least 1) significant digits.
pub fn round_sig(x: f64, digits: usize) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    format!("{:.*e}", digits.max(1) - 1, x).parse().unwrap_or(x)
}

/// The shortest digits that read back to `x` (exact ties broken by `tie`),
/// laid out as Python's `repr` lays out a float: positional for decimal
/// exponents -4 to 15, with `.0` when integral (`1.0`, `0.0001`,
/// `1000000000000000.0`), otherwise `d.ddde±XX` (`1e-05`, `1e+16`); a sign
/// for negative values and `-0.0`; `nan`, `inf` and `-inf` for the
/// non-finite values.
pub fn shortest_round_trip(x: f64, tie: Tie) -> String {
    if x.is_nan() {
        return "nan".to_string();
    }
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if x.is_infinite() {
        return format!("{sign}inf");
    }
    let (digits, exp) = shortest_digits(x.abs(), tie);
    let body = if (-4..16).contains(&exp) {
        if exp >= 0 {
            let int_len = exp as usize + 1;
            if digits.len() <= int_len {
                format!("{digits}{}.0", "0".repeat(int_len - digits.len()))
            } else {
                format!("{}.{}", &digits[..int_len], &digits[int_len..])
            }
        } else {
            format!("0.{}{digits}", "0".repeat((-exp - 1) as usize))
        }
    } else {
        let lead = if digits.len() == 1 {
            digits
        } else {
            format!("{}.{}", &digits[..1], &digits[1..])
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{lead}e{esign}{:02}", exp.abs())
    };
    format!("{sign}{body}")
}

/// Significant digits (no trailing zeros) and decimal exponent of a
/// scientific rendering `d.ddde±X`.
fn split_sci(sci: &str) -> (String, i32) {
    let (mantissa, exp) = sci.split_once('e').expect("`{:e}` has an exponent");
    let exp: i32 = exp.parse().expect("`{:e}` exponent is an integer");
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let trimmed = digits.trim_end_matches('0');
    (
        if trimmed.is_empty() { "0" } else { trimmed }.to_string(),
        exp,
    )
}

/// The shortest round-trip digits of a non-negative finite `x`:
/// `d1 d2 … dk × 10^(exp − k + 1)` (`0` for zero). Rust's `{:e}` gives them
/// with [`Tie::Up`]; with [`Tie::Even`] an exact tie is moved to the even
/// neighbour, as Python's `repr` chooses.
fn shortest_digits(x: f64, tie: Tie) -> (String, i32) {
    let (digits, exp) = split_sci(&format!("{x:e}"));
    if tie == Tie::Up {
        return (digits, exp);
    }
    let last = digits.as_bytes()[digits.len() - 1] - b'0';
    if last.is_multiple_of(2) {
        return (digits, exp);
    }
    // A tie needs x to have exactly one more significant digit, a 5.
    let k = digits.len();
    let (near, near_exp) = split_sci(&format!("{x:.k$e}"));
    if near.len() != k + 1 || !near.ends_with('5') || !is_exact(x, &near, near_exp) {
        return (digits, exp);
    }
    let mut candidate: Vec<u8> = near.as_bytes()[..k].to_vec();
    let mut candidate_exp = near_exp;
    if near[..k] == digits[..] {
        // x = digits + half a unit: the even neighbour is one unit up.
        let mut i = k;
        loop {
            if i == 0 {
                candidate.insert(0, b'1');
                candidate_exp += 1;
                break;
            }
            i -= 1;
            if candidate[i] == b'9' {
                candidate[i] = b'0';
            } else {
                candidate[i] += 1;
                break;
            }
        }
    }
    // Otherwise `near[..k]` is already the lower, even neighbour.
    let candidate = String::from_utf8(candidate).expect("ASCII digits");
    let trimmed = candidate.trim_end_matches('0');
    // Just above a power of two the gap below is half the gap above, so
    // the lower neighbour may not read back to x (2^-24 is `…0625`, and
    // only `…063` round-trips).
    let reads_back = format!("0.{trimmed}e{}", candidate_exp + 1).parse::<f64>() == Ok(x);
    if trimmed.is_empty() || !reads_back {
        return (digits, exp);
    }
    (trimmed.to_string(), candidate_exp)
}

/// Whether `x` is exactly `d1.d2d3… × 10^exp` (`digits` without trailing
/// zeros). A double has at most 767 significant decimal digits, so 800
/// digits of `{:e}` are its exact expansion.
fn is_exact(x: f64, digits: &str, exp: i32) -> bool {
    split_sci(&format!("{x:.800e}")) == (digits.to_string(), exp)
}

#[cfg(test)]
mod tests {
    use super::{fmt_compact, fmt_number, fmt_sig, fmt_table_value, shortest_round_trip, Tie};

    #[test]
    fn a_mean_in_a_table_shows_no_float_noise() {
        assert_eq!(fmt_table_value((1.1785 + 1.1838) / 2.0), "1.18115");
        assert_eq!(fmt_table_value(0.9979), "0.9979");
        assert_eq!(fmt_table_value(12480.0), "12480");
        assert_eq!(fmt_table_value(1.0 / 3.0), "0.3333333");
        assert_eq!(
            fmt_table_value((1.1038 + 1.1037 + 1.1035) / 3.0),
            "1.103667"
        );
        assert_eq!(fmt_table_value(-2.5e-12), "-2.5e-12");
        assert_eq!(fmt_table_value(f64::NAN), fmt_number(f64::NAN));
    }

    #[test]
    fn compact_values_never_run_to_hundreds_of_digits() {
        assert_eq!(fmt_compact(0.0), "0");
        assert_eq!(fmt_compact(1100.0), "1100");
        assert_eq!(fmt_compact(1e300), "1e+300");
        assert_eq!(fmt_compact(-1.5e20), "-1.5e+20");
        assert_eq!(fmt_compact(1.2e-9), "1.2e-09");
        assert_eq!(fmt_compact(0.25), "0.25");
        assert_eq!(fmt_sig(1.0 / 3.0, 6), "0.333333");
        assert_eq!(fmt_sig(1.23456789e-9, 6), "1.23457e-09");
        assert_eq!(fmt_sig(1.1e300, 6), "1.1e+300");
    }

    #[test]
    fn integers_render_without_fraction() {
        assert_eq!(fmt_number(5.0), "5");
        assert_eq!(fmt_number(-0.0), "0");
        assert_eq!(fmt_number(-7.0), "-7");
        assert_eq!(fmt_number(1e20), "100000000000000000000");
        assert_eq!(fmt_number(1.2345678901234567e19), "12345678901234567168");
    }

    #[test]
    fn fractions_render_like_the_reference() {
        assert_eq!(fmt_number(0.8), "0.8");
        assert_eq!(fmt_number(0.79), "0.79");
        assert_eq!(fmt_number(-3.2), "-3.2");
        assert_eq!(fmt_number(49.999), "49.999");
        assert_eq!(fmt_number(0.0001), "0.0001");
        assert_eq!(fmt_number(0.00001), "1e-05");
        assert_eq!(fmt_number(-2.5e-3), "-0.0025");
        assert_eq!(fmt_number(1.5e-10), "1.5e-10");
        assert_eq!(fmt_number(0.30000000000000004), "0.30000000000000004");
        assert_eq!(fmt_number(1e15 + 0.5), "1000000000000000.5");
        assert_eq!(fmt_number(1e-300), "1e-300");
    }

    #[test]
    fn non_finite_values() {
        for tie in [Tie::Up, Tie::Even] {
            assert_eq!(shortest_round_trip(f64::NAN, tie), "nan");
            assert_eq!(shortest_round_trip(f64::INFINITY, tie), "inf");
            assert_eq!(shortest_round_trip(f64::NEG_INFINITY, tie), "-inf");
        }
        assert_eq!(fmt_number(f64::NAN), "nan");
        assert_eq!(fmt_number(f64::INFINITY), "inf");
        assert_eq!(fmt_number(f64::NEG_INFINITY), "-inf");
    }

    #[test]
    fn layout_of_python_repr() {
        for tie in [Tie::Up, Tie::Even] {
            for (x, text) in [
                (0.0, "0.0"),
                (-0.0, "-0.0"),
                (1.0, "1.0"),
                (-2.5, "-2.5"),
                (1e15, "1000000000000000.0"),
                (1e16, "1e+16"),
                (0.0001, "0.0001"),
                (1e-5, "1e-05"),
                (-1.25e-100, "-1.25e-100"),
            ] {
                assert_eq!(shortest_round_trip(x, tie), text, "{tie:?}");
            }
        }
    }

    #[test]
    fn exact_ties() {
        let x = 808_126_711_593_748.0 + 0.25;
        assert_eq!(shortest_round_trip(x, Tie::Up), "808126711593748.3");
        assert_eq!(shortest_round_trip(x, Tie::Even), "808126711593748.2");
        assert_eq!(fmt_number(x), "808126711593748.2");
        assert_eq!(fmt_number(-x), "-808126711593748.2");
        // The even neighbour must read back to x: just above a power of
        // two it may not.
        let x = 2f64.powi(-24);
        assert_eq!(shortest_round_trip(x, Tie::Up), "5.960464477539063e-08");
        assert_eq!(shortest_round_trip(x, Tie::Even), "5.960464477539063e-08");
    }
}
