#!/usr/bin/env bash
# Runs a command with a real, unlocked Secret Service: a private D-Bus session and gnome-keyring whose
# keyrings live in a throwaway folder, so no earlier run's keyring (with another password) gets in the way.
set -euo pipefail
if [ -z "${IN_KEYRING_SESSION:-}" ]; then
  export IN_KEYRING_SESSION=1
  exec dbus-run-session -- "$0" "$@"
fi
XDG_DATA_HOME="$(mktemp -d)"
export XDG_DATA_HOME
trap 'rm -rf "$XDG_DATA_HOME"' EXIT
# A keyring created on first unlock takes this password; it protects nothing but test secrets.
printf 'payout-console-ci' | gnome-keyring-daemon --unlock --components=secrets >/dev/null
"$@"
