# tcpu_add_kernel_module(<name> SOURCES <file>...)
# Builds C++ kernels (written with tcpu/kernel.hpp) into a shared object that
# tcpuModuleLoad opens. The module needs no library at run time: only the
# header-only kernel ABI.
function(tcpu_add_kernel_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  add_library(${name} MODULE ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE tcpu::kernel_abi)
  set_target_properties(${name} PROPERTIES PREFIX "" CXX_VISIBILITY_PRESET hidden)
  tcpu_set_warnings(${name})
endfunction()
