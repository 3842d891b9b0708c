//! Positions: SP numbers, start positions and the two FEN castling styles, for one FEN or
//! a list of them (None passes through as None).

use crate::errors::{located, option_error, At, InputError};
use chess960_core::{CastlingStyle, Position, StartKind};
use pyo3::prelude::*;

fn position(fen: &str, index: Option<usize>) -> PyResult<Position> {
    Position::from_fen(fen).map_err(|e| {
        let at = index.map_or(String::new(), |i| format!(" (item {i})"));
        located::<InputError>(format!("bad FEN {fen:?}{at}: {e}"), At::default())
    })
}

fn fen_text(position: &Position, style: CastlingStyle) -> String {
    let mut out = String::new();
    position.fen(style).append_to(&mut out);
    out
}

/// A scalar or a list, mapped item by item.
#[derive(FromPyObject)]
pub enum Many {
    /// One FEN.
    One(String),
    /// Many (None items allowed).
    List(Vec<Option<String>>),
}

/// What a helper returns: one value or a list.
#[derive(IntoPyObject)]
pub enum Out<T> {
    /// For one FEN.
    One(T),
    /// For a list.
    List(Vec<Option<T>>),
}

fn map<T>(fens: Many, f: impl Fn(&str, Option<usize>) -> PyResult<T>) -> PyResult<Out<T>> {
    match fens {
        Many::One(fen) => f(&fen, None).map(Out::One),
        Many::List(list) => list
            .iter()
            .enumerate()
            .map(|(i, fen)| fen.as_deref().map(|fen| f(fen, Some(i))).transpose())
            .collect::<PyResult<Vec<_>>>()
            .map(Out::List),
    }
}

/// The SP number of a Chess960 start position with full castling rights and white to
/// move (518 for the classical start), else None.
fn sp_of_one(fen: &str, index: Option<usize>) -> PyResult<Option<u16>> {
    let class = position(fen, index)?.classify_start();
    Ok(match class.kind {
        StartKind::Chess960(sp) if class.castling_is_full => Some(sp),
        _ => None,
    })
}

/// `pgn960._native.sp_of`.
#[pyfunction]
pub fn sp_of(fens: Many) -> PyResult<Out<Option<u16>>> {
    map(fens, sp_of_one)
}

/// `pgn960._native.to_xfen`.
#[pyfunction]
pub fn to_xfen(fens: Many) -> PyResult<Out<String>> {
    map(fens, |fen, i| {
        Ok(fen_text(&position(fen, i)?, CastlingStyle::Xfen))
    })
}

/// `pgn960._native.to_shredder`.
#[pyfunction]
pub fn to_shredder(fens: Many) -> PyResult<Out<String>> {
    map(fens, |fen, i| {
        Ok(fen_text(&position(fen, i)?, CastlingStyle::Shredder))
    })
}

/// `pgn960._native.start_fen`: the X-FEN of SP `sp` (black's arrangement `black_sp` for
/// Double Chess960).
#[pyfunction]
#[pyo3(signature = (sp, black_sp = None))]
pub fn start_fen(sp: u16, black_sp: Option<u16>) -> PyResult<String> {
    let position = Position::from_sp_pair(sp, black_sp.unwrap_or(sp))
        .map_err(|e| option_error(format!("bad SP number: {e}")))?;
    Ok(fen_text(&position, CastlingStyle::Xfen))
}
