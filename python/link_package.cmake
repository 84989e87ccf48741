# Makes DESTINATION a directory of symbolic links to the entries of SOURCE (the tcpu package
# sources), beside the files the build puts there (_tcpu*.so). Links whose source is gone are
# removed; anything else the build made stays.
# Run as: cmake -DSOURCE=<python/tcpu> -DDESTINATION=<build>/python/tcpu -P link_package.cmake
file(MAKE_DIRECTORY "${DESTINATION}")
file(GLOB entries RELATIVE "${SOURCE}" "${SOURCE}/*")
foreach(entry IN LISTS entries)
  # Bytecode caches belong to whoever imported from the source tree; the module is the build's.
  if(entry STREQUAL "__pycache__" OR entry MATCHES "^_tcpu.*\\.(so|pyd|dylib)$")
    continue()
  endif()
  set(link "${DESTINATION}/${entry}")
  if(IS_SYMLINK "${link}")
    file(READ_SYMLINK "${link}" target)
    if(target STREQUAL "${SOURCE}/${entry}")
      continue()
    endif()
    file(REMOVE "${link}")
  elseif(EXISTS "${link}")
    message(FATAL_ERROR "${link} exists and is not a link to ${SOURCE}/${entry}: remove it")
  endif()
  file(CREATE_LINK "${SOURCE}/${entry}" "${link}" SYMBOLIC)
endforeach()
file(GLOB existing "${DESTINATION}/*")
foreach(link IN LISTS existing)
  if(IS_SYMLINK "${link}" AND NOT EXISTS "${link}")
    file(REMOVE "${link}")
  endif()
endforeach()
