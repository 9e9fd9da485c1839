//! `arx serve`: the night's report as a live page on a loopback address.
//! Glue: the HTTP server is [`crate::io::http`], the page
//! [`crate::output::export::live`]; [`night`] keeps what the page shows up
//! to date, looking at the state directory a few times a second.

/// Built without the `serve` cargo feature: the command stays (so scripts
/// and completions see the same interface) and says how to get it.
#[cfg(not(feature = "serve"))]
pub fn run(
    _ctx: &super::Ctx,
    _bind: std::net::IpAddr,
    _port: u16,
) -> anyhow::Result<crate::error::Exit> {
    Err(crate::error::Hinted::error(
        "this arx was built without the live page (the cargo feature `serve` is off)",
        "reinstall with the default features: cargo install --path . (or --features serve); `arx report --html FILE --refresh 10` writes a page that reloads itself",
    ))
}

#[cfg(feature = "serve")]
mod night;

#[cfg(feature = "serve")]
pub use served::run;

#[cfg(feature = "serve")]
mod served {
    use std::net::{IpAddr, SocketAddr};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use anyhow::{Context as _, Result};
    use serde::Serialize;

    use super::night::{Night, Served};
    use crate::commands::{Ctx, WARN};
    use crate::error::{Exit, Hinted};
    use crate::io::http::{self, BindError, Hosts, Hub};
    use crate::output::Report;

    /// How often the state directory is looked at.
    const LOOK: Duration = Duration::from_millis(250);

    /// What `arx serve` prints when it listens.
    #[derive(Serialize)]
    struct Listening {
        url: String,
        address: String,
        port: u16,
        loopback: bool,
    }

    impl Report for Listening {
        fn human(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
            writeln!(out, "{}", self.url)
        }
    }

    fn listen(addr: SocketAddr) -> Result<std::net::TcpListener> {
        http::bind(addr).map_err(|e| match e {
            BindError::InUse => Hinted::error(
                format!("cannot listen on {addr}: the port is taken (another `arx serve`?)"),
                "pick another port with --port N, or --port 0 for any free one",
            ),
            BindError::Unavailable(e) => Hinted::error(
                format!("cannot listen on {addr}: {e}"),
                "--bind takes an address of this machine (default 127.0.0.1); a port below 1024 needs privileges",
            ),
            BindError::Other(e) => anyhow::Error::new(e).context(format!("cannot listen on {addr}")),
        })
    }

    pub fn run(ctx: &Ctx, bind: IpAddr, port: u16) -> Result<Exit> {
        let state = ctx.state_dir()?;
        let stop_rules = crate::ops::report_inputs::stop_rules(&ctx.config()?)?;
        // `--now` is checked before anything listens.
        crate::io::clock::now(ctx.global.now.as_deref())?;
        let listener = listen(SocketAddr::new(bind, port))?;
        let addr = listener
            .local_addr()
            .context("cannot read the listening address")?;
        let night = Night::new(&state, ctx.global.now.clone(), stop_rules)?;
        let served = Arc::new(Served(Mutex::new(night)));
        let hub = Hub::default();
        let stop = Arc::new(AtomicBool::new(false));
        for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            signal_hook::flag::register(signal, stop.clone())
                .context("cannot set up the stop signals")?;
        }
        let host = match addr.ip() {
            IpAddr::V6(ip) => format!("[{ip}]"),
            IpAddr::V4(ip) => ip.to_string(),
        };
        let loopback = bind.is_loopback();
        ctx.out.emit(&Listening {
            url: format!("http://{host}:{}/", addr.port()),
            address: addr.ip().to_string(),
            port: addr.port(),
            loopback,
        })?;
        if !ctx.out.quiet {
            crate::errln!(
                "arx: serving the night's report at http://{host}:{}/ (read-only; Ctrl-C stops)",
                addr.port()
            );
            if !loopback {
                crate::errln!(
                    "arx: warning: {bind} is not a loopback address: every machine that reaches it can read the report"
                );
            }
        }
        let watcher = {
            let served = served.clone();
            let hub = hub.clone();
            let stop = stop.clone();
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(LOOK);
                    let looked = served.night().look(Some(&hub));
                    if let Err(e) = looked {
                        WARN(&format!("{e:#}"));
                        std::thread::sleep(Duration::from_secs(2));
                    }
                }
            })
        };
        let hosts = if loopback {
            Hosts::Loopback
        } else {
            Hosts::Any
        };
        let served_site: Arc<dyn http::Site> = served;
        let outcome = http::serve(listener, served_site, hub, hosts, stop.clone());
        stop.store(true, Ordering::Relaxed);
        let _ = watcher.join();
        outcome?;
        if !ctx.out.quiet {
            crate::errln!("arx: stopped serving");
        }
        Ok(Exit::Ok)
    }
}
