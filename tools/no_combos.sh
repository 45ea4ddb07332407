#!/bin/sh
# Every set of modules the one header lets a program leave out
# (CORRAL_NO_<MODULE>; docs/API.md, "Modules"), in debug (-O0 -g, asserts
# on) and in release (-O2 -DNDEBUG), with gcc: single/corral.h's
# implementation (tests/link/one_header.c) compiled once per set with its
# defines, strict warnings as errors; tests/link/modules.c (named points,
# each module in use where it is in) and a table of every public function
# the one header defines outside the modules left out linked with it; the
# program run. The modules, and which need which, are read from
# single/corral.h (its pieces under #ifndef CORRAL_NO_*, its #errors), and
# each #error is checked to fire. Fails naming the sets that do not build,
# link or run.
#   tools/no_combos.sh                 every allowed set, debug and release
#   tools/no_combos.sh debug           one of the two (debug, release)
# JOBS builds run at once (default 2); CC is gcc unless set.
set -eu
cd "$(dirname "$0")/.."
out=build/no_combos
cc=${CC:-gcc}
warn="-std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror"

# one set in one mode (the script runs itself through xargs): $2 mode,
# $3 the modules left out, joined by '+' ('none' for none); its verdict in
# $out/MODE/SET/verdict, the first lines of what failed in its log
if [ "${1:-}" = --one ]; then
    mode=$2; set_=$3
    case "$mode" in debug) opt="-O0 -g" ;; *) opt="-O2 -DNDEBUG" ;; esac
    no=$(echo "$set_" | tr '+' '\n' | sed -n 's/^\([A-Z][A-Z]*\)$/-DCORRAL_NO_\1/p' | tr '\n' ' ')
    d=$out/$mode/$set_
    rm -rf "$d"; mkdir -p "$d"
    inc="-I$out/include"
    if ! $cc $warn $opt $inc $no -c tests/link/one_header.c -o "$d/impl.o" > "$d/log" 2>&1; then
        echo "the implementation does not compile" > "$d/verdict"
    elif ! $cc $warn $opt $inc $no -c tests/link/modules.c -o "$d/modules.o" >> "$d/log" 2>&1 ||
         ! $cc $warn $opt $inc $no -c $out/api.c -o "$d/api.o" >> "$d/log" 2>&1; then
        echo "the program does not compile" > "$d/verdict"
    elif ! $cc "$d/impl.o" "$d/modules.o" "$d/api.o" -pthread -o "$d/modules" >> "$d/log" 2>&1; then
        echo "does not link" > "$d/verdict"
    elif ! timeout 60 "$d/modules" >> "$d/log" 2>&1; then
        echo "runs and fails" > "$d/verdict"
    else
        echo ok > "$d/verdict"
        rm -f "$d"/*.o "$d/modules"
    fi
    exit 0
fi

modes="${*:-debug release}"
for m in $modes; do
    case "$m" in debug|release) ;; *) echo "no_combos: unknown mode '$m' (debug, release)" >&2; exit 2 ;; esac
done
start=$(date +%s)
rm -rf $out
mkdir -p $out/include/corral
cp single/corral.h $out/include/corral/corral.h

# the modules, and the pairs "A B": leaving A out needs B left out
modules=$(sed -n 's/^#ifndef CORRAL_NO_\([A-Z][A-Z]*\)$/\1/p' single/corral.h | sort -u) # a module may be tested in more than one place
needs=$(sed -n 's/^#if defined(CORRAL_NO_\([A-Z]*\)) && !defined(CORRAL_NO_\([A-Z]*\))$/\1 \2/p' single/corral.h)
n=$(echo $modules | wc -w)
if [ "$n" -lt 1 ]; then echo "no_combos: single/corral.h has no piece under #ifndef CORRAL_NO_*" >&2; exit 1; fi

# every public function: each defined in a module's piece under its
# CORRAL_NO_*, the rest (the core's, or defined nowhere) always
awk '
/^\/\* ---- .* ---- \*\/$/ { piece = $3; next }
piece == "include/corral/corral.h," && /^CORRAL_API/ {
    s = $0; sub(/\(.*/, "", s); k = split(s, w, /[ *]+/); order[++count] = w[k]; next }
