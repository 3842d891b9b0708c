//! A regular file written around the page cache: whole aligned blocks go out with
//! `O_DIRECT`, anything else (the tail, a flush in the middle) through the page cache.
//!
//! An output file is synced before it is renamed into place, so a copy of its bytes in the
//! page cache buys nothing: the kernel copies every byte there and then writes it back. On
//! the machines measured, that copy cost more than reading and replaying the games (see
//! docs/performance.md). A file system that refuses direct I/O (`fcntl` says `EINVAL`)
//! gets ordinary writes; the bytes written are the same either way.

use std::fs::File;
use std::io::{self, Write};

/// The alignment of the blocks written directly: their file offsets, lengths and memory
/// addresses. 4096 is a multiple of every common logical block size (512 and 4096).
const ALIGN: usize = 4096;

/// The size of the buffer, and so of each direct write.
const BUFFER_BYTES: usize = 1 << 20;

/// Writes a file in aligned blocks with `O_DIRECT` where the file system allows it.
pub(crate) struct DirectWriter {
    file: File,
    /// `BUFFER_BYTES + ALIGN` bytes; the buffer proper starts at `start`, aligned.
    memory: Vec<u8>,
    start: usize,
    /// Bytes waiting in the buffer.
    len: usize,
    /// Bytes already handed to the file: its offset.
    offset: u64,
    /// Whether the descriptor has `O_DIRECT` set now.
    direct_on: bool,
    /// Whether direct writes are still to be tried (false once the file system refused).
    direct_allowed: bool,
}

impl DirectWriter {
    /// Writes `file` from its start (a new, empty file).
    pub(crate) fn new(file: File) -> DirectWriter {
        let memory = vec![0u8; BUFFER_BYTES + ALIGN];
        let start = memory.as_ptr().align_offset(ALIGN).min(ALIGN);
        DirectWriter {
            file,
            memory,
            start,
            len: 0,
            offset: 0,
            direct_on: false,
            direct_allowed: true,
        }
    }

    /// Writes out the buffer: its aligned part directly when the file's offset allows it,
    /// and with `all` the rest through the page cache; what stays is moved to the front.
    fn write_out(&mut self, all: bool) -> io::Result<()> {
        let mut done = 0;
        let misaligned = (self.offset % ALIGN as u64) as usize;
        if misaligned != 0 {
            let up_to_block = (ALIGN - misaligned).min(self.len);
            self.write_through_cache(0, up_to_block)?;
            done = up_to_block;
        }
        let whole = (self.len - done) / ALIGN * ALIGN;
        if whole > 0 && self.offset.is_multiple_of(ALIGN as u64) {
            if self.set_direct(true) {
                self.write_range(done, done + whole)?;
            } else {
                self.write_through_cache(done, done + whole)?;
            }
            done += whole;
        }
        if all && done < self.len {
            self.write_through_cache(done, self.len)?;
            done = self.len;
        }
        let buffer = &mut self.memory[self.start..self.start + self.len];
        buffer.copy_within(done.., 0);
        self.len -= done;
        Ok(())
    }

    /// Writes `from..to` of the buffer with `O_DIRECT` cleared.
    fn write_through_cache(&mut self, from: usize, to: usize) -> io::Result<()> {
        self.set_direct(false);
        self.write_range(from, to)
    }

