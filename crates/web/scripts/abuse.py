#!/usr/bin/env python3
"""Abuses a `shudu play` server on loopback the way issue 12 (items 15 and 16) describes, and
checks that it holds. Python's standard library only.

    python3 crates/web/scripts/abuse.py SHUDU_BIN [--costly 1000] [--half-sent 3000] [--seconds 15]

It starts `SHUDU_BIN play --port 0`, then:
1. runs `--costly` clients at once for `--seconds`, each POSTing a puzzle rated 10.3 (it needs nested forcing chains) to
   /api/import again and again (a new connection each time; after a 503, Retry-After's second), and meanwhile asks GET /api/bands
   every 20 ms: counts the answers by status, and reports the p50 and p99 of /api/bands under
   that load;
2. closes every costly connection and measures the server's CPU over the next 3 seconds (work
   whose client left must stop);
3. opens `--half-sent` connections that send half a request's headers and stop, and counts how
   many the server has closed after its header timeout (10 s) plus 5 s;
4. starts 100 more costly clients and, 2 s later, sends SIGINT: measures how long the server
   takes to exit with costly requests in flight.

Exits 1 if a check fails: a 5xx other than 503, a 503 without Retry-After, /api/bands p99 over
--bands-p99-ms (default 50), more than 0.5 s of server CPU in the 3 s after the clients left,
a half-sent connection still open, or a shutdown over 2 s. The full-size run's figures are in
BENCHMARKS.md; `.ci/run` runs a small one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

HARD = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def request(port: int, raw: bytes, timeout: float):
    """Sends one raw request; returns (status, headers text) or None if the connection failed."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    except (OSError, asyncio.TimeoutError):
        return None
    try:
        writer.write(raw)
        await writer.drain()
        data = await asyncio.wait_for(reader.read(65536), timeout)
        head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1")
        status = int(head.split(" ", 2)[1]) if head.startswith("HTTP/") else None
        return status, head.lower()
    except (OSError, asyncio.TimeoutError, ValueError, IndexError):
        return None
    finally:
        writer.close()


def post(path: str, body: dict) -> bytes:
    data = json.dumps(body).encode()
    return (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
    ).encode() + data


GET_BANDS = b"GET /api/bands HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


def probe_bands(port: int, seconds: float, out) -> None:
    """GET /api/bands every 20 ms for `seconds` with plain blocking sockets, in its own process
    (so the load generator's event loop does not delay it): sends (latencies in ms, failures)."""
    import socket

    latencies, failed = [], 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t = time.perf_counter()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                s.sendall(GET_BANDS)
                data = b""
                while not data.endswith(b"}") and len(data) < 65536:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
            if data.startswith(b"HTTP/1.1 200"):
                latencies.append((time.perf_counter() - t) * 1000)
            else:
                failed += 1
        except OSError:
            failed += 1
        time.sleep(0.02)
    out.send((latencies, failed))


async def costly_phase(port: int, n: int, seconds: float, probe: bool = True):
    import multiprocessing

    latencies: list[float] = []
    failed = 0
    if probe:
        parent, child = multiprocessing.Pipe()
        prober = multiprocessing.Process(target=probe_bands, args=(port, seconds, child))
        prober.start()
    statuses: dict[str, int] = {}
    bad = []
    deadline = time.monotonic() + seconds

    async def client():
        # Ask again and again until the phase ends, so that the costly load lasts throughout.
        while time.monotonic() < deadline:
            r = await request(port, post("/api/import", {"puzzle": HARD}), seconds)
            key = "failed" if r is None else "closed" if r[0] is None else str(r[0])
            statuses[key] = statuses.get(key, 0) + 1
            code = None if r is None else r[0]
            if code == 503 and "retry-after" not in r[1]:
                bad.append("a 503 without Retry-After")
            if code is not None and code >= 500 and code != 503:
                bad.append(f"status {code}")
            if code == 503 or code is None:
                await asyncio.sleep(1)  # as Retry-After asks; after a refused connection too

    tasks = [asyncio.create_task(client()) for _ in range(n)]
    done, pending = await asyncio.wait(tasks, timeout=seconds + 1)
    if probe:
        latencies, failed = parent.recv()
        prober.join()
    for t in pending:
        t.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    statuses["unanswered"] = len(pending)
    if failed:
        bad.append(f"{failed} /api/bands requests failed")
    return statuses, latencies, bad


