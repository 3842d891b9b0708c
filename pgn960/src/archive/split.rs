//! `pgn960 split`: divide the selected games into one file per key value (SP, month,
//! event, ...) or per N games, in a directory, every file complete or absent.
//!
//! Games are written to numbered files in a staging directory inside the output directory
//! (`DIR/.pgn960-split.PID.tmp/`). Each file's games are gathered in memory and written
//! [`PART_BUFFER`] bytes or more at a time (all of them when [`PENDING_BUDGET`] bytes are
//! waiting), through at most `--max-open` open files (the least recently used is closed and
//! reopened for appending when its next write comes): 941 SP files of a 300 MB archive take
//! a few thousand writes instead of an open, a write and a close per game. When the run is
//! complete every file is renamed to its name, and on an error or Ctrl-C the staging
//! directory is removed. Memory holds one entry per file and at most [`PENDING_BUDGET`]
//! bytes of games, whatever the input.
//!
//! [`SplitRun`] is the run: its outputs planned and created, every game picked
//! ([`super::pick`]) and written to the file of its key, then everything put in place.

use super::filter::{written_files, SideOutputs};
use super::pick::{pick_chunk, run_picks, tally, KeyFn, PickOptions, PickSummary, Rejects};
use crate::driver::Driver;
use crate::facts::speed_of;
use crate::input::Bytes;
use crate::output::{bail, Context, InputFiles, OutputError, OutputId, OutputPlan, Result};
use crate::select::{date_span, tag_text};
use crate::validate::Verdict;
use chess960_core::StartKind;
use pgn_parse::Tag;
use rustc_hash::FxHashMap;
use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{IoSlice, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What games are split by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitBy {
    /// Start position (`sp-0518`; Double Chess960 `sp-0518-0123`).
    Sp,
    /// White's and black's start positions (`sp-pair-0518-0518`).
    SpPair,
    /// Month of the date (`month-2024-03`).
    Month,
    /// Year of the date (`year-2024`).
    Year,
    /// The Event tag.
    Event,
    /// Speed from the TimeControl tag (`time-control-blitz`).
    TimeControl,
    /// The White tag.
    White,
    /// The Result tag (`result-1-0`, `result-0-1`, `result-draw`, `result-unfinished`).
    Result,
    /// N games per file, in input order (`games-000001`).
    Games(u64),
}

impl SplitBy {
    /// The key's name in file names.
    pub fn name(self) -> &'static str {
        match self {
            SplitBy::Sp => "sp",
            SplitBy::SpPair => "sp-pair",
            SplitBy::Month => "month",
            SplitBy::Year => "year",
            SplitBy::Event => "event",
            SplitBy::TimeControl => "time-control",
            SplitBy::White => "white",
            SplitBy::Result => "result",
            SplitBy::Games(_) => "games",
        }
    }

    /// The raw key value of a selected game (valid, or of another variant).
    pub fn value(self, tags: &[Tag<'_>], verdict: &Verdict) -> Vec<u8> {
        let start = match verdict {
            Verdict::Valid(game) => Some(game.class.kind),
            _ => None,
        };
        let text = |name: &[u8]| {
            tags.iter()
                .find(|t| t.name == name)
                .map_or_else(|| b"unknown".to_vec(), |t| t.value().into_owned())
        };
        let value = match self {
            SplitBy::Sp | SplitBy::SpPair => match start {
                Some(StartKind::Chess960(n)) if self == SplitBy::Sp => format!("{n:04}"),
                Some(StartKind::Chess960(n)) => format!("{n:04}-{n:04}"),
                Some(StartKind::DoubleChess960 { white, black }) => {
                    format!("{white:04}-{black:04}")
                }
                Some(StartKind::NotAStart) => "none".into(),
                None => "other-variant".into(),
            },
            SplitBy::Month | SplitBy::Year => match date_span(tags) {
                Some((first, _)) if self == SplitBy::Year => format!("{:04}", first.year),
                Some((first, last)) if first.month == last.month => {
                    format!("{:04}-{:02}", first.year, first.month)
                }
                _ => "unknown".into(),
            },
            SplitBy::TimeControl => tag_text(tags, b"TimeControl")
                .and_then(|t| speed_of(&t))
                .map_or_else(|| "unknown".into(), |s| s.name().into()),
            SplitBy::Result => match tag_text(tags, b"Result").as_deref().map(str::trim) {
                Some("1-0") => "1-0".into(),
                Some("0-1") => "0-1".into(),
                Some("1/2-1/2") => "draw".into(),
                Some("*") => "unfinished".into(),
                _ => "unknown".into(),
            },
            SplitBy::Event => return text(b"Event"),
            SplitBy::White => return text(b"White"),
            SplitBy::Games(_) => String::new(),
        };
        value.into_bytes()
    }
}

impl std::str::FromStr for SplitBy {
    type Err = String;

    fn from_str(text: &str) -> Result<SplitBy, String> {
        Ok(match text {
            "sp" => SplitBy::Sp,
            "sp-pair" => SplitBy::SpPair,
            "month" => SplitBy::Month,
            "year" => SplitBy::Year,
            "event" => SplitBy::Event,
            "time-control" => SplitBy::TimeControl,
            "white" => SplitBy::White,
            "result" => SplitBy::Result,
            _ => match text.strip_prefix("games:").map(str::parse::<u64>) {
                Some(Ok(n)) if n > 0 => SplitBy::Games(n),
                Some(_) => return Err(format!("games:N needs a number N > 0, found {text:?}")),
                None => {
                    return Err(format!(
                        "unknown key {text:?} (one of sp, sp-pair, month, year, event, time-control, white, result, games:N)"
                    ))
                }
            },
        })
    }
}

/// The longest value kept in a file name, in bytes.
const MAX_VALUE_BYTES: usize = 80;

/// A key value made safe for a file name: ASCII letters, digits and `-_.+` kept, a space
/// `_`, every other byte `_` too, a leading `.` `_`, at most [`MAX_VALUE_BYTES`]. When
/// anything but a space was changed, the value is empty, or `hash` asks (the name is taken
/// by another value), a hash of the exact value is added, so different values stay apart.
pub fn safe_value(raw: &[u8], hash: bool) -> String {
    let mut changed = raw.is_empty() || raw.len() > MAX_VALUE_BYTES;
    let mut safe: String = raw
        .iter()
        .take(MAX_VALUE_BYTES)
        .enumerate()
        .map(|(i, &b)| match b {
            b'.' if i == 0 => {
                changed = true;
                '_'
            }
            b if b.is_ascii_alphanumeric() || b"-_.+".contains(&b) => b as char,
            b' ' => '_',
            _ => {
                changed = true;
                '_'
            }
        })
        .collect();
    if changed || hash {
        let hash = raw.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        safe.push_str(&format!("-{hash:016x}"));
    }
    safe
}

/// The file name for a key value by `template`.
fn file_name(template: &str, key: &str, value: &str) -> String {
    template.replace("{key}", key).replace("{value}", value)
}

/// Checks a template: `{value}` in it, no `/`, not a hidden file; the error says what is
/// wrong.
pub fn check_template(template: &str) -> Result<(), String> {
    if !template.contains("{value}") {
        return Err(format!(
            "--template {template:?} has no {{value}}: every file would have the same name"
        ));
    }
    if template.contains('/') || template.contains('\0') {
        return Err(format!(
            "--template {template:?} must be a file name, without '/'"
        ));
    }
    if template.starts_with('.') {
        return Err(format!("--template {template:?} must not start with '.'"));
    }
    // Split appends to its files and reopens them (`--max-open`, `--append`): they are
    // plain PGN, so a name that says compressed would lie (outputs are chosen by name).
    let compression = crate::compression::compression_of_name(std::path::Path::new(template));
    if let Some(format) = crate::compression::format_of(compression) {
        return Err(format!(
            "--template {template:?} names {} files, but split writes plain PGN: name them .pgn and compress the files afterwards",
            format.name
        ));
    }
    Ok(())
}

/// The most files [`default_max_open`] keeps open.
pub const MAX_OPEN_CAP: usize = 4096;

/// The process's open-file limit (soft), if it can be read.
#[allow(unsafe_code)]
fn open_file_limit() -> Option<libc::rlimit> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given, which lives for the call.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    ok.then_some(limit)
}