    /// Writes `from..to` of the buffer at the file's offset, whole; a short direct write
    /// (possible at the end of a device's space) finishes through the page cache.
    fn write_range(&mut self, mut from: usize, to: usize) -> io::Result<()> {
        while from < to {
            let bytes = &self.memory[self.start + from..self.start + to];
            match self.file.write(bytes) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => {
                    from += n;
                    self.offset += n as u64;
                    if from < to && self.direct_on {
                        self.set_direct(false);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if self.direct_on && e.raw_os_error() == Some(libc::EINVAL) => {
                    // The file system took the flag but not the write: stop trying.
                    self.set_direct(false);
                    self.direct_allowed = false;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Sets or clears `O_DIRECT` on the descriptor; returns whether it is now set. A file
    /// system that refuses it is not asked again.
    fn set_direct(&mut self, on: bool) -> bool {
        if on && !self.direct_allowed {
            return false;
        }
        if self.direct_on != on {
            if set_o_direct(&self.file, on) {
                self.direct_on = on;
            } else if on {
                self.direct_allowed = false;
            }
        }
        self.direct_on
    }
}

/// Sets or clears `O_DIRECT` on `file`'s descriptor; false if the system refused.
#[cfg(target_os = "linux")]
fn set_o_direct(file: &File, on: bool) -> bool {
    use std::os::fd::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: `fd` is a descriptor `file` owns for the whole call; F_GETFL and F_SETFL
    // read and set its status flags and touch no memory.
    #[allow(unsafe_code)]
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return false;
    }
    let wanted = if on {
        flags | libc::O_DIRECT
    } else {
        flags & !libc::O_DIRECT
    };
    // SAFETY: as above.
    #[allow(unsafe_code)]
    let result = unsafe { libc::fcntl(fd, libc::F_SETFL, wanted) };
    result == 0
}

/// Direct I/O is asked for on Linux only (elsewhere `O_DIRECT` differs or is absent):
/// setting it always fails, and clearing it has nothing to do.
#[cfg(not(target_os = "linux"))]
fn set_o_direct(_file: &File, on: bool) -> bool {
    !on
}

impl Write for DirectWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.len == BUFFER_BYTES {
            self.write_out(false)?;
        }
        let n = buf.len().min(BUFFER_BYTES - self.len);
        let at = self.start + self.len;
        self.memory[at..at + n].copy_from_slice(&buf[..n]);
        self.len += n;
        Ok(n)
    }

    fn write_all(&mut self, mut buf: &[u8]) -> io::Result<()> {
        while !buf.is_empty() {
            let n = self.write(buf)?;
            buf = &buf[n..];
        }
        Ok(())
    }

    /// Writes everything buffered (the last bytes through the page cache).
    fn flush(&mut self) -> io::Result<()> {
        self.write_out(true)?;
        self.file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// Writes `data` in the pieces and flushes `rng` draws, then reads the file back.
    fn round_trip(data: &[u8], rng: &mut Rng) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let mut w = DirectWriter::new(File::create(&path).unwrap());
        let mut rest = data;
        while !rest.is_empty() {
            let piece = match rng.below(4) {
                0 => rng.below(10) as usize,
                1 => rng.below(5000) as usize,
                2 => rng.below(3 * BUFFER_BYTES as u64) as usize,
                _ => ALIGN,
            };
            let (now, later) = rest.split_at(piece.min(rest.len()));
            w.write_all(now).unwrap();
            if rng.below(50) == 0 {
                w.flush().unwrap();
            }
            rest = later;
        }
        w.flush().unwrap();
        drop(w);
        std::fs::read(&path).unwrap()
    }

    #[test]
    fn the_file_holds_every_byte_written_in_order() {
        let mut rng = Rng(0x5eed_d1ec);
        for size in [
            0,
            1,
            ALIGN - 1,
            ALIGN,
            ALIGN + 1,
            BUFFER_BYTES,
            3 * BUFFER_BYTES + 77,
        ] {
            let data: Vec<u8> = (0..size).map(|_| rng.below(256) as u8).collect();
            assert_eq!(round_trip(&data, &mut rng), data, "size {size}");
        }
        for _ in 0..6 {
            let size = rng.below(4 * BUFFER_BYTES as u64) as usize;
            let data: Vec<u8> = (0..size).map(|_| rng.below(256) as u8).collect();
            assert_eq!(round_trip(&data, &mut rng), data, "size {size}");
        }
    }

    #[test]
    fn large_outputs_use_direct_writes_where_the_file_system_allows_them() {
        let dir = tempfile::tempdir().unwrap();
        let probe = File::create(dir.path().join("probe")).unwrap();
        let supported = set_o_direct(&probe, true);
        let mut w = DirectWriter::new(File::create(dir.path().join("out")).unwrap());
        w.write_all(&vec![7u8; 2 * BUFFER_BYTES + 5]).unwrap();
        assert_eq!(w.direct_on, supported, "a full buffer went out directly");
        w.flush().unwrap();
        assert!(!w.direct_on, "the tail went through the page cache");
        assert_eq!(w.offset, 2 * BUFFER_BYTES as u64 + 5);
    }

    #[test]
    fn a_direct_write_refused_goes_through_the_page_cache() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let mut w = DirectWriter::new(File::create(&path).unwrap());
        // A buffer off its alignment: the kernel refuses the direct write with EINVAL.
        w.start += 1;
        let data: Vec<u8> = (0..2 * BUFFER_BYTES + 5).map(|i| (i % 251) as u8).collect();
        w.write_all(&data).unwrap();
        w.flush().unwrap();
        assert!(!w.direct_allowed && !w.direct_on, "direct writes given up");
        drop(w);
        assert_eq!(std::fs::read(&path).unwrap(), data);
    }
}
