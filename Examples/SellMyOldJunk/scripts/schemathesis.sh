#!/usr/bin/env bash
# junk-server judged by a third-party client: schemathesis, from the server's own GET /openapi.json,
# with all its checks (server errors, status codes, content types, response schemas, negative data,
# undeclared methods). The one kind of failure allowed is a schema-valid body refused for a rule
# the document can only annotate (an `x-vetted-*` key beside the property): judge.py lists each
# such rule and fails on anything else.
#
#   scripts/schemathesis.sh JUNK_SERVER [MAX_EXAMPLES]
set -euo pipefail
server=${1:?usage: schemathesis.sh JUNK_SERVER [MAX_EXAMPLES]}
examples=${2:-50}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
port=18470
"$server" --port "$port" --data-directory "$work/data" > "$work/server.log" 2>&1 &
trap 'kill $! 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
status=0
schemathesis run "http://127.0.0.1:$port/openapi.json" --checks all --max-examples "$examples" --seed "${SEED:-1}" \
  --report junit --report-dir "$work/report" > "$work/run.log" 2>&1 || status=$?
sed -n '/SUMMARY/,$p' "$work/run.log"
python3 "$here/judge.py" "http://127.0.0.1:$port/openapi.json" "$work"/report/junit-*.xml "$status"
