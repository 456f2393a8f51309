#!/usr/bin/env bash
# scripts/run.sh's checks that need no build: its arguments are checked before anything
# is built or started (exit 2, naming the flag and listing the valid values), and its
# array (scripts/run_array.py) is verified right for any size down to 1 byte, a receiver
# without a block having no file. The receivers' files are laid out here independently:
# the senders' pieces end to end are the array; block i goes to receiver i mod 4.
#   run_script_test.sh SOURCE_DIR
set -euo pipefail
source=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "run_script_test.sh: $*" >&2; exit 1; }

"$source/scripts/run.sh" --help > "$work/help" || fail "--help exited $?"
grep -q -- "--algo NAME" "$work/help" && grep -q -- "--size SIZE" "$work/help" && grep -q -- "--keep" "$work/help" ||
  fail "--help lacks an option: $(cat "$work/help")"
expect_usage_error() {  # ARGS... : exit 2, one message naming what is wrong
  local status=0
  "$source/scripts/run.sh" "${@:2}" > /dev/null 2> "$work/err" || status=$?
  [ "$status" = 2 ] || fail "run.sh ${*:2} exited $status, not 2"
  grep -q -- "$1" "$work/err" || fail "run.sh ${*:2} said '$(cat "$work/err")', without '$1'"
}
expect_usage_error "is not one of: oggp-plus oggp ggp h-weight h-degree all-at-once" --algo nope
expect_usage_error "--size '0'" --size 0
expect_usage_error "--size '1.5'" --size 1.5
expect_usage_error "--size '12QB'" --size 12QB
expect_usage_error "--size needs a value" --size
expect_usage_error "unknown argument '--mib'" --mib 3

# A layout for SIZE bytes in BLOCK-byte blocks over 4 senders and 4 receivers.
lay_out() {
  local size=$1 block=$2
  rm -rf "$work/run" && mkdir -p "$work/run"
  for node in a0 a1 a2 a3 b0 b1 b2 b3; do mkdir -p "$work/run/$node/data"; done
  "$source/scripts/run_array.py" write "$work/run" "$size" a0 a1 a2 a3 2> /dev/null
  python3 - "$work/run" "$size" "$block" <<'PY'
import sys
run, size, block = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
array = b"".join(open(f"{run}/a{p}/data/array.bin", "rb").read() for p in range(4))
assert len(array) == size, (len(array), size)
for q in range(4):
    blocks = [array[i:i + block] for i in range(q * block, size, 4 * block)]
    if blocks:  # a receiver that gets no block has no file, as after a real job
        open(f"{run}/b{q}/data/array.bin", "wb").write(b"".join(blocks))
PY
}
verify() { "$source/scripts/run_array.py" verify "$work/run" "$1" "$2" b0 b1 b2 b3 2>&1; }

for size in 1 2 3 999 1000 4000 4001 12345; do
  lay_out "$size" 1000
  out=$(verify "$size" 1000 || true)
  [[ "$out" == "verified: all "* ]] || fail "size $size: $out"
done
lay_out 1 1000
rm "$work/run/b0/data/array.bin"
out=$(verify 1 1000 || true)
[[ "$out" == *"b0/array.bin is missing (1 bytes expected)"* ]] || fail "a missing file: $out"
lay_out 5000 1000
python3 -c 'import sys; f = open(sys.argv[1], "r+b"); f.seek(500); b = f.read(1); f.seek(500); f.write(bytes([b[0] ^ 1]))' \
  "$work/run/b1/data/array.bin"  # b1 holds block 1 only: its byte 500 is the array's 1500
out=$(verify 5000 1000 || true)
[[ "$out" == *"b1/array.bin differs from the source array at its byte 500 (block 1 of the array)"* ]] ||
  fail "a changed byte: $out"
echo "ok: arguments checked first; sizes from 1 byte verified; a missing file and a changed byte named"
