# The clang flags every C++ kernel is compiled with, at build time
# (tcpu_add_kernels) and at run time (codegen's in-process compiler reads them
# from a generated header): one list, so both produce the same IR.
#   -O2 without LLVM passes: no optnone in the IR, and codegen optimizes once, for the target.
#   -fno-math-errno: math calls are pure, so they vectorize into SLEEF calls.
set(TCPU_KERNEL_CXX_FLAGS
  -x c++ -std=c++20 -O2 -Xclang -disable-llvm-passes
  -fno-exceptions -fno-rtti -fno-math-errno)
set(TCPU_KERNEL_INCLUDE_DIRS ${PROJECT_SOURCE_DIR}/runtime/include ${PROJECT_SOURCE_DIR}/kernels/include)

# tcpu_add_kernels(<target> SOURCES <file>... [OUTPUT_DIRECTORY <dir>])
# Compiles C++ kernel sources with clang to LLVM bitcode (<dir>/<name>.bc, default the
# current binary directory), loadable through codegen with tcpuModuleLoad. <target> is
# a custom target that builds them all.
function(tcpu_add_kernels target)
  cmake_parse_arguments(ARG "" "OUTPUT_DIRECTORY" "SOURCES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "tcpu_add_kernels(${target}): SOURCES is empty")
  endif()
  set(directory ${CMAKE_CURRENT_BINARY_DIR})
  if(ARG_OUTPUT_DIRECTORY)
    set(directory ${ARG_OUTPUT_DIRECTORY})
  endif()
  set(includes)
  foreach(dir IN LISTS TCPU_KERNEL_INCLUDE_DIRS)
    list(APPEND includes -I${dir})
  endforeach()
  set(outputs)
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(absolute ${source} ABSOLUTE)
    get_filename_component(stem ${source} NAME_WE)
    set(output ${directory}/${stem}.bc)
    add_custom_command(OUTPUT ${output}
      COMMAND ${TCPU_CLANG} ${TCPU_KERNEL_CXX_FLAGS} ${includes} -ffp-contract=on -emit-llvm -c
              ${absolute} -o ${output}
      DEPENDS ${absolute}
      IMPLICIT_DEPENDS CXX ${absolute}
      COMMENT "Compiling kernel ${source} to bitcode" VERBATIM)
    list(APPEND outputs ${output})
  endforeach()
  add_custom_target(${target} ALL DEPENDS ${outputs})
endfunction()
