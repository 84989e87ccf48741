// The IR loader (codegen/src/pipeline/compile_module.cpp): .ll text or bitcode through
// compileModule, the guarded path every load takes (parse, verify, prepare kernels, O3, emit, all
// under LLVM's crash recovery). Whatever the bytes, the answer is a module or a Status.
//
// Compiles are slow (milliseconds), so inputs are capped at kMaxInput bytes (run with
// -max_len=4096). LLVM failures that crash recovery catches come back as TCPU_ERROR_UNKNOWN
// ("LLVM failed while compiling the module: ..."): allowed (the process survives), and the
// first few are printed so that a fuzzing run shows them.
#include <cstdio>
#include <span>

#include "fuzz_support.hpp"
#include "pipeline/compile_module.hpp"

namespace tcpu::fuzz {
namespace {

constexpr size_t kMaxInput = 4096;

} // namespace

int fuzzIr(const uint8_t* data, size_t size) {
  if (size > kMaxInput) return 0;
  static const codegen::TargetDescription target = [] {
    Expected<codegen::TargetDescription> host = codegen::describeTarget("");
    TCPU_FUZZ_CHECK(host.ok(), host.status().message());
    return host.take();
  }();
  codegen::CompileRequest request;
  request.bytes = std::span<const std::byte>(reinterpret_cast<const std::byte*>(data), size);
  request.name = "<fuzz input>";
  request.target = target;
  Expected<codegen::CompiledModule> compiled = codegen::compileModule(request);
  if (compiled) {
    TCPU_FUZZ_CHECK(!compiled->kernels.empty(), "a module without kernels compiled");
    TCPU_FUZZ_CHECK(!compiled->object.empty(), "a compile without an object");
    return 0;
  }
  const tcpuResult code = compiled.status().code();
  TCPU_FUZZ_CHECK(code == TCPU_ERROR_INVALID_SOURCE || code == TCPU_ERROR_INVALID_VALUE ||
                      code == TCPU_ERROR_NOT_SUPPORTED || code == TCPU_ERROR_NOT_FOUND ||
                      code == TCPU_ERROR_UNKNOWN,
                  concat("code ", static_cast<int>(code), ": ", compiled.status().message()));
  TCPU_FUZZ_CHECK(!compiled.status().message().empty(), "an error without a message");
  static int reported = 0;
  if (code == TCPU_ERROR_UNKNOWN && reported < 5) {
    ++reported;
    std::fprintf(stderr, "fuzz_ir: LLVM failure caught: %s\n", compiled.status().message().c_str());
  }
  return 0;
}

} // namespace tcpu::fuzz

TCPU_FUZZ_ENTRY(fuzzIr)
