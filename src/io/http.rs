//! The network door of `arx serve`: a read-only HTTP/1.1 server (hyper on
//! tokio). It answers `GET` and `HEAD` only (anything else: 405), serves
//! what a [`Site`] renders, and streams Server-Sent Events published on a
//! [`Hub`] to every page that listens. Bound to a loopback address, it
//! answers only requests that name a loopback host (`Host: localhost`,
//! `127.0.0.1`, `[::1]`), so a web page elsewhere cannot read it through a
//! DNS name rebound to 127.0.0.1.

use std::convert::Infallible;
use std::net::{SocketAddr, TcpListener};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;

use anyhow::{Context, Result};
use hyper::body::{Body, Bytes, Frame, Incoming};
use hyper::header::{HeaderValue, ALLOW, CACHE_CONTROL, CONTENT_TYPE, HOST};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::sync::{broadcast, mpsc};

/// Pages that may be open at once (each event stream holds a connection).
pub const MAX_CONNECTIONS: usize = 64;

/// Messages kept for a slow page (one per look that changed something);
/// one that falls further behind is told to reload. A message is dropped
/// once every page has taken it.
const BACKLOG: usize = 64;

/// A comment sent on a quiet stream, so a closed page (or a dead port
/// forward) is noticed and a proxy keeps the stream open.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// What a page asked for: its path and query.
pub struct Asked<'a> {
    pub path: &'a str,
    pub query: Option<&'a str>,
    /// The `Last-Event-ID` of a stream the browser reconnects.
    pub last_event_id: Option<&'a str>,
}

