#include "coordinator/json/input.h"

#include "cli/closest_word.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <unordered_set>
#include <utility>
#include <vector>

namespace baton::json {
namespace {

std::string type_name(const Json& value) { return std::string(value.type_name()); }

std::string format_number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// The deepest nesting accepted. Every document Baton reads is at most a few levels deep;
// the limit keeps a hostile "[[[[..." from exhausting memory or stack in the parser or in
// the recursive destructor of the tree (docs/runtime.md, "Limits").
constexpr std::size_t kMaxDepth = 64;

// Refuses nesting deeper than kMaxDepth before any parsing: one linear pass over the bytes
// that skips strings (and the escapes in them), so a bracket inside a string never counts.
// Brackets that do not balance are left to the parser, which names them.
void check_depth(std::string_view text) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped character cannot end the string
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) {
        throw InputError("input: nested deeper than " + std::to_string(kMaxDepth) + " levels at byte " +
                         std::to_string(i + 1));
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

// Text from the input, fit for a one-line error message (and for JSON, which needs UTF-8):
// anything but printable ASCII becomes '?'.
std::string printable(std::string_view text) {
  std::string out(text.substr(0, 80));
  for (char& c : out) {
    if (c < 0x20 || c > 0x7e) c = '?';
  }
  return out;
}

// What nlohmann says is wrong, without its "[json.exception...] parse error at ..." prefix
// and the raw bytes it quotes after "; last read:".
std::string parser_reason(const std::string& what) {
  std::string reason = what;
  if (const auto colon = reason.find(": "); colon != std::string::npos) reason = reason.substr(colon + 2);
  if (const auto last = reason.find("; last read"); last != std::string::npos) reason.resize(last);
  return printable(reason);
}

// Builds the tree from nlohmann's SAX events (its SAX parser keeps its own stack on the
// heap: no recursion), knowing at every moment the path of the value being read, so that
// errors name the field: a number out of range, a member given twice, a syntax error.
class DocumentBuilder {
 public:
  using string_t = Json::string_t;

  explicit DocumentBuilder(std::size_t max_values) : values_left_(max_values), max_values_(max_values) {}

  Json release() { return std::move(root_); }

  bool null() { return put(nullptr); }
  bool boolean(bool value) { return put(value); }
  bool number_integer(Json::number_integer_t value) { return put(value); }
  bool number_unsigned(Json::number_unsigned_t value) { return put(value); }
  bool number_float(Json::number_float_t value, const string_t&) { return put(value); }
  bool string(string_t& value) { return put(std::move(value)); }
  bool binary(Json::binary_t&) { return false; }  // only the binary formats produce it

  bool start_object(std::size_t) {
    open_.push_back({put_container(Json::object()), {}, {}});
    return true;
  }
  bool key(string_t& name) {
    Frame& frame = open_.back();
    // A member given twice would silently keep one of the two values.
    if (!frame.keys.insert(name).second) {
      throw InputError(member_path(path_of(open_.size() - 1), printable(name)) + ": given twice");
    }
    frame.key = std::move(name);
    return true;
  }
  bool end_object() { return close(); }
  bool start_array(std::size_t) {
    open_.push_back({put_container(Json::array()), {}, {}});
    return true;
  }
  bool end_array() { return close(); }

  bool parse_error(std::size_t byte, const std::string& token, const nlohmann::detail::exception& e) {
    const std::string path = path_of(open_.size());
    const std::string where = path.empty() ? "input" : path;
    if (e.id == 406) {  // out_of_range: a number beyond a double, e.g. 1e999999; `byte` is its last
      const std::size_t first = byte >= token.size() ? byte - token.size() + 1 : byte;
      throw InputError(where + ": number " + printable(token) + " is out of range (at byte " + std::to_string(first) +
                       ")");
    }
    throw InputError("input: not valid JSON at byte " + std::to_string(byte) +
                     (where == "input" ? "" : " (in " + where + ")") + ": " + parser_reason(e.what()));
  }

 private:
  struct Frame {
    Json* value;                           // the open object or array
    std::string key;                       // object: the member being read
    std::unordered_set<std::string> keys;  // object: the members read so far
  };

  // The path of the value read next inside the first `frames` open containers ("" for the
  // document itself).
  std::string path_of(std::size_t frames) const {
    std::string path;
    for (std::size_t i = 0; i < frames; ++i) {
      const Frame& f = open_[i];
      if (f.value->is_array()) {
        // An open child is already the array's last element; otherwise the next one is read.
        const std::size_t index = f.value->size() - (i + 1 < open_.size() ? 1 : 0);
        path = element_path(path.empty() ? "input" : path, index);
      } else if (!f.key.empty()) {
        path = member_path(path, printable(f.key));
      }
    }
    return path;
  }

  // Adds `value` where the next value goes; returns it. Objects append without nlohmann's
  // linear search for an existing key (key() already refused duplicates), so a large
  // object costs linear time.
  Json* put_container(Json value) {
    if (values_left_ == 0) {
      const std::string path = path_of(open_.size());
      throw InputError((path.empty() ? std::string("input") : path) + ": the document holds more values than the " +
                       std::to_string(max_values_) + " it may");
    }
    --values_left_;
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Json& parent = *open_.back().value;
    if (parent.is_array()) {
      auto& elements = parent.get_ref<Json::array_t&>();
      elements.push_back(std::move(value));
      return &elements.back();
    }
    auto& members = static_cast<std::vector<std::pair<const std::string, Json>>&>(parent.get_ref<Json::object_t&>());
    members.emplace_back(open_.back().key, std::move(value));  // the key is cleared once the value is whole
    return &members.back().second;
  }
  bool put(Json value) {
    put_container(std::move(value));
    value_done();
    return true;
  }
  bool close() {
    open_.pop_back();
    value_done();
    return true;
  }
  // A value is whole: in an object, no member is being read until key() names the next.
  void value_done() {
    if (!open_.empty()) open_.back().key.clear();
  }

  Json root_;
  std::vector<Frame> open_;  // the containers being read, outermost first
  std::size_t values_left_;
  const std::size_t max_values_;
};

}  // namespace

namespace {

// Reads at most kMaxInputBytes; more is refused rather than held in memory.
std::string read_capped(std::istream& in, const std::string& name) {
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxInputBytes) {
      throw InputError(name + ": larger than " + std::to_string(kMaxInputBytes >> 20) + " MiB");
    }
  }
  if (in.bad()) throw InputError(name + ": cannot read: " + std::strerror(errno));
  return text;
}

}  // namespace

