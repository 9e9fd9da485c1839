//! The progress indicator on stderr: a spinner or a bar, hidden when
//! stderr is not a terminal.

use std::io;

/// The one progress indicator: a spinner on stderr, drawn only when stderr
/// is a terminal and output is not quiet or JSON; hidden otherwise, so
/// every call is cheap and safe.
#[derive(Clone, Debug)]
pub struct Spinner {
    bar: indicatif::ProgressBar,
}

impl Spinner {
    pub fn new(visible: bool) -> Self {
        use std::io::IsTerminal;
        let bar = if visible && io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            bar.enable_steady_tick(std::time::Duration::from_millis(120));
            bar
        } else {
            indicatif::ProgressBar::hidden()
        };
        Spinner { bar }
    }

    /// A progress bar over `len` steps (same visibility rules).
    pub fn bar(visible: bool, len: u64) -> Self {
        use std::io::IsTerminal;
        let bar = if visible && io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::new(len);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{spinner} {elapsed_precise} [{bar:24}] {pos}/{len} {msg}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            bar.enable_steady_tick(std::time::Duration::from_millis(120));
            bar
        } else {
            indicatif::ProgressBar::hidden()
        };
        Spinner { bar }
    }

    /// One step of a bar done.
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    pub fn set_message(&self, msg: impl Into<std::borrow::Cow<'static, str>>) {
        self.bar.set_message(msg);
    }

    /// Run `f` (which writes to the terminal) with the spinner cleared.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
