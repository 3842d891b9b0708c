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

/// The Python error of a library error; an error while reading an input (its
/// [`pgn960::Error::Reading`]) is of the class of what went wrong, with the input as its
/// `path` when nothing nearer is known.
pub fn from_library(error: pgn960::Error) -> PyErr {
    use pgn960::Error as E;
    let mut message = error.to_string();
    let (reading, error) = match &error {
        E::Reading { name, source } => {
            message = format!("{message}: {source}");
            (Some(name.clone()), source.innermost())
        }
        other => (None, other),
    };
    let (class, mut at) = class_of(error);
    at.path = at.path.or(reading);
    match class {
        Class::Interrupted => PyKeyboardInterrupt::new_err(message),
        Class::Io => located::<IoError>(message, at),
        Class::Input => located::<InputError>(message, at),
        Class::Option => located::<OptionError>(message, at),
        Class::Other => located::<Error>(message, at),
    }
}

/// The Python classes of library errors.
enum Class {
    Interrupted,
    Io,
    Input,
    Option,
    Other,
}

/// The class of a library error and where it happened.
fn class_of(error: &pgn960::Error) -> (Class, At) {
    use pgn960::Error as E;
    let offset = |offset: usize| At {
        offset: Some(offset as u64),
        ..At::default()
    };
    match error {
        E::Io { name, .. } => (Class::Io, path_at(name.clone())),
        E::ReadAt { offset: at, .. } => (Class::Io, offset(*at)),
        E::EmptyDirectory { dir } => (Class::Input, path_at(dir.display().to_string())),
        E::Changed { path, .. } => (Class::Io, path_at(path.display().to_string())),
        E::Interrupted => (Class::Interrupted, At::default()),
        E::Parquet { name, .. } => (Class::Input, path_at(name.clone())),
        E::Range { name, .. } => (Class::Option, path_at(name.clone())),
        E::Content { name, .. } => (Class::Input, path_at(name.clone())),
        E::Internal { start, .. } => (Class::Other, offset(*start)),
        E::OutOfMemory { line, .. } => (
            Class::Other,
            At {
                line: Some(*line),
                ..At::default()
            },
        ),
        _ => (Class::Other, At::default()),
    }
}

/// A place that is only an input's name.
pub fn path_at(name: String) -> At {
    At {
        path: Some(name),
        ..At::default()
    }
}
