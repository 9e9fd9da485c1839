//! Asking a person at the terminal.

use std::io::{self, BufRead, IsTerminal, Write};

/// Ask `question` on the terminal; `false` when there is no terminal to
/// ask on (stdin or stderr is not one) or the answer is not a yes.
pub fn confirm(question: &str) -> bool {
    if !(io::stdin().is_terminal() && io::stderr().is_terminal()) {
        return false;
    }
    let _ = write!(io::stderr(), "{question} [y/N] ");
    let _ = io::stderr().flush();
    let mut answer = String::new();
    if io::stdin().lock().read_line(&mut answer).is_err() {
        return false;
    }
    matches!(answer.trim(), "y" | "Y" | "yes" | "Yes" | "YES")
}