async def half_sent_phase(port: int, n: int, wait: float):
    conns = []
    for _ in range(n):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            conns.append(None)  # refused or reset at once: not open
            continue
        writer.write(b"GET /api/bands HTTP/1.1\r\nHost: x\r\n")
        conns.append((reader, writer))
    await asyncio.sleep(wait)
    still_open = 0
    for c in conns:
        if c is None:
            continue
        reader, writer = c
        try:
            data = await asyncio.wait_for(reader.read(1), 0.01)
            open_ = data != b"" and not reader.at_eof()
        except asyncio.TimeoutError:
            open_ = True
        except OSError:
            open_ = False
        still_open += open_
        writer.close()
    return still_open


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("shudu")
    ap.add_argument("--costly", type=int, default=1000)
    ap.add_argument("--half-sent", type=int, default=3000)
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--bands-p99-ms", type=float, default=50)
    args = ap.parse_args()

    server = subprocess.Popen(
        [args.shudu, "play", "--port", "0"], stdout=subprocess.PIPE, text=True
    )
    line = server.stdout.readline()
    port = int(line.split("http://127.0.0.1:", 1)[1].split("/", 1)[0])
    failures = []
    try:
        time.sleep(1)  # let the pool's workers warm up as a player's first seconds would
        # The pool's workers top up the shelves in the background: that is the baseline.
        before = cpu_seconds(server.pid)
        time.sleep(3)
        baseline = cpu_seconds(server.pid) - before
        statuses, lat, bad = asyncio.run(costly_phase(port, args.costly, args.seconds))
        failures += bad
        lat.sort()
        p50 = statistics.median(lat) if lat else float("nan")
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else float("nan")
        print(
            f"costly: {args.costly} clients POSTing a 10.3 puzzle again and again for "
            f"{args.seconds} s: answers by status {statuses}"
        )
        print(f"/api/bands meanwhile: {len(lat)} answers, p50 {p50:.1f} ms, p99 {p99:.1f} ms")
        if not lat or p99 > args.bands_p99_ms:
            failures.append(f"/api/bands p99 {p99:.1f} ms > {args.bands_p99_ms} ms")
        # The clients are gone: work for them must stop.
        before = cpu_seconds(server.pid)
        time.sleep(3)
        after_cpu = cpu_seconds(server.pid) - before
        print(
            f"server CPU in the 3 s after the clients left: {after_cpu:.2f} s "
            f"(idle baseline, the pool's workers: {baseline:.2f} s)"
        )
        if after_cpu - baseline > 0.5:
            failures.append(f"{after_cpu:.2f} s of CPU after the clients left")
        still = asyncio.run(half_sent_phase(port, args.half_sent, 15))
        print(f"half-sent: {args.half_sent} connections, still open after 15 s: {still}")
        if still:
            failures.append(f"{still} half-sent connections still open")
        # Shut down while costly requests are in flight: start a burst, interrupt it after 2 s.
        import threading

        burst = threading.Thread(
            target=lambda: asyncio.run(costly_phase(port, 100, 4, probe=False)), daemon=True
        )
        burst.start()
        time.sleep(2)
    finally:
        t = time.perf_counter()
        server.send_signal(signal.SIGINT)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        took = time.perf_counter() - t
        print(f"shutdown on SIGINT with costly requests in flight: {took:.2f} s")
        if took > 2:
            failures.append(f"shutdown took {took:.2f} s")
    for f in failures:
        print(f"FAIL: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
