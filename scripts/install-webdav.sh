#!/usr/bin/env bash
# Installs Apache httpd with mod_dav (Debian's apache2), the WebDAV server the sources' WebDAV
# tests start on loopback (their own configuration and port; the system's Apache is not started
# or changed: its service is left disabled). Idempotent.
set -euo pipefail

if [ -x /usr/sbin/apache2 ] && [ -f /usr/lib/apache2/modules/mod_dav_fs.so ]; then
  echo "install-webdav: $(/usr/sbin/apache2 -v 2>/dev/null | head -n 1) with mod_dav already installed"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
# policy-rc.d 101: the package must not start the system's Apache on port 80 (one already there,
# as in container images, is kept).
made_policy=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
  $SUDO chmod +x /usr/sbin/policy-rc.d
  made_policy=1
fi
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq apache2 >/dev/null
[ -z "$made_policy" ] || $SUDO rm -f /usr/sbin/policy-rc.d
echo "install-webdav: $(/usr/sbin/apache2 -v 2>/dev/null | head -n 1) with mod_dav"
