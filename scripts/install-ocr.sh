#!/usr/bin/env bash
# Installs what OCR needs (scanned PDF pages and images): Debian's tesseract with Japanese (also
# its vertical-writing model, jpn_vert, for 縦書き pages), English and orientation detection (osd),
# poppler's pdftoppm and pdfinfo to render PDF pages for it, and libtiff's tiffsplit to read a
# multi-page TIFF page by page. Idempotent.
set -euo pipefail

if command -v tesseract >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1 && command -v tiffsplit >/dev/null 2>&1 \
  && tesseract --list-langs 2>/dev/null | grep -qx jpn && tesseract --list-langs 2>/dev/null | grep -qx eng \
  && tesseract --list-langs 2>/dev/null | grep -qx jpn_vert && tesseract --list-langs 2>/dev/null | grep -qx osd; then
  echo "install-ocr: $(tesseract --version 2>/dev/null | head -n 1) (jpn, jpn_vert, eng, osd), pdftoppm and tiffsplit already installed"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq tesseract-ocr tesseract-ocr-jpn tesseract-ocr-jpn-vert \
  tesseract-ocr-eng tesseract-ocr-osd poppler-utils libtiff-tools >/dev/null
echo "install-ocr: $(tesseract --version 2>/dev/null | head -n 1) (jpn, jpn_vert, eng, osd), pdftoppm and tiffsplit"
