#!/usr/bin/env bash
# Rehearses a newcomer's first start: clones the current commit into a temporary directory, points HOME at an empty
# one (no npm cache, no ~/.cache/memory-service), runs `npm start` until /readyz answers, makes one memory and finds
# it by search with the printed admin key, stops the stack, checks that `git status` shows no change, and prints the
# wall time of each phase.
#
#   scripts/fresh-check.sh            # uses a free port; keeps nothing
#   KEEP=1 scripts/fresh-check.sh     # keeps the temporary directory for a post-mortem
#   RUNS=3 scripts/fresh-check.sh     # three rehearsals one after another: each one's /readyz time, and the median
#
# What it cannot empty: packages installed system-wide (OpenBLAS, a C compiler) and the machine's npm configuration
# (~/.npmrc is copied, as a fresh machine has its own).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"

if (( ${RUNS:-1} > 1 )); then
  # One wall time is noise on a small machine: the median of several is the figure to quote.
  readyz=()
  for i in $(seq 1 "$RUNS"); do
    echo "=== run $i of $RUNS"
    out="$(RUNS=1 "$0" 2>&1 | tee /dev/stderr)" || { echo "FAIL: run $i failed"; exit 1; }
    readyz+=("$(awk '/ s  \/readyz answers$/ { print $1; exit }' <<<"$out")")
  done
  echo
  for i in "${!readyz[@]}"; do echo "run $((i + 1)): /readyz at ${readyz[$i]} s"; done
  printf '%s\n' "${readyz[@]}" | sort -n | awk '{ t[NR] = $1 } END {
    m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
    printf "median of %d runs: /readyz at %.1f s\n", NR, m }'
  exit 0
fi
WORK="$(mktemp -d -t memory-service-fresh-XXXXXX)"
export HOME="$WORK/home"
mkdir -p "$HOME"
[ -f ~root/.npmrc ] && [ "$(id -u)" = 0 ] && cp ~root/.npmrc "$HOME/.npmrc"
PORT="${PORT:-$(( 20000 + RANDOM % 20000 ))}"
LOG="$WORK/npm-start.log"
NPM_PID=""
START=$(date +%s.%N)
elapsed() { awk -v s="$START" -v n="$(date +%s.%N)" 'BEGIN { printf "%6.1f", n - s }'; }
phase() { printf '%s s  %s\n' "$(elapsed)" "$1" | tee -a "$WORK/phases"; }
# Processes of the rehearsal's stack: every one inherits FRESH_CHECK_MARK from `npm start`, and nothing else has it.
MARK="FRESH_CHECK_MARK=$$-$RANDOM"
leftovers() {
  for p in /proc/[0-9]*; do
    { tr '\0' '\n' < "$p/environ"; } 2>/dev/null | grep -qxF "$MARK" && echo "${p#/proc/}"
  done
  return 0
}
stop_stack() {
  # npm and the timestamping loop run in their own process group; SIGTERM reaches npm, which stops the stack.
  kill -TERM -- "-$NPM_PID" 2>/dev/null || true
  wait "$NPM_PID" 2>/dev/null || true
  NPM_PID=""
}
cleanup() {
  [ -n "$NPM_PID" ] && stop_stack
  for pid in $(leftovers); do kill -KILL "$pid" 2>/dev/null || true; done
  if [ -z "${KEEP:-}" ]; then rm -rf "$WORK"; else echo "kept $WORK"; fi
}
trap cleanup EXIT

if command -v redis-server >/dev/null; then echo "note: redis-server is on PATH ($(command -v redis-server))"; fi
git clone --quiet --no-hardlinks "$ROOT" "$WORK/repo"
git -C "$WORK/repo" checkout --quiet "$(git -C "$ROOT" rev-parse HEAD)"
phase "cloned $(git -C "$ROOT" rev-parse --short HEAD)"

cd "$WORK/repo"
export PORT REDIS_URL="" NATS_URL=""
# Each line of the start's output gets the time it arrived, so the set-up phases can be read off it.
export START WORK
setsid env "$MARK" bash -c 'npm start 2>&1 | while IFS= read -r line; do
    printf "%s s  %s\n" "$(awk -v s="$START" -v n="$(date +%s.%N)" "BEGIN { printf \"%6.1f\", n - s }")" "$line"
  done' > "$LOG" &
NPM_PID=$!
until curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1; do
  if ! kill -0 "$NPM_PID" 2>/dev/null; then cat "$LOG"; echo "FAIL: npm start exited before /readyz"; exit 1; fi
  if (( $(date +%s) - ${START%.*} > 1200 )); then cat "$LOG"; echo "FAIL: no /readyz after 20 min"; exit 1; fi
  sleep 0.5
done
phase "/readyz answers"
grep -E 'bootstrap:' "$LOG" || true

KEY="$(cat .data/admin-key)"
auth=(-H "Authorization: Bearer $KEY" -H "content-type: application/json")
created="$(curl -fsS "${auth[@]}" -d '{"content":"The fresh-machine rehearsal found a lighthouse keeper named Ada."}' \
  "http://127.0.0.1:$PORT/v1/memories")"
id="$(node -e 'console.log(JSON.parse(process.argv[1]).data.id)' "$created")"
phase "created memory $id"
found=""
for _ in $(seq 1 120); do
  found="$(curl -fsS "${auth[@]}" -d '{"query":"who keeps the lighthouse?","limit":5}' \
    "http://127.0.0.1:$PORT/v1/search" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>
      console.log(JSON.parse(s).data.results.some(r=>r.id===process.argv[1])?"yes":""))' "$id")"
  [ "$found" = yes ] && break
  sleep 0.25
done
[ "$found" = yes ] || { echo "FAIL: search never found the memory"; exit 1; }
phase "search found it"

stop_stack
for _ in $(seq 1 80); do [ -z "$(leftovers)" ] && break; sleep 0.25; done
left="$(leftovers)"
[ -z "$left" ] || { echo "FAIL: processes left after stopping: $left"; exit 1; }
phase "stack stopped, no process left"
# `npm start` installs, builds and writes data: none of it may show as a change to the checkout.
dirty="$(git status --porcelain)"
[ -z "$dirty" ] || { echo "FAIL: the start left the checkout changed:"; echo "$dirty"; exit 1; }
phase "git status clean"
echo
echo "fresh-check passed; phases (seconds since the start):"
cat "$WORK/phases"
grep -E 'bootstrap: (installed|built|Redis [0-9])' "$LOG" || true
