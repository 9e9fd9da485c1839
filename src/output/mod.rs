//! Rendering reports: JSON on `--json`, a human view otherwise, nothing
//! under `--quiet`. Every report is one `Serialize` struct; the human view
//! is drawn from the same struct. Colour goes through `anstream`, which
//! strips it when stdout is not a terminal or NO_COLOR is set.
//!
//! The seam: [`Output`] decides whether to write, picks the stream (raw
//! stdout for data, `anstream` for styled views) and an
//! [`export::Exporter`], which writes the bytes. A new format is one file
//! in `export/` implementing `Exporter<T>` for what it can draw (any
//! `Serialize` value, a [`Report`], a list); a tabular format draws an
//! [`export::Table`] by implementing [`export::Markup`], which shares the
//! table walk. Choosing a format is one more branch in [`Output::emit`].
//! Styles live in `style`, the progress indicator in `spinner`.

pub mod annotations;
pub mod export;
mod spinner;
mod style;

use std::io::{self, Write};

use serde::Serialize;

use export::{Exporter, Human, Json, Ndjson};
pub use spinner::Spinner;
pub use style::{bold, dim, verdict_style, warn};

/// `n` with its noun: `1 error`, `2 errors`.
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A report: serializable, with a human rendering.
pub trait Report: Serialize {
    /// Write the human view (styled; styles are stripped when not wanted).
    fn human(&self, out: &mut dyn Write) -> io::Result<()>;

    /// Does the human view carry styles? Views that are data (JSON, a
    /// script) say no and are written byte for byte.
    fn styled(&self) -> bool {
        true
    }
}

/// One line of a listing.
pub trait Row: Serialize {
    fn row(&self, out: &mut dyn Write) -> io::Result<()>;
}

/// A listing: a JSON array, or one human line per item.
pub struct Rows<T> {
    pub items: Vec<T>,
    /// What to say when there is nothing to list.
    pub empty: &'static str,
}

impl<T: Serialize> Serialize for Rows<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.items.serialize(s)
    }
}

impl<T: Row> Report for Rows<T> {
    fn human(&self, out: &mut dyn Write) -> io::Result<()> {
        if self.items.is_empty() {
            let d = dim();
            return writeln!(out, "{d}{}{d:#}", self.empty);
        }
        self.items.iter().try_for_each(|item| item.row(out))
    }
}

/// When to colour the human view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Color {
    /// Colour when stdout is a terminal and NO_COLOR is unset.
    #[default]
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// Where and how reports go.
#[derive(Debug, Clone, Copy)]
pub struct Output {
    pub json: bool,
    pub quiet: bool,
}

impl Output {
    /// Reports as JSON or as the human view, or nothing when `quiet`;
    /// `color` is set for the whole process (stdout and stderr).
    pub fn new(json: bool, quiet: bool, color: Color) -> Self {
        let choice = match color {
            Color::Auto => anstream::ColorChoice::Auto,
            Color::Always => anstream::ColorChoice::Always,
            Color::Never => anstream::ColorChoice::Never,
        };
        choice.write_global();
        Output { json, quiet }
    }

    /// Emit a report on stdout.
    pub fn emit<R: Report>(&self, report: &R) -> anyhow::Result<()> {
        if self.quiet {
            return Ok(());
        }
        // Data (JSON, or a view that is data such as a script) goes out
        // byte for byte: a terminal filter would drop characters such as
        // U+007F from keys.
        if self.json {
            write(io::stdout().lock(), &Json, report)
        } else if report.styled() {
            write(anstream::stdout().lock(), &Human, report)
        } else {
            write(io::stdout().lock(), &Human, report)
        }
    }

