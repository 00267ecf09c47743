#!/usr/bin/env bash
# Installs the Debian packages mnrb's build and tests need (idempotent; a no-op when all are present).
set -euo pipefail
need=()
for p in ruby rake gcc make dpkg-dev bison gperf python3 python3-venv libonig-dev nettle-dev libyaml-dev libutf8proc-dev zlib1g-dev libssl-dev openssl libcrypt-dev pkg-config; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then echo "deps.sh: need root to install: ${need[*]}" >&2; exit 1; fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
