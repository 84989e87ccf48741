# `cmake --install`: headers, libtcpu_runtime, libtcpu_codegen, the tcpu and tcpu-rt tools, the CMake
# package (find_package(tcpu): tcpu::runtime, tcpu::codegen, tcpu::cache_files, tcpu::kernel_abi,
# tcpu::tcpu, tcpu_add_kernels, tcpu_compile_kernel, tcpu_link_kernels) and pkg-config files.
# Included from the top-level CMakeLists.txt once every target exists.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TCPU_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/tcpu)

set_target_properties(tcpu_kernel_abi PROPERTIES EXPORT_NAME kernel_abi)
set_target_properties(tcpu_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(tcpu_codegen PROPERTIES EXPORT_NAME codegen)
# tcpu/cache_directory.hpp and tcpu/frontend_cache.hpp: the cache's files, without LLVM.
set_target_properties(tcpu_cache_files PROPERTIES EXPORT_NAME cache_files)

# Installed binaries find libtcpu_* relative to themselves (a relocatable prefix, no
# LD_LIBRARY_PATH), and the dependencies outside the system directories (LLVM's libomp,
# libLLVM, libclang-cpp) where they were linked from.
if(APPLE)
  set(tcpu_origin @loader_path)
else()
  set(tcpu_origin $ORIGIN)
endif()
file(RELATIVE_PATH tcpu_lib_from_bin /prefix/${CMAKE_INSTALL_BINDIR} /prefix/${CMAKE_INSTALL_LIBDIR})
set_target_properties(tcpu tcpu-rt PROPERTIES INSTALL_RPATH "${tcpu_origin}/${tcpu_lib_from_bin}"
                                      INSTALL_RPATH_USE_LINK_PATH ON)
set_target_properties(tcpu_runtime tcpu_codegen PROPERTIES INSTALL_RPATH "${tcpu_origin}"
                                                           INSTALL_RPATH_USE_LINK_PATH ON)
# A wheel holds no symbolic links: pip would install libtcpu_*.so, .so.0 and .so.0.1.0 as three
# copies. pip's build (pyproject.toml) names the libraries without versions; the package is what
# is versioned there.
option(TCPU_UNVERSIONED_LIBRARIES "libtcpu_runtime.so and libtcpu_codegen.so without versions" OFF)
if(TCPU_UNVERSIONED_LIBRARIES)
  foreach(property VERSION SOVERSION)
    set_property(TARGET tcpu_runtime tcpu_codegen PROPERTY ${property})
  endforeach()
endif()

# One include directory holds the runtime's, codegen's and tl's headers: codegen's
# in-process compiler looks for tcpu/tl.h in <prefix>/include beside its own binary.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/ ${PROJECT_SOURCE_DIR}/codegen/include/
                  ${PROJECT_SOURCE_DIR}/kernels/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS tcpu_kernel_abi tcpu_runtime tcpu_codegen tcpu_cache_files tcpu tcpu-rt
        EXPORT tcpuTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT tcpuTargets NAMESPACE tcpu:: DESTINATION ${TCPU_INSTALL_CMAKEDIR})

# The reference kernels (Triton's tutorials in tl), for projects to build from, as
# examples/aot_vector_add does: TCPU_KERNELS_DIR in the package.
set(TCPU_INSTALL_KERNELSDIR ${CMAKE_INSTALL_DATADIR}/tcpu/kernels)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/kernels/tutorials/ DESTINATION ${TCPU_INSTALL_KERNELSDIR})

# The package config records the clang tcpu was built with: bitcode from tcpu_add_kernels
# must be readable by codegen's LLVM.
get_filename_component(TCPU_CLANG_NAME ${TCPU_CLANG} NAME)
get_filename_component(TCPU_CLANG_DIR ${TCPU_CLANG} DIRECTORY)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/tcpuConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/tcpuConfig.cmake
                              INSTALL_DESTINATION ${TCPU_INSTALL_CMAKEDIR}
                              PATH_VARS CMAKE_INSTALL_INCLUDEDIR TCPU_INSTALL_KERNELSDIR)
# 0.x: minor versions may break the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tcpuConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tcpuConfig.cmake ${PROJECT_BINARY_DIR}/tcpuConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/TcpuKernelFlags.cmake
              ${PROJECT_SOURCE_DIR}/cmake/TcpuAot.cmake ${PROJECT_SOURCE_DIR}/cmake/FindSLEEF.cmake
        DESTINATION ${TCPU_INSTALL_CMAKEDIR})

# pkg-config files locate the prefix from their own directory (${pcfiledir}), since the
# prefix is only known at install time (cmake --install --prefix).
file(RELATIVE_PATH TCPU_PC_PREFIX_FROM_PCFILEDIR /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" TCPU_PC_PREFIX_FROM_PCFILEDIR ${TCPU_PC_PREFIX_FROM_PCFILEDIR})
foreach(tcpu_pc tcpu tcpu-codegen)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${tcpu_pc}.pc.in ${PROJECT_BINARY_DIR}/${tcpu_pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${tcpu_pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
