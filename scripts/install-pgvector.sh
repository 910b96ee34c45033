#!/usr/bin/env bash
# Builds and installs pgvector for the local Debian/Ubuntu PostgreSQL from Debian's own source
# package (pgvector is not packaged for every Debian release, but its source builds in seconds).
# Idempotent: does nothing when the extension is already installed for this server.
set -euo pipefail

PG_MAJOR="${PG_MAJOR:-$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -n 1)}"
if [ -z "$PG_MAJOR" ]; then
  echo "install-pgvector: no PostgreSQL server found under /usr/lib/postgresql" >&2
  exit 1
fi
if [ -f "/usr/share/postgresql/$PG_MAJOR/extension/vector.control" ]; then
  echo "install-pgvector: pgvector already installed for PostgreSQL $PG_MAJOR"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
SRC_LIST=/etc/apt/sources.list.d/pgvector-src.list
if ! grep -qs "deb-src .* trixie main" "$SRC_LIST"; then
  # Debian's pgvector source lives in trixie; only its source is used, nothing is installed from it.
  echo "deb-src http://deb.debian.org/debian trixie main" | $SUDO tee "$SRC_LIST" >/dev/null
fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "postgresql-server-dev-$PG_MAJOR" build-essential dpkg-dev >/dev/null

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
apt-get source -qq pgvector >/dev/null
cd pgvector-*/
make -s PG_CONFIG="/usr/lib/postgresql/$PG_MAJOR/bin/pg_config"
$SUDO make -s install PG_CONFIG="/usr/lib/postgresql/$PG_MAJOR/bin/pg_config"
echo "install-pgvector: installed pgvector $(grep default_version vector.control | cut -d"'" -f2) for PostgreSQL $PG_MAJOR"
