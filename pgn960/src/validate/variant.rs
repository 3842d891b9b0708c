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

/// Classifies a `Variant` tag value, ignoring case, spaces, hyphens and underscores.
pub fn classify_variant(value: &str) -> VariantTag {
    let key: String = value
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '\t'))
        .flat_map(char::to_lowercase)
        .collect();
    match key.as_str() {
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
}