/// Raises the process's soft open-file limit to its hard limit (the command line does so
/// before `split`, so that every file can stay open); a failure leaves it as it was.
#[allow(unsafe_code)]
pub fn raise_open_file_limit() {
    let Some(limit) = open_file_limit() else {
        return;
    };
    if limit.rlim_cur < limit.rlim_max {
        let raised = libc::rlimit {
            rlim_cur: limit.rlim_max,
            rlim_max: limit.rlim_max,
        };
        // SAFETY: setrlimit reads the struct it is given, which lives for the call.
        let _ = unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) };
    }
}

/// The default of `--max-open`: half the process's soft open-file limit, at most
/// [`MAX_OPEN_CAP`] (64 when the limit cannot be read), so that the 960 files of a split
/// by SP are each opened once.
pub fn default_max_open() -> usize {
    match open_file_limit() {
        Some(limit) => usize::try_from(limit.rlim_cur / 2)
            .unwrap_or(MAX_OPEN_CAP)
            .clamp(1, MAX_OPEN_CAP),
        None => 64,
    }
}

/// A file's games are written when this many bytes of them are waiting.
pub const PART_BUFFER: usize = 64 << 10;

/// Every file's waiting games are written when this many bytes wait in all.
pub const PENDING_BUDGET: usize = 32 << 20;

