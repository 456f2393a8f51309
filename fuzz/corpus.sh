#!/usr/bin/env bash
# Packs and unpacks the fuzz corpora (docs/fuzzing.md, "The corpora"). Each target's corpus
# is one archive, fuzz/corpus/TARGET.tar.gz (tar and gzip: in every Debian base system), or
# TARGET.tar.gz.00, .01, ... when it would pass the 4 MiB a committed file may have.
# fuzz/corpus/index.txt holds a line per target: its name, its number of inputs and the
# archive's SHA-256, so a missing, truncated or altered archive is refused by name.
#   fuzz/corpus.sh unpack TARGET DIR   DIR (emptied first) gets TARGET's inputs, checked
#                                      against the index (their number and the archive's hash)
#   fuzz/corpus.sh pack DIR TARGET     TARGET's archive gets DIR's files, and the index its line
# The archive does not depend on when or by whom it is packed (names sorted, times and owners
# fixed), so re-packing an unchanged corpus changes nothing git sees.
set -euo pipefail
corpus="$(cd "$(dirname "$0")" && pwd)/corpus"
index="$corpus/index.txt"
part_bytes=$((4 * 1024 * 1024))

fail() {
  echo "fuzz/corpus.sh: $*" >&2
  exit 1
}

# The archive's files: TARGET.tar.gz, or its parts in order.
archive_files() {
  if [ -f "$corpus/$1.tar.gz" ]; then
    echo "$corpus/$1.tar.gz"
  else
    find "$corpus" -maxdepth 1 -name "$1.tar.gz.[0-9][0-9]" | LC_ALL=C sort
  fi
}

# TARGET's index line's field N (2: inputs, 3: SHA-256).
index_field() {
  [ -f "$index" ] || fail "no $index"
  local value
  value=$(awk -v t="$1" -v n="$2" '$1 == t { print $n }' "$index")
  [ -n "$value" ] || fail "$index has no line for '$1' (pack its corpus: fuzz/corpus.sh pack DIR $1)"
  echo "$value"
}

unpack() {
  local target="$1" dir="$2" files inputs
  mapfile -t files < <(archive_files "$target")
  [ ${#files[@]} -gt 0 ] || fail "no archive for '$target' ($corpus/$target.tar.gz)"
  [ "$(cat "${files[@]}" | sha256sum | cut -d' ' -f1)" = "$(index_field "$target" 3)" ] ||
    fail "$target's archive does not match its SHA-256 in $index (corrupt, or re-packed without this script)"
  rm -rf "$dir"
  mkdir -p "$dir"
  cat "${files[@]}" | tar -xzf - -C "$dir" || fail "cannot unpack $target's archive into $dir"
  inputs=$(find "$dir" -type f | wc -l)
  [ "$inputs" -eq "$(index_field "$target" 2)" ] ||
    fail "$target's archive holds $inputs inputs, $index says $(index_field "$target" 2)"
}

pack() {
  local dir="$1" target="$2" inputs sum
  [ -d "$dir" ] || fail "no directory $dir"
  [ -z "$(find "$dir" -mindepth 1 ! -type f -print -quit)" ] || fail "$dir holds something other than files"
  inputs=$(find "$dir" -type f | wc -l)
  [ "$inputs" -gt 0 ] || fail "$dir has no inputs"
  local packed
  packed=$(mktemp)
  (cd "$dir" && find . -type f -printf '%P\n' | LC_ALL=C sort |
    tar --format=gnu --mtime=@0 --owner=0 --group=0 --numeric-owner --mode=a+r,u+w,go-w -cf - -T - |
    gzip -n -9) >"$packed"
  rm -f "$corpus/$target.tar.gz" "$corpus/$target".tar.gz.[0-9][0-9]
  if [ "$(stat -c %s "$packed")" -le "$part_bytes" ]; then
    cp "$packed" "$corpus/$target.tar.gz"
  else
    split -b "$part_bytes" -d -a 2 "$packed" "$corpus/$target.tar.gz."
  fi
  sum=$(sha256sum <"$packed" | cut -d' ' -f1)
  rm -f "$packed"
  { [ -f "$index" ] && awk -v t="$target" '$1 != t' "$index"; echo "$target $inputs $sum"; } | LC_ALL=C sort >"$index.new"
  mv "$index.new" "$index"
  echo "fuzz/corpus.sh: $target: $inputs inputs packed"
}

case "${1:-}" in
  unpack) [ $# -eq 3 ] || fail "usage: fuzz/corpus.sh unpack TARGET DIR"; unpack "$2" "$3" ;;
  pack) [ $# -eq 3 ] || fail "usage: fuzz/corpus.sh pack DIR TARGET"; pack "$2" "$3" ;;
  -h | --help) sed -n '2,11p' "$0" ;;
  *) fail "unknown command '${1:-}' (unpack TARGET DIR, pack DIR TARGET)" ;;
esac
