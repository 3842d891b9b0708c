//! The selection of `pgn960.filter` and `pgn960.split` from Python's keywords, named as
//! the command's flags (`--black-sp` is `black_sp`): the library's [`Selection`], each
//! value read by the same parser as the flag's.

use crate::analysis::FilterArgs;
use crate::errors::option_error;
use pgn960::select::{OutcomeChoice, Reaches, Selection, SpList, TagMatch, VariantChoice};
use pyo3::prelude::*;

/// The selection's keywords beyond the filters of `stats` ([`FilterArgs`]).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct SelectionArgs {
    max_elo: Option<u32>,
    max_plies: Option<u32>,
    sp: Option<String>,
    black_sp: Option<String>,
    dfrc: bool,
    no_dfrc: bool,
    game_variant: Option<Vec<String>>,
    player: Option<String>,
    white: Option<String>,
    black: Option<String>,
    ignore_case: bool,
    event: Option<String>,
    site: Option<String>,
    result: Option<Vec<String>>,
    termination: Option<String>,
    outcome: Option<Vec<String>>,
    tag: Option<Vec<String>>,
    reaches: Option<String>,
    invert: bool,
}

/// The values of `game_variant`, as `--game-variant` names them.
const VARIANTS: [(&str, VariantChoice); 3] = [
    ("chess960", VariantChoice::Chess960),
    ("classical", VariantChoice::Classical),
    ("other", VariantChoice::Other),
];

/// The values of `outcome`, as `--outcome` names them.
const OUTCOMES: [(&str, OutcomeChoice); 8] = [
    ("checkmate", OutcomeChoice::Checkmate),
    ("stalemate", OutcomeChoice::Stalemate),
    ("insufficient-material", OutcomeChoice::InsufficientMaterial),
    ("seventy-five-moves", OutcomeChoice::SeventyFiveMoves),
    ("fivefold-repetition", OutcomeChoice::FivefoldRepetition),
    ("fifty-moves", OutcomeChoice::FiftyMoves),
    ("threefold-repetition", OutcomeChoice::ThreefoldRepetition),
    ("none", OutcomeChoice::None),
];

/// The values of `result`.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Each of `names` looked up in `table`; an unknown one is an `OptionError` listing them.
fn choices<T: Copy>(
    option: &str,
    names: Option<Vec<String>>,
    table: &[(&str, T)],
) -> PyResult<Vec<T>> {
    let find = |name: &String| {
        let wanted = name.trim().replace('_', "-");
        let found = table.iter().find(|(n, _)| *n == wanted).map(|(_, v)| *v);
        found.ok_or_else(|| {
            let known: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
            option_error(format!(
                "{option} {name:?} is not one of {}",
                known.join(", ")
            ))
        })
    };
    names.iter().flatten().map(find).collect()
}

/// A value read by its flag's parser; its error an `OptionError` naming the option.
fn parsed<T: std::str::FromStr<Err = String>>(
    option: &str,
    text: Option<String>,
) -> PyResult<Option<T>> {
    text.map(|t| {
        t.parse::<T>()
            .map_err(|e| option_error(format!("{option}: {e}")))
    })
    .transpose()
}

impl SelectionArgs {
    /// The selection, with the filters of `stats`.
    pub fn selection(self, filters: FilterArgs) -> PyResult<Selection> {
        if self.dfrc && self.no_dfrc {
            return Err(option_error("dfrc and no_dfrc cannot both be given"));
        }
        let result = self.result.unwrap_or_default();
        if let Some(bad) = result.iter().find(|r| !RESULTS.contains(&r.as_str())) {
            return Err(option_error(format!(
                "result {bad:?} is not one of {}",
                RESULTS.join(", ")
            )));
        }
        let tags = (self.tag.into_iter().flatten())
            .map(|t| {
                t.parse::<TagMatch>()
                    .map_err(|e| option_error(format!("tag: {e}")))
            })
            .collect::<PyResult<Vec<TagMatch>>>()?;
        Ok(Selection {
            filters: filters.filters()?,
            max_elo: self.max_elo,
            max_plies: self.max_plies,
            sp: parsed::<SpList>("sp", self.sp)?,
            black_sp: parsed::<SpList>("black_sp", self.black_sp)?,
            dfrc: self.dfrc,
            no_dfrc: self.no_dfrc,
            game_variant: choices("game_variant", self.game_variant, &VARIANTS)?,
            player: self.player,
            white: self.white,
            black: self.black,
            ignore_case: self.ignore_case,
            event: self.event,
            site: self.site,
            result,
            termination: self.termination,
            outcome: choices("outcome", self.outcome, &OUTCOMES)?,
            tags,
            reaches: parsed::<Reaches>("reaches", self.reaches)?,
            invert: self.invert,
        })
    }
}
