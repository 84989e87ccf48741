# Cross-compiling for 64-bit Arm Linux with the host's clang-19 and lld, against a sysroot of
# Debian's arm64 packages (scripts/platforms/arm64-sysroot.sh makes one). Tests run under
# qemu-aarch64.
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
#         -DTCPU_SYSROOT=<build>/sysroot ...          (scripts/platforms/run-arm64-tests.sh does this)
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(tcpu_triple aarch64-linux-gnu)

if(NOT TCPU_SYSROOT)
  message(FATAL_ERROR "aarch64-linux-gnu toolchain: set TCPU_SYSROOT to an arm64 sysroot "
                      "(scripts/platforms/arm64-sysroot.sh BUILD_DIR prints one)")
endif()
# try_compile projects see the cache, not this file's variables: pass the sysroot on.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TCPU_SYSROOT)

find_program(CMAKE_C_COMPILER NAMES clang-19 clang REQUIRED)
find_program(CMAKE_CXX_COMPILER NAMES clang++-19 clang++ REQUIRED)
set(CMAKE_C_COMPILER_TARGET ${tcpu_triple})
set(CMAKE_CXX_COMPILER_TARGET ${tcpu_triple})
set(CMAKE_SYSROOT ${TCPU_SYSROOT})
# The host's linker is x86-64's only; lld links every target.
set(CMAKE_EXE_LINKER_FLAGS_INIT -fuse-ld=lld)
set(CMAKE_SHARED_LINKER_FLAGS_INIT -fuse-ld=lld)
set(CMAKE_MODULE_LINKER_FLAGS_INIT -fuse-ld=lld)
# Debian puts libomp.so (what clang's -fopenmp links) beside LLVM, off the linker's path.
set(CMAKE_LIBRARY_PATH ${TCPU_SYSROOT}/usr/lib/llvm-19/lib)
foreach(kind EXE SHARED MODULE)
  string(APPEND CMAKE_${kind}_LINKER_FLAGS_INIT " -L${TCPU_SYSROOT}/usr/lib/llvm-19/lib")
endforeach()

# Libraries and headers from the sysroot only; programs (qemu, the host's tcpu) from the host.
set(CMAKE_FIND_ROOT_PATH ${TCPU_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest and gtest_discover_tests run the test programs through this.
find_program(TCPU_QEMU_AARCH64 qemu-aarch64)
if(TCPU_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${TCPU_QEMU_AARCH64} -L ${TCPU_SYSROOT})
endif()
