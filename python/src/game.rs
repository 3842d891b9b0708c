//! `pgn960.read`: every game of the inputs as a `Game`, in input order, validated on a
//! worker pool ([`pgn960::Archive::par_records`]) while Python iterates.

use crate::errors::{from_library, located, At, InputError};
use crate::scan::{checked_sp, game_limit, inputs, missing_variant, AssumeSpArg};
use pgn960::input::InputName;
use pgn960::table::columns::outcome_name;
use pgn960::table::location_at;
use pgn960::validate::{MoveRecord, ValidateOptions};
use pgn960::{Archive, GameRecord, ParRecords, RecordOptions, Verdict};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::VecDeque;
use std::path::PathBuf;

/// One game with its verdict.
#[pyclass(module = "pgn960", name = "Game", frozen)]
pub struct GameObject {
    record: GameRecord,
}

fn moves(game: &GameObject) -> &[MoveRecord] {
    game.record.valid().map_or(&[], |v| &v.moves[..])
}

#[pymethods]
impl GameObject {
    /// Whether the game is valid (legal under its rules, possibly repaired).
    #[getter]
    fn valid(&self) -> bool {
        self.record.valid().is_some()
    }

    /// Why not: `illegal-move`, `unsupported-variant`, ... (None for a valid game).
    #[getter]
    fn reason(&self) -> Option<&'static str> {
        match &self.record.verdict {
            Verdict::Valid(_) => None,
            Verdict::Unsupported(_) => Some("unsupported-variant"),
            Verdict::Invalid(r) => Some(r.reason.name()),
        }
    }

    /// What is wrong, in words (None for a valid game).
    #[getter]
    fn detail(&self) -> Option<String> {
        match &self.record.verdict {
            Verdict::Valid(_) => None,
            Verdict::Unsupported(name) => Some(format!("variant {name:?} is not read")),
            Verdict::Invalid(r) => Some(r.detail.clone()),
        }
    }

    /// Where the problem is: `line:column` (PGN) or `row N[, movetext column C]` (Parquet).
    #[getter]
    fn location(&self) -> Option<String> {
        let rows = self.record.row.is_some();
        self.record
            .problem_at
            .map(|(line, column)| location_at(line, column, rows))
    }

    /// The input the game was read from.
    #[getter]
    fn source(&self) -> &str {
        &self.record.source
    }

    /// Byte offset of the game's first byte (the row, for a Parquet input).
    #[getter]
    fn offset(&self) -> u64 {
        self.record.row.unwrap_or(self.record.offset as u64)
    }

    /// 1-based line of the game's first byte.
    #[getter]
    fn line(&self) -> u64 {
        self.record.line
    }

    /// The tags, in file order (the first of a repeated name).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in &self.record.tags {
            if !dict.contains(name)? {
                dict.set_item(name, value)?;
            }
        }
        Ok(dict)
    }

    /// `chess960`, `standard`, another variant's name, or None for an invalid game.
    #[getter]
    fn variant(&self) -> Option<String> {
        match &self.record.verdict {
            Verdict::Valid(v) => Some(v.kind.name().to_string()),
            Verdict::Unsupported(name) => Some(name.clone()),
            Verdict::Invalid(_) => None,
        }
    }

    /// The SP number (0..959; white's for Double Chess960), None off a Chess960 start.
    #[getter]
    fn sp(&self) -> Option<u16> {
        self.record.valid().and_then(|v| v.sp())
    }

    /// Black's SP number, for a Double Chess960 start only.
    #[getter]
    fn black_sp(&self) -> Option<u16> {
        self.record.valid().and_then(|v| v.black_sp())
    }

    /// The start position in X-FEN (valid games).
    #[getter]
    fn start_xfen(&self) -> Option<String> {
        self.record.valid().map(|v| v.start_xfen())
    }

    /// The final position in X-FEN (valid games).
    #[getter]
    fn final_xfen(&self) -> Option<String> {
        self.record.valid().map(|v| v.final_xfen())
    }

    /// Main-line plies (valid games).
    #[getter]
    fn plies(&self) -> Option<u32> {
        self.record.valid().map(|v| v.plies)
    }

    /// The result, corrected for a valid game (else the Result tag as written).
    #[getter]
    fn result(&self) -> Option<String> {
        match self.record.valid() {
            Some(v) => Some(v.result.as_str().to_string()),
            None => self.record.tag("Result").map(str::to_string),
        }
    }

    /// How the final position ends the game: `checkmate`, `stalemate`, ... or None.
    #[getter]
    fn outcome(&self) -> Option<&'static str> {
        self.record
            .valid()
            .and_then(|v| v.termination)
            .map(outcome_name)
    }

    /// The repairs made to read the game (`missing-setup-tag`, ...).
    #[getter]
    fn repairs(&self) -> Vec<&'static str> {
        self.record
            .valid()
            .map_or_else(Vec::new, |v| v.repairs.iter().map(|r| r.name()).collect())
    }

    /// The main-line moves, in SAN (`fmt="san"`) or UCI_Chess960 (`fmt="uci"`, castling
    /// king-to-rook); empty for an invalid game.
    #[pyo3(signature = (fmt = "san"))]
    fn moves(&self, fmt: &str) -> PyResult<Vec<String>> {
        let list = moves(self);
        match fmt {
            "san" => Ok(list.iter().map(|m| m.san.to_string()).collect()),
            "uci" => Ok(list.iter().map(|m| m.uci().to_string()).collect()),
            other => Err(crate::errors::option_error(format!(
                "fmt must be \"san\" or \"uci\", not {other:?}"
            ))),
        }
    }

    /// Seconds on the clock after each ply (`[%clk]`), None where not given.
    fn clocks(&self) -> Vec<Option<f64>> {
        moves(self).iter().map(|m| m.annotations.clock).collect()
    }

    /// Evaluation after each ply (`[%eval]`) in pawns, None where not given or a mate
    /// (see `evals_mate`).
    fn evals(&self) -> Vec<Option<f64>> {
        use pgn960::annotations::Eval;
        let pawns = |m: &MoveRecord| match m.annotations.eval {
            Some(Eval::Pawns(p)) => Some(p),
            _ => None,
        };
        moves(self).iter().map(pawns).collect()
    }

    /// Mate distance after each ply (`[%eval #N]`), None where not a mate.
    fn evals_mate(&self) -> Vec<Option<i32>> {
        use pgn960::annotations::Eval;
        let mate = |m: &MoveRecord| match m.annotations.eval {
            Some(Eval::Mate(n)) => Some(n),
            _ => None,
        };
        moves(self).iter().map(mate).collect()
    }

    /// The game's text as read.
    fn to_pgn(&self) -> String {
        self.record
            .text
            .as_deref()
            .map(|t| String::from_utf8_lossy(t).into_owned())
            .unwrap_or_default()
    }

    /// The game as a python-chess `Board` (chess960=True) with its moves played from the
    /// start position; needs python-chess (`pip install chess`).
    fn board<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        slf.py().import("pgn960")?.getattr("_board")?.call1((slf,))
    }

    fn __repr__(&self) -> String {
        let what = match (self.record.valid(), self.reason()) {
            (Some(v), _) => format!("sp={:?}, plies={}", v.sp(), v.plies),
            (None, reason) => format!("reason={:?}", reason.unwrap_or("?")),
        };
        format!(
            "<Game {}@{} valid={} {what}>",
            self.record.source,
            self.offset(),
            self.valid()
        )
    }
}