/// One output file of the split.
struct SplitPart {
    /// Its final name in DIR.
    name: String,
    /// Games written.
    games: u64,
    /// The texts of its waiting games that were copied (not in the input held whole).
    pending: Vec<u8>,
    /// Its games not yet written to the file, in order.
    waiting: Vec<Waiting>,
    /// The bytes they take in the file.
    waiting_bytes: usize,
    /// Whether its file was created (its mode set).
    created: bool,
    /// Its file, while open, and when it was last used.
    open: Option<(File, u64)>,
}

/// A game waiting to be written to its file: its text up to its last non-blank byte, in
/// the part's own bytes or in the input held whole, and whether it is the file's first
/// (no blank line before it).
struct Waiting {
    own: bool,
    range: Range<usize>,
    first: bool,
}

/// What to do with the files the output directory holds already.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    /// Refuse to run.
    Refuse,
    /// Remove them once the new files are in place (`--force`).
    Replace,
    /// Add the games to the files of the same name (`--append`).
    Append,
}

/// The staging directory and its files, at most `max_open` of them open at once.
struct Parts {
    dir: PathBuf,
    staging: PathBuf,
    max_open: usize,
    /// The files, in the order of their first game.
    parts: Vec<SplitPart>,
    by_key: FxHashMap<Vec<u8>, usize>,
    names: HashMap<String, usize>,
    /// Open parts by last use.
    lru: BTreeMap<u64, usize>,
    /// Bytes of games waiting in all parts.
    pending: usize,
    /// The input held whole that waiting games are in (games are written from it, not
    /// copied).
    input: Option<Arc<Bytes>>,
    /// [`PART_BUFFER`] (smaller in tests).
    part_buffer: usize,
    /// [`PENDING_BUDGET`] (smaller in tests).
    budget: usize,
    tick: u64,
    committed: bool,
    existing: Existing,
    /// The files the directory held before the run.
    earlier: Vec<PathBuf>,
    /// Parts added to an earlier file of their name (`--append`), staged whole.
    appended: Vec<usize>,
    _lock: crate::output::OutputLock,
}

/// The files (not our hidden temporary ones) directly in `dir`.
fn files_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
        if !entry.file_name().to_string_lossy().starts_with(".pgn960-") {
            files.push(entry.path());
        }
    }
    files.sort();
    Ok(files)
}

