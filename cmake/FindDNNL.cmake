# Finds oneDNN (libdnnl) for the benchmarks' baselines: DNNL_FOUND, the target DNNL::dnnl.
# Looks for the header and library directly: Debian's dnnl-config.cmake also
# demands the OpenCL development files, which the CPU baselines do not use.
include(FindPackageHandleStandardArgs)
find_path(DNNL_INCLUDE_DIR oneapi/dnnl/dnnl.hpp HINTS /opt/homebrew/include /usr/local/include)
find_library(DNNL_LIBRARY NAMES dnnl HINTS /opt/homebrew/lib /usr/local/lib)
if(DNNL_INCLUDE_DIR AND EXISTS "${DNNL_INCLUDE_DIR}/oneapi/dnnl/dnnl_version.h")
  file(STRINGS "${DNNL_INCLUDE_DIR}/oneapi/dnnl/dnnl_version.h" _dnnl_lines
       REGEX "#define DNNL_VERSION_(MAJOR|MINOR|PATCH) ")
  foreach(_part MAJOR MINOR PATCH)
    string(REGEX REPLACE ".*DNNL_VERSION_${_part} ([0-9]+).*" "\\1" _dnnl_${_part} "${_dnnl_lines}")
  endforeach()
  set(DNNL_VERSION "${_dnnl_MAJOR}.${_dnnl_MINOR}.${_dnnl_PATCH}")
endif()
find_package_handle_standard_args(DNNL REQUIRED_VARS DNNL_LIBRARY DNNL_INCLUDE_DIR
                                  VERSION_VAR DNNL_VERSION)
if(DNNL_FOUND AND NOT TARGET DNNL::dnnl)
  add_library(DNNL::dnnl UNKNOWN IMPORTED)
  set_target_properties(DNNL::dnnl PROPERTIES IMPORTED_LOCATION "${DNNL_LIBRARY}"
                                              INTERFACE_INCLUDE_DIRECTORIES "${DNNL_INCLUDE_DIR}")
endif()
mark_as_advanced(DNNL_INCLUDE_DIR DNNL_LIBRARY)
