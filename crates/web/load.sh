#!/usr/bin/env bash
# Load test of GET /api/puzzle on loopback: 1,000 requests a second for 30 s per band, then the
# highest rate wrk reaches in 10 s. Needs `hey` and `wrk` (Debian packages of those names).
# Every request goes to 127.0.0.1 and every run is bounded in time.
#
#   bash crates/web/load.sh [band ...]        (default: medium diabolical)
#
# SHUDU_SERVE=path/to/serve skips the release build and uses that binary.
#
# `scripts/bench --only play` runs it and writes its figures into BENCHMARKS.md ("`shudu play` under load").
set -euo pipefail
cd "$(dirname "$0")/../.."
bands=("${@:-medium diabolical}")
read -r -a bands <<<"${bands[*]}"

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}
serve=${SHUDU_SERVE:-$CARGO_TARGET_DIR/release/examples/serve}
[ -n "${SHUDU_SERVE:-}" ] || cargo build --release -q -p shudu-web --example serve
log=$(mktemp)
"$serve" 127.0.0.1:0 >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 50); do grep -q http "$log" && break; sleep 0.1; done
url=$(head -1 "$log")
url=${url%/}
echo "server: $url (pid $server)"

for band in "${bands[@]}"; do
  # Wait (at most 10 minutes) until the band's shelf holds a puzzle, as it does in normal use.
  for _ in $(seq 600); do
    if curl -fs "$url/api/status" | grep -Eq "\"band\":\"$band\"[^}]*\"fresh\":[1-9]"; then break; fi
    sleep 1
  done
  echo "== $band: 1,000 requests/s (10 workers x 100/s) for 30 s"
  hey -z 30s -c 10 -q 100 "$url/api/puzzle?band=$band" | grep -v '|'
done

echo "== ${bands[0]}: highest rate, wrk 2 threads, 50 connections, 10 s"
wrk -t2 -c50 -d10s --latency "$url/api/puzzle?band=${bands[0]}"
echo "pool: $(curl -fs "$url/api/status")"
