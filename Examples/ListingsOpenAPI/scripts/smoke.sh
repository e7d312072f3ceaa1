#!/usr/bin/env bash
# Starts listings-api (the binary given, else `swift run`), sends a body that breaks the
# document's constraints and a valid one, and checks the answers: 422 with pointers, then 201;
# then, when schemathesis is installed, has it test the server from its own document (a fixed
# seed, every check: a method the document does not list is 405, see UndeclaredMethods).
set -euo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-18090}
if [ $# -ge 1 ]; then "$1" --port "$port" & else swift run listings-api --port "$port" & fi
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -s -o /dev/null "localhost:$port/openapi.yaml" && break; sleep 0.2; done
refused=$(curl -s -w ' %{http_code}' -X POST "localhost:$port/listings" -H 'Content-Type: application/json' \
  -d '{"name":"","description":"A lamp","price":"-5","url":"https://example.com/1","tags":["music"]}')
echo "refused: $refused"
case "$refused" in *'"pointer":"/name"'*'"pointer":"/price"'*' 422') ;; *) echo "expected 422 with /name and /price" >&2; exit 1 ;; esac
accepted=$(curl -s -o /dev/null -w '%{http_code}' -X POST "localhost:$port/listings" -H 'Content-Type: application/json' \
  -d '{"name":"Lamp","description":"A lamp","price":"5","url":"https://example.com/1","tags":["music"]}')
echo "accepted: $accepted"
[ "$accepted" = 201 ]
if command -v schemathesis >/dev/null; then
  schemathesis run "http://127.0.0.1:$port/openapi.yaml" --checks all --max-examples 100 --seed 1
fi
