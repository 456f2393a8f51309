# Sourced by scripts/netns-cluster.sh and scripts/netns-star.sh: how both build and tear
# down their namespaces. The caller sets prefix and queue_packets and defines die and
# our_namespaces (the namespaces of its prefix that exist now).

# Refuses a prefix that would not make short, valid namespace and device names, and a
# queue that is not a positive number of frames.
check_prefix_and_queue() {
  [[ "$prefix" =~ ^[a-z][a-z0-9]{0,9}$ ]] ||
    die "--prefix must be 1-10 lower-case letters or digits, starting with a letter (got '$prefix')"
  [[ "$queue_packets" =~ ^[1-9][0-9]*$ ]] || die "--queue-packets must be a positive integer (got '$queue_packets')"
}

# tbf on NS/DEV at BYTES/s: a bucket of bucket_ms (default 1) ms of the rate, at least two
# full frames (a real link sends nothing faster than its rate, even after a pause), a queue
# of queue_packets full frames. A late softirq loses tokens past so small a bucket; a 5 ms
# one holds the rate on a busy machine but hides up to 5 ms of a step's start-up
# (docs/fig16.md, "The cluster").
shape_link() {
  local ns=$1 dev=$2 bytes=$3
  local burst=$((bytes * ${bucket_ms:-1} / 1000))
  [ "$burst" -ge 3028 ] || burst=3028
  tc -n "$ns" qdisc replace dev "$dev" root tbf rate "$((bytes * 8))bit" burst "$burst" limit "$((queue_packets * 1514))"
}

# A switch: namespace NS with bridge br0 at ADDRESS/24.
make_switch() {
  local ns=$1 address=$2
  ip netns add "$ns"
  ip -n "$ns" link set lo up
  ip -n "$ns" link add br0 type bridge
  ip -n "$ns" addr add "$address/24" dev br0
  ip -n "$ns" link set br0 up
}

# A node: namespace NS whose eth0 (ADDRESS/24) is a veth pair with port PORT of SWITCH's br0.
attach_node() {
  local ns=$1 switch=$2 port=$3 address=$4
  ip netns add "$ns"
  ip -n "$ns" link set lo up
  ip link add eth0 netns "$ns" type veth peer name "$port" netns "$switch"
  ip -n "$ns" addr add "$address/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$switch" link set "$port" master br0 up
}

# Kills what still runs in our namespaces (TERM, then KILL after 5 s) and deletes them;
# a no-op when there are none.
down() {
  local ns pid
  for ns in $(our_namespaces); do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill "$pid" 2>/dev/null || true; done
  done
  for ns in $(our_namespaces); do
    for _ in $(seq 50); do
      [ -z "$(ip netns pids "$ns" 2>/dev/null)" ] && break
      sleep 0.1
    done
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
    ip netns del "$ns"
  done
}
