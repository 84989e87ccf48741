# Ahead-of-time kernels, built into a target with the tcpu tool (Triton's compile.py and
# link.py): the target then runs them through libtcpu_runtime alone, with no LLVM.
#
# tcpu_compile_kernel(<target> SOURCE <kernel.cpp|.ll|.bc|.py> KERNEL_NAME <name>
#                     SIGNATURE "<sig>" GRID "<gX,gY,gZ>" [OUT_NAME <n>] [ID <id>]
#                     [TARGET_CPU <cpu>] [NUM_THREADS <t>] [NUM_WARPS <w>] [NUM_STAGES <s>]
#                     [TRIPLE <triple> SYSROOT <dir>])
#   Compiles one specialization of a kernel (`tcpu compile`; for a @triton.jit kernel in a .py
#   file, `python3 -m tcpu.compile` with tcpu's Python package) to an object and a header
#   (<n>.<hash>_<suffix>.o/.h) that <target> builds in. OUT_NAME (default KERNEL_NAME)
#   names the launcher; ID (default OUT_NAME) names the specializations for
#   tcpu_link_kernels: several calls may share one. NUM_WARPS / NUM_STAGES (Triton's options;
#   a .py source's default 1 and 3) change only the names, which are then Triton's own.
#   TRIPLE / SYSROOT: code for another system (a cross build: `tcpu compile --triple`).
#   <target> gets tcpu::runtime (PUBLIC: the headers include tcpu/tcpu.h) and SLEEF.
#
# tcpu_link_kernels(<target> NAME <n> KERNELS <id or header>...)
#   Links compiled specializations into one dispatcher, <n>.h / <n>.c (`tcpu link`):
#   <n>_default(...), <n>(..., algo_id), load_<n>(), unload_<n>().
#
# Both run the tool when the project is configured (to learn the hashed output names), so
# it must exist by then: an installed package's tcpu::tcpu, or TCPU_EXECUTABLE. Use the
# keyword forms of target_link_libraries on <target> (these functions do).

# The tcpu executable to run.
function(_tcpu_aot_tool out caller)
  if(TCPU_EXECUTABLE)
    set(${out} ${TCPU_EXECUTABLE} PARENT_SCOPE)
  elseif(TARGET tcpu::tcpu)
    get_target_property(location tcpu::tcpu LOCATION)
    set(${out} ${location} PARENT_SCOPE)
  else()
    message(FATAL_ERROR "${caller}: needs the tcpu tool at configure time: find_package(tcpu) "
                        "or set TCPU_EXECUTABLE")
  endif()
endfunction()

# Where a target's generated kernel files go.
function(_tcpu_aot_directory out target)
  set(directory ${CMAKE_CURRENT_BINARY_DIR}/tcpu_kernels/${target})
  file(MAKE_DIRECTORY ${directory})
  set(${out} ${directory} PARENT_SCOPE)
endfunction()

