//! `shudu_web::serve` on loopback: slow headers and idle connections are cut off, open
//! connections are capped, and shutdown returns within its grace (issue 12, items 15 and 16).
//! The full-size load run is `crates/web/scripts/abuse.py` (BENCHMARKS.md).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use shudu_web::{router, serve, AppState, PoolConfig, ServeConfig};

/// Serves the game on a free loopback port with `config`; returns the port and a sender that
/// shuts the server down, and the thread that runs it.
fn start(
    config: ServeConfig,
) -> (
    u16,
    tokio::sync::oneshot::Sender<()>,
    std::thread::JoinHandle<()>,
) {
    let (port_tx, port_rx) = std::sync::mpsc::channel();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Runtime::new().unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            port_tx.send(listener.local_addr().unwrap().port()).unwrap();
            let app = router(AppState::new(PoolConfig {
                workers: 0,
                ..PoolConfig::default()
            }));
            serve(listener, app, config, async {
                let _ = stop_rx.await;
            })
            .await;
        });
    });
    (port_rx.recv().unwrap(), stop_tx, thread)
}

/// Whether the server has closed `s` (a read sees the end, or a reset) within `within`.
fn closed_within(s: &mut TcpStream, within: Duration) -> bool {
    s.set_read_timeout(Some(within)).unwrap();
    let mut buf = [0u8; 1024];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue, // a response (e.g. 408): keep reading to the close
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut =>
            {
                return false
            }
            Err(_) => return true,
        }
    }
}

#[test]
fn half_sent_headers_and_idle_connections_time_out() {
    let (port, stop, thread) = start(ServeConfig {
        header_timeout: Duration::from_millis(300),
        ..ServeConfig::default()
    });
    let mut half = TcpStream::connect(("127.0.0.1", port)).unwrap();
    half.write_all(b"GET /api/bands HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let mut idle = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let start = Instant::now();
    assert!(
        closed_within(&mut half, Duration::from_secs(5)),
        "half-sent request still open"
    );
    assert!(
        closed_within(&mut idle, Duration::from_secs(5)),
        "idle connection still open"
    );
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    // A whole request is still served.
    let mut ok = TcpStream::connect(("127.0.0.1", port)).unwrap();
    ok.write_all(b"GET /api/bands HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut text = String::new();
    ok.read_to_string(&mut text).unwrap();
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    stop.send(()).unwrap();
    thread.join().unwrap();
}

#[test]
fn connections_over_the_cap_are_closed_at_once() {
    let (port, stop, thread) = start(ServeConfig {
        header_timeout: Duration::from_secs(30),
        max_connections: 3,
        ..ServeConfig::default()
    });
    let mut held: Vec<TcpStream> = (0..3)
        .map(|_| TcpStream::connect(("127.0.0.1", port)).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(200)); // let the server accept them
    let mut extra = TcpStream::connect(("127.0.0.1", port)).unwrap();
    assert!(
        closed_within(&mut extra, Duration::from_secs(2)),
        "a fourth connection was kept"
    );
    // The held ones are still open.
    assert!(!closed_within(&mut held[0], Duration::from_millis(200)));
    drop(held);
    stop.send(()).unwrap();
    thread.join().unwrap();
}

#[test]
fn shutdown_returns_within_its_grace_with_connections_open() {
    let (port, stop, thread) = start(ServeConfig {
        header_timeout: Duration::from_secs(30),
        grace: Duration::from_millis(500),
        ..ServeConfig::default()
    });
    let _open: Vec<TcpStream> = (0..5)
        .map(|_| TcpStream::connect(("127.0.0.1", port)).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(100));
    let start = Instant::now();
    stop.send(()).unwrap();
    thread.join().unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}
