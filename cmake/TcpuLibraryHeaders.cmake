# cmake -DCLANG=<clang++> -DFLAGS=<kernel flags> -DINCLUDES=<kernel include dirs> -DOUTPUT=<dir>
#       -P TcpuLibraryHeaders.cmake
# Copies the C and C++ library headers that kernels compile against into OUTPUT, for a wheel
# that runs where no compiler is installed (TcpuBundleToolchain.cmake): OUTPUT/c++ the whole C++
# library (the directories clang's driver searches before its own headers, merged: their files
# do not collide), OUTPUT/c the C library headers (those it searches after its own) that tl.h and
# <bits/stdc++.h> (every standard C++ header) include, found by clang -M, not all of them (the
# whole of /usr/include holds other packages' headers). OUTPUT.sources lists a file of each
# C++ directory and every C header copied, for their licences (TcpuBundleLicenses.cmake).
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${OUTPUT})
file(MAKE_DIRECTORY ${OUTPUT}/c++ ${OUTPUT}/c)
set(probe ${OUTPUT}.probe.cpp)
file(WRITE ${probe} "#include <bits/stdc++.h>\n#include <tcpu/tl.h>\n")
set(include_args)
foreach(directory IN LISTS INCLUDES)
  list(APPEND include_args -I${directory})
endforeach()

# The driver's search list, in order (clang -v prints it).
execute_process(COMMAND ${CLANG} ${FLAGS} -fsyntax-only -v /dev/null
                ERROR_VARIABLE verbose OUTPUT_QUIET RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "${CLANG} -v failed:\n${verbose}")
endif()
string(REGEX MATCH "#include <\\.\\.\\.> search starts here:\n(.*)\nEnd of search list" _ "${verbose}")
string(REPLACE "\n" ";" search "${CMAKE_MATCH_1}")
execute_process(COMMAND ${CLANG} -print-resource-dir OUTPUT_VARIABLE resource
                OUTPUT_STRIP_TRAILING_WHITESPACE)
file(REAL_PATH ${resource}/include resource_include)
set(cxx_dirs)
set(c_dirs)
set(after_resource FALSE)
foreach(entry IN LISTS search)
  string(STRIP "${entry}" entry)
  if(NOT IS_DIRECTORY "${entry}")
    continue()
  endif()
  file(REAL_PATH ${entry} directory)
  if(directory STREQUAL resource_include)
    set(after_resource TRUE)
  elseif(after_resource)
    list(APPEND c_dirs ${directory})
  elseif(NOT directory MATCHES "/backward$")
    list(APPEND cxx_dirs ${directory})
  endif()
endforeach()
# tcpu's own include directories come first in the list; they are not library headers.
set(own_dirs)
foreach(directory IN LISTS INCLUDES)
  file(REAL_PATH ${directory} real)
  list(APPEND own_dirs ${real})
endforeach()
list(REMOVE_ITEM cxx_dirs ${own_dirs})
if(NOT cxx_dirs OR NOT c_dirs)
  message(FATAL_ERROR "no C++ or C library headers in ${CLANG}'s search list:\n${verbose}")
endif()
set(sources)
foreach(directory IN LISTS cxx_dirs)
  file(COPY ${directory}/ DESTINATION ${OUTPUT}/c++)
  file(GLOB_RECURSE one LIST_DIRECTORIES false ${directory}/*)
  list(GET one 0 one)
  list(APPEND sources ${one})
endforeach()

# The C library's headers the probe reads, each below the most specific directory holding it.
execute_process(COMMAND ${CLANG} ${FLAGS} ${include_args} -M ${probe}
                OUTPUT_VARIABLE dependencies RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "${CLANG} -M failed on the library headers' probe")
endif()
string(REGEX REPLACE "[ \\\\\n]+" ";" dependencies "${dependencies}")
list(SORT c_dirs COMPARE STRING ORDER DESCENDING) # /usr/include/<triple> before /usr/include
set(copied 0)
foreach(file IN LISTS dependencies)
  if(NOT file MATCHES "^/" OR NOT EXISTS ${file})
    continue()
  endif()
  foreach(directory IN LISTS c_dirs)
    string(FIND "${file}" "${directory}/" at)
    if(at EQUAL 0)
      file(RELATIVE_PATH relative ${directory} ${file})
      get_filename_component(subdirectory ${relative} DIRECTORY)
      file(COPY ${file} DESTINATION ${OUTPUT}/c/${subdirectory})
      list(APPEND sources ${file})
      math(EXPR copied "${copied} + 1")
      break()
    endif()
  endforeach()
endforeach()
file(REMOVE ${probe})
list(JOIN sources "\n" sources)
file(WRITE ${OUTPUT}.sources "${sources}\n")
message(STATUS "library headers: ${cxx_dirs} (all), ${copied} of ${c_dirs}")
