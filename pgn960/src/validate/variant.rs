//! Reading the `Variant` tag.

/// What a game's `Variant` tag says about its rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VariantTag {
    /// No `Variant` tag, or an empty one.
    Absent,
    /// A spelling of Chess960 (`Chess960`, `chess 960`, `Fischerandom`, `FRC`, `960`, ...).
    Chess960,
    /// Standard chess (`Standard`, `Chess`, `From Position`, ...).
    Standard,
    /// Any other variant, named as in the file.
    Other(String),
}

/// How a written Chess960 game's `Variant` tag is spelled (`--variant-tag`): as lichess,
/// cutechess and TCEC, or pychess write it, for readers that know only their own spelling.
///
/// ```
/// use pgn960::validate::variant::VariantSpelling;
/// let spelling: VariantSpelling = "chess 960".parse().unwrap();
/// assert_eq!(spelling.value(), "chess 960");
/// assert_eq!(VariantSpelling::default().value(), "Chess960");
/// assert!("960".parse::<VariantSpelling>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VariantSpelling {
    /// `Chess960` (lichess, the PGN standard's usage).
    #[default]
    Chess960,
    /// `fischerandom` (cutechess, TCEC).
    Fischerandom,
    /// `chess 960` (pychess).
    ChessSpace960,
}

impl VariantSpelling {
    /// Every spelling, in the order `--help` lists them.
    pub const ALL: [VariantSpelling; 3] = [
        VariantSpelling::Chess960,
        VariantSpelling::Fischerandom,
        VariantSpelling::ChessSpace960,
    ];

    /// The tag's value as written.
    pub fn value(self) -> &'static str {
        match self {
            VariantSpelling::Chess960 => "Chess960",
            VariantSpelling::Fischerandom => "fischerandom",
            VariantSpelling::ChessSpace960 => "chess 960",
        }
    }
}

impl std::str::FromStr for VariantSpelling {
    type Err = String;

    /// One of the values, whatever the case (`chess960`, `fischerandom`, `chess 960`).
    fn from_str(text: &str) -> Result<VariantSpelling, String> {
        VariantSpelling::ALL
            .into_iter()
            .find(|s| s.value().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| {
                format!("unknown Variant spelling {text:?} (chess960, fischerandom, \"chess 960\")")
            })
    }
}

/// A `Variant` tag value lower-cased, without spaces, hyphens and underscores.
fn variant_key(value: &str) -> String {
    value
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '\t'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The longest value [`with_variant_key`] lower-cases on the stack.
const SHORT_KEY: usize = 32;

/// Calls `f` with the [`variant_key`] of `value`: on the stack, without an allocation, for
/// the common value (ASCII letters and digits alone, as `Chess960`, whose key is its ASCII
/// lower case); through [`variant_key`] for any other.
fn with_variant_key<T>(value: &str, f: impl FnOnce(&str) -> T) -> T {
    let bytes = value.as_bytes();
    let mut buf = [0u8; SHORT_KEY];
    if let Some(short) = buf.get_mut(..bytes.len()) {
        if bytes.iter().all(u8::is_ascii_alphanumeric) {
            short.copy_from_slice(bytes);
            short.make_ascii_lowercase();
            if let Ok(key) = std::str::from_utf8(short) {
                return f(key);
            }
        }
    }
    f(&variant_key(value))
}

/// Whether a `Variant` tag value names Double Chess960 (`Double Chess960`, `DFRC`, `Double
/// Fischer Random`), one of the spellings [`classify_variant`] reads as Chess960: each side
/// has a back rank of its own.
pub fn names_double_chess960(value: &str) -> bool {
    with_variant_key(value, |key| {
        matches!(
            key,
            "doublechess960" | "dfrc" | "doublefischerrandom" | "doublefischerrandomchess"
        )
    })
}

/// Classifies a `Variant` tag value, ignoring case, spaces, hyphens and underscores.
pub fn classify_variant(value: &str) -> VariantTag {
    with_variant_key(value, |key| classify_key(key, value))
}

/// [`classify_variant`] of `value`, whose [`variant_key`] is `key`.
fn classify_key(key: &str, value: &str) -> VariantTag {
    match key {
        "" => VariantTag::Absent,
        "chess960"
        | "960"
        | "fischerandom"
        | "fischerrandom"
        | "fischerrandomchess"
        | "fischerandomchess"
        | "frc"
        | "chess960frc"
        | "freestyle"
        | "freestylechess"
        | "doublechess960"
        | "dfrc"
        | "doublefischerrandom"
        | "doublefischerrandomchess" => VariantTag::Chess960,
        "standard" | "chess" | "normal" | "classical" | "fromposition" | "orthodox"
        | "standardchess" => VariantTag::Standard,
        _ => VariantTag::Other(value.trim().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_spellings() {
        for s in [
            "Chess960",
            "chess 960",
            "chess-960",
            "Fischerandom",
            "fischerandom",
            "Fischer Random",
            "FRC",
            "960",
            "Chess 960",
            "fischer_random",
        ] {
            assert_eq!(classify_variant(s), VariantTag::Chess960, "{s}");
        }
    }

    #[test]
    fn double_chess960_spellings_are_chess960_and_named_so() {
        for s in ["Double Chess960", "DFRC", "double-fischer-random", "dfrc"] {
            assert_eq!(classify_variant(s), VariantTag::Chess960, "{s}");
            assert!(names_double_chess960(s), "{s}");
        }
        for s in ["Chess960", "fischerandom", "FRC", "Standard"] {
            assert!(!names_double_chess960(s), "{s}");
        }
    }

    #[test]
    fn others() {
        assert_eq!(classify_variant("Standard"), VariantTag::Standard);
        assert_eq!(classify_variant("From Position"), VariantTag::Standard);
        assert_eq!(classify_variant(" "), VariantTag::Absent);
        assert_eq!(
            classify_variant("Crazyhouse"),
            VariantTag::Other("Crazyhouse".into())
        );
        assert_eq!(
            classify_variant("atomic"),
            VariantTag::Other("atomic".into())
        );
    }

    #[test]
    fn the_stack_key_is_the_general_key() {
        let pieces = [
            "Chess", "960", "CHESS", "i", "\u{130}", "\u{df}", "K", "\u{212a}", " ", "-", "_",
            "\t", "x", "Z", "0", "\u{e9}", "fischer", "Random",
        ];
        let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..20_000 {
            let len = rng.index(12);
            let value: String = (0..len).map(|_| pieces[rng.index(pieces.len())]).collect();
            let general = variant_key(&value);
            assert_eq!(
                with_variant_key(&value, str::to_string),
                general,
                "{value:?}"
            );
            let stack = with_variant_key(&value, |key| classify_key(key, &value));
            assert_eq!(stack, classify_key(&general, &value), "{value:?}");
        }
    }
}
