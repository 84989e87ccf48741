// Assertions on tcpuResult values that print the runtime's detail message.
#ifndef TCPU_TESTS_SUPPORT_TCPU_ASSERTIONS_HPP
#define TCPU_TESTS_SUPPORT_TCPU_ASSERTIONS_HPP

#include <gtest/gtest.h>

#include <string>

#include "tcpu/tcpu.h"

// Fails the test with the runtime's detail message when a call does not succeed.
#define ASSERT_TCPU(call)                                                                          \
  do {                                                                                             \
    const tcpuResult tcpu_result_ = (call);                                                        \
    ASSERT_EQ(tcpu_result_, TCPU_SUCCESS) << #call << ": " << tcpuGetLastErrorDetail();            \
  } while (0)

#define EXPECT_TCPU(call)                                                                          \
  do {                                                                                             \
    const tcpuResult tcpu_result_ = (call);                                                        \
    EXPECT_EQ(tcpu_result_, TCPU_SUCCESS) << #call << ": " << tcpuGetLastErrorDetail();            \
  } while (0)

// Expects `call` to fail with `code` and a detail containing `needle`.
#define EXPECT_TCPU_ERROR(call, code, needle)                                                      \
  do {                                                                                             \
    EXPECT_EQ((call), (code)) << #call;                                                            \
    EXPECT_NE(std::string(tcpuGetLastErrorDetail()).find(needle), std::string::npos)               \
        << #call << ": detail was: " << tcpuGetLastErrorDetail();                                  \
  } while (0)

#endif // TCPU_TESTS_SUPPORT_TCPU_ASSERTIONS_HPP
