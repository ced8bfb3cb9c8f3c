#!/bin/sh
# Runs a command and succeeds only if it exits with exactly the given code.
# Usage: expect-exit.sh CODE COMMAND [ARGS...]
want="$1"
shift
"$@"
got=$?
if [ "$got" -ne "$want" ]; then
  echo "expect-exit: '$*' exited with $got, expected $want" >&2
  exit 1
fi
exit 0
