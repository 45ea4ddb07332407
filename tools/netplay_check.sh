#!/bin/sh
# The netplay check: examples/netplay played between processes over ENet
# on 127.0.0.1, 1,200 frames per run.
#
#   9 runs, latency 0, 50 and 150 ms one way x loss 0, 5 and 20 %: both
#     players exit 0, print the same hash for every 30th frame (40), agree
#     at every exchange, and no rollback is deeper than 8 frames; the
#     rollbacks are counted and printed, and the runs with 150 ms have some.
#   the 150 ms / 20 % run has a spectator: it joins from a save of a
#     confirmed frame and prints the host's hashes for the frames it plays.
#   one run at 150 ms / 20 % with --inject-desync 500 in the joiner: both exit 3, the
#     desync is caught within 2 hash exchanges of frame 500, and the report
#     names the boss, the point it waits at and its field rage.
#   4 hostile runs (examples/netplay/hostile.c sends what it is given): a
#     spectator handed a 1-byte save, a host handed a tick packet whose
#     first frame is 2^31 - 1, the pieces of 16,777,215 and another game's
#     options: each exits 2 with its message, neither crashes nor waits.
#
# Latency and loss are simulated on the example's virtual clock (frames),
# so each run repeats its hash, check and rollback lines and nothing
# sleeps. Each host listens on a port the system gives (--host 0 prints
# it), so checks beside each other never meet; each process runs under
# timeout, so a hang fails the check. Installs libenet-dev from Debian when run as root; otherwise
# names it.
set -eu
cd "$(dirname "$0")/.."
if ! pkg-config --exists libenet 2>/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "netplay_check: installing libenet-dev"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libenet-dev pkg-config >/dev/null
    else
        echo "netplay_check: needs ENet (sudo apt-get install libenet-dev)" >&2
        exit 2
    fi
fi

# NETPLAY_BUILD: another build directory, e.g. one configured with
# -DCMAKE_C_FLAGS=-fsanitize=address,undefined (its flags are kept)
build=${NETPLAY_BUILD:-build/netplay}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCORRAL_BUILD_TESTS=OFF -DCORRAL_WERROR=ON >/dev/null
cmake --build "$build" -j 2 --target netplay netplay_hostile >/dev/null
bin=$build/examples/netplay
hostile=$build/examples/netplay_hostile
out=$build/runs
mkdir -p "$out"
start=$(date +%s.%N)
limit=120 # seconds a process may run
fail=0
since() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
bad() { echo "netplay_check: FAIL: $*" >&2; fail=1; }

