#!/usr/bin/env bash
# Plays a short game against a pawnrace server with nothing but bash and nc.
# Like any client it sends one command, then reads until that command's final
# line (uciok, readyok, bestmove, ok, error) before sending the next: `go`
# runs in the background on the server, so a command sent too early would
# land mid-search.
# Usage: clients/nc-session.sh [host] [port]
set -euo pipefail
host=${1:-127.0.0.1}
port=${2:-7878}

coproc SERVER { nc "$host" "$port"; }

# Sends one command and prints its reply, up to and including the final
# line; the reply is also kept in REPLY_LINES (coprocess descriptors do not
# reach a $(...) subshell, so callers read that instead).
ask() {
  echo "> $1"
  printf '%s\n' "$1" >&"${SERVER[1]}"
  REPLY_LINES=()
  local line
  while IFS= read -r -t 30 line <&"${SERVER[0]}"; do
    REPLY_LINES+=("$line")
    [[ $line == info* ]] || echo "$line"
    case "$line" in
      uciok | readyok | bestmove* | ok* | error*) return 0 ;;
    esac
  done
  echo "no reply from $host:$port" >&2
  return 1
}

ask "newgame"
ask "gaps AH"
# The engine plays black, you play white: first legal move each time.
for _ in 1 2 3; do
  ask "moves" >/dev/null
  first=""
  for line in "${REPLY_LINES[@]}"; do
    if [[ $line =~ ^move\ ([a-h][1-8][a-h][1-8]) ]]; then
      first=${BASH_REMATCH[1]}
      break
    fi
  done
  [ -n "$first" ] || break
  ask "move $first"
  ask "go movetime 200"
done
ask "board"
ask "quit"
