#!/usr/bin/env bash
# Installs (or removes) the pegas-memory executable, its systemd units (the service, and the daily refresh of URL
# sources: a oneshot service and its timer) and its environment file, then migrates the
# database. Idempotent: a second run changes nothing and says so. Run with --help for the layout.
set -euo pipefail

NAME=pegas-memory
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The unit and environment templates: deploy/ in a checkout, else beside this script (a copied set of those files).
TEMPLATE_DIR=$SCRIPT_DIR/deploy
[ -f "$TEMPLATE_DIR/$NAME.service" ] || TEMPLATE_DIR=$SCRIPT_DIR
UNIT_TEMPLATE=$TEMPLATE_DIR/$NAME.service
REFRESH_TEMPLATE=$TEMPLATE_DIR/$NAME-refresh.service
TIMER_TEMPLATE=$TEMPLATE_DIR/$NAME-refresh.timer
ENV_TEMPLATE=$TEMPLATE_DIR/$NAME.env

usage() {
  cat <<EOF
Usage: $(basename "$0") [--binary PATH] [--prefix DIR] [--uninstall [--purge]] [--help]

Installs the pegas-memory executable, a systemd unit and an environment file, then runs
'pegas-memory migrate' with that environment.

  --binary PATH   executable to install (default: dist/pegas-memory of this repository, else
                  ./pegas-memory beside this script)
  --prefix DIR    put everything under DIR: DIR/bin, DIR/etc/pegas-memory/pegas-memory.env,
                  DIR/lib/systemd/{system|user}/pegas-memory.service, data in DIR/var/lib/pegas-memory;
                  neither creates the service user nor calls systemctl: as root, its unit runs as
                  root (no capabilities, read-only system but for the data dir), the owner of the
                  files it writes
  --uninstall     stop the service and remove the executable and the unit; the data and the
                  environment file stay
  --purge         with --uninstall: remove the data dir and the environment file too (and, for
                  the system install, the service user)
  -h, --help      this text

As root (system install): /usr/local/bin/pegas-memory, /etc/pegas-memory/pegas-memory.env,
/etc/systemd/system/pegas-memory.service, data in /var/lib/pegas-memory, service user pegas-memory.
Otherwise (user install): ~/.local/bin/pegas-memory, ~/.config/pegas-memory/pegas-memory.env,
~/.config/systemd/user/pegas-memory.service, data in ~/.local/share/pegas-memory.
An existing environment file is never overwritten. systemctl daemon-reload and enable --now run
only when systemd is running and no --prefix is given.
EOF
}

say() { printf '%s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

BINARY=""
PREFIX=""
UNINSTALL=0
PURGE=0
while [ $# -gt 0 ]; do
  case $1 in
    --binary) [ $# -ge 2 ] || die "--binary needs a path"; BINARY=$2; shift 2 ;;
    --binary=*) BINARY=${1#--binary=}; shift ;;
    --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; PREFIX=$2; shift 2 ;;
    --prefix=*) PREFIX=${1#--prefix=}; shift ;;
    --uninstall) UNINSTALL=1; shift ;;
    --purge) PURGE=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ "$PURGE" -eq 0 ] || [ "$UNINSTALL" -eq 1 ] || die "--purge only goes with --uninstall"

# ---- layout -------------------------------------------------------------------------------------------------------
if [ "$(id -u)" -eq 0 ]; then FLAVOUR=system; else FLAVOUR=user; fi
if [ -n "$PREFIX" ]; then
  # Absolute and normalized without creating anything: a refused path or a missing binary must leave no trace.
  PREFIX=$(realpath -m -- "$PREFIX")
  BIN_DIR=$PREFIX/bin
  ENV_DIR=$PREFIX/etc/$NAME
  UNIT_DIR=$PREFIX/lib/systemd/$FLAVOUR
  DATA_DIR=$PREFIX/var/lib/$NAME
elif [ "$FLAVOUR" = system ]; then
  BIN_DIR=/usr/local/bin
  ENV_DIR=/etc/$NAME
  UNIT_DIR=/etc/systemd/system
  DATA_DIR=/var/lib/$NAME
