//! `pgn960.Error` and its subclasses, with `path`, `line` and `offset` set where known.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt};
use pyo3::prelude::*;

create_exception!(
    pgn960,
    Error,
    PyException,
    "A pgn960 error; `path`, `line` and `offset` say where, when known (else None)."
);
create_exception!(
    pgn960,
    InputError,
    Error,
    "An input that cannot be read as games (unknown format, damaged Parquet, no games)."
);
create_exception!(
    pgn960,
    OptionError,
    Error,
    "A bad argument: an unknown column, a range that cannot be read, a bad SP number."
);
create_exception!(
    pgn960,
    IoError,
    Error,
    "An input that cannot be opened or read, or that changed while it was read."
);

/// Where an error happened.
#[derive(Debug, Default, Clone)]
pub struct At {
    /// The input.
    pub path: Option<String>,
    /// 1-based line.
    pub line: Option<u64>,
    /// Byte offset.
    pub offset: Option<u64>,
}

/// An error of class `T` with its place set as attributes.
pub fn located<T: pyo3::PyTypeInfo>(message: String, at: At) -> PyErr {
    Python::attach(|py| {
        let err = PyErr::new::<T, _>(message);
        let value = err.value(py);
        let _ = value.setattr("path", at.path);
        let _ = value.setattr("line", at.line);
        let _ = value.setattr("offset", at.offset);
        err
    })
}

/// A bad argument.
pub fn option_error(message: impl Into<String>) -> PyErr {
    located::<OptionError>(message.into(), At::default())
}

/// The Python error of a library error.
pub fn from_library(error: pgn960::Error) -> PyErr {
    use pgn960::Error as E;
    let message = error.to_string();
    match error {
        E::Io { name, .. } => located::<IoError>(message, path_at(name)),
        E::ReadAt { offset, .. } => located::<IoError>(
            message,
            At {
                offset: Some(offset as u64),
                ..At::default()
            },
        ),
        E::EmptyDirectory { dir } => {
            located::<InputError>(message, path_at(dir.display().to_string()))
        }
        E::Changed { path, .. } => located::<IoError>(message, path_at(path.display().to_string())),
        E::Interrupted => PyKeyboardInterrupt::new_err(message),
        E::Parquet { name, .. } => located::<InputError>(message, path_at(name)),
        E::Range { name, .. } => located::<OptionError>(message, path_at(name)),
        E::Content { name, .. } => located::<InputError>(message, path_at(name)),
        E::Internal { start, .. } => located::<Error>(
            message,
            At {
                offset: Some(start as u64),
                ..At::default()
            },
        ),
        _ => located::<Error>(message, At::default()),
    }
}

/// A place that is only an input's name.
pub fn path_at(name: String) -> At {
    At {
        path: Some(name),
        ..At::default()
    }
}