/// A response: its media type and body.
pub struct Page {
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

/// What the server serves.
pub trait Site: Send + Sync + 'static {
    /// The page at a path (`None`: 404).
    fn page(&self, asked: &Asked<'_>) -> Option<Page>;
    /// The first events of a new stream at a path (what the page may have
    /// missed), `None` when no stream is there. Asked after the stream
    /// subscribed to the [`Hub`], so nothing falls between.
    fn stream(&self, asked: &Asked<'_>) -> Option<String>;
}

/// Where events are published for every open stream.
#[derive(Clone)]
pub struct Hub {
    tx: broadcast::Sender<Arc<str>>,
}

impl Default for Hub {
    fn default() -> Self {
        Hub {
            tx: broadcast::channel(BACKLOG).0,
        }
    }
}

impl Hub {
    /// Send `event` (one or more whole Server-Sent Events) to every stream.
    pub fn publish(&self, event: String) {
        // No stream open: nobody to tell.
        let _ = self.tx.send(Arc::from(event));
    }

    /// Streams open now.
    pub fn listeners(&self) -> usize {
        self.tx.receiver_count()
    }
}

/// Which `Host` a request may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hosts {
    /// Loopback names only: `localhost` (and `*.localhost`), 127.0.0.0/8, `[::1]`.
    Loopback,
    /// Any: the server was bound to an address people reach by name.
    Any,
}

/// Is a `Host` header (with or without its port) allowed?
pub fn host_allowed(host: Option<&str>, hosts: Hosts) -> bool {
    if hosts == Hosts::Any {
        return true;
    }
    let Some(host) = host else { return false };
    let name = if let Some(rest) = host.strip_prefix('[') {
        match rest.split_once(']') {
            Some((inside, _)) => inside,
            None => return false,
        }
    } else {
        host.rsplit_once(':').map_or(host, |(name, _)| name)
    };
    let name = name.to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Why the address could not be listened on.
#[derive(Debug)]
pub enum BindError {
    /// Another program listens there.
    InUse,
    /// The address is not this machine's (or not allowed).
    Unavailable(std::io::Error),
    Other(std::io::Error),
}

/// Listen on `addr` (port 0: any free port).
pub fn bind(addr: SocketAddr) -> Result<TcpListener, BindError> {
    TcpListener::bind(addr).map_err(|e| match e.kind() {
        std::io::ErrorKind::AddrInUse => BindError::InUse,
        std::io::ErrorKind::AddrNotAvailable | std::io::ErrorKind::PermissionDenied => {
            BindError::Unavailable(e)
        }
        _ => BindError::Other(e),
    })
}

/// A response body: whole, or a stream of events.
enum Out {
    Whole(Option<Bytes>),
    Events(mpsc::Receiver<Bytes>),
}

impl Body for Out {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match &mut *self {
            Out::Whole(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            Out::Events(rx) => rx.poll_recv(cx).map(|b| b.map(|b| Ok(Frame::data(b)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self, Out::Whole(None))
    }
}

fn plain(status: StatusCode, text: &str) -> Response<Out> {
    let mut r = Response::new(Out::Whole(Some(Bytes::from(format!("{text}\n")))));
    *r.status_mut() = status;
    r.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}

/// Headers every response carries: nothing cached, nothing sniffed, no
/// referrer, and the page may be framed by nobody.
fn harden(r: &mut Response<Out>) {
    let h = r.headers_mut();
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
}

struct Shared {
    site: Arc<dyn Site>,
    hub: Hub,
    hosts: Hosts,
}

fn answer(shared: &Shared, req: &Request<Incoming>) -> Response<Out> {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut r = plain(
            StatusCode::METHOD_NOT_ALLOWED,
            "arx serve is read-only: GET only",
        );
        r.headers_mut()
            .insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
        return r;
    }
    let host = req.headers().get(HOST).and_then(|h| h.to_str().ok());
    let host = host.or_else(|| req.uri().authority().map(|a| a.as_str()));
    if !host_allowed(host, shared.hosts) {
        return plain(
            StatusCode::FORBIDDEN,
            "this server answers requests for localhost only",
        );
    }
    let asked = Asked {
        path: req.uri().path(),
        query: req.uri().query(),
        last_event_id: req
            .headers()
            .get("last-event-id")
            .and_then(|h| h.to_str().ok()),
    };
    // Subscribed before the first events are rendered: an event published
    // in between comes twice (the page drops the copy), never not at all.
    let rx = shared.hub.tx.subscribe();
    if let Some(first) = shared.site.stream(&asked) {
        if req.method() == Method::HEAD {
            return head_of_events();
        }
        return events(first, rx);
    }
    match shared.site.page(&asked) {
        Some(page) => {
            let mut r = Response::new(Out::Whole(Some(Bytes::from(page.body))));
            r.headers_mut()
                .insert(CONTENT_TYPE, HeaderValue::from_static(page.content_type));
            r
        }
        None => plain(StatusCode::NOT_FOUND, "not found"),
    }
}

fn event_stream_type(r: &mut Response<Out>) {
    r.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream; charset=utf-8"),
    );
}

/// What `HEAD` of a stream says: its type, and no stream.
fn head_of_events() -> Response<Out> {
    let mut r = Response::new(Out::Whole(None));
    event_stream_type(&mut r);
    r
}

/// A stream of events: `first`, then what the hub publishes, with a
/// comment when it is quiet; a stream that fell behind is told to reload.
fn events(first: String, mut rx: broadcast::Receiver<Arc<str>>) -> Response<Out> {
    let (tx, out) = mpsc::channel::<Bytes>(16);
    tokio::spawn(async move {
        if tx.send(Bytes::from(first)).await.is_err() {
            return;
        }
        loop {
            let next = match tokio::time::timeout(KEEPALIVE, rx.recv()).await {
                Ok(Ok(event)) => Bytes::copy_from_slice(event.as_bytes()),
                Ok(Err(broadcast::error::RecvError::Lagged(_))) => {
                    let _ = tx
                        .send(Bytes::from_static(b"event: reload\ndata: {}\n\n"))
                        .await;
                    return;
                }
                Ok(Err(broadcast::error::RecvError::Closed)) => return,
                Err(_) => Bytes::from_static(b": keep-alive\n\n"),
            };
            if tx.send(next).await.is_err() {
                return; // the page went away
            }
        }
    });
    let mut r = Response::new(Out::Events(out));
    event_stream_type(&mut r);
    r
}

/// Serve `site` on `listener` until `stop` is set. Each connection is
/// answered on its own task; past [`MAX_CONNECTIONS`] a new one is told
/// to come back later.
pub fn serve(
    listener: TcpListener,
    site: Arc<dyn Site>,
    hub: Hub,
    hosts: Hosts,
    stop: Arc<AtomicBool>,
) -> Result<()> {
    listener
        .set_nonblocking(true)
        .context("cannot set up the listening socket")?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    let shared = Arc::new(Shared { site, hub, hosts });
    let open = Arc::new(AtomicUsize::new(0));
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)
            .context("cannot set up the listening socket")?;
        while !stop.load(Ordering::Relaxed) {
            let accepted =
                match tokio::time::timeout(Duration::from_millis(200), listener.accept()).await {
                    Err(_) => continue,
                    Ok(a) => a,
                };
            let Ok((stream, _)) = accepted else {
                // Out of descriptors or a connection reset before it was
                // taken: wait a little, go on.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            };
            let _ = stream.set_nodelay(true);
            let full = open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS;
            let shared = shared.clone();
            let open = open.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req: Request<Incoming>| {
                    let mut r = if full {
                        plain(
                            StatusCode::SERVICE_UNAVAILABLE,
                            "too many pages open on this server",
                        )
                    } else {
                        answer(&shared, &req)
                    };
                    harden(&mut r);
                    std::future::ready(Ok::<_, Infallible>(r))
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(Duration::from_secs(10))
                    .keep_alive(!full)
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
                open.fetch_sub(1, Ordering::SeqCst);
            });
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_hosts_are_answered_on_a_loopback_address() {
        for ok in [
            "localhost",
            "localhost:8470",
            "LOCALHOST:1",
            "arx.localhost:80",
            "127.0.0.1:8470",
            "127.1.2.3",
            "[::1]:8470",
            "[::1]",
        ] {
            assert!(host_allowed(Some(ok), Hosts::Loopback), "{ok}");
        }
        for no in [
            "evil.example",
            "evil.example:8470",
            "localhost.evil.example",
            "10.0.0.1:8470",
            "[::2]:80",
            "[::1",
            "",
        ] {
            assert!(!host_allowed(Some(no), Hosts::Loopback), "{no}");
        }
        assert!(!host_allowed(None, Hosts::Loopback));
        assert!(host_allowed(Some("evil.example"), Hosts::Any));
    }
}
