#!/usr/bin/env bash
# The middleware's cost under load: listings-api served three times, each in its own process —
# "full" (VettedOpenAPIMiddleware as the example serves: requests checked, defaults filled in,
# responses checked), "requests" (--requests-only: the middleware's defaults, requests checked)
# and "off" (--unchecked: the generated stubs alone) — and wrk on loopback POSTing the same
# body to each in turn.
#
#   scripts/load.sh [SECONDS] [CONNECTIONS] [ROUNDS]     (a release build: swift build -c release)
#
# Prints requests per second per side (the median of ROUNDS runs) and each checked side's ratio
# to "off": for a valid listing (201 everywhere), and for one that breaks four constraints,
# which the checked sides refuse (422) and "off" hands to its handler (201). Beside each rate, the
# server's CPU time per request (user + system, from /proc, the median of the rounds): on a machine
# whose neighbours move the rates, what the middleware adds to each request.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
connections=${2:-32}
rounds=${3:-3}
server=${LISTINGS_API:-.build/release/listings-api}
[ -x "$server" ] || swift build -c release --product listings-api >/dev/null
command -v wrk >/dev/null || { echo "load: wrk is not installed (apt-get install wrk)" >&2; exit 1; }
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
valid='{"name":"Lamp","description":"A desk lamp","price":"10.50","url":"https://example.com/1","tags":["electric"]}'
invalid='{"name":"","description":"A desk lamp","price":"-5","url":"https://evil.example/1","tags":["electric","electric"]}'
for kind in valid invalid; do
  body=${!kind}
  printf 'wrk.method = "POST"\nwrk.body = %s\nwrk.headers["Content-Type"] = "application/json"\n' "'$body'" > "$work/$kind.lua"
done
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
declare -A port=([full]=18101 [requests]=18102 [off]=18103) pid
"$server" --port "${port[full]}" > "$work/full.log" 2>&1 &
pid[full]=$!
"$server" --port "${port[requests]}" --requests-only > "$work/requests.log" 2>&1 &
pid[requests]=$!
"$server" --port "${port[off]}" --unchecked > "$work/off.log" 2>&1 &
pid[off]=$!
# CPU time a process has used, in clock ticks (user + system).
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hertz=$(getconf CLK_TCK)
for side in full requests off; do
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/${port[$side]}") 2>/dev/null && break; sleep 0.1; done
done
# Each side answers as the figures say it does, or nothing is measured.
expect() {
  got=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' --data "$3" "http://127.0.0.1:${port[$1]}/listings")
  [ "$got" = "$2" ] || { echo "load: $1 answered $got where $2 was expected" >&2; exit 1; }
}
expect full 201 "$valid"; expect requests 201 "$valid"; expect off 201 "$valid"
expect full 422 "$invalid"; expect requests 422 "$invalid"; expect off 201 "$invalid"
echo "CPU: $(lscpu | awk -F: '/Model name/ {gsub(/^ +/, "", $2); print $2; exit}'), $(nproc) cores; wrk -t1 -c$connections, $rounds rounds of $seconds s, the sides taking turns"
for _ in $(seq "$rounds"); do
  for kind in valid invalid; do
    for side in full requests off; do
      before=$(ticks "${pid[$side]}")
      wrk -t1 -c"$connections" -d"${seconds}s" -s "$work/$kind.lua" "http://127.0.0.1:${port[$side]}/listings" > "$work/out"
      after=$(ticks "${pid[$side]}")
      awk '/Requests\/sec/ {print $2}' "$work/out" >> "$work/$side.$kind"
      awk -v t=$((after - before)) -v hz="$hertz" '/requests in/ {printf "%.1f\n", t * 1e6 / hz / $1}' "$work/out" >> "$work/$side.$kind.cpu"
    done
  done
done
printf 'body\tfull req/s\trequests req/s\toff req/s\tfull/off\trequests/off\tCPU µs/request: full\trequests\toff\n'
for kind in valid invalid; do
  full=$(median < "$work/full.$kind"); requests=$(median < "$work/requests.$kind"); off=$(median < "$work/off.$kind")
  cpu=$(for side in full requests off; do median < "$work/$side.$kind.cpu"; done | paste -sd '\t')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$full" "$requests" "$off" "$(ratio "$full" "$off")" "$(ratio "$requests" "$off")" "$cpu"
done
