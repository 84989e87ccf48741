# TCPU_BUNDLE_TOOLCHAIN: installs, below <libdir>/tcpu, what codegen needs at run time from the
# machine's LLVM and compiler beside the shared libraries, for a wheel that runs where neither is
# installed (scripts/packaging/build-wheel.sh; codegen/src/support/install_layout.hpp is where
# codegen looks): clang/ clang's resource headers and compiler-rt's builtins, c++/ and c/ the C++
# and C library headers kernels compile against (TcpuLibraryHeaders.cmake), bin/ld.lld (the linker
# of `tcpu compile --shared`), licenses/ the copyright files of the Debian packages all of it and
# the bundled shared libraries come from (TcpuBundleLicenses.cmake). The shared libraries (LLVM,
# clang, SLEEF, libomp and what they link) are copied into the wheel by auditwheel repair
# afterwards. Included by codegen/CMakeLists.txt, whose tcpu_clang_resource_dir and
# tcpu_compiler_rt_builtins it uses.
set(tcpu_bundle_dir ${CMAKE_INSTALL_LIBDIR}/tcpu)

install(DIRECTORY ${tcpu_clang_resource_dir}/include DESTINATION ${tcpu_bundle_dir}/clang)
if(tcpu_compiler_rt_builtins)
  file(RELATIVE_PATH tcpu_builtins_relative ${tcpu_clang_resource_dir} ${tcpu_compiler_rt_builtins})
  get_filename_component(tcpu_builtins_subdirectory ${tcpu_builtins_relative} DIRECTORY)
  install(FILES ${tcpu_compiler_rt_builtins}
          DESTINATION ${tcpu_bundle_dir}/clang/${tcpu_builtins_subdirectory})
endif()

find_program(TCPU_LLD NAMES ld.lld ld.lld-${LLVM_VERSION_MAJOR} HINTS ${LLVM_TOOLS_BINARY_DIR})
if(NOT TCPU_LLD)
  message(FATAL_ERROR "TCPU_BUNDLE_TOOLCHAIN: ld.lld not found (Debian: lld-${LLVM_VERSION_MAJOR})")
endif()
# lld is one program for every linker flavour, chosen by the name it runs under.
file(REAL_PATH ${TCPU_LLD} tcpu_lld_program)
install(PROGRAMS ${tcpu_lld_program} DESTINATION ${tcpu_bundle_dir}/bin RENAME ld.lld)

set(tcpu_library_headers ${CMAKE_CURRENT_BINARY_DIR}/library-headers)
file(GLOB_RECURSE tcpu_kernel_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/include/*.h
     ${PROJECT_SOURCE_DIR}/runtime/include/*.h ${PROJECT_SOURCE_DIR}/runtime/include/*.hpp)
add_custom_command(OUTPUT ${tcpu_library_headers}.stamp
  COMMAND ${CMAKE_COMMAND} -DCLANG=${TCPU_CLANG} "-DFLAGS=${TCPU_KERNEL_CXX_FLAGS}"
          "-DINCLUDES=${TCPU_KERNEL_INCLUDE_DIRS}" -DOUTPUT=${tcpu_library_headers}
          -P ${PROJECT_SOURCE_DIR}/cmake/TcpuLibraryHeaders.cmake
  COMMAND ${CMAKE_COMMAND} -E touch ${tcpu_library_headers}.stamp
  DEPENDS ${PROJECT_SOURCE_DIR}/cmake/TcpuLibraryHeaders.cmake ${tcpu_kernel_headers}
  COMMENT "Collecting the C and C++ library headers kernels include" VERBATIM)
add_custom_target(tcpu_library_headers ALL DEPENDS ${tcpu_library_headers}.stamp)
install(DIRECTORY ${tcpu_library_headers}/ DESTINATION ${tcpu_bundle_dir})

set(tcpu_bundle_licenses ${CMAKE_CURRENT_BINARY_DIR}/bundle-licenses)
set(tcpu_bundled_files ${tcpu_clang_resource_dir}/include/stddef.h ${tcpu_lld_program}
    ${tcpu_compiler_rt_builtins})
add_custom_command(OUTPUT ${tcpu_bundle_licenses}.stamp
  COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:tcpu_codegen> "-DFILES=${tcpu_bundled_files}"
          -DFILES_FROM=${tcpu_library_headers}.sources -DOUTPUT=${tcpu_bundle_licenses}
          -P ${PROJECT_SOURCE_DIR}/cmake/TcpuBundleLicenses.cmake
  COMMAND ${CMAKE_COMMAND} -E touch ${tcpu_bundle_licenses}.stamp
  DEPENDS ${PROJECT_SOURCE_DIR}/cmake/TcpuBundleLicenses.cmake ${tcpu_library_headers}.stamp
          tcpu_codegen
  COMMENT "Collecting the licences of the bundled files and libraries" VERBATIM)
add_custom_target(tcpu_bundle_licenses ALL DEPENDS ${tcpu_bundle_licenses}.stamp)
install(DIRECTORY ${tcpu_bundle_licenses}/ DESTINATION ${tcpu_bundle_dir}/licenses)
