//! The one I/O layer: input streams, configuration files, the state
//! directory and the clock. Commands reach the outside world only through
//! here; the kernel never does.

pub mod clock;
pub mod config;
pub mod git;
pub mod history;
pub mod input;
pub mod process;
pub mod rounds;
pub mod spec;
pub mod state;
