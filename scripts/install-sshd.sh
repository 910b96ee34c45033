#!/usr/bin/env bash
# Installs OpenSSH's server (Debian's openssh-server), which the Git source's ssh test starts on
# loopback with a configuration of its own (its own port, host key and authorized key; the
# system's sshd is not started or changed: its service is left disabled). Idempotent.
set -euo pipefail

if [ -x /usr/sbin/sshd ] && command -v ssh-keygen >/dev/null; then
  echo "install-sshd: $(ssh -V 2>&1) already installed"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
# policy-rc.d 101: the package must not start the system's sshd on port 22.
made_policy=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
  $SUDO chmod +x /usr/sbin/policy-rc.d
  made_policy=1
fi
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq openssh-server openssh-client >/dev/null
[ -z "$made_policy" ] || $SUDO rm -f /usr/sbin/policy-rc.d
echo "install-sshd: $(ssh -V 2>&1)"
