#!/usr/bin/env bash
# fuzz/corpus.sh on a scratch corpus: pack and unpack round trip the inputs, re-packing
# writes the same bytes, an archive past 4 MiB is split and joined again, and a missing,
# altered or short archive is refused by name; and a replay refuses another number of
# inputs than --expect says (docs/fuzzing.md, "The corpora").
#   corpus_test.sh SOURCE_DIR REPLAY_BINARY
set -euo pipefail
source=$1
replay=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "corpus_test.sh: $*" >&2; exit 1; }

# The script finds its corpus beside itself: a copy works on $work/corpus.
mkdir -p "$work/corpus" "$work/inputs"
cp "$source/fuzz/corpus.sh" "$work/corpus.sh"
script="$work/corpus.sh"
printf 'one' >"$work/inputs/a"
printf '\0\1\2' >"$work/inputs/b"
printf '' >"$work/inputs/empty"

"$script" pack "$work/inputs" t >/dev/null
[ -f "$work/corpus/t.tar.gz" ] || fail "pack wrote no t.tar.gz"
grep -q "^t 3 [0-9a-f]\{64\}$" "$work/corpus/index.txt" || fail "index: $(cat "$work/corpus/index.txt")"
cp "$work/corpus/t.tar.gz" "$work/first.tar.gz"
touch -d '2001-01-01' "$work/inputs/a"
"$script" pack "$work/inputs" t >/dev/null
cmp -s "$work/first.tar.gz" "$work/corpus/t.tar.gz" || fail "re-packing the same inputs changed the archive"
"$script" unpack t "$work/out" || fail "unpack failed"
diff -r "$work/inputs" "$work/out" >/dev/null || fail "unpacked inputs differ from the packed ones"

expect_refusal() {  # TEXT TARGET: unpack fails, saying TEXT
  if "$script" unpack "$2" "$work/refused" 2>"$work/err"; then fail "unpack $2 succeeded: $1 expected"; fi
  grep -q -- "$1" "$work/err" || fail "unpack $2 said '$(cat "$work/err")', without '$1'"
}
printf 'gone 1 0000\n' >>"$work/corpus/index.txt"
expect_refusal "no archive for 'gone'" gone
cp "$work/first.tar.gz" "$work/corpus/u.tar.gz"
printf 'u 3 %s\n' "$(sha256sum <"$work/first.tar.gz" | cut -d' ' -f1)" >>"$work/corpus/index.txt"
printf 'x' | dd of="$work/corpus/u.tar.gz" bs=1 seek=40 conv=notrunc status=none
expect_refusal "u's archive does not match its SHA-256" u
head -c 30 "$work/first.tar.gz" >"$work/corpus/v.tar.gz"
printf 'v 3 %s\n' "$(sha256sum <"$work/corpus/v.tar.gz" | cut -d' ' -f1)" >>"$work/corpus/index.txt"
expect_refusal "cannot unpack v's archive" v
cp "$work/first.tar.gz" "$work/corpus/w.tar.gz"
printf 'w 4 %s\n' "$(sha256sum <"$work/first.tar.gz" | cut -d' ' -f1)" >>"$work/corpus/index.txt"
expect_refusal "w's archive holds 3 inputs, .* says 4" w
cp "$work/first.tar.gz" "$work/corpus/missing.tar.gz"
expect_refusal "has no line for 'missing'" missing

# 5 MiB that gzip cannot shrink: two parts of at most 4 MiB, joined again on unpack.
mkdir -p "$work/big"
head -c $((5 * 1024 * 1024)) /dev/urandom >"$work/big/noise"
"$script" pack "$work/big" big >/dev/null
[ ! -e "$work/corpus/big.tar.gz" ] && [ -f "$work/corpus/big.tar.gz.00" ] && [ -f "$work/corpus/big.tar.gz.01" ] &&
  [ ! -e "$work/corpus/big.tar.gz.02" ] || fail "a 5 MiB archive is not in two parts: $(ls "$work/corpus")"
[ "$(stat -c %s "$work/corpus/big.tar.gz.00")" -le $((4 * 1024 * 1024)) ] || fail "a part is over 4 MiB"
"$script" unpack big "$work/big-out" || fail "unpack of the parts failed"
cmp -s "$work/big/noise" "$work/big-out/noise" || fail "the parts unpacked to other bytes"
rm "$work/corpus/big.tar.gz.01"
expect_refusal "big's archive does not match its SHA-256" big

# The replay counts what it was given against --expect.
if "$replay" --expect 4 "$work/inputs" >"$work/out.txt" 2>"$work/err"; then fail "a replay of 3 inputs passed --expect 4"; fi
grep -q "replay: 3 inputs, expected 4" "$work/err" || fail "the replay said '$(cat "$work/err")'"
"$replay" --expect 3 "$work/inputs" >"$work/out.txt" 2>"$work/err" || fail "--expect 3 of 3 failed: $(cat "$work/err")"
grep -q "replay: 3 inputs, no finding" "$work/out.txt" || fail "the replay printed '$(cat "$work/out.txt")'"
echo "corpus_test.sh: ok"
