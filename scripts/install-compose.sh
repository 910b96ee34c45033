#!/usr/bin/env bash
# Installs Debian's docker-compose (Compose v1, which parses compose files without a Docker engine)
# for the test that docker-compose.yml parses. Idempotent.
set -euo pipefail

if command -v docker-compose >/dev/null 2>&1; then
  echo "install-compose: $(docker-compose version --short 2>/dev/null) already installed"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq docker-compose >/dev/null
echo "install-compose: $(docker-compose version --short 2>/dev/null)"
