#!/usr/bin/env bash
# Makes a real VS Code (code-server from npm, served to Debian's chromium) available on this
# machine, where VS Code itself cannot be downloaded. Idempotent: a second run only checks.
# The last stdout line is the path of the code-server binary; everything else goes to stderr
# so callers can take it with `tail -n1`.
#
# Environment:
#   TEAM_DATA_CACHE        cache root (default $HOME/.cache/team-data); installs live OUTSIDE the repo
#   CODE_SERVER_VERSION    default 4.100.3 (the newest that runs on Node 20 = VS Code 1.100.3)
set -euo pipefail

VERSION="${CODE_SERVER_VERSION:-4.100.3}"
CACHE_ROOT="${TEAM_DATA_CACHE:-${HOME:-/root}/.cache/team-data}"
PREFIX="$CACHE_ROOT/code-server-$VERSION"
BIN="$PREFIX/node_modules/.bin/code-server"
MARKER="$PREFIX/.team-data-complete"
# @vscode/ripgrep's postinstall downloads rg from GitHub, which is unreachable here; it first looks
# in a cache under $TMPDIR with exactly these names (valid for code-server 4.100.3).
RG_PKG_VERSION="1.15.11"
RG_RELEASE="v13.0.0-10"
APT_PACKAGES=(chromium libkrb5-dev ripgrep)

log() { printf 'ensureCodeServer: %s\n' "$*" >&2; }
die() {
  printf 'ensureCodeServer: ERROR: %s\n' "$*" >&2
  exit 1
}

missing_packages() {
  local p
  for p in "${APT_PACKAGES[@]}"; do
    # dpkg-query is fast (no apt cache load) and exact: "install ok installed" only when complete.
    if [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" != "install ok installed" ]]; then
      printf '%s\n' "$p"
    fi
  done
}

ensure_apt_packages() {
  command -v dpkg-query >/dev/null || die "dpkg-query not found: this script supports Debian/Ubuntu only"
  local missing
  mapfile -t missing < <(missing_packages)
  [[ ${#missing[@]} -eq 0 ]] && return 0

  local sudo=()
  if [[ "$(id -u)" -ne 0 ]]; then
    command -v sudo >/dev/null && sudo -n true 2>/dev/null ||
      die "missing Debian packages (${missing[*]}) and not root; run: sudo apt-get install -y ${missing[*]}"
    sudo=(sudo -n)
  fi
  log "installing Debian packages: ${missing[*]} (apt-get update first)"
  export DEBIAN_FRONTEND=noninteractive
  # Wait for a concurrent apt/dpkg run (a colleague's, unattended-upgrades) instead of failing.
  local wait_lock=(-o DPkg::Lock::Timeout=300)
  "${sudo[@]}" apt-get "${wait_lock[@]}" update -qq >&2 || die "apt-get update failed"
  "${sudo[@]}" apt-get "${wait_lock[@]}" install -y -qq --no-install-recommends "${missing[@]}" >&2 ||
    die "apt-get install ${missing[*]} failed"
  mapfile -t missing < <(missing_packages)
  [[ ${#missing[@]} -eq 0 ]] || die "still missing after apt-get install: ${missing[*]}"
}

rg_target() {
  case "$(uname -m)" in
    x86_64) echo "x86_64-unknown-linux-musl" ;;
    aarch64 | arm64) echo "aarch64-unknown-linux-musl" ;;
    *) die "unsupported CPU $(uname -m) for the ripgrep cache" ;;
  esac
}

install_code_server() {
  command -v npm >/dev/null || die "npm not found on PATH"
  command -v rg >/dev/null || die "rg not found although package ripgrep is installed"
  local node_major
  node_major="$(node -p 'process.versions.node.split(".")[0]')"
  [[ "$node_major" == "20" ]] || log "warning: code-server $VERSION wants Node 20, found $(node -v)"

  log "installing code-server@$VERSION into $PREFIX (takes about a minute)"
  rm -rf "$PREFIX"
  mkdir -p "$PREFIX"
  local scratch
  scratch="$(mktemp -d "$CACHE_ROOT/install-tmp.XXXXXX")"
  # shellcheck disable=SC2064 # expand now: the trap must remove this very folder
  trap "rm -rf '$scratch'" EXIT

  local rg_cache="$scratch/vscode-ripgrep-cache-$RG_PKG_VERSION"
  mkdir -p "$rg_cache/stage"
  cp "$(command -v rg)" "$rg_cache/stage/rg"
  tar -czf "$rg_cache/ripgrep-$RG_RELEASE-$(rg_target).tar.gz" -C "$rg_cache/stage" rg

  printf '{ "name": "team-data-code-server", "private": true }\n' >"$PREFIX/package.json"

  # node-gyp must find headers locally (no nodejs.org): reuse the running node's own include dir
  # unless the user already configured one.
  local node_root
  node_root="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
  if [[ -z "${npm_config_nodedir:-}" && -f "$node_root/include/node/node.h" ]]; then
    export npm_config_nodedir="$node_root"
  fi

  # unsafe_perm: postinstall scripts refuse to run as root otherwise.
  # yes: node-pty's postinstall runs `npx node-gyp`, which would prompt.
  (
    cd "$PREFIX"
    TMPDIR="$scratch" \
      npm_config_unsafe_perm=true \
      npm_config_yes=true \
      npm_config_fund=false \
      npm_config_audit=false \
      npm_config_update_notifier=false \
      npm install --no-save --loglevel=error "code-server@$VERSION" >&2
  ) || die "npm install code-server@$VERSION failed (see output above)"

  [[ -x "$BIN" ]] || die "code-server binary missing after install: $BIN"
  [[ -x "$PREFIX/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" ]] ||
    die "@vscode/ripgrep has no rg binary: the pre-seeded cache was not used (version changed?)"
  verify_binary || die "installed code-server does not start: $BIN --version failed"
  date -u +%FT%TZ >"$MARKER"
  rm -rf "$scratch"
  trap - EXIT
}

verify_binary() {
  # code-server writes a default config (and logs about it on stdout) into $HOME on its first
  # run, so run it against a throwaway home and look for the version line anywhere.
  local home out
  home="$(mktemp -d "$CACHE_ROOT/verify-home.XXXXXX")"
  out="$(HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" \
    XDG_CACHE_HOME="$home/.cache" "$BIN" --version 2>/dev/null)" || {
    rm -rf "$home"
    return 1
  }
  rm -rf "$home"
  grep -q "^$VERSION " <<<"$out"
}

main() {
  ensure_apt_packages
  [[ -x /usr/bin/chromium ]] || die "/usr/bin/chromium not found although package chromium is installed"
  mkdir -p "$CACHE_ROOT"
  # Two test runs may call this at once; the second waits instead of corrupting the install.
  exec 9>"$CACHE_ROOT/.code-server-$VERSION.lock"
  if command -v flock >/dev/null; then flock 9; fi
  if [[ -f "$MARKER" && -x "$BIN" ]]; then
    : # installed and verified before; --version costs ~1 s, so the fast path trusts the marker
  else
    install_code_server
  fi
  printf '%s\n' "$BIN"
}

main "$@"