/// Games of the inputs, one input after the other.
#[pyclass(module = "pgn960")]
pub struct GameIter {
    /// Behind a lock because a Python object may be shared between threads (one at a time
    /// may iterate).
    state: std::sync::Mutex<Reading>,
}

/// Where a [`GameIter`] is.
struct Reading {
    names: VecDeque<InputName>,
    current: Option<Current>,
    options: RecordOptions,
    threads: usize,
    include_invalid: bool,
}

/// The input being read.
struct Current {
    records: ParRecords,
    name: InputName,
    head: Vec<u8>,
    games: u64,
}

impl Reading {
    fn open(name: InputName, options: RecordOptions, threads: usize) -> PyResult<Current> {
        let mut input = pgn960::input::open(&name).map_err(from_library)?;
        let head = input.peek(256).map_err(from_library)?;
        if let Some(format) = pgn960::compression::unsupported_format(&head) {
            return Err(not_games(&name, format));
        }
        let records = Archive::from_input(input)
            .with_options(options)
            .par_records(threads)
            .map_err(from_library)?;
        Ok(Current {
            records,
            name,
            head,
            games: 0,
        })
    }

    /// The next record of any input, `None` at the end of the last.
    fn next_record(&mut self, py: Python<'_>) -> PyResult<Option<GameRecord>> {
        loop {
            if self.current.is_none() {
                let Some(name) = self.names.pop_front() else {
                    return Ok(None);
                };
                // Opened without the GIL: opening a FIFO waits for its writer, which may be a
                // Python thread of this process.
                let (options, threads) = (self.options, self.threads);
                self.current = Some(py.detach(|| Reading::open(name, options, threads))?);
            }
            let Some(current) = self.current.as_mut() else {
                continue;
            };
            // Wait a tick at a time with the GIL released, and check for Ctrl-C between
            // ticks: a stream that stalls (a pipe, a FIFO) must not hold the call forever.
            let next = loop {
                match py.detach(|| current.records.next_within(crate::scan::TICK)) {
                    Some(next) => break next,
                    None => py.check_signals()?,
                }
            };
            match next {
                Some(record) => {
                    current.games += 1;
                    return record.map(Some).map_err(from_library);
                }
                None if current.games == 0 => {
                    let what = pgn960::compression::describe_bytes(&current.head);
                    let error = not_games(&current.name, format!("no game found: {what}"));
                    self.current = None;
                    return Err(error);
                }
                None => self.current = None,
            }
        }
    }
}

