#include "tests/report/markup_probe.h"

#include "tests/support/run_process.h"
#include "tests/support/tools.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <unistd.h>

namespace baton::test {
namespace {

constexpr const char* kSvgScript = R"(
import json, sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except ET.ParseError as e:
    print(json.dumps({"error": str(e)}))
    sys.exit(0)
ns = "{http://www.w3.org/2000/svg}"
bars = [{"class": r.get("class"), "node": r.get("data-node"), "step": int(r.get("data-step")),
         "x": float(r.get("x")), "y": float(r.get("y")), "width": float(r.get("width"))}
        for r in root.iter(ns + "rect") if r.get("class") in ("planned", "measured")]
texts = ["".join(t.itertext()) for t in root.iter(ns + "text")]
print(json.dumps({"root": root.tag, "bars": bars, "texts": texts}))
)";

constexpr const char* kHtmlScript = R"(
import json, sys
from html.parser import HTMLParser
class Probe(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.classes, self.text, self.links = {}, {}, [], []
    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        for c in (dict(attrs).get("class") or "").split():
            self.classes[c] = self.classes.get(c, 0) + 1
        if tag == "a":
            self.links.append(dict(attrs).get("href"))
    def handle_data(self, data):
        self.text.append(data)
p = Probe()
p.feed(open(sys.argv[1], encoding="utf-8").read())
p.close()
print(json.dumps({"tags": p.tags, "classes": p.classes, "text": "".join(p.text), "links": p.links}))
)";

nlohmann::json run_script(const char* script, const std::string& document, const char* suffix) {
  const std::string python = tool_path("python3");
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("baton-markup-" + std::to_string(::getpid()) + suffix);
  std::ofstream(file, std::ios::binary) << document;
  const ProcessResult r = run_process({python, "-c", script, file.string()});
  std::filesystem::remove(file);
  if (r.exit_code != 0) throw std::runtime_error("python3 failed: " + r.err);
  return nlohmann::json::parse(r.out);
}

}  // namespace

nlohmann::json inspect_svg(const std::string& svg) { return run_script(kSvgScript, svg, ".svg"); }
nlohmann::json inspect_html(const std::string& html) { return run_script(kHtmlScript, html, ".html"); }

}  // namespace baton::test
