# tcpu_find_gtest(): GoogleTest for the test suites, as the targets GTest::gtest,
# GTest::gtest_main, GTest::gmock and GTest::gmock_main.
# The installed package by default. With TCPU_GTEST_SOURCE_DIR (a googletest source tree, such as
# Debian's /usr/src/googletest), GoogleTest is built here with this build's compiler and C++
# library instead: the packaged libgtest.a is compiled against libstdc++, and a build with
# libc++ (scripts/platforms/run-libcxx-tests.sh, macOS's C++ library on Linux) cannot link it, since
# std::string is a different type in each library.
set(TCPU_GTEST_SOURCE_DIR "" CACHE PATH "Build GoogleTest from this source tree (for libc++ builds)")

function(tcpu_find_gtest)
  if(NOT TCPU_GTEST_SOURCE_DIR)
    find_package(GTest REQUIRED)
    return()
  endif()
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  set(BUILD_GMOCK ON CACHE BOOL "" FORCE)
  add_subdirectory(${TCPU_GTEST_SOURCE_DIR} ${PROJECT_BINARY_DIR}/googletest EXCLUDE_FROM_ALL)
  # GoogleTest's tree names its targets GTest::gtest and so on itself (as of 1.11).
endfunction()
