#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (playwright-core with executablePath; a browser
# download is not possible here). Installs the `chromium` package when it is missing; needs
# root or passwordless sudo, as CI on these machines has.
set -euo pipefail

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  echo "chromium: $("$CHROMIUM" --version 2>/dev/null | head -1)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo -n"; fi
echo "chromium: not found at $CHROMIUM; installing Debian's chromium package"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
"$CHROMIUM" --version
