#include "xcheck/xcheck_cases.hpp"

#include <algorithm>
#include <set>

#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "formats/input_files.hpp"

namespace tcpu::cli {
namespace {

bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

// Splits one line at blanks, honouring "..." and '...'.
Expected<std::vector<std::string>> splitWords(std::string_view line, const std::string& where) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < line.size()) {
    if (isBlank(line[i])) {
      ++i;
      continue;
    }
    std::string word;
    while (i < line.size() && !isBlank(line[i])) {
      if (line[i] == '"' || line[i] == '\'') {
        const char quote = line[i];
        const std::size_t close = line.find(quote, i + 1);
        if (close == std::string_view::npos)
          return Status(TCPU_ERROR_INVALID_VALUE,
                        concat(where, ": unterminated ", quote, " quote"));
        word.append(line.substr(i + 1, close - i - 1));
        i = close + 1;
      } else {
        word.push_back(line[i++]);
      }
    }
    words.push_back(std::move(word));
  }
  return words;
}

bool isCaseName(const std::string& name) {
  return !name.empty() && name != "." && name != ".." &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '-' || c == '.';
         });
}

} // namespace

Expected<std::vector<XcheckCase>> parseXcheckCases(std::string_view text, const std::string& path) {
  std::vector<XcheckCase> cases;
  std::set<std::string> names;
  std::size_t lineNumber = 0;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++lineNumber;
    const std::string where = concat(path, ":", lineNumber);
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#') continue;
    Expected<std::vector<std::string>> words = splitWords(line, where);
    if (!words) return words.status();
    if (first > 0) { // a continuation
      if (cases.empty())
        return Status(TCPU_ERROR_INVALID_VALUE,
                      concat(where, ": an indented line continues a case, but no case started"));
      for (std::string& word : *words)
        cases.back().runArguments.push_back(std::move(word));
      continue;
    }
    if (words->size() < 2)
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat(where, ": a case starts with its name and its module"));
    XcheckCase xcheckCase{(*words)[0], (*words)[1], {}, lineNumber};
    if (!isCaseName(xcheckCase.name))
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat(where, ": case name '", xcheckCase.name,
                           "' must be letters, digits, '_', '-' and '.' (it names a directory)"));
    if (xcheckCase.module.empty())
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat(where, ": case '", xcheckCase.name, "' has an empty module"));
    if (!names.insert(xcheckCase.name).second)
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat(where, ": case '", xcheckCase.name, "' is defined twice"));
    xcheckCase.runArguments.assign(words->begin() + 2, words->end());
    cases.push_back(std::move(xcheckCase));
  }
  if (cases.empty()) return Status(TCPU_ERROR_INVALID_VALUE, concat(path, ": no cases"));
  return cases;
}

Expected<std::vector<XcheckCase>> readXcheckCases(const std::string& path) {
  Expected<std::string> text = readInputFile(path);
  if (!text) return text.status();
  return parseXcheckCases(*text, path);
}

Expected<std::vector<XcheckCase>> selectXcheckCases(std::vector<XcheckCase> cases,
                                                    const std::vector<std::string>& only) {
  if (only.empty()) return cases;
  for (const std::string& name : only)
    if (std::none_of(cases.begin(), cases.end(),
                     [&](const XcheckCase& c) { return c.name == name; })) {
      std::string known;
      for (const XcheckCase& c : cases)
        known += (known.empty() ? "" : ", ") + c.name;
      return Status(TCPU_ERROR_NOT_FOUND,
                    concat("--case ", name, ": no such case (the cases: ", known, ")"));
    }
  std::erase_if(cases, [&](const XcheckCase& c) {
    return std::find(only.begin(), only.end(), c.name) == only.end();
  });
  return cases;
}

Expected<std::vector<XcheckCase>> readSelectedXcheckCases(const std::string& path,
                                                          const std::vector<std::string>& only) {
  Expected<std::vector<XcheckCase>> cases = readXcheckCases(path);
  if (!cases) return cases.status();
  return selectXcheckCases(cases.take(), only);
}

int exitCodeForCasesFailure(const Status& status) {
  // The file could not be read (missing, not a regular file, too large, unreadable): an input
  // error; anything else is a malformed cases file, which is the command line's.
  const bool unreadable =
      status.code() == TCPU_ERROR_FILE_NOT_FOUND || status.code() == TCPU_ERROR_OPERATING_SYSTEM;
  return unreadable ? kExitInputOutput : kExitUsage;
}

std::optional<std::string> caseOption(const XcheckCase& xcheckCase, std::string_view name,
                                      char shortName) {
  const std::vector<std::string>& arguments = xcheckCase.runArguments;
  const std::string longForm = concat("--", name);
  const std::string shortForm = shortName ? std::string{'-', shortName} : std::string();
  std::optional<std::string> value;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if ((argument == longForm || (!shortForm.empty() && argument == shortForm)) &&
        i + 1 < arguments.size())
      value = arguments[++i];
    else if (argument.starts_with(longForm + "="))
      value = argument.substr(longForm.size() + 1);
  }
  return value;
}

std::vector<std::string> withoutOption(const std::vector<std::string>& arguments,
                                       std::string_view name) {
  const std::string longForm = concat("--", name);
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i] == longForm) {
      ++i; // and its value
      continue;
    }
    if (arguments[i].starts_with(longForm + "=")) continue;
    kept.push_back(arguments[i]);
  }
  return kept;
}

} // namespace tcpu::cli
