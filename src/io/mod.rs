//! The one I/O layer: input streams, configuration files, the state
//! directory and the clock. Commands reach the outside world only through
//! here; the kernel never does.
//!
//! This layer never prints. What it recovers from comes back to the caller:
//! as data (a config's `warnings`, the rounds' skipped records), or, for
//! registries that repair a file in the middle of a locked operation,
//! through the caller's [`Warn`] function, at the moment it happens.

pub mod atomic;
pub mod clock;
pub mod config;
pub mod demo;
pub mod disk;
pub mod events;
pub mod failpoint;
pub mod findings;
pub mod fleet;
pub mod fleet_queue;
pub mod follow;
pub mod git;
pub mod github;
pub mod history;
pub mod holdout;
#[cfg(feature = "serve")]
pub mod http;
pub mod ideas;
pub mod input;
pub mod live;
pub mod mapped;
pub mod marker;
pub mod platform;
pub mod process;
pub mod ratchet;
pub mod report;
pub mod rounds;
pub mod sandbox;
pub mod slots;
pub mod slurm;
pub mod spec;
pub mod state;
pub mod steer;
pub mod terminal;

/// Where io reports a problem it recovered from (a torn line trimmed, an
/// unreadable record skipped). The commands pass a function that prints
/// `arx: warning: ...`; tests may collect or ignore.
pub type Warn = fn(&str);
