#!/usr/bin/env bash
# A single-node Ceph radosgw for tests: one monitor, one memstore OSD (data in RAM), radosgw on 127.0.0.1.
#
#   scripts/rgw.sh start   # prints "ready <endpoint>" when S3 answers and the test user exists
#   scripts/rgw.sh stop    # stops what start started in the same RGW_DIR
#
# The monitor takes Ceph's fixed ports 3300 and 6789, so one such server runs per machine.
# Needs Debian's radosgw, ceph-mon and ceph-osd (.ci/run installs them). Settings, from the environment:
#   RGW_DIR (/tmp/krabka-rgw)  RGW_PORT (7480)  RGW_ACCESS_KEY (krabka)
#   RGW_SECRET_KEY (krabka-secret)  RGW_MEMSTORE_BYTES (2 GiB: the most data the OSD holds,
#   in RAM, taken only as it is written)
set -euo pipefail

dir=${RGW_DIR:-/tmp/krabka-rgw}
port=${RGW_PORT:-7480}


stop() {
  # radosgw first, the monitor last: each depends on the ones after it.
  for name in client.rgw.krabka osd.0 mon.a; do
    pid_file="$dir/run/$name.pid"
    [ -f "$pid_file" ] || continue
    pid=$(cat "$pid_file")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$pid_file"
  done
}

start() {
  for tool in ceph-mon ceph-osd radosgw radosgw-admin ceph-authtool monmaptool; do
    command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install radosgw ceph-mon ceph-osd" >&2; exit 3; }
  done
  stop
  # Whatever fails below stops what was started, so the fixed monitor ports are free for the next try.
  trap 'status=$?; stop; exit $status' ERR
  rm -rf "$dir"
  mkdir -p "$dir"/{mon,osd0,run,log,rgw}
  local fsid conf
  fsid=$(cat /proc/sys/kernel/random/uuid)
  conf="$dir/ceph.conf"
  cat >"$conf" <<CONF
[global]
fsid = $fsid
mon host = 127.0.0.1
mon initial members = a
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind ipv6 = false
auth cluster required = none
auth service required = none
auth client required = none
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
mon max pg per osd = 1000
mon allow pool size one = true
mon warn on pool no redundancy = false
mon data avail warn = 2
mon data avail crit = 1
osd crush chooseleaf type = 0
osd objectstore = memstore
memstore device bytes = ${RGW_MEMSTORE_BYTES:-2147483648}
run dir = $dir/run
pid file = $dir/run/\$name.pid
log file = $dir/log/\$name.log
admin socket = $dir/run/\$name.asok
keyring = $dir/keyring
[mon]
mon data = $dir/mon
[osd]
osd data = $dir/osd\$id
# Ceph's defaults (2048 bytes) admit S3's longest keys (1,024 bytes) with the bucket's marker in front.
osd max object name len = 2048
[client.rgw.krabka]
rgw frontends = beast endpoint=127.0.0.1:$port
rgw data = $dir/rgw
# Deleted objects free their memory within seconds, not after the default two hours.
rgw gc obj min wait = 0
rgw gc processor period = 5
rgw gc processor max time = 5
CONF
  local c="-c $conf"
  ceph-authtool --create-keyring "$dir/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  ceph-authtool "$dir/keyring" --gen-key -n client.admin --cap mon 'allow *' --cap osd 'allow *' --cap mgr 'allow *' >/dev/null
  monmaptool --create --add a 127.0.0.1 --fsid "$fsid" "$dir/monmap" >/dev/null
  ceph-mon $c --mkfs -i a --monmap "$dir/monmap" --keyring "$dir/keyring"
  ceph-mon $c -i a
  local uuid id
  uuid=$(cat /proc/sys/kernel/random/uuid)
  id=$(timeout 60 ceph $c osd new "$uuid")
  ceph-osd $c -i "$id" --mkfs --osd-uuid "$uuid" >"$dir/log/osd-mkfs.out" 2>&1
  # The OSD's first start now and then fails with "wrong fsid" (Ceph 16 on a busy machine); a second works.
  local osd_up=""
  for _ in 1 2 3; do
    if ceph-osd $c -i "$id" >>"$dir/log/osd-start.out" 2>&1; then osd_up=yes; break; fi
    sleep 1
  done
  [ -n "$osd_up" ] || { echo "ceph-osd did not start; logs in $dir/log" >&2; stop; exit 5; }
  radosgw $c -n client.rgw.krabka
  local up=""
  for _ in $(seq 1 240); do
    if curl -s -o /dev/null "http://127.0.0.1:$port/"; then up=yes; break; fi
    sleep 0.25
  done
  [ -n "$up" ] || { echo "radosgw did not answer on 127.0.0.1:$port; logs in $dir/log" >&2; stop; exit 4; }
  timeout 60 radosgw-admin $c user create --uid=krabka --display-name=krabka \
    --access-key="${RGW_ACCESS_KEY:-krabka}" --secret-key="${RGW_SECRET_KEY:-krabka-secret}" >/dev/null
  echo "ready http://127.0.0.1:$port"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
