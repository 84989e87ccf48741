// Bad IR, bad signatures and bad options give a specific result and a clear
// message; LLVM never ends the process.
#include <string>

#include "codegen_test_support.hpp"

namespace tcpu::test {
namespace {

class CodegenErrors : public CodegenTest {
protected:
  tcpuResult loadText(const std::string& ir, const JitOptions& options = {}) {
    tcpuModule module = nullptr;
    const tcpuResult result = tcpuModuleLoadDataEx(&module, ir.data(), ir.size(), options.count(),
                                                   const_cast<tcpuJitOption*>(options.keys.data()),
                                                   const_cast<void**>(options.values.data()));
    if (result == TCPU_SUCCESS) modules_.push_back(module);
    return result;
  }
  tcpuResult loadFile(const std::string& name, const JitOptions& options) {
    tcpuModule module = nullptr;
    const tcpuResult result = tcpuModuleLoadEx(&module, irPath(name).c_str(), options.count(),
                                               const_cast<tcpuJitOption*>(options.keys.data()),
                                               const_cast<void**>(options.values.data()));
    if (result == TCPU_SUCCESS) modules_.push_back(module);
    return result;
  }
};

const char* const kEmptyKernelPrefix =
    "define void @k(i32 %x, i32 %y, i32 %z, i32 %a, i32 %b, i32 %c) {\n";

TEST_F(CodegenErrors, MalformedIrReportsLineAndColumn) {
  EXPECT_TCPU_ERROR(loadText("define void @k(i32 %x) {\n  ret i32 %x %\n}\n"),
                    TCPU_ERROR_INVALID_SOURCE, "<memory image>:2:");
  EXPECT_TCPU_ERROR(loadText("define void @k(\n"), TCPU_ERROR_INVALID_SOURCE, "<memory image>:");
}

TEST_F(CodegenErrors, VerifierFailure) {
  // %a is used before it is defined in the same block.
  EXPECT_TCPU_ERROR(loadText(std::string(kEmptyKernelPrefix) +
                             "  %b2 = add i32 %a2, 1\n  %a2 = add i32 %x, 1\n  ret void\n}\n"),
                    TCPU_ERROR_INVALID_SOURCE, "fails LLVM's verifier");
}

TEST_F(CodegenErrors, NoKernelWithTheAbi) {
  EXPECT_TCPU_ERROR(loadText("define i32 @f(i32 %a) {\n  ret i32 %a\n}\n"), TCPU_ERROR_NOT_FOUND,
                    "no kernel with the grid ABI");
  // Six i32 parameters but internal: not a kernel either.
  EXPECT_TCPU_ERROR(
      loadText("define internal void @k(i32 %x, i32 %y, i32 %z, i32 %a, i32 %b, i32 %c) {\n"
               "  ret void\n}\n"),
      TCPU_ERROR_NOT_FOUND, "no kernel with the grid ABI");
}

TEST_F(CodegenErrors, SignatureThatDoesNotMatchTheFunction) {
  EXPECT_TCPU_ERROR(
      loadFile("vector_add.ll", JitOptions().set(TCPU_JIT_SIGNATURE, "*fp32, *fp32, i32")),
      TCPU_ERROR_INVALID_VALUE,
      "signature has 3 entries (3 of them run-time arguments) but kernel 'add_kernel' takes 4 "
      "parameters");
  // A kernel may take only the run-time arguments (the Python front end compiles constexprs
  // in): 5 entries, 4 of them passed at launch, fit its 4 parameters; 6 with 5 do not.
  EXPECT_EQ(loadFile("vector_add.ll",
                     JitOptions().set(TCPU_JIT_SIGNATURE, "*fp32, *fp32, *fp32, i32, 1024")),
            TCPU_SUCCESS)
      << tcpuGetLastErrorDetail();
  EXPECT_TCPU_ERROR(
      loadFile("vector_add.ll", JitOptions().set(TCPU_JIT_SIGNATURE, "*fp32, *fp32, *fp32, i32, "
                                                                     "i32, 1024")),
      TCPU_ERROR_INVALID_VALUE,
      "signature has 6 entries (5 of them run-time arguments) but kernel 'add_kernel' takes 4");
  EXPECT_TCPU_ERROR(
      loadFile("vector_add.ll", JitOptions().set(TCPU_JIT_SIGNATURE, "*fp32, *fp32, *fp32, fp32")),
      TCPU_ERROR_INVALID_VALUE,
      "signature column 22: entry 3 'fp32' (kernel parameter of type i32)");
  EXPECT_TCPU_ERROR(
      loadFile("vector_add.ll", JitOptions().set(TCPU_JIT_SIGNATURE, "*fp32, *fp32, *fp32, *fp32")),
      TCPU_ERROR_INVALID_VALUE,
      "entry 3 '*fp32' (kernel parameter of type i32): a pointer entry needs a ptr");
  EXPECT_TCPU_ERROR(
      loadFile("vector_add.ll", JitOptions().set(TCPU_JIT_SIGNATURE, "*fp32, i32, *fp32, i32")),
      TCPU_ERROR_INVALID_VALUE,
      "signature column 8: entry 1 'i32' (kernel parameter of type ptr): i32 cannot be passed as "
      "ptr");
  EXPECT_TCPU_ERROR(
      loadFile("vector_add.ll", JitOptions().set(TCPU_JIT_SIGNATURE, "*fp32, *fp32, *fp32, i3")),
      TCPU_ERROR_INVALID_VALUE, "signature column 22");
  EXPECT_TCPU_ERROR(
      loadFile("vector_add.ll", JitOptions()
                                    .set(TCPU_JIT_KERNEL_NAME, "nope")
                                    .set(TCPU_JIT_SIGNATURE, "*fp32, *fp32, *fp32, i32")),
      TCPU_ERROR_NOT_FOUND, "the module has no kernel named 'nope' (kernels: add_kernel)");
}

TEST_F(CodegenErrors, UnresolvedExternalSymbol) {
  EXPECT_TCPU_ERROR(loadText("declare void @tcpu_test_no_such_function()\n" +
                             std::string(kEmptyKernelPrefix) +
                             "  call void @tcpu_test_no_such_function()\n  ret void\n}\n"),
                    TCPU_ERROR_NOT_FOUND, "unresolved external symbol(s)");
  EXPECT_NE(std::string(tcpuGetLastErrorDetail()).find("tcpu_test_no_such_function"),
            std::string::npos)
      << tcpuGetLastErrorDetail();
}

TEST_F(CodegenErrors, UnsupportedTarget) {
  EXPECT_TCPU_ERROR(loadFile("vector_add.ll", JitOptions().set(TCPU_JIT_TARGET_CPU, "not-a-cpu")),
                    TCPU_ERROR_NOT_SUPPORTED, "target CPU 'not-a-cpu' is not a CPU LLVM knows");
}

// TCPU_TARGET_CPU chooses the CPU of every load without TCPU_JIT_TARGET_CPU; a name LLVM does
// not know, or a CPU whose instruction sets this one lacks, is refused (its kernels would stop
// on an illegal instruction), naming what is missing.
TEST_F(CodegenErrors, TargetCpuFromTheEnvironment) {
#if defined(__x86_64__)
  struct Restore {
    ~Restore() { unsetenv("TCPU_TARGET_CPU"); }
  } restore;
  setenv("TCPU_TARGET_CPU", "not-a-cpu", 1);
  EXPECT_TCPU_ERROR(loadFile("vector_add.ll", {}), TCPU_ERROR_NOT_SUPPORTED,
                    "(it came from TCPU_JIT_TARGET_CPU or TCPU_TARGET_CPU)");
  setenv("TCPU_TARGET_CPU", "x86-64", 1); // every x86-64 CPU runs baseline code
  EXPECT_TCPU(loadFile("vector_add.ll", {}));
  // A CPU with AMX: the Xeons that have it are the only ones that run its code.
  setenv("TCPU_TARGET_CPU", "sapphirerapids", 1);
  const tcpuResult result = loadFile("vector_add.ll", {});
  if (result == TCPU_SUCCESS) GTEST_SKIP() << "this CPU runs Sapphire Rapids code";
  EXPECT_EQ(result, TCPU_ERROR_NOT_SUPPORTED);
  const std::string detail = tcpuGetLastErrorDetail();
  EXPECT_NE(detail.find("needs"), std::string::npos) << detail;
  EXPECT_NE(detail.find("amx-tile"), std::string::npos) << detail;
  EXPECT_NE(detail.find("which this CPU"), std::string::npos) << detail;
  // An explicit option wins over the environment (and may ask for code to read, not run).
  EXPECT_EQ(loadFile("vector_add.ll", JitOptions().set(TCPU_JIT_TARGET_CPU, "x86-64-v2")),
            TCPU_SUCCESS);
#else
  GTEST_SKIP() << "x86-64 CPU names only";
#endif
}

TEST_F(CodegenErrors, BadOptions) {
  EXPECT_TCPU_ERROR(loadFile("vector_add.ll", JitOptions().set(TCPU_JIT_MATH_ULP, uintptr_t{7})),
                    TCPU_ERROR_INVALID_VALUE, "TCPU_JIT_MATH_ULP=7");
  EXPECT_TCPU_ERROR(loadFile("vector_add.ll", JitOptions().set(TCPU_JIT_FAST_MATH, uintptr_t{2})),
                    TCPU_ERROR_INVALID_VALUE, "TCPU_JIT_FAST_MATH=2 must be 0 or 1");
  EXPECT_TCPU_ERROR(
      loadFile("vector_add.ll", JitOptions().set(static_cast<tcpuJitOption>(99), uintptr_t{1})),
      TCPU_ERROR_INVALID_VALUE, "options[0]=99 is not a tcpuJitOption");
}

TEST_F(CodegenErrors, StaticConstructorsAreRefused) {
  EXPECT_TCPU_ERROR(loadFile("static_ctor.ll", {}), TCPU_ERROR_NOT_SUPPORTED,
                    "static constructors or destructors (llvm.global_ctors)");
}

TEST_F(CodegenErrors, BackendErrorsAreReportedNotFatal) {
  // Inline assembly the assembler rejects: LLVM would print and exit without a handler.
  EXPECT_TCPU_ERROR(loadText(std::string(kEmptyKernelPrefix) +
                             "  call void asm sideeffect \"not_an_instruction %eax\", \"\"()\n"
                             "  ret void\n}\n"),
                    TCPU_ERROR_INVALID_SOURCE, "not_an_instruction");
}

TEST_F(CodegenErrors, TextIsNotSupportedForSharedObjects) {
  // A memory image that is neither IR nor a shared object still fails cleanly with codegen linked.
  EXPECT_TCPU_ERROR(loadText("this is not IR"), TCPU_ERROR_INVALID_IMAGE, "llvm-ir");
}

} // namespace
} // namespace tcpu::test
