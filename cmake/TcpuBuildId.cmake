# Writes OUTPUT with `#define <NAME> "<sha256 of SOURCES>"` (NAME defaults to
# TCPU_CODEGEN_BUILD_ID): part of a compile-cache key, so objects cached by an older build are
# never reused. Run as: cmake -DOUTPUT=... -DSOURCES="a;b" [-DNAME=...] -P TcpuBuildId.cmake
set(contents "")
foreach(source IN LISTS SOURCES)
  file(READ "${source}" text)
  string(APPEND contents "${source}\n${text}")
endforeach()
string(SHA256 id "${contents}")
if(NOT NAME)
  set(NAME TCPU_CODEGEN_BUILD_ID)
endif()
set(header "#define ${NAME} \"${id}\"\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" previous)
endif()
if(NOT previous STREQUAL header)
  file(WRITE "${OUTPUT}" "${header}")
endif()
