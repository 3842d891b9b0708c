//! The vocabulary of verdicts: why a game is rejected, and the repairs that lose nothing.
//! Each reason and repair is named once here, for reports, JSON and TSV alike.

use serde::{Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// Declares [`RejectReason`] from one table: variant, report name, meaning.
macro_rules! reject_reasons {
    ($($variant:ident => $name:literal, $doc:literal;)*) => {
        /// Why a game is rejected.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum RejectReason {
            $(#[doc = $doc] $variant,)*
        }

        impl RejectReason {
            /// Every reason, in report order.
            pub const ALL: &'static [RejectReason] = &[$(RejectReason::$variant),*];

            /// The name used in reports, JSON and TSV (`illegal-move`, ...).
            pub const fn name(self) -> &'static str {
                match self {
                    $(RejectReason::$variant => $name,)*
                }
            }

            /// What the reason means, in one sentence.
            pub const fn meaning(self) -> &'static str {
                match self {
                    $(RejectReason::$variant => $doc,)*
                }
            }
        }
    };
}

reject_reasons! {
    ParseError => "parse-error", "The PGN text could not be read (a bad tag pair, an unclosed variation).";
    UnterminatedComment => "unterminated-comment", "A `{` comment with no `}` before the next game.";
    Truncated => "truncated", "The movetext stops without a result before the next game or the end of the input, and the Result tag gives none (`*` or no tag) to take instead.";
    NoMoves => "no-moves", "A tag section with no movetext at all, not even a result (header-only archives); a game whose movetext is only a result is valid.";
    AmbiguousComment => "ambiguous-comment", "A `{` comment quoting a game that has braces of its own: where the comment ends is ambiguous, so the game is rejected rather than the quoted game read as a game.";
    UnknownStartPosition => "unknown-start-position", "No start position can be known (`[FEN \"?\"]`, Chess960 without a FEN tag or a start-position tag) and none of the 960 (nor, for Double Chess960, of the 921,600 pairs) replays the whole main line.";
    StartAmbiguous => "start-ambiguous", "The start is not in the file and more than one of the 960 start positions (or of the Double Chess960 pairs) replays the whole main line (`--assume-sp N` picks one of the 960).";
    BadFen => "bad-fen", "The FEN tag is not a legal position.";
    ConflictingFen => "conflicting-fen", "Two FEN tags name different positions.";
    IllegalMove => "illegal-move", "A main-line move that is not legal.";
    AmbiguousMove => "ambiguous-move", "A main-line move that more than one legal move matches.";
    MalformedMove => "malformed-move", "A main-line move token that is not SAN.";
    NullMove => "null-move", "A null move (`--`, `Z0`).";
    BadVariation => "bad-variation", "An illegal, ambiguous or malformed move inside a variation.";
    TooShort => "too-short", "Fewer main-line plies than asked for (`--min-plies`).";
    BadRow => "bad-row", "A Parquet row that holds no one game: its `movetext` is null or goes on after its result.";
    TooLarge => "too-large", "A game larger than `--max-game-bytes` (read in pieces, never held whole, and copied to the rejects whole), or a Parquet row whose cells hold more (its text not made).";
}

impl fmt::Display for RejectReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RejectReason {
    type Err = UnknownName;

    fn from_str(text: &str) -> Result<RejectReason, UnknownName> {
        RejectReason::ALL
            .iter()
            .copied()
            .find(|r| r.name() == text)
            .ok_or_else(|| UnknownName(text.to_string()))
    }
}

impl Serialize for RejectReason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A name that is not one of a vocabulary's names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown name {0:?}")]
pub struct UnknownName(pub String);