piece ~ /^src\// && /^[a-z_][a-z0-9_ *]*[ *]corral_[a-z0-9_]+\(/ && !/;[ \t]*$/ && !/^static/ && !/^typedef/ {
    s = $0; sub(/\(.*/, "", s); k = split(s, w, /[ *]+/)
    if (piece ~ /^src\/modules\//) { m = piece; sub(/.*\//, "", m); sub(/\.c$/, "", m); home[w[k]] = toupper(m) }
}
END {
    print "/* written by tools/no_combos.sh from single/corral.h: every public function,"
    print "   each module'"'"'s under its CORRAL_NO_* */"
    print "#include <corral/corral.h>"
    print "typedef void (*no_combos_fn)(void);"
    print "extern const no_combos_fn no_combos_api[];"
    print "const no_combos_fn no_combos_api[] = {"
    for (i = 1; i <= count; i++) {
        f = order[i]
        if (f in home) print "#ifndef CORRAL_NO_" home[f] "\n    (no_combos_fn)" f ",\n#endif"
        else print "    (no_combos_fn)" f ","
    }
    print "    0};"
}' $out/include/corral/corral.h > $out/api.c
if ! grep -q '(no_combos_fn)corral_sched_create,' $out/api.c; then
    echo "no_combos: no CORRAL_API function found in single/corral.h" >&2; exit 1
fi

# each #error: one module left out, one that needs it kept
unrefused=0
for pair in $(echo "$needs" | tr ' ' ':'); do
    a=${pair%:*}; b=${pair#*:}
    if $cc -std=c11 -E -I$out/include -DCORRAL_NO_$a tests/link/one_header.c > /dev/null 2>&1; then
        echo "no_combos: CORRAL_NO_$a without CORRAL_NO_$b was not refused" >&2; unrefused=1
    fi
done

# the allowed sets: every subset of the modules but those the #errors refuse
sets=""
i=0
while [ $i -lt $((1 << n)) ]; do
    left=""; k=0
    for m in $modules; do
        [ $(((i >> k) & 1)) = 0 ] || left="$left $m"
        k=$((k + 1))
    done
    ok=1
    for pair in $(echo "$needs" | tr ' ' ':'); do
        case " $left " in *" ${pair%:*} "*) case " $left " in *" ${pair#*:} "*) ;; *) ok=0 ;; esac ;; esac
    done
    if [ $ok = 1 ]; then
        s=$(echo $left | tr ' ' '+')
        sets="$sets ${s:-none}"
    fi
    i=$((i + 1))
done
count=$(echo $sets | wc -w)
echo "no_combos: $n modules, $(echo "$needs" | grep -c .) needs: $count allowed sets of CORRAL_NO_*, each in:$(echo " $modes")"

for m in $modes; do
    for s in $sets; do echo "$m $s"; done
done | xargs -n 2 -P "${JOBS:-2}" sh tools/no_combos.sh --one

failed=0
for m in $modes; do
    bad=0
    for s in $sets; do
        v=$(cat "$out/$m/$s/verdict" 2>/dev/null || echo "no verdict")
        if [ "$v" != ok ]; then
            bad=$((bad + 1))
            if [ $bad -le 5 ]; then
                echo "  $m, left out: $(echo "$s" | tr '+' ' '): $v"
                grep -m 3 -E 'error|undefined|modules:' "$out/$m/$s/log" | cut -c1-200 | sed 's/^/      /' || true
            fi
        fi
    done
    [ $bad -le 5 ] || echo "  ... ($m: $out/$m/*/verdict)"
    echo "  $m: $((count - bad)) of $count sets build, link and run"
    failed=$((failed + bad))
done
echo "no_combos: $(($(date +%s) - start)) s"
if [ $failed -gt 0 ] || [ $unrefused = 1 ]; then
    echo "no_combos: FAILED ($failed builds)" >&2
    exit 1
fi