    /// Emit a report on stderr, for when stdout carries another stream of
    /// data (`arx run --events -`).
    pub fn emit_stderr<R: Report>(&self, report: &R) -> anyhow::Result<()> {
        if self.quiet {
            return Ok(());
        }
        // A closed stderr ends this stream alone, quietly.
        let closed = &STDERR_CLOSED;
        if self.json {
            write_to(io::stderr().lock(), &Json, report, closed)
        } else if report.styled() {
            write_to(anstream::stderr().lock(), &Human, report, closed)
        } else {
            write_to(io::stderr().lock(), &Human, report, closed)
        }
    }

    /// Emit a listing: under `--json` one JSON document per item and line
    /// (NDJSON), else the report's human view.
    pub fn emit_lines<R: Report, T: Serialize>(
        &self,
        report: &R,
        items: &[T],
    ) -> anyhow::Result<()> {
        if !self.json {
            return self.emit(report);
        }
        if self.quiet {
            return Ok(());
        }
        write(io::BufWriter::new(io::stdout().lock()), &Ndjson, items)
    }
}

impl Output {
    /// Emit `value` in a format the user chose (`--format`): byte for
    /// byte on stdout, or nothing when `quiet`.
    pub fn emit_as<T: ?Sized>(&self, exporter: &dyn Exporter<T>, value: &T) -> anyhow::Result<()> {
        if self.quiet {
            return Ok(());
        }
        write(io::BufWriter::new(io::stdout().lock()), exporter, value)
    }
}

/// Write one line on stderr (progress, a note, a hint): a closed stderr
/// (`arx try 2>&1 | head -1`) drops the line and never ends the command,
/// which goes on to its own exit code. `eprintln!` would panic there.
pub fn stderr_line(args: std::fmt::Arguments<'_>) {
    let mut err = anstream::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| err.write_all(b"\n"));
}

/// `eprintln!` that never panics: [`stderr_line`] with `format!` syntax.
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::output::stderr_line(format_args!($($arg)*))
    };
}

/// Set once stdout is found closed (the reader of a pipe went away, as
/// `arx log | head -1` does): nothing more is written there.
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether stdout was found closed: a command goes on with its work
/// (a try still journals its record) and ends with its own exit code,
/// quietly.
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Is this error (anywhere in its chain) a closed pipe?
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        let kind = match e.downcast_ref::<io::Error>() {
            Some(io) => Some(io.kind()),
            // JSON written straight to the pipe keeps the I/O error inside.
            None => e
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind),
        };
        kind == Some(io::ErrorKind::BrokenPipe)
    })
}

/// Export `value` on `out`, then flush it. A closed stdout is the end of
/// the output, not an error: every later write is skipped.
fn write<W: Write, T: ?Sized>(out: W, exporter: &dyn Exporter<T>, value: &T) -> anyhow::Result<()> {
    write_to(out, exporter, value, &STDOUT_CLOSED)
}

/// Set once stderr is found closed by a report written there.
static STDERR_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// [`write`] on the stream whose closing `closed` records.
fn write_to<W: Write, T: ?Sized>(
    mut out: W,
    exporter: &dyn Exporter<T>,
    value: &T,
    closed: &std::sync::atomic::AtomicBool,
) -> anyhow::Result<()> {
    if closed.load(std::sync::atomic::Ordering::Relaxed) {
        return Ok(());
    }
    match exporter
        .export(value, &mut out)
        .and_then(|()| out.flush().map_err(Into::into))
    {
        Err(e) if is_broken_pipe(&e) => {
            closed.store(true, std::sync::atomic::Ordering::Relaxed);
            Ok(())
        }
        other => other,
    }
}

/// Write one line of text on stdout, as every report does: a closed
/// stdout ends the output quietly.
pub fn say(line: &str) -> anyhow::Result<()> {
    struct Line<'a>(&'a str);
    struct Plain;
    impl<'a> Exporter<Line<'a>> for Plain {
        fn export(&self, value: &Line<'a>, out: &mut dyn Write) -> anyhow::Result<()> {
            writeln!(out, "{}", value.0)?;
            Ok(())
        }
    }
    write(io::stdout().lock(), &Plain, &Line(line))
}
