# cmake -DLIBRARY=<libtcpu_codegen> "-DFILES=<bundled files>" -DFILES_FROM=<list file>
#       -DOUTPUT=<dir> -P TcpuBundleLicenses.cmake
# The licences of what a wheel carries from the system (TcpuBundleToolchain.cmake): the Debian
# packages owning FILES and the files listed in FILES_FROM, a line each (the toolchain files and
# headers copied into the package), and the shared
# libraries LIBRARY links (auditwheel copies them into the wheel), each package's copyright file
# as OUTPUT/<package>/copyright. Left out: glibc, libstdc++, libgcc and zlib, which the wheel
# takes from the system. Without dpkg (not Debian) nothing is written.
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${OUTPUT})
file(MAKE_DIRECTORY ${OUTPUT})
find_program(dpkg_query dpkg-query)
find_program(ldd ldd)
if(NOT dpkg_query OR NOT ldd)
  return()
endif()
execute_process(COMMAND ${ldd} ${LIBRARY} OUTPUT_VARIABLE linked RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "ldd ${LIBRARY} failed")
endif()
string(REGEX MATCHALL "=> (/[^ ]+)" resolved "${linked}")
set(files ${FILES})
if(FILES_FROM)
  file(STRINGS ${FILES_FROM} listed)
  list(APPEND files ${listed})
endif()
get_filename_component(library_dir ${LIBRARY} DIRECTORY)
foreach(entry IN LISTS resolved)
  string(REGEX REPLACE "^=> " "" path "${entry}")
  file(REAL_PATH ${path} real)
  string(FIND "${real}" "${library_dir}" inside)
  if(NOT inside EQUAL 0) # tcpu's own libraries have no package
    list(APPEND files ${real})
  endif()
endforeach()
set(packages)
foreach(path IN LISTS files)
  file(REAL_PATH ${path} real)
  execute_process(COMMAND ${dpkg_query} -S ${real} OUTPUT_VARIABLE owner ERROR_QUIET
                  RESULT_VARIABLE failed)
  if(failed) # Debian's merged /usr: dpkg knows /lib/... for some
    string(REGEX REPLACE "^/usr/lib/" "/lib/" real "${real}")
    execute_process(COMMAND ${dpkg_query} -S ${real} OUTPUT_VARIABLE owner ERROR_QUIET)
  endif()
  string(REGEX MATCH "^[^:,]+" package "${owner}")
  if(package AND NOT package MATCHES "^(libc6|libstdc\\+\\+6|libgcc-s1|zlib1g)$")
    list(APPEND packages ${package})
  endif()
endforeach()
list(REMOVE_DUPLICATES packages)
foreach(package IN LISTS packages)
  if(EXISTS /usr/share/doc/${package}/copyright)
    file(COPY /usr/share/doc/${package}/copyright DESTINATION ${OUTPUT}/${package})
  else()
    message(WARNING "no copyright file for ${package} (/usr/share/doc/${package}/copyright)")
  endif()
endforeach()
list(SORT packages)
message(STATUS "licences of ${packages}")
