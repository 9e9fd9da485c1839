//! The progress indicator on stderr: a spinner or a bar, hidden when
//! stderr is not a terminal.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The one progress indicator: a spinner on stderr, drawn only when stderr
/// is a terminal and output is not quiet or JSON; hidden otherwise, so
/// every call is cheap and safe. Nothing is drawn until the work it shows
/// begins (the first message or step), so a question asked before then
/// (an approval prompt) is never drawn over.
#[derive(Clone, Debug)]
pub struct Spinner {
    bar: indicatif::ProgressBar,
    /// Drawn on stderr once started.
    visible: bool,
    started: Arc<AtomicBool>,
}

impl Spinner {
    pub fn new(visible: bool) -> Self {
        let bar =
            indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::hidden());
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        Self::wrap(bar, visible)
    }

    /// A progress bar over `len` steps (same visibility rules).
    pub fn bar(visible: bool, len: u64) -> Self {
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(len),
            indicatif::ProgressDrawTarget::hidden(),
        );
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {elapsed_precise} [{bar:24}] {pos}/{len} {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        Self::wrap(bar, visible)
    }

    fn wrap(bar: indicatif::ProgressBar, visible: bool) -> Self {
        use std::io::IsTerminal;
        Spinner {
            bar,
            visible: visible && io::stderr().is_terminal(),
            started: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Start drawing (once): the work it shows has begun.
    fn start(&self) {
        if self.visible && !self.started.swap(true, Ordering::Relaxed) {
            self.bar.reset_elapsed();
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
            self.bar
                .enable_steady_tick(std::time::Duration::from_millis(120));
        }
    }

    /// One step of a bar done.
    pub fn inc(&self) {
        self.start();
        self.bar.inc(1);
    }

    pub fn set_message(&self, msg: impl Into<std::borrow::Cow<'static, str>>) {
        self.start();
        self.bar.set_message(msg);
    }

    /// Will it ever be drawn? (When not, nothing needs clearing around a write.)
    pub fn visible(&self) -> bool {
        self.visible
    }

    /// Run `f` (which writes to the terminal) with the spinner cleared.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
