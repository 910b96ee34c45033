#!/usr/bin/env bash
# Installs Debian's Chromium (and a Japanese font, so screenshots of the Japanese UI are legible)
# for the web app's browser test. Idempotent.
set -euo pipefail

if command -v chromium >/dev/null 2>&1 && fc-list 2>/dev/null | grep -qi "ipagothic\|noto sans cjk"; then
  echo "install-browser: $(chromium --version 2>/dev/null | head -n 1) already installed"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-ipafont-gothic >/dev/null
echo "install-browser: $(chromium --version 2>/dev/null | head -n 1)"
