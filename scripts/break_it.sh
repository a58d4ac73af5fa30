#!/usr/bin/env bash
# Tries to break the shudu binary the ways issue 37 did, each case bounded in time; prints one
# line a case and exits 1 if any failed. Run by .ci/run on every CI run.
#
#   scripts/break_it.sh [path/to/shudu]     (default: target/debug/shudu)
#
# The unprivileged `-o` cases run as user nobody (setpriv) when the script runs as root, as in
# CI; otherwise they are skipped with a notice.
set -uo pipefail
work="$(mktemp -d)"
chmod 0777 "$work"
trap 'rm -rf "$work"' EXIT
# A copy in the work folder, which user nobody can run (the build folder may be in root's
# home, 0700).
cp "${1:-target/debug/shudu}" "$work/shudu" && chmod 0755 "$work/shudu"
S="$work/shudu"
export S
P=53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
export P
cd "$work" || exit 1
failed=0

# check NAME EXPECTED-STATUS SECONDS SCRIPT: runs SCRIPT with bash within SECONDS and expects
# the status; a panic message on standard error fails the case whatever the status.
check() {
    local name=$1 want=$2 secs=$3 script=$4 got err
    err="$(timeout "$secs" bash -c "$script" 2>&1 >/dev/null)"
    got=$?
    if [ "$got" = "$want" ] && ! grep -q panicked <<<"$err"; then
        echo "ok    $name"
    else
        echo "FAIL  $name: exit $got, expected $want; ${err:0:300}"
        failed=1
    fi
}

printf '%s\n%s\n%s\n%s\nx\n' $P $P $P $P > five.txt
: > empty.txt
echo x > bad.txt

# 1. Streaming: the first answer comes before the input ends; memory stays small.
for cmd in solve grade canon check; do
    check "$cmd answers before its input ends" 0 20 \
        "(echo \$P; sleep 5; echo \$P) | timeout 3 \$S $cmd | head -1 | grep -q ."
done
check "-s - streams" 0 20 "(echo \$P; echo \$P) | \$S -s - && [ \$(wc -l < sudoku.txt) = 19 ]"
if [ -x /usr/bin/time ]; then
    check "-s - in little memory" 0 60 \
        "\$S grids -n 300000 --format grid | /usr/bin/time -f %M -o rss-s.txt \$S -s - &&
         [ \$(tail -1 rss-s.txt) -lt 40000 ]"
    check "grids -n 100000000 | solve | head -1 in little memory" 0 60 \
        "\$S grids -n 100000000 | /usr/bin/time -f %M -o rss.txt \$S solve | head -1 >/dev/null;
         [ \$(tail -1 rss.txt) -lt 100000 ]"
fi

# 2. -o refuses where > would (as nobody), keeps owner and group.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    echo old > rootfile.txt && chmod 644 rootfile.txt
    check "-o refuses root's file to nobody" 2 20 \
        "setpriv --reuid=nobody --regid=nogroup --clear-groups \$S grids -n 1 -o rootfile.txt"
    check "root's file unchanged" 0 5 "[ \"\$(cat rootfile.txt)\" = old ] && [ \$(stat -c %u rootfile.txt) = 0 ]"
    check "-o refuses a read-only file" 2 20 \
        "setpriv --reuid=nobody --regid=nogroup --clear-groups bash -c 'echo m > ro.txt; chmod 444 ro.txt; \$S grids -n 1 -o ro.txt'"
    echo old > owned.txt && chown nobody:nogroup owned.txt
    check "-o keeps owner and group" 0 20 \
        "\$S grids -n 1 -o owned.txt && [ \$(stat -c %U:%G owned.txt) = nobody:nogroup ]"
else
    echo "notice: not root (or no setpriv): the unprivileged -o cases were skipped"
fi

# 3. No panic on a closed pipe or a full device; a closed standard output is an error.
check "-c 5 2>&1 | true" 0 30 "\$S -c 5 2>&1 | true; exit \${PIPESTATUS[0]}"
check "-n 5 2>&1 | true" 0 30 "\$S -n 5 2>&1 | true; exit \${PIPESTATUS[0]}"
check "solve five.txt 2>&1 | true" 0 30 "\$S solve five.txt 2>&1 | true; exit \${PIPESTATUS[0]}"
check "generate --timeout 1s 2>&1 | true" 1 30 \
    "\$S generate -n 1 --givens 17 --timeout 1s 2>&1 | true; exit \${PIPESTATUS[0]}"
