#!/usr/bin/env bash
# Plays a few moves against a pawnrace server with nothing but nc, then shows
# the board. Usage: clients/nc-session.sh [host] [port]
set -euo pipefail
host=${1:-127.0.0.1}
port=${2:-7878}
{
  echo "newgame"
  echo "gaps AH"
  echo "move e4"
  echo "go movetime 200"
  echo "move d4"
  echo "go movetime 200"
  echo "board"
  echo "quit"
} | nc -q 5 "$host" "$port" 2>/dev/null || {
  # OpenBSD nc has no -q; it closes by itself once the server says bye.
  printf 'newgame\ngaps AH\nmove e4\ngo movetime 200\nmove d4\ngo movetime 200\nboard\nquit\n' | nc "$host" "$port"
}
