#!/usr/bin/env bash
# Installs what OCR needs (scanned PDF pages and images): Debian's tesseract with Japanese and
# English, and poppler's pdftoppm to render PDF pages for it. Idempotent.
set -euo pipefail

if command -v tesseract >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1 \
  && tesseract --list-langs 2>/dev/null | grep -qx jpn && tesseract --list-langs 2>/dev/null | grep -qx eng; then
  echo "install-ocr: $(tesseract --version 2>/dev/null | head -n 1) (jpn, eng) and pdftoppm already installed"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq tesseract-ocr tesseract-ocr-jpn tesseract-ocr-eng poppler-utils >/dev/null
echo "install-ocr: $(tesseract --version 2>/dev/null | head -n 1) (jpn, eng) and pdftoppm"