# the port the host of output $1 (pid $2) listens on, once it says
port_of() {
    i=0
    while [ $i -lt 100 ] && kill -0 "$2" 2>/dev/null; do
        p=$(sed -n 's/^netplay: listening on port \([0-9]*\)$/\1/p' "$1")
        if [ -n "$p" ]; then
            echo "$p"
            return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# run NAME HOST_ARGS JOIN_ARGS [SPECTATE]: host, joiner and maybe a
# spectator; exit codes in $hrc $jrc $src (124: killed by timeout)
run() {
    name=$1 hargs=$2 jargs=$3 spect=${4:-}
    : >"$out/$name.host" # emptied here: a previous check's port is not this host's
    timeout $limit "$bin" --host 0 $hargs >"$out/$name.host" 2>&1 &
    hpid=$!
    hrc=0 jrc=0 src=0
    if ! port=$(port_of "$out/$name.host" $hpid); then
        kill $hpid 2>/dev/null || true
        wait $hpid || hrc=$?
        bad "$name: the host gave no port"
        jrc=2 src=2
        return
    fi
    timeout $limit "$bin" --join $port $jargs >"$out/$name.join" 2>&1 &
    jpid=$!
    spid=
    if [ -n "$spect" ]; then
        timeout $limit "$bin" --spectate $port >"$out/$name.spect" 2>&1 &
        spid=$!
    fi
    wait $hpid || hrc=$?
    wait $jpid || jrc=$?
    if [ -n "$spid" ]; then wait $spid || src=$?; fi
}

# the deepest rollback and the count in a player's output
rollbacks() { grep -c '^rollback ' "$1" || true; }
deepest() { awk '/^rollback /{ if ($6 > d) d = $6 } END { print d + 0 }' "$1"; }

printf '%-18s %-7s %-11s %-19s %-7s %s\n' setting hashes exchanges "rollbacks (h/j)" deepest seconds
for latency in 0 50 150; do
    for loss in 0 5 20; do
        name=l${latency}_p$loss
        opts="--latency $latency --loss $loss --seed 7 --frames 1200"
        spect=
        hopts=$opts
        if [ $latency = 150 ] && [ $loss = 20 ]; then spect=1 hopts="$opts --spectators 1"; fi
        t0=$(date +%s.%N)
        run $name "$hopts" "$opts" $spect
        t1=$(date +%s.%N)
        h=$out/$name.host j=$out/$name.join
        [ $hrc = 0 ] || bad "$name: host exited $hrc"
        [ $jrc = 0 ] || bad "$name: joiner exited $jrc"
        grep '^hash frame ' "$h" >"$out/$name.host.hashes" || true
        grep '^hash frame ' "$j" >"$out/$name.join.hashes" || true
        nh=$(wc -l <"$out/$name.host.hashes")
        cmp -s "$out/$name.host.hashes" "$out/$name.join.hashes" || bad "$name: the players' hashes differ"
        [ "$nh" = 40 ] || bad "$name: $nh hashes, not 40"
        na=$(grep -c '^check frame [0-9]* agree$' "$h" || true)
        nj=$(grep -c '^check frame [0-9]* agree$' "$j" || true)
        [ "$na" = 40 ] && [ "$nj" = 40 ] || bad "$name: $na and $nj of 40 exchanges agree"
        rh=$(rollbacks "$h") rj=$(rollbacks "$j")
        dh=$(deepest "$h") dj=$(deepest "$j")
        d=$((dh > dj ? dh : dj))
        [ $d -le 8 ] || bad "$name: a rollback of $d frames"
        if [ $latency = 150 ] && [ $((rh + rj)) = 0 ]; then bad "$name: no rollback at 150 ms"; fi
        printf '%-18s %-7s %-11s %-19s %-7s %s\n' "${latency} ms, ${loss} %" "$nh/40" "$na/$nj agree" "$rh / $rj" "$d" \
            "$(since "$t0" "$t1")"
        if [ -n "$spect" ]; then
            s=$out/$name.spect
            [ $src = 0 ] || bad "$name: spectator exited $src"
            grep '^hash frame ' "$s" >"$out/$name.spect.hashes" || true
            ns=$(wc -l <"$out/$name.spect.hashes")
            missing=$(grep -cvxFf "$out/$name.host.hashes" "$out/$name.spect.hashes" || true)
            [ "$ns" -ge 10 ] && [ "$missing" = 0 ] || bad "$name: spectator: $ns hashes, $missing not the host's"
            echo "  spectator: $(grep '^spectator: loaded' "$s" | sed 's/^spectator: //'); $ns hashes, each the host's"
        fi
    done
done

# a desync at 150 ms and 20 %: the joiner's boss reads a counter of its
# process from frame 500
name=desync
inject=500
run $name "--latency 150 --loss 20 --seed 7" "--latency 150 --loss 20 --seed 7 --inject-desync $inject"
[ $hrc = 3 ] || bad "desync: host exited $hrc, not 3"
[ $jrc = 3 ] || bad "desync: joiner exited $jrc, not 3"
for who in host join; do
    f=$out/$name.$who
    caught=$(sed -n 's/^desync at frame \([0-9]*\): .*/\1/p' "$f" | head -n 1)
    first=$(( (inject / 30 + 1) * 30 - 1 )) # the first hash exchange at or after the injection
    before=$((first - 30))
    grep -q "^check frame $before agree\$" "$f" || bad "desync: $who's exchange of frame $before, before the injection, did not agree"
    early=$(awk -v f="$first" '$1 == "check" && $4 == "DESYNC" && $3 < f { print $3; exit }' "$f")
    [ -z "$early" ] || bad "desync: $who found a mismatch at frame $early, before the injection"
    if [ -z "$caught" ]; then
        bad "desync: $who reports no mismatching exchange"
    elif [ "$caught" -lt "$first" ]; then
        bad "desync: $who caught it at frame $caught, before the first exchange after the injection ($first)"
    else
        ex=$(( (caught - first) / 30 + 1 ))
        [ $ex -le 2 ] || bad "desync: $who caught it at frame $caught, exchange $ex after frame $inject"
        echo "desync ($who): injected at frame $inject, caught at the exchange of frame $caught (exchange $ex from it; 2 allowed), $(grep '^desync at' "$f" | sed 's/.*: //')"
    fi
    grep '^desync piece ' "$f" | sed 's/^/  /'
    grep '^desync report: ' "$f" | sed 's/^/  /'
    grep -q '^desync report: .*coroutine boss 0x[0-9a-f]*:[0-9]* at point [a-z]* .*field rage is ' "$f" ||
        bad "desync: $who's report does not name boss, its point and rage"
done

# hostile NAME VICTIM WORDS HEX...: VICTIM (spectate or host) against the
# hostile peer sending HEX; it must exit 2 saying WORDS on stderr
hostile() {
    name=$1 victim=$2 words=$3
    shift 3
    : >"$out/$name.fake"
    : >"$out/$name.out"
    if [ "$victim" = spectate ]; then
        timeout $limit "$hostile" --host "$@" >"$out/$name.fake" 2>&1 &
        fpid=$!
        port=$(port_of "$out/$name.fake" $fpid) || { bad "$name: the hostile host gave no port"; return; }
        vrc=0
        timeout $limit "$bin" --spectate $port >"$out/$name.out" 2>"$out/$name.err" || vrc=$?
    else
        timeout $limit "$bin" --host 0 >"$out/$name.out" 2>"$out/$name.err" &
        vpid=$!
        port=$(port_of "$out/$name.out" $vpid) || { bad "$name: the host gave no port"; return; }
        timeout $limit "$hostile" --join $port "$@" >"$out/$name.fake" 2>&1 &
        fpid=$!
        vrc=0
        wait $vpid || vrc=$?
    fi
    kill $fpid 2>/dev/null || true
    wait $fpid 2>/dev/null || true
    said=$(grep '^netplay: ' "$out/$name.err" | head -n 1)
    [ $vrc = 2 ] || bad "$name: exited $vrc, not 2"
    grep -q "$words" "$out/$name.err" || bad "$name: said '$said', not '$words'"
    ! grep -q -E 'Sanitizer|runtime error' "$out/$name.err" || bad "$name: a sanitizer's report"
    echo "hostile ($name): exit $vrc, $said"
}
# the options of the default game: frames 1200, seed 1, latency 0, loss 0, 304 coroutines
hello=09b004000001000000000000000000000030010000
hostile short-save spectate 'malformed save' $hello 06
hostile tick-first host 'malformed tick packet' $hello 0100000000000000000000000000ffffff7f0100
hostile many-pieces host 'more than the 1024' $hello 021d000000ffffff00
hostile other-game host 'plays another game: --coroutines 304 here, 2000 there' 09b0040000010000000000000000000000d0070000

echo "netplay_check: $(since "$start" "$(date +%s.%N)") s"
if [ $fail != 0 ]; then
    echo "netplay_check: outputs in $out" >&2
    exit 1
fi
echo "netplay_check: all green"
