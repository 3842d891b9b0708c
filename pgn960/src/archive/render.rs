//! Writing a valid game normalised: the seven-tag roster first, `Variant`/`SetUp`/`FEN`
//! for Chess960 games, canonical SAN, comments, NAGs and variations as asked.

use super::ArchiveOptions;
use crate::validate::{start_fen, tag_copies, GameKind, Repair, TagCopy, ValidGame};
use pgn_parse::{Game, PgnWriter, Token, SEVEN_TAG_ROSTER};
use std::borrow::Cow;

/// A game's text as written: UTF-8 as it is, or every byte a Latin-1 character when the
/// game is not UTF-8 ([`Repair::Latin1Decoded`]): one rule for the whole game. A game is
/// rendered only when normalising, and then its whole text was checked once
/// (`validate::chunk::note_latin1`): a game not marked Latin-1 is UTF-8, and so is every
/// piece of it (a tag value unescaped, a comment, the commands kept from one).
fn text<'a>(bytes: &'a [u8], latin1: bool) -> Cow<'a, [u8]> {
    if latin1 {
        let decoded: String = bytes.iter().map(|&b| b as char).collect();
        Cow::Owned(decoded.into_bytes())
    } else {
        debug_assert!(
            std::str::from_utf8(bytes).is_ok(),
            "a game not UTF-8 rendered as UTF-8"
        );
        Cow::Borrowed(bytes)
    }
}

fn is_latin1(valid: &ValidGame) -> bool {
    valid.repairs.contains(&Repair::Latin1Decoded)
}

/// Appends `game`, valid as `valid` says, normalised, to `text`.
pub fn render(game: &Game<'_>, valid: &ValidGame, opts: &ArchiveOptions, text: &mut Vec<u8>) {
    let mut w = PgnWriter::new(&mut *text);
    // Writing into a Vec cannot fail.
    let _ = write_tags(&mut w, game, valid, opts)
        .and_then(|()| write_movetext(&mut w, game, valid, opts));
    text.push(b'\n');
}

fn write_tags(
    w: &mut PgnWriter<&mut Vec<u8>>,
    game: &Game<'_>,
    valid: &ValidGame,
    opts: &ArchiveOptions,
) -> std::io::Result<()> {
    w.begin_game()?;
    for (name, default) in SEVEN_TAG_ROSTER {
        if name == b"Result" {
            w.tag(name, valid.result.as_str().as_bytes())?;
        } else {
            match game.tag(name) {
                Some(t) => w.tag(name, &text(&t.value(), is_latin1(valid)))?,
                None => w.tag(name, default)?,
            }
        }
    }
    let chess960 = valid.kind == GameKind::Chess960;
    if chess960 {
        w.tag(b"Variant", opts.variant_tag.value().as_bytes())?;
    }
    if chess960 || valid.had_fen {
        let fen = start_fen(valid.kind, &valid.start, opts.fen_style);
        w.tag(b"SetUp", b"1")?;
        w.tag(b"FEN", fen.as_bytes())?;
    }
    // The Result the file had, when the written one differs: corrected by the final
    // position, or respelled (`-`, `1/2`); a Result tag that was missing has none.
    let original = valid.repairs.iter().find_map(|r| match r {
        Repair::ResultCorrected { old } => Some(old),
        Repair::ResultNormalised { old } if !old.is_empty() => Some(old),
        _ => None,
    });
    if let Some(old) = original {
        w.tag(b"OriginalResult", old.as_bytes())?;
    }
    let copies = tag_copies(&game.tags);
    let latin1 = is_latin1(valid);
    for (t, copy) in game.tags.iter().zip(copies) {
        match copy {
            TagCopy::Same => {}
            // A second value of a tag: kept under a name of its own (`DuplicateWhite`).
            TagCopy::Different => {
                let mut name = b"Duplicate".to_vec();
                name.extend_from_slice(t.name);
                w.tag(&name, &text(&t.value(), latin1))?;
            }
            TagCopy::First => {
                let skip = SEVEN_TAG_ROSTER.iter().any(|(n, _)| *n == t.name)
                    || t.name == b"SetUp"
                    || t.name == b"FEN"
                    || (chess960 && t.name == b"Variant");
                if !skip {
                    w.tag(t.name, &text(&t.value(), latin1))?;
                }
            }
        }
    }
    Ok(())
}

fn write_movetext(
    w: &mut PgnWriter<&mut Vec<u8>>,
    game: &Game<'_>,
    valid: &ValidGame,
    opts: &ArchiveOptions,
) -> std::io::Result<()> {
    w.begin_movetext(
        valid.start.fullmoves(),
        valid.start.turn() == chess960_core::Color::White,
    )?;
    let mut kept = KeptTokens {
        dropped: valid.dropped_tokens.iter().peekable(),
        dropping_until: None,
        strip_variations: opts.strip_variations,
        variation_depth: 0,
    };
    // Every SAN token of the game, written or not, has its place in `valid.canonical`.
    let mut san_index = 0usize;
    for (i, token) in game.movetext.iter().enumerate() {
        let keep = kept.keeps(i, token);
        if let Token::San { .. } = token {
            if keep {
                match valid.canonical.get(san_index).copied().flatten() {
                    Some(san) => w.san(san.to_ascii().as_bytes())?,
                    None => w.san(b"--")?,
                }
            }
            san_index += 1;
        } else if keep {
            write_other_token(w, token, valid, opts)?;
        }
    }
    w.end_game(valid.result)
}

/// Which tokens of a game are written again: not those of a dropped stretch (a repair's
/// `dropped_tokens`: the tokens from an opening index to a closing one), nor, with
/// `strip_variations`, those of a variation.
struct KeptTokens<'v> {
    dropped: std::iter::Peekable<std::slice::Iter<'v, (usize, usize)>>,
    dropping_until: Option<usize>,
    strip_variations: bool,
    variation_depth: usize,
}

impl KeptTokens<'_> {
    /// Whether `token`, the game's `i`th, is written (called for every token in order).
    fn keeps(&mut self, i: usize, token: &Token<'_>) -> bool {
        if let Some(end) = self.dropping_until {
            if i == end {
                self.dropping_until = None;
            }
            return false;
        }
        if self.dropped.peek().is_some_and(|(open, _)| *open == i) {
            self.dropping_until = self.dropped.next().map(|&(_, close)| close);
            return false;
        }
        if !self.strip_variations {
            return true;
        }
        match token {
            Token::BeginVariation => {
                self.variation_depth += 1;
                false
            }
            Token::EndVariation if self.variation_depth > 0 => {
                self.variation_depth -= 1;
                false
            }
            _ => self.variation_depth == 0,
        }
    }
}

/// Writes a token other than a move: comments as `opts` says (stripped, or only the
/// annotations it keeps), the rest as read.
fn write_other_token(
    w: &mut PgnWriter<&mut Vec<u8>>,
    token: &Token<'_>,
    valid: &ValidGame,
    opts: &ArchiveOptions,
) -> std::io::Result<()> {
    match token {
        Token::Comment { text: comment, .. } if opts.strip_comments => {
            if let Some(names) = &opts.keep_annotations {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                let keep = crate::annotations::commands(comment, &names);
                if !keep.is_empty() {
                    w.comment(&text(&keep, is_latin1(valid)))?;
                }
            }
            Ok(())
        }
        Token::Comment { text: comment, .. } => w.comment(&text(comment, is_latin1(valid))),
        other => w.write_token(other),
    }
}