impl Parts {
    /// Creates (and locks) the directory `dir` and a staging directory in it, after
    /// checking what `dir` holds already against `existing`.
    fn create(
        dir: &Path,
        max_open: usize,
        existing: Existing,
        inputs: &[PathBuf],
    ) -> Result<Parts> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the directory {}", dir.display()))?;
        let real = dir
            .canonicalize()
            .with_context(|| format!("cannot read {}", dir.display()))?;
        let lock = crate::output::OutputLock::take(&real)?;
        let mut earlier = files_in(dir)?;
        if let (Some(first), Existing::Refuse) = (earlier.first(), existing) {
            bail!(
                "-o {} holds {} file(s) already (e.g. {}): give --force to replace them or --append to add to them",
                dir.display(),
                earlier.len(),
                first.display()
            );
        }
        // An input is never removed, whatever --force says.
        let input_files = InputFiles::of(inputs)?;
        earlier.retain(|p| input_files.refuse(p).is_ok());
        remove_stale_staging(dir);
        let staging = dir.join(format!(".pgn960-split.{}.tmp", std::process::id()));
        // A directory of this process's id is left by nobody alive.
        let _ = std::fs::remove_dir_all(&staging);
        std::fs::create_dir(&staging)
            .with_context(|| format!("cannot create a temporary directory in {}", dir.display()))?;
        Ok(Parts {
            dir: dir.to_path_buf(),
            staging,
            max_open: max_open.max(1),
            parts: Vec::new(),
            by_key: FxHashMap::default(),
            names: HashMap::new(),
            lru: BTreeMap::new(),
            pending: 0,
            input: None,
            part_buffer: PART_BUFFER,
            budget: PENDING_BUDGET,
            tick: 0,
            committed: false,
            existing,
            earlier,
            appended: Vec::new(),
            _lock: lock,
        })
    }

    /// With `--append`: stages part `id` as the earlier file of its name followed by its
    /// games, so that the rename puts both in place at once.
    fn stage_append(&mut self, id: usize) -> Result<()> {
        let target = self.dir.join(&self.parts[id].name);
        if self.existing != Existing::Append || !target.is_file() {
            return Ok(());
        }
        let whole = self.staging.join(format!("{id}.whole"));
        let cannot = || format!("cannot write {}", whole.display());
        let mut out = File::create(&whole).with_context(cannot)?;
        let mut earlier =
            File::open(&target).with_context(|| format!("cannot read {}", target.display()))?;
        let copied = std::io::copy(&mut earlier, &mut out).with_context(cannot)?;
        if copied > 0 {
            out.write_all(b"\n").with_context(cannot)?;
        }
        let mut new = File::open(self.temp_path(id)).with_context(cannot)?;
        std::io::copy(&mut new, &mut out).with_context(cannot)?;
        out.sync_all().with_context(cannot)?;
        crate::output::readable_by_all(&out);
        std::fs::rename(&whole, self.temp_path(id)).with_context(cannot)?;
        self.appended.push(id);
        Ok(())
    }

    /// With `--force`: removes the earlier files this run did not replace; returns how many.
    fn remove_earlier(&self) -> Result<usize> {
        if self.existing != Existing::Replace {
            return Ok(0);
        }
        let written: std::collections::HashSet<PathBuf> =
            self.parts.iter().map(|p| self.dir.join(&p.name)).collect();
        let mut removed = 0;
        for path in self.earlier.iter().filter(|p| !written.contains(*p)) {
            if path.is_dir() {
                continue;
            }
            std::fs::remove_file(path)
                .with_context(|| format!("cannot remove the earlier file {}", path.display()))?;
            removed += 1;
        }
        Ok(removed)
    }

    fn temp_path(&self, id: usize) -> PathBuf {
        self.staging.join(format!("{id}.pgn"))
    }

    /// The part of a key, created the first time; `name` gives its file name (with a hash
    /// of the value when asked: the name without is taken by another value).
    fn part(&mut self, key: &[u8], name: impl Fn(bool) -> String) -> Result<usize> {
        if let Some(&id) = self.by_key.get(key) {
            return Ok(id);
        }
        let mut file = name(false);
        if self.names.contains_key(&file) {
            file = name(true);
        }
        if self.names.contains_key(&file) {
            bail!("two key values give the file name {file:?}; choose another --template");
        }
        let name = file;
        let id = self.parts.len();
        self.names.insert(name.clone(), id);
        self.by_key.insert(key.to_vec(), id);
        self.parts.push(SplitPart {
            name,
            games: 0,
            pending: Vec::new(),
            waiting: Vec::new(),
            waiting_bytes: 0,
            created: false,
            open: None,
        });
        Ok(id)
    }

    /// Takes the games of chunks of `input` (held whole) from now on: every waiting game
    /// of another input is written first.
    fn use_input(&mut self, input: Option<&Arc<Bytes>>) -> Result<()> {
        let same = match (&self.input, input) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        if !same {
            self.flush_all()?;
            self.input = input.cloned();
        }
        Ok(())
    }

    /// Adds one game to part `id`, writing its waiting games when they are
    /// [`PART_BUFFER`] bytes or more, and every part's when [`PENDING_BUDGET`] bytes wait.
    /// `at`: where `text` is in the input of [`Parts::use_input`] (it is not copied).
    fn write(&mut self, id: usize, text: &[u8], at: Option<usize>) -> Result<()> {
        let part = &mut self.parts[id];
        let first = part.games == 0;
        part.games += 1;
        let text = text.trim_ascii_end();
        let (own, range) = match (at, &self.input) {
            (Some(at), Some(_)) => (false, at..at + text.len()),
            _ => {
                let start = part.pending.len();
                part.pending.extend_from_slice(text);
                (true, start..part.pending.len())
            }
        };
        part.waiting.push(Waiting { own, range, first });
        let bytes = usize::from(!first) + text.len() + 1;
        part.waiting_bytes += bytes;
        self.pending += bytes;
        if part.waiting_bytes >= self.part_buffer {
            self.flush(id)?;
        }
        if self.pending >= self.budget {
            self.flush_all()?;
        }
        Ok(())
    }

    /// Writes every part's waiting games.
    fn flush_all(&mut self) -> Result<()> {
        for id in 0..self.parts.len() {
            self.flush(id)?;
        }
        Ok(())
    }

    /// Writes part `id`'s waiting games to its file, opening it (and closing the least
    /// recently used) as needed.
    fn flush(&mut self, id: usize) -> Result<()> {
        if self.parts[id].waiting.is_empty() {
            return Ok(());
        }
        self.tick += 1;
        let tick = self.tick;
        let path = self.temp_path(id);
        let cannot = || format!("cannot write {}", path.display());
        let part = &mut self.parts[id];
        let mut file = match part.open.take() {
            Some((file, last)) => {
                self.lru.remove(&last);
                file
            }
            None => {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&path)
                    .with_context(cannot)?;
                if !part.created {
                    crate::output::readable_by_all(&file);
                    part.created = true;
                }
                file
            }
        };
        let input = self.input.as_deref().map_or(&[][..], |b| &b[..]);
        write_waiting(&mut file, part, input).with_context(cannot)?;
        self.pending -= part.waiting_bytes;
        part.waiting_bytes = 0;
        part.waiting.clear();
        part.pending = Vec::new();
        part.open = Some((file, tick));
        self.lru.insert(tick, id);
        while self.lru.len() > self.max_open {
            if let Some((_, old)) = self.lru.pop_first() {
                self.close(old);
            }
        }
        Ok(())
    }

    /// Closes part `id`'s file (its games were written as they were flushed).
    fn close(&mut self, id: usize) {
        if let Some((_, last)) = self.parts[id].open.take() {
            self.lru.remove(&last);
        }
    }

    /// Writes and syncs every file (through the descriptors still open, the others
    /// reopened), closes them and checks that each can take its name.
    fn finish(&mut self, inputs: &[PathBuf]) -> Result<()> {
        self.flush_all()?;
        let files: Vec<(PathBuf, Option<File>)> = (0..self.parts.len())
            .map(|id| {
                (
                    self.temp_path(id),
                    self.parts[id].open.take().map(|(f, _)| f),
                )
            })
            .collect();
        self.lru.clear();
        sync_files(files)?;
        let inputs = InputFiles::of(inputs)?;
        for part in &self.parts {
            check_target(&inputs, &self.dir.join(&part.name))?;
        }
        for id in 0..self.parts.len() {
            self.stage_append(id)?;
        }
        Ok(())
    }

    /// Renames every file to its name and removes the staging directory (and with
    /// `--force` the earlier files not replaced); returns how many earlier files went.
    fn commit(mut self) -> Result<usize> {
        for (id, part) in self.parts.iter().enumerate() {
            let target = self.dir.join(&part.name);
            std::fs::rename(self.temp_path(id), &target).with_context(|| {
                format!("cannot rename the temporary file to {}", target.display())
            })?;
        }
        let _ = std::fs::remove_dir(&self.staging);
        self.committed = true;
        let removed = self.remove_earlier()?;
        let _ = File::open(&self.dir).and_then(|d| d.sync_all());
        Ok(removed)
    }
}

