# Writes OUTPUT with `#define TCPU_CODEGEN_BUILD_ID "<sha256 of SOURCES>"`: part of
# the compile-cache key, so objects cached by an older codegen are never reused.
# Run as: cmake -DOUTPUT=... -DSOURCES="a;b" -P TcpuBuildId.cmake
set(contents "")
foreach(source IN LISTS SOURCES)
  file(READ "${source}" text)
  string(APPEND contents "${source}\n${text}")
endforeach()
string(SHA256 id "${contents}")
set(header "#define TCPU_CODEGEN_BUILD_ID \"${id}\"\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" previous)
endif()
if(NOT previous STREQUAL header)
  file(WRITE "${OUTPUT}" "${header}")
endif()
