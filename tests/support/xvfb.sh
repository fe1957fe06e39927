#!/bin/sh
# Runs "$@" on a fresh Xvfb server (xvfb-run -a, a 1600x1000 screen) and exits
# with the command's own status.
#
# xvfb-run's status cannot be trusted for that: when its clean-up fails now and
# then ("rm: cannot remove ...", "problem while cleaning up temporary
# directory") it exits 5 whatever the command returned. Giving it an auth file
# of ours (-f) made that rarer but not gone (CI of stop 36: a cube screenshot
# that had succeeded read as exit 5). So the command writes its status to a
# file of ours, and xvfb-run's own status is used only when the command never
# ran (Xvfb failed to start).
dir=$(mktemp -d "${TMPDIR:-/tmp}/layoutlab-xvfb.XXXXXX") || exit 3
# The folder goes however this ends (the tests' `timeout` sends TERM).
trap 'rm -rf "$dir"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP
xvfb-run -a -f "$dir/auth" -s '-screen 0 1600x1000x24' \
    sh -c '"$@"; echo $? > "$0"' "$dir/status" "$@"
xstatus=$?
status=$(cat "$dir/status" 2>/dev/null)
case "$status" in
    '' | *[!0-9]*) exit $xstatus ;;
esac
exit "$status"