check "generate --list-techniques > /dev/full" 2 10 "\$S generate --list-techniques > /dev/full"
check "play > /dev/full" 2 10 "\$S play --port 0 > /dev/full"
check "grids -n 5 >&-" 2 10 "\$S grids -n 5 >&-"
check "play 2>&1 | head -1, then SIGTERM" 143 20 \
    "coproc P { exec \$S play --port 0 2>&1; }; read -r line <&\${P[0]}; exec {P[0]}<&-;
     sleep 0.5; kill -TERM \$P_PID; wait \$P_PID"

# 4. Signals ignored at start stay ignored.
check "nohup grids -o survives HUP" 0 60 \
    "trap '' HUP; \$S grids -n 2000000 -o o.txt & pid=\$!; sleep 0.5; kill -HUP \$pid; wait \$pid &&
     [ \$(wc -l < o.txt) = 2000000 ]"
check "background -o survives INT" 0 60 \
    "trap '' INT; \$S grids -n 2000000 -o o2.txt & pid=\$!; sleep 0.5; kill -INT \$pid; wait \$pid"

# 5. Failed runs keep old files.
for args in "grade bad.txt" "grade empty.txt" "canon bad.txt" "canon --dedupe empty.txt"; do
    check "$args -o keeps the old file" 0 20 \
        "echo old > out.txt; \$S $args -o out.txt; [ \"\$(cat out.txt)\" = old ]"
done

# 6. Ranges in rated searches spread.
check "-n 20 -m 1 -r 20~30 spreads" 0 60 \
    "\$S -n 20 -m 1 -r 20~30 && [ \$(tr -s '\n' < sudoku.txt | paste -d '' - - - - - - - - - |
     awk '{print gsub(/0/,\"\")}' | sort -u | wc -l) -ge 3 ]"
check "--givens 40..50 --difficulty medium spreads" 0 60 \
    "[ \$(\$S generate -n 20 --givens 40..50 --difficulty medium --seed 1 |
     awk '{print gsub(/[1-9]/,\"\")}' | sort -u | wc -l) -ge 3 ]"
check "--givens 28..34 --needs x-wing spreads" 0 60 \
    "[ \$(\$S generate -n 20 --givens 28..34 --needs x-wing --seed 1 |
     awk '{print gsub(/[1-9]/,\"\")}' | sort | uniq -c | sort -rn | awk 'NR==1{print \$1}') -le 10 ]"

# 7. Flags that would do nothing.
for flag in "--per-page 2" "--title T" "--answers" "--paper letter"; do
    check "generate $flag without --print" 2 10 "\$S generate -n 1 $flag"
done
check "--shard without --seed" 2 10 "\$S generate -n 4 --shard 0/2"

# 8. Print: CJK titles, warnings, long titles.
check "print a CJK title" 0 30 "\$S print \$P -o t.pdf --title '数独 練習'"
if command -v pdftotext >/dev/null && [ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ]; then
    check "pdftotext reads the CJK title" 0 10 "pdftotext t.pdf - | grep -q '数独 練習'"
fi
check "print warns for what no font draws" 0 30 \
    "\$S print \$P -o u.pdf --title \$'\\U00013000' 2>&1 | grep -q U+13000"
check "print refuses an 11,000-character title" 2 30 \
    "\$S print \$P -o v.pdf --title \"\$(head -c 11000 /dev/zero | tr '\\0' x)\""

# 9. Empty input exits 2.
check "-s empty.txt" 2 10 "\$S -s empty.txt"
check "solve empty.txt" 2 10 "\$S solve empty.txt"

# 10. Formats.
check "tabs in the grid format" 0 10 \
    "printf '%s\n' \$P | \$S solve --format grid | tr ' ' '\t' | \$S solve >/dev/null"
check "double spaces in the grid format" 0 10 \
    "printf '%s\n' \$P | \$S solve --format grid | sed 's/ /  /g' | \$S solve >/dev/null"
check "a UTF-8 BOM" 0 10 "printf '\xef\xbb\xbf%s\n' \$P | \$S solve >/dev/null"
check "--format svg -o x.pdf" 2 10 "\$S print \$P --format svg -o x.pdf"

# 11. Memory promises.
check "grids --uniform -n 100000000 refused" 2 10 "\$S grids -n 100000000 --uniform"
check "grids --distinct-classes -n 100000000 refused" 2 10 \
    "\$S grids -n 100000000 --distinct-classes"

# 12. Surprises.
check "-n 2 -m 3 -r 20~25 says blanks" 0 10 "\$S -n 2 -m 3 -r 20~25 2>&1 | grep -q 'at least 34 blanks'"
check "check P" 0 10 "\$S check \$P"
check "canon P" 0 10 "\$S canon \$P"
check "play exits 143 on SIGTERM" 143 20 \
    "coproc P { exec \$S play --port 0; }; read -r line <&\${P[0]}; sleep 0.5; kill -TERM \$P_PID; wait \$P_PID"

exit $failed
