# Sourced by the namespace-cluster benchmarks (bench/fig16.sh, bench/drift.sh): their
# shared command line, checks and release build. A script sets its defaults (repeats,
# min_mb, max_mb, seed, backbone_mbit, bin, out), may define extra_option NAME VALUE
# (true when it took the option), then calls netns_bench_setup SCRIPT "$@".

# Parses the options every such benchmark takes, checks them and that it runs as root,
# and builds build/release when no --bin was given.
netns_bench_setup() {
  local script=$1
  shift
  while [ $# -gt 0 ]; do
    local value=${2-}
    case "$1" in
      --repeats) repeats=$value ;;
      --min-mb) min_mb=$value ;;
      --max-mb) max_mb=$value ;;
      --seed) seed=$value ;;
      --backbone-mbit) backbone_mbit=$value ;;
      --bin) bin=$value ;;
      --out) out=$value ;;
      *)
        if ! { declare -F extra_option > /dev/null && extra_option "$1" "$value"; }; then
          echo "$script: unknown argument '$1' (see the comment at the top)" >&2
          exit 2
        fi
        ;;
    esac
    [ $# -ge 2 ] || { echo "$script: $1 needs a value" >&2; exit 2; }
    shift 2
  done
  [ "$(id -u)" -eq 0 ] || { echo "$script: needs root (network namespaces and tc)" >&2; exit 1; }
  [[ "$repeats" =~ ^[1-9][0-9]*$ ]] || { echo "$script: --repeats must be a positive integer" >&2; exit 2; }
  [[ "$backbone_mbit" =~ ^[1-9][0-9]*$ ]] || { echo "$script: --backbone-mbit must be a positive integer" >&2; exit 2; }
  if [ -z "$bin" ]; then
    bin=build/release
    cmake -S . -B "$bin" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBATON_BUILD_TESTS=OFF -DBATON_BUILD_BENCH=OFF >/dev/null
    cmake --build "$bin" -j "$(nproc)" --target batonctl baton-coordinator baton-agent
  fi
}

# Bytes per second as Mbit/s, for netns-cluster.sh's rates.
mbit() { awk -v b="$1" 'BEGIN { printf "%.6f", b * 8 / 1e6 }'; }
