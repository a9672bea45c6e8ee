#!/usr/bin/env bash
# Installs the Debian 12 packages tfs builds and tests with, skipping any that
# are already present, so `make demo` / `make test` work on a fresh machine.
# `--bench` adds the peers `make bench` compares against (make test never
# needs them).
set -euo pipefail
PKGS=(cmake ninja-build g++ make llvm-14-dev llvm-14-tools clang-14 antlr4
      libantlr4-runtime-dev libfmt-dev doctest-dev libopenblas-dev python3 ccache
      zlib1g-dev libzstd-dev libtinfo-dev libxml2-dev libedit-dev libffi-dev
      python3-numpy python3-pandas python3-sklearn libboost-context-dev libpcre2-dev libsleef-dev libeigen3-dev
      graphviz help2man libzip-dev libprotobuf-dev protobuf-compiler
      libpng-dev openmpi-bin libopenmpi-dev libssl-dev libhdf5-dev python3-h5py python3-scipy python3-pil
      libfarmhash-dev libgmp-dev libfftw3-dev libicu-dev libjpeg62-turbo-dev libgif-dev libdnnl-dev)
BENCH_PKGS=(python3-numba python3-torch)
[ "${1:-}" = "--bench" ] && PKGS+=("${BENCH_PKGS[@]}")
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "tfs: installing missing packages: ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