/// Writes `part`'s waiting games to `file` with as few calls as it takes (a game's text and
/// the line breaks around it are pieces of one vectored write), each game as
/// [`write_game`] writes it.
fn write_waiting(file: &mut File, part: &SplitPart, input: &[u8]) -> std::io::Result<()> {
    let mut slices = Vec::with_capacity(part.waiting.len() * 2 + 1);
    for (i, game) in part.waiting.iter().enumerate() {
        if i == 0 && !game.first {
            slices.push(IoSlice::new(b"\n"));
        }
        let text = match game.own {
            true => part.pending.get(game.range.clone()),
            false => input.get(game.range.clone()),
        };
        let text = text.ok_or_else(|| std::io::Error::other("internal error: a game is lost"))?;
        slices.push(IoSlice::new(text));
        let last = i + 1 == part.waiting.len();
        slices.push(IoSlice::new(if last { b"\n" } else { b"\n\n" }));
    }
    let mut slices = &mut slices[..];
    while !slices.is_empty() {
        match file.write_vectored(slices) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => IoSlice::advance_slices(&mut slices, n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Syncs files to disk from several threads at once: a file system commits concurrent syncs
/// together, so 960 files take about the time of a few (one after the other, 7.5 s against
/// 0.55 s for 941 files on the development VM). A file still open is synced through its
/// descriptor, the others are opened again; each is closed once synced.
fn sync_files(files: Vec<(PathBuf, Option<File>)>) -> Result<()> {
    const SYNC_THREADS: usize = 16;
    let group = files.len().div_ceil(SYNC_THREADS).max(1);
    let mut files = files.into_iter();
    std::thread::scope(|scope| {
        let mut threads = Vec::new();
        loop {
            let group: Vec<_> = files.by_ref().take(group).collect();
            if group.is_empty() {
                break;
            }
            threads.push(scope.spawn(move || -> Result<()> {
                for (path, file) in group {
                    file.map_or_else(|| File::open(&path), Ok)
                        .and_then(|f| f.sync_all())
                        .with_context(|| format!("cannot write {}", path.display()))?;
                }
                Ok(())
            }));
        }
        for thread in threads {
            thread.join().map_err(|_| OutputError::Failed {
                message: "a thread syncing the split files failed".into(),
                cause: None,
            })??;
        }
        Ok(())
    })
}

/// Checks that `target` can take a split file: absent (one failed look-up, the usual
/// case), or a regular file or a link that is not an input.
fn check_target(inputs: &InputFiles, target: &Path) -> Result<()> {
    let Ok(meta) = std::fs::symlink_metadata(target) else {
        return Ok(());
    };
    if !meta.is_file() && !meta.is_symlink() {
        bail!(
            "{} is not a regular file: refusing to replace it",
            target.display()
        );
    }
    inputs.refuse(target)
}

impl Drop for Parts {
    /// An unfinished split leaves nothing behind.
    fn drop(&mut self) {
        if !self.committed {
            // Closed first: removing a directory takes descriptors of its own.
            self.lru.clear();
            self.parts.iter_mut().for_each(|p| p.open = None);
            let _ = std::fs::remove_dir_all(&self.staging);
        }
    }
}

/// Removes staging directories left in `dir` by runs that no longer exist (killed at once).
fn remove_stale_staging(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(".pgn960-split."))
            .and_then(|n| n.strip_suffix(".tmp"))
            .and_then(|p| p.parse::<i32>().ok())
        else {
            continue;
        };
        if !crate::signals::process_exists(pid) && std::fs::remove_dir_all(entry.path()).is_ok() {
            eprintln!(
                "pgn960: removed {} left by an interrupted run",
                entry.path().display()
            );
        }
    }
}

/// Where a split run writes: the directory of files (`-o DIR`), and beside it the rejected
/// games and the report.
#[derive(Debug, Clone, Default)]
pub struct SplitTargets {
    /// The directory the files go to (created if absent).
    pub dir: PathBuf,
    /// The rejected games as read, their reasons beside them (`NAME.tsv`); none: only
    /// counted.
    pub rejects: Option<PathBuf>,
    /// The counts and the files written, as JSON.
    pub report: Option<PathBuf>,
}

/// How a split run divides the games.
#[derive(Debug, Clone)]
pub struct SplitOptions {
    /// What the games are split by.
    pub by: SplitBy,
    /// File names: `{key}` is the key's name, `{value}` the value made safe.
    pub template: String,
    /// At most this many files open at once.
    pub max_open: usize,
    /// What to do with the files the directory holds already.
    pub existing: Existing,
}

impl SplitOptions {
    /// The command's defaults for `by`: files named `{key}-{value}.pgn`, at most
    /// [`default_max_open`] open, a directory holding files refused.
    pub fn new(by: SplitBy) -> SplitOptions {
        SplitOptions {
            by,
            template: "{key}-{value}.pgn".into(),
            max_open: default_max_open(),
            existing: Existing::Refuse,
        }
    }
}

/// A finished split run: its counts and what it wrote.
#[derive(Debug, Clone)]
pub struct SplitDone {
    /// The counts (games read = selected + not selected + rejected; every selected game is
    /// in exactly one file).
    pub summary: PickSummary,
    /// The files of the directory written, by name, with their games.
    pub files: BTreeMap<String, u64>,
    /// Earlier files removed (`Existing::Replace`).
    pub removed: usize,
    /// Earlier files added to (`Existing::Append`).
    pub appended: usize,
    /// The rejected games and their reasons, when written.
    pub rejects: Option<(PathBuf, PathBuf)>,
    /// Every output, as `(what, path)`: the directory (`-o`), `--rejects`, ...
    pub outputs: Vec<(&'static str, PathBuf)>,
}

/// The report of a split: the counts and the files.
#[derive(serde::Serialize)]
struct SplitReport<'a> {
    #[serde(flatten)]
    summary: &'a PickSummary,
    directory: String,
    files: BTreeMap<&'a str, u64>,
}

/// A split run's outputs, planned, checked and created (not yet written).
pub struct SplitRun {
    plan: OutputPlan,
    side: SideOutputs,
    parts: Parts,
    rejects: Rejects,
    options: SplitOptions,
    dir: PathBuf,
    inputs: Vec<PathBuf>,
}

impl SplitRun {
    /// Checks the template, plans the outputs of a split run over `inputs` (no other output
    /// inside the directory, none an input), then creates and locks the directory and its
    /// staging directory and the side outputs.
    pub fn new(
        inputs: &[PathBuf],
        targets: &SplitTargets,
        options: SplitOptions,
        quiet: bool,
    ) -> Result<SplitRun> {
        if let Err(message) = check_template(&options.template) {
            bail!("{message}");
        }
        let dir = &targets.dir;
        if std::fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
            bail!("-o {}: not a directory", dir.display());
        }
        let mut plan = OutputPlan::new(inputs, quiet);
        plan.add_directory("-o", dir);
        let side = SideOutputs::plan(
            &mut plan,
            targets.rejects.as_deref(),
            targets.report.as_deref(),
        );
        plan.check()?;
        let parts = Parts::create(dir, options.max_open, options.existing, inputs)?;
        let rejects = side.create(&plan)?;
        Ok(SplitRun {
            plan,
            side,
            parts,
            rejects,
            options,
            dir: dir.clone(),
            inputs: inputs.to_vec(),
        })
    }

    /// Splits every input of `driver` with the selection of `opts` (the games' texts are
    /// kept; the key is the run's) and puts every file in place; on any error none is left
    /// behind.
    pub fn write<E: From<crate::Error> + From<OutputError>>(
        mut self,
        mut driver: Driver<E>,
        opts: &PickOptions<'_>,
    ) -> Result<SplitDone, E> {
        let by = self.options.by;
        let key = move |tags: &[Tag<'_>], verdict: &Verdict| by.value(tags, verdict);
        let opts = PickOptions {
            write: true,
            key: match by {
                SplitBy::Games(_) => None,
                _ => Some(&key as &KeyFn),
            },
            ..*opts
        };
        let mut summary = PickSummary {
            inputs: driver.names().iter().map(|n| n.to_string()).collect(),
            ..PickSummary::default()
        };
        let (parts, rejects) = (&mut self.parts, &mut self.rejects);
        let template = &self.options.template;
        run_picks(
            &mut driver,
            |bytes, origin, shape| pick_chunk(bytes, origin, &opts, shape),
            |name, picked, info, input| {
                parts.use_input(input)?;
                let mut selected = summary.selected;
                let mut write = |text: &[u8], at: Option<usize>, key: Vec<u8>| -> Result<()> {
                    let key = match by {
                        SplitBy::Games(n) => format!("{:06}", selected / n + 1).into_bytes(),
                        _ => key,
                    };
                    selected += 1;
                    let id = parts.part(&key, |hash| {
                        file_name(template, by.name(), &safe_value(&key, hash))
                    })?;
                    parts.write(id, text, at)
                };
                let file = name.to_string();
                Ok(tally(
                    &mut summary,
                    rejects,
                    &file,
                    picked,
                    info,
                    input.map(|b| &b[..]),
                    &mut write,
                )?)
            },
        )?;
        summary.seconds = driver.finish();
        Ok(self.commit(summary)?)
    }

    /// Checks the counts, finishes every file and output, then puts them all in place.
    fn commit(mut self, summary: PickSummary) -> Result<SplitDone> {
        summary.check()?;
        self.parts.finish(&self.inputs)?;
        let files: BTreeMap<&str, u64> = (self.parts.parts.iter())
            .map(|p| (p.name.as_str(), p.games))
            .collect();
        let report = SplitReport {
            summary: &summary,
            directory: self.dir.display().to_string(),
            files,
        };
        let rejects = std::mem::take(&mut self.rejects);
        self.side.finish(&mut self.plan, rejects, &report)?;
        let files: BTreeMap<String, u64> = (report.files.iter())
            .map(|(name, games)| (name.to_string(), *games))
            .collect();
        let appended = self.parts.appended.len();
        let removed = self.parts.commit()?;
        self.plan.commit()?;
        let mut ids: Vec<OutputId> = (self.side.rejects.into_iter())
            .flat_map(|(g, t)| [g, t])
            .collect();
        ids.extend(self.side.report);
        let mut outputs = vec![("-o", self.dir.clone())];
        outputs.extend(written_files(&self.plan, &ids));
        Ok(SplitDone {
            rejects: self.side.rejects_paths(&self.plan),
            summary,
            files,
            removed,
            appended,
            outputs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::pick::write_game;

    #[test]
    fn safe_values_stay_in_the_directory_and_apart() {
        assert_eq!(safe_value(b"0518", false), "0518");
        assert_eq!(safe_value(b"Titled-Arena_2024", false), "Titled-Arena_2024");
        assert_eq!(safe_value(b"Rated Blitz game", false), "Rated_Blitz_game");
        assert!(safe_value(b"Rated Blitz game", true).starts_with("Rated_Blitz_game-"));
        for hostile in [
            &b"../../etc/passwd"[..],
            b"..",
            b".",
            b"a/b",
            b"\x01\n\t",
            b"",
            b"caf\xe9",
            &[b'x'; 300],
        ] {
            let safe = safe_value(hostile, false);
            assert!(!safe.contains('/') && !safe.starts_with('.'), "{safe}");
            assert!(safe.len() <= MAX_VALUE_BYTES + 17, "{safe}");
            assert!(safe.bytes().all(|b| b.is_ascii_graphic()), "{safe}");
        }
        let safe = |v: &[u8]| safe_value(v, false);
        assert_ne!(safe(b"a/b"), safe(b"a_b"));
        assert_ne!(safe(b"a/b"), safe(b"a\\b"));
        assert_ne!(safe(&[b'x'; 300]), safe(&[b'x'; 301]));
        // A space alone is no change: the value with _ for it takes the hash when second.
        assert_eq!(safe(b"a b"), safe(b"a_b"));
        assert_ne!(safe_value(b"a b", true), safe(b"a_b"));
    }

    #[test]
    fn buffered_parts_hold_every_game_in_order_within_the_open_file_bound() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let mut parts = Parts::create(&dir, 2, Existing::Refuse, &[]).unwrap();
        // Both ways of writing happen: a part's own buffer full, and all parts at the budget.
        parts.part_buffer = 200;
        parts.budget = 500;
        let mut want: Vec<Vec<u8>> = Vec::new();
        let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
        for game in 0..500u32 {
            let state = rng.next();
            let key = format!("k{}", state % 7);
            let id = parts
                .part(key.as_bytes(), |_| format!("{key}.pgn"))
                .unwrap();
            let text = format!(
                "[Event \"{game}\"]\n\n1. e4 {} *\n",
                "e5 ".repeat((state >> 8) as usize % 9)
            );
            if want.len() <= id {
                want.resize(id + 1, Vec::new());
            }
            let first = want[id].is_empty();
            write_game(&mut want[id], text.as_bytes(), first).unwrap();
            parts.write(id, text.as_bytes(), None).unwrap();
            assert!(parts.lru.len() <= 2, "{} files open", parts.lru.len());
            assert!(parts.pending < parts.budget);
        }
        parts.finish(&[]).unwrap();
        assert_eq!(parts.pending, 0);
        for (id, text) in want.iter().enumerate() {
            assert_eq!(
                &std::fs::read(parts.temp_path(id)).unwrap(),
                text,
                "part {id}"
            );
        }
        parts.commit().unwrap();
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), want.len());
    }

    #[test]
    fn the_default_open_file_bound_is_half_the_raised_limit() {
        let before = open_file_limit().unwrap();
        raise_open_file_limit();
        let after = open_file_limit().unwrap();
        assert_eq!(after.rlim_max, before.rlim_max);
        assert!(after.rlim_cur == after.rlim_max || after.rlim_cur == before.rlim_cur);
        let half = usize::try_from(after.rlim_cur / 2).unwrap_or(usize::MAX);
        assert_eq!(default_max_open(), half.clamp(1, MAX_OPEN_CAP));
        assert_eq!(SplitOptions::new(SplitBy::Sp).max_open, default_max_open());
    }

    #[test]
    fn games_written_from_the_input_are_the_games_copied() {
        let tmp = tempfile::tempdir().unwrap();
        let mut parts = Parts::create(&tmp.path().join("out"), 3, Existing::Refuse, &[]).unwrap();
        parts.part_buffer = 300;
        parts.budget = 900;
        let mut want: Vec<Vec<u8>> = Vec::new();
        let mut rng = crate::test_rng::Rng(0x51e7);
        // Inputs held whole, changed now and then, and games copied (a stream's) between.
        for round in 0..20 {
            let mut input = Vec::new();
            let mut games = Vec::new();
            for game in 0..40 {
                let start = input.len();
                let text = format!(
                    "[Event \"{round}.{game}\"]\r\n\r\n1. e4 {}*{}",
                    "e5 ".repeat(rng.index(12)),
                    ["\n", "\n\n", " \r\n\n", ""][rng.index(4)]
                );
                input.extend_from_slice(text.as_bytes());
                games.push((start, text));
            }
            let input = Arc::new(Bytes::Owned(input));
            let held = round % 3 != 2;
            parts.use_input(held.then_some(&input)).unwrap();
            for (start, text) in games {
                let key = format!("k{}", rng.index(5));
                let id = parts
                    .part(key.as_bytes(), |_| format!("{key}.pgn"))
                    .unwrap();
                if want.len() <= id {
                    want.resize(id + 1, Vec::new());
                }
                let first = want[id].is_empty();
                write_game(&mut want[id], text.as_bytes(), first).unwrap();
                let at = (held && rng.index(4) != 0).then_some(start);
                parts.write(id, text.as_bytes(), at).unwrap();
                assert!(parts.lru.len() <= 3);
            }
        }
        parts.finish(&[]).unwrap();
        for (id, text) in want.iter().enumerate() {
            let written = std::fs::read(parts.temp_path(id)).unwrap();
            assert!(&written == text, "part {id}");
        }
    }

    #[test]
    fn keys_parse() {
        assert_eq!("games:10".parse(), Ok(SplitBy::Games(10)));
        assert!("games:0".parse::<SplitBy>().is_err());
        assert!("colour".parse::<SplitBy>().is_err());
    }
}
