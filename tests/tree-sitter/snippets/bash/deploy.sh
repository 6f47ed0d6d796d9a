#!/usr/bin/env bash
# Deploys the service to one host over SSH.
set -euo pipefail

source "$(dirname "$0")/lib/common.sh"
. ./env.sh

readonly REMOTE_DIR=/opt/service
RETRIES=3
declare -r LOG_FILE="/var/log/deploy.log"
current_host=""

# Prints a timestamped message to stderr.
log() {
  echo "[$(date +%H:%M:%S)] $*" >&2
}

# Copies the build and restarts the unit.
# Arguments: host
function deploy_host {
  local host="$1"
  current_host="$host"
  log "deploying to $host"
  rsync -az --delete build/ "$host:$REMOTE_DIR/"
  ssh "$host" sudo systemctl restart service
}

retry() {
  local n=0
  until "$@"; do
    n=$((n + 1))
    if [[ $n -ge $RETRIES ]]; then
      log "giving up after $n attempts"
      return 1
    fi
    sleep 2
  done
}

main() {
  for host in "$@"; do
    retry deploy_host "$host" | tee -a "$LOG_FILE"
  done
}

main "$@"