else
  : "${HOME:?HOME must be set for a user install}"
  BIN_DIR=$HOME/.local/bin
  ENV_DIR=${XDG_CONFIG_HOME:-$HOME/.config}/$NAME
  UNIT_DIR=${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user
  DATA_DIR=${XDG_DATA_HOME:-$HOME/.local/share}/$NAME
fi
BIN=$BIN_DIR/$NAME
ENV_FILE=$ENV_DIR/$NAME.env
UNIT=$UNIT_DIR/$NAME.service
REFRESH_UNIT=$UNIT_DIR/$NAME-refresh.service
TIMER_UNIT=$UNIT_DIR/$NAME-refresh.timer
SERVICE_USER=$NAME
for p in "$BIN" "$ENV_FILE" "$UNIT" "$DATA_DIR"; do
  case $p in *[[:space:]\|\&\\\"\']*) die "path '$p' holds a space or one of | & \\ \" ': systemd units cannot carry it" ;; esac
done

# systemctl runs only for a real system/user install on a machine booted with systemd.
USE_SYSTEMCTL=0
sctl() { if [ "$FLAVOUR" = system ]; then systemctl "$@"; else systemctl --user "$@"; fi; }
if [ -z "$PREFIX" ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
  # A user install from a shell without a user manager (su, some ssh sessions) cannot reach systemctl --user.
  if [ "$FLAVOUR" = system ] || sctl show-environment >/dev/null 2>&1; then USE_SYSTEMCTL=1; fi
fi
MANAGE_USER=0
if [ "$FLAVOUR" = system ] && [ -z "$PREFIX" ]; then MANAGE_USER=1; fi

CHANGED=0
changed() { CHANGED=1; say "$*"; }

# ---- rendering ----------------------------------------------------------------------------------------------------
# The unit template is written for the system install; other layouts get their paths, and the user unit loses the
# SYSTEM-ONLY block (User=, StateDirectory=, sandboxing) and is wanted by default.target. A system unit under
# --prefix runs as root, who owns what this script wrote there (no service user is created), so User=/Group= go.
render_unit() {
  local template=${1:-$UNIT_TEMPLATE}
  local script="s|^ExecStart=/usr/local/bin/$NAME |ExecStart=$BIN |;s|^EnvironmentFile=.*|EnvironmentFile=$ENV_FILE|"
  if [ "$FLAVOUR" = user ]; then
    script="$script;/^# >>> SYSTEM-ONLY/,/^# <<< SYSTEM-ONLY/d;s|^WantedBy=multi-user.target|WantedBy=default.target|"
  elif [ "$DATA_DIR" != /var/lib/$NAME ]; then
    script="$script;s|^StateDirectory=.*|ReadWritePaths=$DATA_DIR|;/^StateDirectoryMode=/d;s|^WorkingDirectory=.*|WorkingDirectory=$DATA_DIR|"
  fi
  if [ "$FLAVOUR" = system ] && [ "$MANAGE_USER" -eq 0 ]; then
    script="$script;s|^User=$NAME\$|# --prefix install: runs as root (owner of $DATA_DIR), without capabilities; no service user was created|;/^Group=$NAME\$/d"
  fi
  sed -e "$script" "$template"
}

render_env() { sed -e "s|^PEGAS_DATA_DIR=.*|PEGAS_DATA_DIR=$DATA_DIR|" "$ENV_TEMPLATE"; }

# Writes stdin to $1 (mode $2) unless the file already holds exactly that; reports what it did.
put_file() {
  local dest=$1 mode=$2 tmp
  tmp=$(mktemp "$(dirname "$dest")/.$NAME.XXXXXX")
  cat >"$tmp"
  if [ -f "$dest" ] && cmp -s "$tmp" "$dest"; then
    rm -f "$tmp"
    say "unchanged: $dest"
    return 1
  fi
  chmod "$mode" "$tmp"
  mv -f "$tmp" "$dest"
  changed "installed: $dest"
}

# The environment file's KEY=value lines as arguments for env(1): comments skipped, one layer of quotes removed.
env_args() {
  local line key value
  while IFS= read -r line || [ -n "$line" ]; do
    case $line in '' | '#'*) continue ;; esac
    key=${line%%=*}
    value=${line#*=}
    [[ $key =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || continue
    if [[ $value =~ ^\"(.*)\"$ || $value =~ ^\'(.*)\'$ ]]; then value=${BASH_REMATCH[1]}; fi
    printf '%s=%s\0' "$key" "$value"
  done <"$ENV_FILE"
}

run_migrate() {
  local -a vars runner=()
  mapfile -d '' vars < <(env_args)
  local home=$HOME
  if [ "$MANAGE_USER" -eq 1 ]; then
    home=$DATA_DIR
    runner=(runuser -u "$SERVICE_USER" --)
  fi
  local output errors
  errors=$(mktemp)
  # stdout carries the one result line; the logs (stderr) are shown only when migrate fails.
  if ! output=$(cd / && "${runner[@]}" env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" "${vars[@]}" "$BIN" migrate 2>"$errors"); then
    cat "$errors" >&2
    rm -f "$errors"
    die "'$BIN migrate' failed with $ENV_FILE; fix the environment file and run install.sh again"
  fi
  rm -f "$errors"
  case $output in
    "schema is up to date"*) say "database: $output" ;;
    *) changed "database: $output" ;;
  esac
}

# ---- install ------------------------------------------------------------------------------------------------------
install_all() {
  [[ -f $UNIT_TEMPLATE && -f $ENV_TEMPLATE && -f $REFRESH_TEMPLATE && -f $TIMER_TEMPLATE ]] ||
    die "templates missing (deploy/ or beside this script) ($UNIT_TEMPLATE, $REFRESH_TEMPLATE, $TIMER_TEMPLATE, $ENV_TEMPLATE)"
  if [ -z "$BINARY" ]; then
    if [ -x "$SCRIPT_DIR/dist/$NAME" ]; then BINARY=$SCRIPT_DIR/dist/$NAME; else BINARY=$SCRIPT_DIR/$NAME; fi
  fi
  [[ -f $BINARY && -x $BINARY ]] || die "no executable at '$BINARY': build it (npm run build) or pass --binary PATH"
  "$BINARY" --version >/dev/null 2>&1 || die "'$BINARY --version' failed: not a pegas-memory executable for this machine?"

  if [ "$MANAGE_USER" -eq 1 ] && ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
    useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin \
      --comment "pegas-memory service" "$SERVICE_USER"
    changed "created system user: $SERVICE_USER"
  fi

  mkdir -p "$BIN_DIR" "$ENV_DIR" "$UNIT_DIR"
  local bin_changed=0 unit_changed=0
  put_file "$BIN" 0755 <"$BINARY" && bin_changed=1
  render_unit | put_file "$UNIT" 0644 && unit_changed=1
  render_unit "$REFRESH_TEMPLATE" | put_file "$REFRESH_UNIT" 0644 && unit_changed=1
  put_file "$TIMER_UNIT" 0644 <"$TIMER_TEMPLATE" && unit_changed=1

  if [ -f "$ENV_FILE" ]; then
    say "kept: $ENV_FILE (never overwritten)"
  else
    render_env | put_file "$ENV_FILE" 0600 || true
    if [ "$MANAGE_USER" -eq 1 ]; then chgrp "$SERVICE_USER" "$ENV_FILE" && chmod 0640 "$ENV_FILE"; fi
  fi

  if [ ! -d "$DATA_DIR" ]; then
    mkdir -p "$(dirname "$DATA_DIR")"
    mkdir -m 0700 "$DATA_DIR"
    changed "created data dir: $DATA_DIR"
  fi
  if [ "$MANAGE_USER" -eq 1 ]; then chown "$SERVICE_USER:$SERVICE_USER" "$DATA_DIR"; fi
  run_migrate

  if [ "$USE_SYSTEMCTL" -eq 1 ]; then
    [ "$unit_changed" -eq 0 ] || sctl daemon-reload
    if ! sctl is-enabled --quiet "$NAME.service" || ! sctl is-active --quiet "$NAME.service"; then
      sctl enable --now "$NAME.service"
      changed "enabled and started: $NAME.service"
    elif [ "$bin_changed" -eq 1 ] || [ "$unit_changed" -eq 1 ]; then
      sctl restart "$NAME.service"
      changed "restarted: $NAME.service"
    fi
    if ! sctl is-enabled --quiet "$NAME-refresh.timer"; then
      sctl enable --now "$NAME-refresh.timer"
      changed "enabled: $NAME-refresh.timer (daily pegas-memory refresh)"
    fi
  elif [ -n "$PREFIX" ] && [ "$FLAVOUR" = system ]; then
    say "note: --prefix: no service user was created and systemctl was not called; the unit runs as root (the owner of $DATA_DIR), without capabilities and with a read-only system but for $DATA_DIR; for the $SERVICE_USER service user, install without --prefix. To run this unit: systemctl link $UNIT"
  elif [ -n "$PREFIX" ]; then
    say "note: --prefix: systemctl not called; to run the unit: systemctl --user link $UNIT"
  else
    say "note: systemd is not running here: start '$BIN serve' with $ENV_FILE yourself"
  fi
  if [ "$CHANGED" -eq 0 ]; then say "nothing changed: $NAME is already installed"; fi
}

# ---- uninstall ----------------------------------------------------------------------------------------------------
remove() {
  if [ -e "$1" ] || [ -L "$1" ]; then rm -rf -- "$1"; changed "removed: $1"; fi
}

# Removes the now-empty directories under the prefix, deepest first; never a directory outside it.
prune_prefix() {
  [ -n "$PREFIX" ] || return 0
  local d
  for d in "$UNIT_DIR" "$PREFIX/lib/systemd" "$PREFIX/lib" "$BIN_DIR" "$ENV_DIR" "$PREFIX/etc" "$DATA_DIR" \
    "$PREFIX/var/lib" "$PREFIX/var"; do
    if [ -d "$d" ]; then rmdir -- "$d" 2>/dev/null || true; fi
  done
}

uninstall_all() {
  if [ "$USE_SYSTEMCTL" -eq 1 ] && [ -f "$TIMER_UNIT" ]; then
    sctl disable --now "$NAME-refresh.timer" || true
    changed "stopped and disabled: $NAME-refresh.timer"
  fi
  if [ "$USE_SYSTEMCTL" -eq 1 ] && [ -f "$UNIT" ]; then
    sctl disable --now "$NAME.service" || true
    changed "stopped and disabled: $NAME.service"
  fi
  remove "$UNIT"
  remove "$REFRESH_UNIT"
  remove "$TIMER_UNIT"
  [ "$USE_SYSTEMCTL" -eq 0 ] || sctl daemon-reload || true
  remove "$BIN"
  if [ "$PURGE" -eq 1 ]; then
    remove "$ENV_FILE"
    remove "$DATA_DIR"
    [ -d "$ENV_DIR" ] && rmdir -- "$ENV_DIR" 2>/dev/null && say "removed: $ENV_DIR"
    if [ "$MANAGE_USER" -eq 1 ] && id -u "$SERVICE_USER" >/dev/null 2>&1; then
      userdel "$SERVICE_USER"
      changed "removed system user: $SERVICE_USER"
    fi
  else
    [ ! -e "$ENV_FILE" ] || say "kept: $ENV_FILE"
    [ ! -e "$DATA_DIR" ] || say "kept: $DATA_DIR (remove with --uninstall --purge)"
  fi
  prune_prefix
  if [ "$CHANGED" -eq 0 ]; then say "nothing changed: $NAME is not installed"; fi
}

if [ "$UNINSTALL" -eq 1 ]; then uninstall_all; else install_all; fi
