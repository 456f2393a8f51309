#include "cli/command_line.h"

#include "cli/closest_word.h"

#include <algorithm>

namespace baton::cli {

namespace {

// The deepest subcommand the user selected ("batonctl plan"), and its full name.
CLI::App* selected(CLI::App& app, std::string& name) {
  CLI::App* at = &app;
  for (;;) {
    const std::vector<CLI::App*> chosen = at->get_subcommands();
    if (chosen.empty()) return at;
    at = chosen.front();
    name += " " + at->get_name();
  }
}

std::vector<std::string> command_list(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

std::string command_names(const CLI::App& app) {
  std::string names;
  for (const std::string& name : command_list(app)) names += (names.empty() ? "" : ", ") + name;
  return names;
}

// The long options `app` takes (with their dashes), its parents' included: CLI11 lets a
// subcommand's command line carry them too.
std::vector<std::string> long_options(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* at = &app; at != nullptr; at = at->get_parent()) {
    for (const CLI::Option* option : at->get_options()) {
      for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    }
  }
  return names;
}

// "'word'" and, when a candidate is near it, " (did you mean 'candidate'?)".
std::string quoted_with_guess(const std::string& word, const std::vector<std::string>& candidates) {
  return "'" + word + "'" + did_you_mean(word, candidates);
}

// CLI11 says "A subcommand is required" also when the word given is not one: name it.
std::string usage_message(CLI::App& app, const std::string& program, const CLI::ParseError& e) {
  std::string name = program;
  CLI::App* at = selected(app, name);
  const std::vector<std::string> left = at->remaining();
  const bool wants_command = at->get_require_subcommand_min() > 0 && at->get_subcommands().empty();
  // An unknown word first: CLI11 reports a missing --config before the typo that caused it.
  if (!left.empty()) {
    const std::string& word = left.front();
    const bool option = word.starts_with('-');
    std::string message = name + ": unknown ";
    if (option) {
      const std::string spelled = word.substr(0, word.find('='));  // --rate=5: the option is --rate
      message +=
          "option " + (spelled.starts_with("--") ? quoted_with_guess(spelled, long_options(*at)) : "'" + word + "'");
    } else if (wants_command) {
      message += "command " + quoted_with_guess(word, command_list(*at));
    } else {
      message += "argument '" + word + "'";
    }
    if (wants_command) message += "; the commands are: " + command_names(*at);
    return message;
  }
  if (wants_command) return name + ": a command is required, one of: " + command_names(*at);
  return name + ": " + e.what();
}

}  // namespace

std::string version() { return BATON_VERSION; }

void add_version_flag(CLI::App& app, const std::string& program) {
  app.set_version_flag("--version", program + " " + version(), "print the program's version and exit");
}

CLI::Validator one_of(std::vector<std::string> names) {
  std::string listed, braced;
  for (const std::string& name : names) {
    listed += (listed.empty() ? "" : ", ") + name;
    braced += (braced.empty() ? "{" : ",") + name;
  }
  return CLI::Validator(
      [names, listed](std::string& value) -> std::string {
        if (std::find(names.begin(), names.end(), value) != names.end()) return "";
        return quoted_with_guess(value, names) + " is not one of " + listed;
      },
      braced + "}", "one of");
}

std::optional<int> parse_command_line(CLI::App& app, const std::string& program, int argc, char** argv,
                                      std::ostream& out, std::ostream& err) {
  try {
    app.parse(argc, argv);
    return std::nullopt;
  } catch (const CLI::Success& e) {  // --help, --help-all, --version
    return app.exit(e, out, err);
  } catch (const CLI::ParseError& e) {
    err << usage_message(app, program, e) << "\nRun with --help for more information.\n";
    return kUsageError;
  }
}

}  // namespace baton::cli
