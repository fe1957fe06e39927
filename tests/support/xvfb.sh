#!/bin/sh
# Runs "$@" on a fresh Xvfb server (xvfb-run -a, a 1600x1000 screen) and exits
# with the command's status. The X auth file is ours: left to itself,
# xvfb-run keeps it in a temporary folder whose removal now and then fails
# ("problem while cleaning up temporary directory"), and then it exits 5
# whatever the command returned.
auth=$(mktemp "${TMPDIR:-/tmp}/layoutlab-xauth.XXXXXX") || exit 3
xvfb-run -a -f "$auth" -s '-screen 0 1600x1000x24' "$@"
status=$?
rm -f "$auth" "$auth-c" "$auth-l"
exit $status
