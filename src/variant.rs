//! Rules and format variants chosen by name: each enum lists its values once, with the name a
//! flag, a file or JSON gives and one line of help, and [`variants!`] derives the rest (`ALL`,
//! `name`, `description`, `Display`, `FromStr` and its message), so the names, the help and the
//! error that lists them cannot drift apart.

/// An enum whose values are chosen by name.
pub trait Variant: Copy + Sized + 'static {
    /// Every value, in the order help lists them.
    const ALL: &'static [Self];
    /// What one value is, as an error names it: "race outcome".
    const WHAT: &'static str;
    /// The names as an error lists them: "a, b or c".
    const NAMES: &'static str;

    fn name(self) -> &'static str;
    /// The value in one line, for `--help` and the web page's lists.
    fn description(self) -> &'static str;

    /// The value named `s` (surrounding blanks ignored).
    fn from_name(s: &str) -> Option<Self> {
        let s = s.trim();
        Self::ALL.iter().copied().find(|v| v.name() == s)
    }

    /// The message for a name that is none of these.
    fn unknown(s: &str) -> String {
        format!("`{s}` is not a {}; expected {}", Self::WHAT, Self::NAMES)
    }
}

/// Writes a variant enum from its values, each `Value = "name": "description"` (with its
/// doc comments and attributes), and what its `FromStr` refuses with: by default a `String`
/// ([`Variant::unknown`]), or `Error = constructor` from the unknown name.
///
/// ```ignore
/// variants! {
///     #[derive(Clone, Copy, Debug, PartialEq, Eq)]
///     pub enum Lookups ("lookup mode") {
///         Mapped = "mapped": "looked up at random",
///         Streamed = "streamed": "read in rank order",
///     }
/// }
/// ```
macro_rules! variants {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident ($what:literal) { $($body:tt)* }
    ) => {
        $crate::variant::variants! {
            $(#[$meta])*
            $vis enum $name ($what, String = |s: &str| <$name as $crate::variant::Variant>::unknown(s)) { $($body)* }
        }
    };
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident ($what:literal, $err:ty = $make:expr) {
            $( $(#[$vmeta:meta])* $v:ident = $text:literal : $desc:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$vmeta])* $v, )+
        }

        impl $name {
            /// Every value, in the order help lists them.
            pub const ALL: [$name; [$($text),+].len()] = [$($name::$v),+];

            /// The name on the command line, in files and in JSON.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$v => $text,)+
                }
            }

            /// The value in one line.
            pub fn description(self) -> &'static str {
                match self {
                    $($name::$v => $desc,)+
                }
            }
        }

        impl $crate::variant::Variant for $name {
            const ALL: &'static [$name] = &$name::ALL;
            const WHAT: &'static str = $what;
            const NAMES: &'static str = $crate::variant::variants!(@names $($text),+);
            fn name(self) -> &'static str {
                $name::name(self)
            }
            fn description(self) -> &'static str {
                $name::description(self)
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $err;
            fn from_str(s: &str) -> Result<Self, $err> {
                let make: fn(&str) -> $err = $make;
                <$name as $crate::variant::Variant>::from_name(s).ok_or_else(|| make(s))
            }
        }
    };
    (@names $a:literal) => { $a };
    (@names $a:literal, $b:literal) => { concat!($a, " or ", $b) };
    (@names $a:literal, $($rest:literal),+) => { concat!($a, ", ", $crate::variant::variants!(@names $($rest),+)) };
}
pub(crate) use variants;

#[cfg(test)]
mod tests {
    use super::Variant;

    variants! {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum Three ("test value") {
            A = "a": "the first",
            B = "b-b": "the second",
            C = "c": "the third",
        }
    }

    #[test]
    fn names_parse_and_the_message_lists_them() {
        assert_eq!(Three::ALL, [Three::A, Three::B, Three::C]);
        assert_eq!(<Three as Variant>::NAMES, "a, b-b or c");
        for v in Three::ALL {
            assert_eq!(v.name().parse::<Three>(), Ok(v));
            assert_eq!(v.to_string(), v.name());
        }
        assert_eq!(" b-b ".parse::<Three>(), Ok(Three::B));
        assert_eq!("d".parse::<Three>(), Err("`d` is not a test value; expected a, b-b or c".to_string()));
        assert_eq!(Three::C.description(), "the third");
    }
}
