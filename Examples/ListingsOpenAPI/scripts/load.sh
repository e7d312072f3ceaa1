#!/usr/bin/env bash
# The middleware's cost under load: listings-api served twice, checked (VettedOpenAPIMiddleware,
# defaults filled, responses checked) and --unchecked (the generated stubs alone), each in its own
# process, wrk on loopback POSTing the same valid listing to each in turn.
#
#   scripts/load.sh [SECONDS] [CONNECTIONS] [ROUNDS]     (a release build: swift build -c release)
#
# Prints requests per second per side (the median of ROUNDS runs) and their ratio, and the
# requests a second with which the checked side refuses a body that breaks five constraints (422).
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
invalid='{"name":"","description":"A desk lamp","price":"-5","url":"https://evil.example/1","tags":["electric","electric"],"extra":1}'
for kind in valid invalid; do
  body=${!kind}
  printf 'wrk.method = "POST"\nwrk.body = %s\nwrk.headers["Content-Type"] = "application/json"\n' "'$body'" > "$work/$kind.lua"
done
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
"$server" --port 18101 > "$work/checked.log" 2>&1 &
"$server" --port 18102 --unchecked > "$work/unchecked.log" 2>&1 &
for port in 18101 18102; do for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done; done
echo "CPU: $(lscpu | awk -F: '/Model name/ {gsub(/^ +/, "", $2); print $2; exit}'), $(nproc) cores; wrk -t1 -c$connections, $rounds rounds of $seconds s, the sides taking turns"
for round in $(seq "$rounds"); do
  for side in checked:18101:valid unchecked:18102:valid checked:18101:invalid; do
    IFS=: read -r name port kind <<<"$side"
    wrk -t1 -c"$connections" -d"${seconds}s" -s "$work/$kind.lua" "http://127.0.0.1:$port/listings" > "$work/out"
    awk '/Requests\/sec/ {print $2}' "$work/out" >> "$work/$name.$kind"
  done
done
checked=$(median < "$work/checked.valid"); unchecked=$(median < "$work/unchecked.valid"); refused=$(median < "$work/checked.invalid")
printf 'valid, checked\t%s req/s\nvalid, unchecked\t%s req/s\nratio\t%s\ninvalid (422), checked\t%s req/s\n' \
  "$checked" "$unchecked" "$(awk -v a="$checked" -v b="$unchecked" 'BEGIN {printf "%.2f", a / b}')" "$refused"
