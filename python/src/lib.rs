//! The native part of the `pgn960` Python package: games read and validated by the
//! `pgn960` library, handed to Python as `Game` objects and Arrow record batches (the
//! library's one table schema, [`pgn960::table`]). The Python modules in `python/pgn960`
//! wrap it with signatures, docstrings and pyarrow conversions.
//!
//! The GIL is released while Rust works; the waits on worker threads check for signals
//! (Ctrl-C) every 100 ms; no panic crosses into Python (pyo3 turns one into a
//! `PanicException`, and the pipeline already turns a worker's panic into an error).

mod analysis;
mod errors;
mod game;
mod positions;
mod scan;
mod selection;
mod verbs;

use pyo3::prelude::*;

/// The module `pgn960._native` (named so that the `pgn960` crate is not shadowed here).
#[pymodule]
#[pyo3(name = "_native")]
fn native_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<errors::Error>())?;
    m.add("InputError", py.get_type::<errors::InputError>())?;
    m.add("OptionError", py.get_type::<errors::OptionError>())?;
    m.add("IoError", py.get_type::<errors::IoError>())?;
    m.add_class::<game::GameObject>()?;
    m.add_class::<game::GameIter>()?;
    m.add_class::<verbs::Summary>()?;
    m.add_function(wrap_pyfunction!(game::read, m)?)?;
    m.add_function(wrap_pyfunction!(scan::scan, m)?)?;
    m.add_function(wrap_pyfunction!(scan::to_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(verbs::check, m)?)?;
    m.add_function(wrap_pyfunction!(verbs::clean, m)?)?;
    m.add_function(wrap_pyfunction!(verbs::export, m)?)?;
    m.add_function(wrap_pyfunction!(verbs::filter, m)?)?;
    m.add_function(wrap_pyfunction!(verbs::split, m)?)?;
    m.add_function(wrap_pyfunction!(scan::partitions, m)?)?;
    m.add_function(wrap_pyfunction!(scan::schema, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::stats, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::merge_stats, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::stats_groups, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::tree, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::pentanomials, m)?)?;
    m.add_function(wrap_pyfunction!(positions::sp_of, m)?)?;
    m.add_function(wrap_pyfunction!(positions::start_fen, m)?)?;
    m.add_function(wrap_pyfunction!(positions::to_xfen, m)?)?;
    m.add_function(wrap_pyfunction!(positions::to_shredder, m)?)?;
    Ok(())
}
