//! CSV and JSON Lines rows, rendered in the workers: the sink only appends them.

use super::columns::{value, Column, GameView, MoveList, PlyView, Value};
use std::io::Write;

/// Appends `list` as space-separated words (CSV), `?` for a missing element.
fn spaced(list: &[crate::validate::MoveRecord], which: MoveList, out: &mut String) {
    use std::fmt::Write as _;
    for (i, m) in list.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match which {
            MoveList::San | MoveList::Uci(_) => out.push_str(&which.text(m)),
            MoveList::Clocks | MoveList::Evals | MoveList::Emts => match which.float(m) {
                Some(f) => {
                    let _ = write!(out, "{f}");
                }
                None => out.push('?'),
            },
            MoveList::EvalsMate | MoveList::Depths => match which.int(m) {
                Some(n) => {
                    let _ = write!(out, "{n}");
                }
                None => out.push('?'),
            },
        }
    }
}

/// Rows as CSV (no header: the sink writes it once).
pub struct CsvRows {
    writer: csv::Writer<Vec<u8>>,
    field: String,
}

impl CsvRows {
    /// An empty chunk of rows.
    pub fn new() -> CsvRows {
        CsvRows {
            writer: csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(Vec::new()),
            field: String::new(),
        }
    }

    /// Appends one row.
    pub fn push(&mut self, columns: &[Column], game: &GameView<'_>, ply: Option<&PlyView<'_>>) {
        for c in columns {
            self.field.clear();
            match value(&c.field, game, ply) {
                Value::Null => {}
                Value::Text(t) => self.field.push_str(&t),
                Value::Int(n) => self.field.push_str(&n.to_string()),
                Value::Float(f) => self.field.push_str(&f.to_string()),
                Value::Bool(b) => self.field.push_str(if b { "true" } else { "false" }),
                Value::Moves(moves, which) => spaced(moves, which, &mut self.field),
                Value::Move(m, which) => self.field.push_str(&which.text(m)),
            }
            // Writing into a Vec cannot fail.
            let _ = self.writer.write_field(&self.field);
        }
        let _ = self.writer.write_record(None::<&[u8]>);
    }

    /// The rendered rows.
    pub fn finish(self) -> Vec<u8> {
        self.writer.into_inner().unwrap_or_default()
    }
}

impl Default for CsvRows {
    fn default() -> CsvRows {
        CsvRows::new()
    }
}

/// The header line of a CSV table.
pub fn csv_header(columns: &[Column]) -> Vec<u8> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let _ = writer.write_record(columns.iter().map(|c| c.name.as_str()));
    writer.into_inner().unwrap_or_default()
}

/// Writes a JSON list of a game's moves.
fn json_list(out: &mut Vec<u8>, moves: &[crate::validate::MoveRecord], which: MoveList) {
    out.push(b'[');
    for (i, m) in moves.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let _ = match which {
            MoveList::San | MoveList::Uci(_) => serde_json::to_writer(&mut *out, &*which.text(m)),
            MoveList::Clocks | MoveList::Evals | MoveList::Emts => {
                serde_json::to_writer(&mut *out, &which.float(m))
            }
            MoveList::EvalsMate | MoveList::Depths => {
                serde_json::to_writer(&mut *out, &which.int(m))
            }
        };
    }
    out.push(b']');
}

/// Appends one row as a JSON object on its own line.
pub fn push_json(
    out: &mut Vec<u8>,
    columns: &[Column],
    game: &GameView<'_>,
    ply: Option<&PlyView<'_>>,
) {
    out.push(b'{');
    for (i, c) in columns.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let _ = serde_json::to_writer(&mut *out, &c.name);
        out.push(b':');
        let _ = match value(&c.field, game, ply) {
            Value::Null => out.write_all(b"null"),
            Value::Text(t) => serde_json::to_writer(&mut *out, t.as_ref()).map_err(Into::into),
            Value::Int(n) => write!(out, "{n}"),
            Value::Float(f) => serde_json::to_writer(&mut *out, &f).map_err(Into::into),
            Value::Bool(b) => write!(out, "{b}"),
            Value::Moves(moves, which) => {
                json_list(out, moves, which);
                Ok(())
            }
            Value::Move(m, which) => {
                serde_json::to_writer(&mut *out, &*which.text(m)).map_err(Into::into)
            }
        };
    }
    out.extend_from_slice(b"}\n");
}
