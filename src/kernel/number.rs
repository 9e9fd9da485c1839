//! Number rendering shared by verdict details and human output.
//!
//! Integral values render as integers (`5`, not `5.0`) and other values in
//! the shortest form that reads back to the same `f64`, with the exponent
//! layout of the reference (`1e-05`), so details match it byte for byte.

/// Render a number the way the reference renders verdict details.
pub fn fmt_number(x: f64) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "nan".to_string()
        } else if x > 0.0 {
            "inf".to_string()
        } else {
            "-inf".to_string()
        };
    }
    if x == x.trunc() {
        if x == 0.0 {
            return "0".to_string();
        }
        // Exact decimal expansion of an integral float.
        return format!("{x:.0}");
    }
    shortest_repr(x)
}

/// Shortest round-trip representation, with `.0` dropped for integers never
/// reached here, scientific notation below 1e-4 and at or above 1e16.
fn shortest_repr(x: f64) -> String {
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').expect("`{:e}` always has an exponent");
    let exp: i32 = exp.parse().expect("`{:e}` exponent is an integer");
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let sign = if x < 0.0 { "-" } else { "" };
    if (-4..16).contains(&exp) {
        let n = digits.len() as i32;
        let body = if exp >= 0 {
            let int_len = exp + 1;
            if n <= int_len {
                format!("{digits}{}.0", "0".repeat((int_len - n) as usize))
            } else {
                format!(
                    "{}.{}",
                    &digits[..int_len as usize],
                    &digits[int_len as usize..]
                )
            }
        } else {
            format!("0.{}{digits}", "0".repeat((-exp - 1) as usize))
        };
        format!("{sign}{body}")
    } else {
        let mant = if digits.len() == 1 {
            digits.clone()
        } else {
            format!("{}.{}", &digits[..1], &digits[1..])
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{mant}e{esign}{:02}", exp.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::fmt_number;

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
}
