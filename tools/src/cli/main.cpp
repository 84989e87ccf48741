// The tcpu command-line tool.
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> arguments(argv + 1, argv + argc);
  return tcpu::cli::runCli(arguments, {std::cout, std::cerr});
}
