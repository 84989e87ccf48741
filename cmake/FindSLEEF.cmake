# Finds SLEEF, the vectorized math library.
#   SLEEF_FOUND, SLEEF_VERSION, SLEEF_INCLUDE_DIR, SLEEF_LIBRARY, and the target SLEEF::sleef.
# Looks for an installed SLEEFConfig.cmake first (newer SLEEF ships one), then
# for the header and library directly (with pkg-config's paths as hints).
include(FindPackageHandleStandardArgs)

find_package(SLEEF CONFIG QUIET NO_MODULE)
if(TARGET sleef::sleef AND NOT TARGET SLEEF::sleef)
  add_library(SLEEF::sleef ALIAS sleef::sleef)
endif()

if(NOT TARGET SLEEF::sleef)
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(PC_SLEEF QUIET sleef)
  endif()
  find_path(SLEEF_INCLUDE_DIR sleef.h
    HINTS ${PC_SLEEF_INCLUDE_DIRS} /opt/homebrew/include /usr/local/include)
  find_library(SLEEF_LIBRARY NAMES sleef
    HINTS ${PC_SLEEF_LIBRARY_DIRS} /opt/homebrew/lib /usr/local/lib)
  if(SLEEF_INCLUDE_DIR AND EXISTS "${SLEEF_INCLUDE_DIR}/sleef.h")
    file(STRINGS "${SLEEF_INCLUDE_DIR}/sleef.h" _sleef_version_lines
         REGEX "#define SLEEF_VERSION_(MAJOR|MINOR|PATCHLEVEL) ")
    foreach(_part MAJOR MINOR PATCHLEVEL)
      string(REGEX REPLACE ".*SLEEF_VERSION_${_part} ([0-9]+).*" "\\1" _sleef_${_part}
             "${_sleef_version_lines}")
    endforeach()
    set(SLEEF_VERSION "${_sleef_MAJOR}.${_sleef_MINOR}.${_sleef_PATCHLEVEL}")
  elseif(PC_SLEEF_VERSION)
    set(SLEEF_VERSION "${PC_SLEEF_VERSION}")
  endif()
  find_package_handle_standard_args(SLEEF
    REQUIRED_VARS SLEEF_LIBRARY SLEEF_INCLUDE_DIR VERSION_VAR SLEEF_VERSION)
  if(SLEEF_FOUND)
    add_library(SLEEF::sleef UNKNOWN IMPORTED)
    set_target_properties(SLEEF::sleef PROPERTIES
      IMPORTED_LOCATION "${SLEEF_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${SLEEF_INCLUDE_DIR}")
  endif()
  mark_as_advanced(SLEEF_INCLUDE_DIR SLEEF_LIBRARY)
else()
  set(SLEEF_FOUND TRUE)
endif()