std::string read_input(const std::string& path) {
  if (path == "-") return read_capped(std::cin, "input");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open: " + std::strerror(errno));
  return read_capped(in, path);
}

Json parse_document(std::string_view text, std::size_t max_values) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw InputError("input: empty (expected a JSON object)");
  }
  // nlohmann's lexer takes a NUL byte for the end of the input, so "{}\0junk" would pass.
  // JSON holds no raw NUL anywhere (inside strings it must be escaped).
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    throw InputError("input: NUL byte at byte " + std::to_string(nul + 1) + " (JSON holds none)");
  }
  check_depth(text);
  DocumentBuilder builder(max_values);
  Json::sax_parse(text, &builder, nlohmann::detail::input_format_t::json, /*strict=*/true);
  return builder.release();
}

std::string member_path(std::string_view parent, std::string_view name) {
  if (parent.empty()) return std::string(name);
  return std::string(parent) + "." + std::string(name);
}

std::string element_path(std::string_view parent, std::size_t index) {
  return std::string(parent) + "[" + std::to_string(index) + "]";
}

const Json& require_object(const Json& value, std::string_view path, std::initializer_list<std::string_view> known) {
  const std::string where = path.empty() ? std::string("input") : std::string(path);
  if (!value.is_object()) throw InputError(where + ": must be an object, not " + type_name(value));
  for (const auto& [key, member] : value.items()) {
    bool ok = false;
    for (std::string_view k : known) ok = ok || key == k;
    if (!ok) {
      throw InputError(member_path(path, key) + ": unknown field" +
                       cli::did_you_mean(key, std::vector<std::string>(known.begin(), known.end()), '"'));
    }
  }
  return value;
}

const Json& require_member(const Json& object, std::string_view parent, std::string_view name) {
  auto it = object.find(std::string(name));
  if (it == object.end()) throw InputError(member_path(parent, name) + ": missing");
  return *it;
}

const Json& require_array(const Json& value, std::string_view path, std::size_t min_size, std::size_t max_size) {
  if (!value.is_array()) {
    throw InputError(std::string(path) + ": must be an array, not " + type_name(value));
  }
  if (value.size() < min_size) {
    throw InputError(std::string(path) + ": must hold at least " + std::to_string(min_size) +
                     (min_size == 1 ? " element" : " elements"));
  }
  if (value.size() > max_size) {
    throw InputError(std::string(path) + ": holds " + std::to_string(value.size()) +
                     " elements, more than the limit of " + std::to_string(max_size));
  }
  return value;
}

double require_number(const Json& value, std::string_view path, double min, double max) {
  if (!value.is_number()) {
    throw InputError(std::string(path) + ": must be a number, not " + type_name(value));
  }
  const double v = value.get<double>();
  if (!std::isfinite(v)) throw InputError(std::string(path) + ": must be finite");
  if (v < min) throw InputError(std::string(path) + ": must be >= " + format_number(min));
  if (v > max) throw InputError(std::string(path) + ": must be <= " + format_number(max));
  return v;
}

double require_positive(const Json& value, std::string_view path) {
  const double v = require_number(value, path, 0.0, std::numeric_limits<double>::max());
  if (v <= 0.0) throw InputError(std::string(path) + ": must be > 0");
  return v;
}

std::int64_t require_integer(const Json& value, std::string_view path, std::int64_t min, std::int64_t max) {
  if (value.is_number_integer()) {
    // Unsigned values above INT64_MAX arrive as number_unsigned; compare before converting.
    if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(max)) {
      throw InputError(std::string(path) + ": must be <= " + std::to_string(max));
    }
    const std::int64_t v = value.get<std::int64_t>();
    if (v < min) throw InputError(std::string(path) + ": must be >= " + std::to_string(min));
    if (v > max) throw InputError(std::string(path) + ": must be <= " + std::to_string(max));
    return v;
  }
  const double v = require_number(value, path, -std::numeric_limits<double>::max(), std::numeric_limits<double>::max());
  // Named as integers (1e23 "must be <= 9223372036854775807"); converted only within
  // [-2^63, 2^63), where the conversion is defined, then compared exactly.
  constexpr double kTwoTo63 = 9223372036854775808.0;
  const std::string too_large = std::string(path) + ": must be <= " + std::to_string(max);
  const std::string too_small = std::string(path) + ": must be >= " + std::to_string(min);
  if (v >= kTwoTo63) throw InputError(too_large);
  if (v < -kTwoTo63) throw InputError(too_small);
  if (std::floor(v) != v) throw InputError(std::string(path) + ": must be a whole number");
  const auto whole = static_cast<std::int64_t>(v);
  if (whole > max) throw InputError(too_large);
  if (whole < min) throw InputError(too_small);
  return whole;
}

}  // namespace baton::json
