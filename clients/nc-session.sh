#!/usr/bin/env bash
# Plays a few moves against a pawnrace server with nothing but nc, then shows
# the board. The server ends the connection after `quit`, which ends nc.
# Usage: clients/nc-session.sh [host] [port]
set -euo pipefail
host=${1:-127.0.0.1}
port=${2:-7878}
printf '%s\n' \
  "newgame" \
  "gaps AH" \
  "move e4" \
  "go movetime 200" \
  "move d4" \
  "go movetime 200" \
  "board" \
  "quit" |
  nc "$host" "$port"
