// Points in a compile where the fault-injection tests kill the process: a SIGKILL from outside
// cannot be timed to land between two steps that take microseconds (a rename after a write),
// so the process kills itself there when TCPU_TEST_KILL_AT names the point. Unset, as in every
// run but those tests', a point costs one getenv per compile step.
#ifndef TCPU_CODEGEN_SRC_KILL_POINT_HPP
#define TCPU_CODEGEN_SRC_KILL_POINT_HPP

#include <string_view>

namespace tcpu::codegen {

// Ends the process with SIGKILL (no cleanup, no handlers: as `kill -9`) when the environment
// has TCPU_TEST_KILL_AT=<point>. The points: pch (tl.h precompiled into its temporary, not yet
// renamed into the cache), clang (a kernel's C++ compiled to LLVM IR in memory), object (a
// compiled module written to its temporary, not yet renamed), link (ld.lld has written a shared
// object's temporary beside its .o input and .log), seal (a front-end shared object in the
// cache, its sealed .json not yet written).
void killPointForTests(std::string_view point);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_SRC_KILL_POINT_HPP
