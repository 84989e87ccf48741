// Kernel signature strings as Triton's AOT compiler takes them (tools/compile.py --signature),
// e.g. "*fp32:16, *fp32:16, *fp32:16, i32, 1024". Parsed up front into typed entries so that
// prototypes, specializations and Triton-compatible names are built from one checked source,
// and so that a bad signature is reported at the column where it goes wrong instead of as a
// failure deep inside code generation.
#ifndef TCPU_CODEGEN_SIGNATURE_HPP
#define TCPU_CODEGEN_SIGNATURE_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tcpu/kernel_abi.h"
#include "tcpu/status.hpp"

namespace tcpu::codegen {

// One comma-separated entry: one kernel argument.
struct SignatureEntry {
  enum class Kind { Pointer, Scalar, Constexpr };
  Kind kind = Kind::Scalar;
  // Pointer: element type; Scalar: value type; Constexpr: TCPU_TYPE_I64 for integers,
  // TCPU_TYPE_FP64 for floats, TCPU_TYPE_I1 for True/False.
  tcpuDataType type = TCPU_TYPE_UNKNOWN;
  bool isConst = false; // "*k<type>": a const pointer
  int hint = 0;         // 0 = none, 16 = ":16" (16-byte aligned / divisible by 16), 1 = ":1" (== 1)
  int64_t intValue = 0; // Constexpr integers (and True = 1, False = 0)
  double floatValue = 0; // Constexpr floats
  std::string text;      // the entry as written, surrounding blanks trimmed (Triton's sig_hash)
  size_t column = 0;     // 1-based column of the entry's first non-blank character

  // Whether a launch passes this argument: not a constexpr, not an integer equal to 1 (both
  // are compiled into the specialization).
  bool passedAtLaunch() const {
    return kind != Kind::Constexpr && !(kind == Kind::Scalar && hint == 1);
  }
};

struct Signature {
  std::vector<SignatureEntry> entries;
  // Triton's specialization suffix, as compile.py builds it: for every entry index i, "{i}",
  // then "c" for ":1" or "d" for ":16". "*fp32:16, i32:1, i32:16" -> "0d1c2d";
  // "*fp32:16, *fp32:16, *fp32:16, i32, 1024" -> "0d1d2d34".
  std::string suffix() const;
};

// Parses a signature. Entries are separated by ','; blanks (space, tab) are allowed around
// entries and around ':'. An entry is a constexpr number (decimal integer with optional sign,
// 0x hex, a float such as 1.5, 1e-3, -2.0e+5; or True / False) or `type[:hint]` with type one of
// i1 i8 i16 i32 i64 u8 u16 u32 u64 fp16 bf16 fp32 fp64, *<type> or *k<type> (const pointer),
// and hint 16 or 1. On error returns TCPU_ERROR_INVALID_VALUE with a message
// "signature column N: <what is wrong> in '<entry>'", N the 1-based column of the offending
// character (one past the end when something is missing at the end).
tcpu::Expected<Signature> parseSignature(std::string_view text);

// The Triton name of a scalar or element type ("fp32", "u8"), or "unknown".
std::string_view typeName(tcpuDataType type);

// The entry's type as Triton writes it, for messages: "fp32", "i64", "*fp16", "*kbf16";
// constexprs as "constexpr <value>".
std::string describe(const SignatureEntry& entry);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_SIGNATURE_HPP