/// A repair that loses nothing, applied to a kept game.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Repair {
    /// Two FEN tags naming the same position: one kept.
    DuplicateFenMerged,
    /// A FEN tag ending in `;` (an EPD line's terminator): the `;` is dropped.
    FenSemicolonDropped,
    /// A start position's castling letters named files without rooks: full rights restored.
    StartCastlingRestored,
    /// Castling letters without king or rook behind them dropped.
    ImpossibleCastlingDropped,
    /// An en-passant square no double push can have left, dropped (the square).
    ImpossibleEnPassantDropped(String),
    /// `SetUp "1"` added to a game with a FEN tag (when normalising).
    SetUpAdded,
    /// `Variant "Chess960"` (or the `--variant-tag` spelling) added or respelled (when
    /// normalising).
    VariantNormalised,
    /// The FEN tag rewritten in the requested style (when normalising).
    FenRewritten,
    /// The Result contradicted the final checkmate or stalemate and was corrected.
    ResultCorrected {
        /// The result the file had.
        old: String,
    },
    /// `0-0` / `0-0-0` written as `O-O` / `O-O-O`.
    ZeroCastlingNotation,
    /// A variation with an illegal move dropped (`--drop-bad-variations`).
    BadVariationDropped,
    /// The `Result` tag rewritten in its standard spelling, or added (when normalising;
    /// `-`, `½-½`, a missing tag).
    ResultNormalised {
        /// The value the file had (empty when the tag was missing).
        old: String,
    },
    /// A tag of the seven-tag roster was missing and is written as `?` (when normalising).
    RosterCompleted,
    /// A move written other than in canonical SAN (`Ng1f3`, a missing `+`) is written in
    /// canonical SAN (when normalising).
    SanNormalised,
    /// The game's text is not UTF-8: it is read as Latin-1 (every byte one character) and
    /// written as UTF-8 (when normalising).
    Latin1Decoded,
    /// Invisible characters before a tag line (a byte order mark, a zero-width or no-break
    /// space, as left where two exports were concatenated) were dropped and the line read
    /// as a tag line.
    InvisibleBeforeTagDropped,
    /// The start was not in the file: the only one of the 960 start positions under which
    /// the whole main line replays legally (the SP), or the only Double Chess960 pair
    /// (white's SP and black's).
    StartRecovered {
        /// The start position found (white's SP of a Double Chess960 pair).
        sp: u16,
        /// Black's SP when the start found is a Double Chess960 pair.
        black_sp: Option<u16>,
    },
    /// The start was not in the file and several starts fit the main line: the one named
    /// by `--assume-sp` (an SP, or a Double Chess960 pair).
    StartAssumed {
        /// The start position assumed (white's SP of a Double Chess960 pair).
        sp: u16,
        /// Black's SP when the start assumed is a Double Chess960 pair.
        black_sp: Option<u16>,
    },
    /// The start read from a tag other than `FEN` (`SP`, `Chess960`, `StartPosition`, a back
    /// rank in `Opening`), the game having no FEN tag or `[FEN "?"]`.
    StartFromTag {
        /// The tag's name.
        tag: &'static str,
    },
    /// The movetext stopped without a result token (at the end of the file or before the
    /// next game's tags) after legal moves, and the Result tag gives a result: that result
    /// is the game's, and it is written at the end of the movetext (when normalising).
    ResultFromTag,
    /// A tag given again with a value an earlier tag of its name has: one kept (when
    /// normalising).
    DuplicateTagDropped,
    /// A tag given again with a value of its own: the first is the game's, each later one
    /// is written as `Duplicate<Name>` (`[DuplicateWhite "..."]`) so that nothing is lost
    /// (when normalising).
    DuplicateTagRenamed,
}

impl Repair {
    /// The name used in reports.
    pub fn name(&self) -> &'static str {
        match self {
            Repair::DuplicateFenMerged => "duplicate-fen-merged",
            Repair::FenSemicolonDropped => "fen-semicolon-dropped",
            Repair::StartCastlingRestored => "start-castling-restored",
            Repair::ImpossibleCastlingDropped => "impossible-castling-dropped",
            Repair::ImpossibleEnPassantDropped(_) => "impossible-en-passant-dropped",
            Repair::SetUpAdded => "setup-added",
            Repair::VariantNormalised => "variant-normalised",
            Repair::FenRewritten => "fen-rewritten",
            Repair::ResultCorrected { .. } => "result-corrected",
            Repair::ZeroCastlingNotation => "zero-castling-notation",
            Repair::BadVariationDropped => "bad-variation-dropped",
            Repair::ResultNormalised { .. } => "result-normalised",
            Repair::RosterCompleted => "roster-completed",
            Repair::SanNormalised => "san-normalised",
            Repair::Latin1Decoded => "latin1-decoded",
            Repair::InvisibleBeforeTagDropped => "invisible-before-tag-dropped",
            Repair::StartRecovered { .. } => "start-recovered",
            Repair::StartAssumed { .. } => "start-assumed",
            Repair::StartFromTag { .. } => "start-from-tag",
            Repair::ResultFromTag => "result-from-tag",
            Repair::DuplicateTagDropped => "duplicate-tag-dropped",
            Repair::DuplicateTagRenamed => "duplicate-tag-renamed",
        }
    }
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Repair {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_read_back() {
        for (i, r) in RejectReason::ALL.iter().enumerate() {
            assert_eq!(r.name().parse::<RejectReason>(), Ok(*r));
            assert!(RejectReason::ALL[i + 1..]
                .iter()
                .all(|o| o.name() != r.name()));
            assert!(!r.meaning().is_empty());
        }
        assert!("nonsense".parse::<RejectReason>().is_err());
    }
}
