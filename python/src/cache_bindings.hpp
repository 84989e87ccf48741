// _tcpu_rt's functions over the front end's files in the compile cache, which codegen's
// tcpu/frontend_cache.hpp owns (where they are, their names, reading, atomic writes); without LLVM.
// _tcpu's cache_store (module.cpp) writes a kernel's files. The interface is in python/README.md.
#ifndef TCPU_PYTHON_CACHE_BINDINGS_HPP
#define TCPU_PYTHON_CACHE_BINDINGS_HPP

#include <pybind11/pybind11.h>

namespace tcpu::python {

void bindFrontEndCache(pybind11::module_& module);

} // namespace tcpu::python

#endif // TCPU_PYTHON_CACHE_BINDINGS_HPP
