#!/usr/bin/env bash
# Installs the Debian 12 packages Trainscape needs to build, run and test, when missing.
# Runs as root, or through sudo. See shared/reference/qt-on-debian.md for why each is here.
set -euo pipefail

packages=(
    cmake ninja-build g++ pkg-config
    qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-svg-dev
    libqcustomplot-dev libqcustomplot2.1-qt6
    libboost-graph-dev nlohmann-json3-dev libcli11-dev libsqlite3-dev libbenchmark-dev
    libgl-dev libxkbcommon-dev fontconfig fonts-dejavu-core fonts-wqy-microhei
    xvfb xauth
    dpkg-dev appstream desktop-file-utils
    python3 python3-jsonschema
    libpq-dev postgresql
    chromium poppler-utils
    libtomlplusplus-dev libyaml-cpp-dev python3-yaml yamllint shellcheck
)
# The sanitizer stage (TRAINSCAPE_SANITIZERS=1 scripts/test.sh) needs nothing more: g++ pulls
# in libgcc-12-dev, which depends on libasan8, liblsan0 and libubsan1 (Debian 12).
# scripts/fuzz.sh only (libFuzzer comes with clang's runtime); the test command needs neither.
if [ "${1:-}" = "--fuzz" ]; then
    packages+=(clang libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages are installed"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
else
    echo "install-deps: missing packages (${missing[*]}) and neither root nor sudo" >&2
    exit 1
fi
echo "install-deps: installing ${missing[*]}"
# Through env, so that sudo (which resets the environment) passes it on to apt-get.
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "${missing[@]}"
