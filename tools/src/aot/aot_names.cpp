#include "aot/aot_names.hpp"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>

namespace tcpu::cli {
namespace {

std::string sanitized(const std::string& text) {
  std::string out = text;
  for (char& c : out)
    if (!llvm::isAlnum(c) && c != '_') c = '_';
  return out;
}

} // namespace

std::string cTypeOfValue(tcpuDataType type) {
  switch (type) {
  case TCPU_TYPE_I1:
    return "bool";
  case TCPU_TYPE_I8:
    return "int8_t";
  case TCPU_TYPE_I16:
    return "int16_t";
  case TCPU_TYPE_I32:
    return "int32_t";
  case TCPU_TYPE_I64:
    return "int64_t";
  case TCPU_TYPE_U8:
    return "uint8_t";
  case TCPU_TYPE_U16:
  case TCPU_TYPE_FP16:
  case TCPU_TYPE_BF16:
    return "uint16_t";
  case TCPU_TYPE_U32:
    return "uint32_t";
  case TCPU_TYPE_U64:
    return "uint64_t";
  case TCPU_TYPE_FP32:
    return "float";
  case TCPU_TYPE_FP64:
    return "double";
  default:
    return "void";
  }
}

std::string aotMeta(const AotOptions& options) {
  if (options.numWarps || options.numStages)
    return concat("warps", options.numWarps.value_or(1), "xstages", options.numStages.value_or(3));
  return concat("threads", options.numThreads, "xtarget",
                options.targetCpu.empty() ? "host" : options.targetCpu);
}

AotNames aotNames(const codegen::Signature& signature, const std::string& outName,
                  const std::string& outPath, const AotOptions& options) {
  const std::string meta = aotMeta(options);
  std::string hashed;
  std::string constants;
  for (const codegen::SignatureEntry& entry : signature.entries) {
    hashed += entry.text + " ";
    if (entry.kind == codegen::SignatureEntry::Kind::Constexpr)
      constants += (constants.empty() ? "" : "x") + entry.text;
  }
  hashed += meta;
  llvm::SHA256 sha;
  sha.update(hashed);
  const auto digest = sha.final();
  AotNames names;
  names.hash = llvm::toHex(digest, /*LowerCase=*/true).substr(0, 8);
  names.suffix = signature.suffix();
  names.function = concat(outName, "_", names.hash, "_", names.suffix);
  names.algoInfo = sanitized(concat(constants, "_", meta));
  const std::string stem = concat(outPath, ".", names.hash, "_", names.suffix);
  names.headerPath = stem + ".h";
  names.objectPath = stem + ".o";
  return names;
}

bool isCIdentifier(const std::string& name) {
  if (name.empty() || llvm::isDigit(name[0])) return false;
  for (char c : name)
    if (!llvm::isAlnum(c) && c != '_') return false;
  return true;
}

std::string cTypeOf(const codegen::SignatureEntry& entry) {
  const std::string value = cTypeOfValue(entry.type);
  if (entry.kind != codegen::SignatureEntry::Kind::Pointer) return value;
  return concat(entry.isConst ? "const " : "", value, "*");
}

} // namespace tcpu::cli
