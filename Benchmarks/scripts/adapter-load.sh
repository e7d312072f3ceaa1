#!/usr/bin/env bash
# The talk's Listing POSTed to Hummingbird 2 and to Vapor 4, each read two ways,
# under wrk on loopback: the framework's default (Foundation's JSONDecoder, then
# the checks written by hand) and Vetted's adapter (VettedHummingbird,
# VettedVapor). Valid bodies and bodies that break two rules, in one run, each
# side in a server process of its own.
#
#   Benchmarks/scripts/adapter-load.sh [SECONDS] [CONNECTIONS] [ROUNDS]
#
# Prints requests per second and p99 latency per side and body (the median of
# ROUNDS runs of SECONDS each), and each server's resident memory after every
# flood of invalid bodies: flat means the same after each round.
# Needs wrk (Debian: apt-get install wrk) and the release build of adapter-server;
# ADAPTER_SERVER=PATH runs another build of it (CI's smoke runs a debug build).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
connections=${2:-32}
rounds=${3:-3}
# Hummingbird's pair, then Vapor's; `SIDES="default vetted"` for one framework.
sides=${SIDES:-default vetted vapor-default vapor-vetted}
server=${ADAPTER_SERVER:-.build/release/adapter-server}
[ -x "$server" ] || swift build -c release --product adapter-server >/dev/null
command -v wrk >/dev/null || { echo "adapter-load: wrk is not installed (apt-get install wrk)" >&2; exit 1; }

work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
valid='{"id":1,"name":"Lamp","description":"A desk lamp","price":"10.50","sold":false,"url":"https://example.com/1","tags":["electric"],"created":"2018-05-01T10:39:04Z","last_updated":"2018-05-02T10:39:04Z"}'
invalid='{"id":1,"name":"Lamp","description":"A desk lamp","price":"ten","sold":false,"url":"https://example.com/1","tags":[],"created":"2018-05-01T10:39:04Z","last_updated":"2018-05-02T10:39:04Z"}'
for kind in valid invalid; do
  body=${!kind}
  cat > "$work/$kind.lua" <<LUA
wrk.method = "POST"
wrk.body = '$body'
wrk.headers["Content-Type"] = "application/json"
LUA
done

rss() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

port=18080
echo "CPU: $(lscpu | awk -F: '/Model name/ {gsub(/^ +/, "", $2); print $2; exit}'), $(nproc) cores; wrk -t1 -c$connections, $rounds rounds of $seconds s, the sides taking turns"
declare -A pids ports
for side in $sides; do
  port=$((port + 1)); ports[$side]=$port
  "$server" "$port" "$side" > "$work/$side.log" 2>&1 &
  pids[$side]=$!
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
done
# Each round runs every side and body once, in turn, so that the machine's drift falls on both sides alike.
for round in $(seq "$rounds"); do
  for kind in valid invalid; do
    for side in $sides; do
      wrk -t1 -c"$connections" -d"${seconds}s" --latency -s "$work/$kind.lua" "http://127.0.0.1:${ports[$side]}/$side/listings" > "$work/out"
      awk '/Requests\/sec/ {print $2}' "$work/out" >> "$work/$side.$kind.rps"
      awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us$/, "", v); v/=1000} else if (v ~ /ms$/) {sub(/ms$/, "", v)} else if (v ~ /s$/) {sub(/s$/, "", v); v*=1000}; print v}' "$work/out" >> "$work/$side.$kind.p99"
      total=$(awk '/requests in/ {print $1}' "$work/out")
      non2xx=$(awk '/Non-2xx/ {print $5}' "$work/out"); non2xx=${non2xx:-0}
      if [ "$kind" = valid ] && [ "$non2xx" != 0 ]; then echo "adapter-load: $side refused $non2xx valid bodies" >&2; exit 1; fi
      if [ "$kind" = invalid ] && [ "$non2xx" != "$total" ]; then echo "adapter-load: $side accepted $((total - non2xx)) invalid bodies" >&2; exit 1; fi
      [ "$kind" = invalid ] && printf ' %s' "$(rss "${pids[$side]}")" >> "$work/$side.rss"
    done
  done
done
printf '| side | body | requests/s (median) | p99 ms (median) | answered | RSS after each invalid flood (KiB) |\n|---|---|---:|---:|---|---|\n'
for side in $sides; do
  for kind in valid invalid; do
    answered=$([ "$kind" = valid ] && echo "all 201" || echo "all refused")
    flat=$([ "$kind" = invalid ] && cat "$work/$side.rss" || echo " ")
    printf '| %s | %s | %.0f | %.2f | %s | %s |\n' "$side" "$kind" "$(median < "$work/$side.$kind.rps")" "$(median < "$work/$side.$kind.p99")" "$answered" "$flat"
  done
done
