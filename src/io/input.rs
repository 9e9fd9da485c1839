//! Reading experiment output as a stream: a file or stdin, in large chunks,
//! with bounded memory whatever the size. When the consumer is done early
//! and the input is a pipe, the rest is drained so the writer upstream is
//! not killed by SIGPIPE.

use std::fs::File;
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::error::Hinted;

/// Read size: large enough to amortise system calls, small enough to keep
/// peak memory a few MiB.
pub const CHUNK: usize = 1 << 20;

/// Pipe buffer asked for when reading from a pipe.
const PIPE_BUFFER: i32 = 1 << 20;

/// Where a stream comes from.
#[derive(Debug, Clone)]
pub enum Source {
    Stdin,
    File(PathBuf),
}

impl Source {
    /// `None` and `-` mean stdin.
    pub fn from_arg(arg: Option<&Path>) -> Source {
        match arg {
            None => Source::Stdin,
            Some(p) if p.as_os_str() == "-" => Source::Stdin,
            Some(p) => Source::File(p.to_path_buf()),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Source::Stdin => "stdin".to_string(),
            Source::File(p) => p.display().to_string(),
        }
    }

    /// Open for reading; also says whether unread input must be drained.
    fn open(&self) -> Result<(File, bool)> {
        let file = match self {
            Source::File(path) => open_file(path)?,
            Source::Stdin => {
                use std::os::fd::AsFd;
                let fd = std::io::stdin()
                    .as_fd()
                    .try_clone_to_owned()
                    .context("cannot read stdin")?;
                File::from(fd)
            }
        };
        // Only a pipe or socket has a writer that an early exit would kill
        // (stdin, or a path like /dev/fd/63 from `<(cmd)`); a regular file
        // needs no draining and a terminal must not be waited on.
        let fifo = file.metadata().is_ok_and(|m| {
            use std::os::unix::fs::FileTypeExt;
            m.file_type().is_fifo()
        });
        let drain = fifo
            || file.metadata().is_ok_and(|m| {
                use std::os::unix::fs::FileTypeExt;
                m.file_type().is_socket()
            });
        if fifo {
            // A larger pipe buffer means fewer wake-ups between writer and
            // reader; best effort (the limit may be lower for this user).
            super::platform::widen_pipe(std::os::fd::AsRawFd::as_raw_fd(&file), PIPE_BUFFER);
        }
        Ok((file, drain))
    }
}

/// Open a file for reading with clear errors for the common mistakes.
pub fn open_file(path: &Path) -> Result<File> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => {
            return Err(Hinted::error(
                format!("{} is a directory, not a file", path.display()),
                "pass a file inside it",
            ))
        }
        Err(e) if e.kind() == ErrorKind::NotFound => {
            return Err(Hinted::error(
                format!("{}: no such file", path.display()),
                "check the path",
            ))
        }
        _ => {}
    }
    File::open(path).with_context(|| format!("cannot open {}", path.display()))
}

/// Open `path` for reading only if it is a regular file (a link is
/// followed to what it names): a device (`/dev/zero`), a FIFO or a socket
/// would never end or never start, and is refused with a hint.
pub fn open_regular(path: &Path, hint: &str) -> Result<File> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let what = |t: std::fs::FileType| {
        if t.is_fifo() {
            "a FIFO (a named pipe)"
        } else if t.is_char_device() || t.is_block_device() {
            "a device"
        } else if t.is_socket() {
            "a socket"
        } else {
            "not a regular file"
        }
    };
    let refuse = |t: std::fs::FileType| {
        Hinted::error(
            format!("{} is {}, not a regular file", path.display(), what(t)),
            hint,
        )
    };
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => {}
        Ok(m) if m.is_dir() => return open_file(path),
        Ok(m) => return Err(refuse(m.file_type())),
        Err(_) => return open_file(path),
    }
    // Not blocking on open, should the path have become a FIFO since.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NONBLOCK)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let meta = file
        .metadata()
        .with_context(|| format!("cannot read {}", path.display()))?;
    if !meta.is_file() {
        return Err(refuse(meta.file_type()));
    }
    Ok(file)
}

