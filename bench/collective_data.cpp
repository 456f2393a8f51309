// Arrays for the collectives' benchmark (bench/collectives.sh), and an independent check
// of what a reduction wrote:
//
//   collective_data generate FILE COUNT DTYPE SEED
//       COUNT elements of DTYPE (f32 f64 i32 i64 u32 u64), pseudo-random from SEED: floats
//       in [0, 1), integers over their whole range.
//   collective_data check RESULT DTYPE OP FILE...
//       folds the FILEs element by element with OP (sum prod min max band bor bxor) and
//       compares with RESULT: integers exactly (sums and products wrap), floats within a
//       relative 1e-4 of the sum of magnitudes (the fold order differs from the plan's).
//       Prints one JSON line; exit 0 when RESULT is right, 1 when not, 2 for bad usage.
//
// The fold here shares no code with the agents' combine kernels.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace {

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "collective_data: %s\nusage: collective_data generate FILE COUNT DTYPE SEED\n"
               "       collective_data check RESULT DTYPE OP FILE...\n",
               why.c_str());
  std::exit(2);
}

std::vector<char> read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) usage("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

template <typename T>
void generate(const std::string& path, std::uint64_t count, unsigned seed) {
  std::mt19937_64 random(seed);
  std::vector<T> values(static_cast<std::size_t>(std::min<std::uint64_t>(count, 1 << 20)));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) usage("cannot write " + path);
  for (std::uint64_t done = 0; done < count;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(values.size(), count - done));
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (std::is_floating_point_v<T>) {
        values[i] = static_cast<T>(std::uniform_real_distribution<double>(0, 1)(random));
      } else {
        values[i] = static_cast<T>(random());
      }
    }
    out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(n * sizeof(T)));
    done += n;
  }
  if (!out) usage("cannot write " + path);
}

template <typename T>
T fold(std::string_view op, T a, T b) {
  if (op == "sum") {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) + b);
    else return a + b;
  }
  if (op == "prod") {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) * b);
    else return a * b;
  }
  if (op == "min") return std::min(a, b);
  if (op == "max") return std::max(a, b);
  if constexpr (std::is_integral_v<T>) {
    if (op == "band") return a & b;
    if (op == "bor") return a | b;
    if (op == "bxor") return a ^ b;
  }
  usage("op " + std::string(op) + " is not defined for this dtype");
}

template <typename T>
int check(const std::string& result_path, std::string_view op, const std::vector<std::string>& inputs) {
  fold<T>(op, T{}, T{});  // refuses an op the dtype does not have, before reading anything
  const std::vector<char> result = read_all(result_path);
  std::vector<std::vector<char>> data;
  for (const std::string& path : inputs) {
    data.push_back(read_all(path));
    if (data.back().size() != data.front().size()) usage(path + " differs in size from " + inputs.front());
  }
  if (result.size() != data.front().size()) {
    std::printf("{\"ok\": false, \"why\": \"%s holds %zu bytes, the inputs %zu\"}\n", result_path.c_str(),
                result.size(), data.front().size());
    return 1;
  }
  const std::size_t count = result.size() / sizeof(T);
  std::size_t wrong = 0, first_wrong = 0;
  for (std::size_t e = 0; e < count; ++e) {
    T expected{}, magnitude{};
    std::memcpy(&expected, data[0].data() + e * sizeof(T), sizeof(T));
    if constexpr (std::is_floating_point_v<T>) magnitude = std::fabs(expected);
    for (std::size_t i = 1; i < data.size(); ++i) {
      T v{};
      std::memcpy(&v, data[i].data() + e * sizeof(T), sizeof(T));
      expected = fold(op, expected, v);
      if constexpr (std::is_floating_point_v<T>) magnitude += std::fabs(v);
    }
    T got{};
    std::memcpy(&got, result.data() + e * sizeof(T), sizeof(T));
    bool right = got == expected;
    if constexpr (std::is_floating_point_v<T>) right = std::fabs(got - expected) <= 1e-4 * std::max<T>(magnitude, 1);
    if (!right && wrong++ == 0) first_wrong = e;
  }
  std::printf("{\"ok\": %s, \"elements\": %zu, \"wrong\": %zu, \"first_wrong\": %zu}\n", wrong == 0 ? "true" : "false",
              count, wrong, first_wrong);
  return wrong == 0 ? 0 : 1;
}

template <template <typename> class F, typename... Args>
int by_dtype(std::string_view dtype, Args&&... args) {
  if (dtype == "f32") return F<float>{}(args...);
  if (dtype == "f64") return F<double>{}(args...);
  if (dtype == "i32") return F<std::int32_t>{}(args...);
  if (dtype == "i64") return F<std::int64_t>{}(args...);
  if (dtype == "u32") return F<std::uint32_t>{}(args...);
  if (dtype == "u64") return F<std::uint64_t>{}(args...);
  usage("dtype must be f32, f64, i32, i64, u32 or u64 (got " + std::string(dtype) + ")");
}

template <typename T>
struct Generate {
  int operator()(const std::string& path, std::uint64_t count, unsigned seed) const {
    generate<T>(path, count, seed);
    return 0;
  }
};

template <typename T>
struct Check {
  int operator()(const std::string& result, std::string_view op, const std::vector<std::string>& inputs) const {
    return check<T>(result, op, inputs);
  }
};

std::uint64_t number(const char* text) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || text[0] == '-') usage(std::string("not a number: ") + text);
  return value;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) usage("a command is required");
  const std::string_view command = argv[1];
  if (command == "generate") {
    if (argc != 6) usage("generate takes FILE COUNT DTYPE SEED");
    return by_dtype<Generate>(argv[4], std::string(argv[2]), number(argv[3]), static_cast<unsigned>(number(argv[5])));
  }
  if (command == "check") {
    if (argc < 6) usage("check takes RESULT DTYPE OP and at least one FILE");
    const std::vector<std::string> inputs(argv + 5, argv + argc);
    return by_dtype<Check>(argv[3], std::string(argv[2]), std::string_view(argv[4]), inputs);
  }
  usage("unknown command " + std::string(command));
}
