//! Enums that are names: one spelling for JSON, messages and parsing.

use std::fmt;

/// Defines a public enum whose values are names: `ALL`, `as_str`,
/// `Display` and `FromStr` (whose error lists the accepted names), and serde
/// spelling each value as its name. More attributes (derives, docs,
/// `#[default]`) may be given on the enum and its values.
macro_rules! str_enum {
    (
        $(#[$meta:meta])*
        $name:ident, $what:literal {
            $( $(#[$vmeta:meta])* $variant:ident => $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub enum $name {
            $( $(#[$vmeta])* #[serde(rename = $text)] $variant, )+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The name used in JSON and messages.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                $name::ALL
                    .iter()
                    .copied()
                    .find(|v| v.as_str() == s)
                    .ok_or_else(|| {
                        format!(
                            "unknown {} {s:?} (expected {})",
                            $what,
                            $crate::kernel::names::one_of($name::ALL)
                        )
                    })
            }
        }
    };
}

pub(crate) use str_enum;

/// "a, b or c" for a list of names.
pub fn one_of<T: fmt::Display>(all: &[T]) -> String {
    let names: Vec<String> = all.iter().map(T::to_string).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

#[cfg(test)]
/// Test support: JSON, `as_str`, `Display` and `FromStr` spell every value
/// of a name enum alike.
pub(crate) fn spelled_alike<T>(all: &[T])
where
    T: Copy
        + PartialEq
        + std::fmt::Debug
        + std::fmt::Display
        + std::str::FromStr<Err = String>
        + serde::Serialize
        + serde::de::DeserializeOwned,
{
    for &v in all {
        let name = v.to_string();
        assert_eq!(serde_json::to_string(&v).unwrap(), format!("{name:?}"));
        assert_eq!(serde_json::from_str::<T>(&format!("{name:?}")).unwrap(), v);
        assert_eq!(name.parse::<T>(), Ok(v));
    }
    let err = "nope".parse::<T>().unwrap_err();
    assert!(
        err.starts_with("unknown ") && err.contains("(expected "),
        "{err}"
    );
}

#[cfg(test)]
mod tests {
    use super::one_of;

    #[test]
    fn lists_read_as_prose() {
        assert_eq!(one_of::<&str>(&[]), "");
        assert_eq!(one_of(&["a"]), "a");
        assert_eq!(one_of(&["a", "b"]), "a or b");
        assert_eq!(one_of(&["a", "b", "c"]), "a, b or c");
    }
}