fn not_games(name: &InputName, message: String) -> PyErr {
    located::<InputError>(
        format!("{name}: {message}"),
        At {
            path: Some(name.to_string()),
            line: Some(1),
            offset: Some(0),
        },
    )
}

#[pymethods]
impl GameIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<GameObject>> {
        // Never wait for the lock while holding the GIL: its holder may be waiting for it.
        let mut reading = self.state.try_lock().map_err(|_| {
            crate::errors::option_error("the games are being read by another thread")
        })?;
        loop {
            py.check_signals()?;
            let Some(record) = reading.next_record(py)? else {
                return Ok(None);
            };
            if reading.include_invalid || record.valid().is_some() {
                return Ok(Some(GameObject { record }));
            }
        }
    }
}

/// `pgn960._native.read`.
#[pyfunction]
#[pyo3(signature = (src, threads, include_invalid, variant, max_game_bytes=None, assume_sp=None))]
pub fn read(
    src: Vec<PathBuf>,
    threads: usize,
    include_invalid: bool,
    variant: &str,
    max_game_bytes: Option<usize>,
    assume_sp: Option<AssumeSpArg>,
) -> PyResult<GameIter> {
    let options = RecordOptions {
        validate: ValidateOptions {
            moves: true,
            missing_variant: missing_variant(variant)?,
            max_game_bytes: game_limit(max_game_bytes),
            assume_sp: checked_sp(assume_sp)?,
            ..ValidateOptions::default()
        },
        tags: true,
        text: true,
    };
    Ok(GameIter {
        state: std::sync::Mutex::new(Reading {
            names: inputs(src)?.into(),
            current: None,
            options,
            threads,
            include_invalid,
        }),
    })
}