function(tcpu_compile_kernel target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG ""
                        "SOURCE;KERNEL_NAME;SIGNATURE;GRID;OUT_NAME;ID;TARGET_CPU;NUM_THREADS;NUM_WARPS;NUM_STAGES;TRIPLE;SYSROOT"
                        "")
  set(caller "tcpu_compile_kernel(${target})")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${caller}: unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  foreach(required SOURCE KERNEL_NAME SIGNATURE GRID)
    if(NOT ARG_${required})
      message(FATAL_ERROR "${caller}: ${required} is required")
    endif()
  endforeach()
  if(NOT TARGET SLEEF::sleef)
    message(FATAL_ERROR "${caller}: SLEEF was not found (kernel objects call its math); "
                        "set SLEEF_ROOT or CMAKE_PREFIX_PATH")
  endif()
  set(out_name ${ARG_KERNEL_NAME})
  if(ARG_OUT_NAME)
    set(out_name ${ARG_OUT_NAME})
  endif()
  set(id ${out_name})
  if(ARG_ID)
    set(id ${ARG_ID})
  endif()
  _tcpu_aot_tool(tool "${caller}")
  _tcpu_aot_directory(directory ${target})
  get_filename_component(source ${ARG_SOURCE} ABSOLUTE)

  if(source MATCHES "\\.py$")
    if(NOT TCPU_PYTHON_EXECUTABLE OR NOT EXISTS "${TCPU_PYTHON_DIR}/tcpu/compile.py")
      message(FATAL_ERROR "${caller}: ${source} is Python: it needs tcpu's Python package "
                          "(tcpu built with TCPU_BUILD_PYTHON; TCPU_PYTHON_DIR is "
                          "'${TCPU_PYTHON_DIR}')")
    endif()
    set(command ${CMAKE_COMMAND} -E env PYTHONPATH=${TCPU_PYTHON_DIR} TCPU_CLI=${tool}
                ${TCPU_PYTHON_EXECUTABLE} -m tcpu.compile)
  else()
    set(command ${tool} compile)
  endif()
  list(APPEND command ${source} --kernel-name ${ARG_KERNEL_NAME} --signature ${ARG_SIGNATURE}
       --grid ${ARG_GRID} --out-name ${out_name} --out-path ${directory}/${out_name})
  foreach(option TARGET_CPU:--target NUM_THREADS:--num-threads NUM_WARPS:--num-warps
                 NUM_STAGES:--num-stages TRIPLE:--triple SYSROOT:--sysroot)
    string(REPLACE ":" ";" option "${option}")
    list(GET option 0 keyword)
    list(GET option 1 flag)
    if(ARG_${keyword})
      list(APPEND command ${flag} ${ARG_${keyword}})
    endif()
  endforeach()
  # The same command with --print-outputs writes nothing and prints the header's and the
  # object's paths, one per line.
  execute_process(COMMAND ${command} --print-outputs RESULT_VARIABLE result
                  OUTPUT_VARIABLE outputs ERROR_VARIABLE errors OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(REPLACE "\n" ";" outputs "${outputs}")
  list(LENGTH outputs output_count)
  if(NOT result EQUAL 0 OR NOT output_count EQUAL 2)
    list(JOIN command " " command_line)
    message(FATAL_ERROR "${caller}: `${command_line} --print-outputs` failed (${result}):\n"
                        "${errors}${outputs}")
  endif()
  list(GET outputs 0 header)
  list(GET outputs 1 object)

  add_custom_command(OUTPUT ${header} ${object}
    COMMAND ${command}
    DEPENDS ${source} ${tool}
    COMMENT "Compiling kernel ${ARG_KERNEL_NAME} (${ARG_SIGNATURE}) ahead of time"
    VERBATIM)
  set_source_files_properties(${object} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
  target_sources(${target} PRIVATE ${header} ${object})
  target_include_directories(${target} PUBLIC ${directory})
  target_link_libraries(${target} PUBLIC tcpu::runtime PRIVATE SLEEF::sleef)
  set_property(TARGET ${target} APPEND PROPERTY TCPU_COMPILED_KERNELS_${id} ${header})
endfunction()

function(tcpu_link_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "NAME" "KERNELS")
  set(caller "tcpu_link_kernels(${target})")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${caller}: unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_NAME OR NOT ARG_KERNELS)
    message(FATAL_ERROR "${caller}: NAME and KERNELS are required")
  endif()
  set(headers)
  foreach(kernel IN LISTS ARG_KERNELS)
    get_property(compiled TARGET ${target} PROPERTY TCPU_COMPILED_KERNELS_${kernel})
    if(compiled)
      list(APPEND headers ${compiled})
    elseif(kernel MATCHES "\\.h$")
      get_filename_component(header ${kernel} ABSOLUTE)
      list(APPEND headers ${header})
    else()
      message(FATAL_ERROR "${caller}: '${kernel}' is neither the ID of a tcpu_compile_kernel "
                          "on ${target} nor a header")
    endif()
  endforeach()
  _tcpu_aot_tool(tool "${caller}")
  _tcpu_aot_directory(directory ${target})

  set(output ${directory}/${ARG_NAME})
  list(JOIN ARG_KERNELS " " kernels_text)
  add_custom_command(OUTPUT ${output}.h ${output}.c
    COMMAND ${tool} link ${headers} -o ${output}
    DEPENDS ${headers} ${tool}
    COMMENT "Linking kernels ${kernels_text} into ${ARG_NAME}"
    VERBATIM)
  target_sources(${target} PRIVATE ${output}.h ${output}.c)
  target_include_directories(${target} PUBLIC ${directory})
endfunction()