/// Call `line` with each line of `file` (1-based number, bytes without
/// the newline; a last line without one too), holding at most `max` bytes
/// of a line: a longer line is passed as `None`, read past, not kept.
pub fn each_line(
    file: &File,
    max: usize,
    mut line: impl FnMut(usize, Option<&[u8]>) -> Result<()>,
) -> Result<()> {
    use std::io::BufRead;
    let mut reader = std::io::BufReader::with_capacity(1 << 16, file);
    let (mut buf, mut n, mut over) = (Vec::new(), 0, false);
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).context("cannot read the file"),
        };
        if chunk.is_empty() {
            if !buf.is_empty() || over {
                line(n + 1, (!over).then_some(&buf[..]))?;
            }
            return Ok(());
        }
        let (part, used, ends) = match memchr::memchr(b'\n', chunk) {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        if !over {
            if buf.len() + part.len() > max {
                over = true;
                buf = Vec::new();
            } else {
                buf.extend_from_slice(part);
            }
        }
        reader.consume(used);
        if ends {
            n += 1;
            line(n, (!over).then_some(&buf[..]))?;
            buf.clear();
            over = false;
        }
    }
}

/// Read into `buf`, retrying on EINTR.
fn read_some(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    loop {
        match file.read(buf) {
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

/// Regular files at least this large are scanned through memory maps.
const MAP_MIN: u64 = 4 << 20;
/// Size of one mapped window: peak memory stays about this size.
const MAP_WINDOW: u64 = 4 << 20;

/// Scan a regular file in place, window by window, from its current
/// offset to the size it has now. Returns `(bytes, done)`, leaving the file
/// offset after the bytes scanned; stops early (without error) if the file
/// shrinks, so the read loop can take over.
fn stream_mapped(
    file: &mut File,
    consume: &mut impl FnMut(&[u8]) -> bool,
) -> std::io::Result<(u64, bool)> {
    use std::io::{Seek, SeekFrom};
    let start = file.stream_position()?;
    let mut offset = start;
    loop {
        let size = file.metadata()?.len();
        if offset >= size {
            break;
        }
        let len = (size - offset).min(MAP_WINDOW);
        // SAFETY: the window lies within the file's current size and is
        // only read while mapped. Another process truncating the file at
        // this very moment could fault the read, as for any tool that maps
        // its input; the size is re-checked before every window.
        let map = unsafe {
            memmap2::MmapOptions::new()
                .offset(offset)
                .len(len as usize)
                .populate()
                .map(&*file)?
        };
        offset += len;
        if consume(&map) {
            file.seek(SeekFrom::Start(offset))?;
            return Ok((offset - start, true));
        }
    }
    file.seek(SeekFrom::Start(offset))?;
    Ok((offset - start, false))
}

/// Feed `source` to `consume` chunk by chunk until it returns true (done)
/// or the input ends. Returns the number of bytes read.
pub fn stream(source: &Source, mut consume: impl FnMut(&[u8]) -> bool) -> Result<u64> {
    let (mut file, drain) = source.open()?;
    let mut total = 0u64;
    let read_err = || format!("cannot read {}", source.describe());
    let regular_large = file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.len() >= MAP_MIN);
    if regular_large {
        let (n, done) = stream_mapped(&mut file, &mut consume).with_context(read_err)?;
        total += n;
        if done {
            return Ok(total);
        }
    }
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = read_some(&mut file, &mut buf).with_context(read_err)?;
        if n == 0 {
            return Ok(total);
        }
        total += n as u64;
        if consume(&buf[..n]) {
            break;
        }
    }
    if drain {
        loop {
            let n = read_some(&mut file, &mut buf).with_context(read_err)?;
            if n == 0 {
                break;
            }
            total += n as u64;
        }
    }
    Ok(total)
}

/// Is stdin an interactive terminal?
pub fn stdin_is_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal()
}

/// Largest small text input (a spec, a config, a verdict record, verdicts).
pub const MAX_TEXT: usize = 16 << 20;

/// Read a small text input whole (at most [`MAX_TEXT`] bytes).
pub fn read_text(source: &Source, what: &str) -> Result<String> {
    let mut bytes = Vec::new();
    let mut too_large = false;
    stream(source, |chunk| {
        too_large = bytes.len() + chunk.len() > MAX_TEXT;
        if !too_large {
            bytes.extend_from_slice(chunk);
        }
        too_large
    })
    .with_context(|| format!("cannot read {what}"))?;
    if too_large {
        anyhow::bail!(
            "{what} ({}) is larger than {} MiB",
            source.describe(),
            MAX_TEXT >> 20
        );
    }
    // A byte-order mark tells the encoding (and is no part of the text).
    let (bytes, encoding) = crate::kernel::contract::decode_text(&bytes);
    String::from_utf8(bytes).map_err(|_| {
        Hinted::error(
            format!(
                "{what} ({}) is not valid text in {encoding}",
                source.describe()
            ),
            "save it as UTF-8 (or UTF-16 with a byte-order mark)",
        )
    })
}
