// What the key of a C++ source's cache entry covers (source_cache_key.hpp): the content of
// tcpu's header trees, and every option and target detail that changes the object.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "temp_dir.hpp"
#include "clang/kernel_headers.hpp"
#include "clang/precompiled_header.hpp"
#include "clang/source_cache_key.hpp"

namespace tcpu::codegen {
namespace {

void writeFile(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

TEST(HeaderTreeDigest, FollowsTheContentOfTcpusSubtreeOnly) {
  test::TempDir root;
  const std::filesystem::path tcpu = root.path() / "tcpu";
  writeFile(tcpu / "tl.h", "#include \"tcpu/tl/core.h\"\n");
  writeFile(tcpu / "tl" / "core.h", "int core;\n");
  writeFile(root.path() / "other.h", "int other;\n");
  const std::vector<std::string> directories = {root.path().string()};
  const std::string original = headerTreeDigest(directories);
  EXPECT_EQ(original.size(), 64u);

  writeFile(tcpu / "tl" / "core.h", "int core2;\n");
  EXPECT_NE(headerTreeDigest(directories), original) << "an edited header";
  writeFile(tcpu / "tl" / "core.h", "int core;\n");
  EXPECT_EQ(headerTreeDigest(directories), original) << "the same content again";
  writeFile(tcpu / "tl" / "scan.h", "");
  EXPECT_NE(headerTreeDigest(directories), original) << "a new header";
  std::filesystem::remove(tcpu / "tl" / "scan.h");
  EXPECT_EQ(headerTreeDigest(directories), original);
  std::filesystem::rename(tcpu / "tl" / "core.h", tcpu / "tl" / "kore.h");
  EXPECT_NE(headerTreeDigest(directories), original) << "a renamed header";
  std::filesystem::rename(tcpu / "tl" / "kore.h", tcpu / "tl" / "core.h");
  writeFile(root.path() / "other.h", "int changed;\n");
  EXPECT_EQ(headerTreeDigest(directories), original) << "outside tcpu/: not tcpu's";
}

TEST(KernelHeaders, TheKernelHeadersAreTheOnesTlIsIncludedFrom) {
  bool found = false;
  for (const std::string& directory : kernelIncludeDirectories()) {
    const std::filesystem::path tl = std::filesystem::path(directory) / "tcpu" / "tl.h";
    if (!std::filesystem::exists(tl)) continue;
    found = true;
    EXPECT_TRUE(isKernelHeader(tl));
    EXPECT_TRUE(isKernelHeader(std::filesystem::path(directory) / "tcpu" / "tl" / ".." / "tl.h"));
  }
  EXPECT_TRUE(found);
  EXPECT_FALSE(isKernelHeader("/usr/include/stdint.h"));
  EXPECT_EQ(kernelHeaderDigest(), headerTreeDigest(kernelIncludeDirectories()));
}

TEST(PrecompiledTl, UsedOnlyWhereTheSourceBeginsWithTl) {
  EXPECT_TRUE(startsWithTlInclude("#include \"tcpu/tl.h\"\nint x;"));
  EXPECT_TRUE(startsWithTlInclude("// a kernel\n/* of\n tl */\n  #  include <tcpu/tl.h>\n"));
  EXPECT_TRUE(startsWithTlInclude("#include \"tcpu/tl.h\""));
  EXPECT_FALSE(startsWithTlInclude("#define X 1\n#include \"tcpu/tl.h\"\n"));
  EXPECT_FALSE(startsWithTlInclude("#include <cstdint>\n#include \"tcpu/tl.h\"\n"));
  EXPECT_FALSE(startsWithTlInclude("#include \"tcpu/tl.hpp\"\n"));
  EXPECT_FALSE(startsWithTlInclude("#include \"tcpu/tl/core.h\"\n"));
  EXPECT_FALSE(startsWithTlInclude("/* unterminated #include \"tcpu/tl.h\""));
  EXPECT_FALSE(startsWithTlInclude(""));
}

TEST(SourceCacheKey, EveryOptionAndTargetDetailIsInIt) {
  const std::string source = "// k\nextern \"C\" void k(unsigned, unsigned, unsigned, unsigned, "
                             "unsigned, unsigned) {}\n";
  const std::string name = "/<tcpu>/kernel.cpp";
  const TargetDescription host{"x86_64-pc-linux-gnu", "znver4", "+avx2,+fma"};
  const auto key = [&](const std::string& text, const std::string& file,
                       const CompileOptions& options, const TargetDescription& target) {
    Expected<std::string> made = sourceCacheKey(text, file, options, target);
    EXPECT_TRUE(made.ok()) << made.status().message();
    return made ? *made : std::string();
  };
  const std::string base = key(source, name, {}, host);
  EXPECT_EQ(key(source, name, {}, host), base) << "not deterministic";

  // One change each. (Strings are appended: g++ 12 warns falsely (-Wrestrict) on assigning
  // literals here.)
  std::vector<CompileOptions> variants(7);
  variants[0].fpContract = false;
  variants[1].fastMath = true;
  variants[2].mathUlp = 35;
  variants[3].checkBounds = true;
  variants[4].signature.append("*fp32");
  variants[5].kernelName.append("k");
  variants[6].targetCpu.append("x86-64-v3");
  std::set<std::string> keys = {base};
  for (const CompileOptions& options : variants)
    EXPECT_TRUE(keys.insert(key(source, name, options, host)).second) << options.fingerprint();
  EXPECT_TRUE(keys.insert(key(source, name, {}, {host.triple, "skylake", host.features})).second);
  EXPECT_TRUE(keys.insert(key(source, name, {}, {host.triple, host.cpu, "+avx2"})).second);
  EXPECT_TRUE(keys.insert(key(source + " ", name, {}, host)).second) << "the source";
  EXPECT_TRUE(keys.insert(key(source, "/elsewhere/kernel.cpp", {}, host)).second) << "the place";
}

} // namespace
} // namespace tcpu::codegen
