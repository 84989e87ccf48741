// What the benchmarks share: the initialized runtime and the loaded kernels.
#ifndef TCPU_BENCH_BENCH_SUPPORT_HPP
#define TCPU_BENCH_BENCH_SUPPORT_HPP

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bf16_bits.hpp"
#include "tcpu/tcpu.h"

namespace tcpu::bench {

// A function of the benchmark kernel module (loaded once per process).
tcpuFunction benchFunction(const char* name);

// A function of the kernels compiled to bitcode at `path`, loaded through codegen (once per
// process); nullptr when it does not load.
tcpuFunction bitcodeFunction(const std::string& path, const char* name);

// A function of the reference kernel <file> (kernels/tutorials, built as
// bitcode); nullptr when it does not load.
tcpuFunction tutorialFunction(const char* file, const char* name);

// count inputs (i % 97) * scale - 1: the same data for a kernel and its baseline.
std::vector<float> filled(size_t count, float scale);

// The bf16 bits of each value (bf16Bits): bf16 inputs for a kernel and its baseline.
std::vector<uint16_t> toBf16(const std::vector<float>& values);

// Stops the benchmark with the runtime's detail message when a call fails.
bool succeeded(benchmark::State& state, tcpuResult result);

} // namespace tcpu::bench

#endif // TCPU_BENCH_BENCH_SUPPORT_HPP
