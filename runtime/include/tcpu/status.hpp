// Errors inside tcpu's C++ code: a tcpuResult plus a message naming the
// argument and value at fault. The C API turns a failed Status into its
// result code and the thread's last-error detail.
#ifndef TCPU_STATUS_HPP
#define TCPU_STATUS_HPP

#include <locale>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "tcpu/tcpu.h"

namespace tcpu {

// An output string stream that formats numbers the same in every locale (the classic "C"
// one): messages and generated code say 1024, never "1,024", whatever global locale the
// program that loaded tcpu has set.
class ClassicStream : public std::ostringstream {
public:
  ClassicStream() { imbue(std::locale::classic()); }
};

// Builds a message from pieces: concat("gridX=", 0, " is invalid"), in the classic locale.
template <class... Parts>
std::string concat(const Parts&... parts) {
  ClassicStream out;
  (out << ... << parts);
  return out.str();
}

class [[nodiscard]] Status {
public:
  Status() = default;
  Status(tcpuResult code, std::string message) : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == TCPU_SUCCESS; }
  tcpuResult code() const { return code_; }
  const std::string& message() const { return message_; }

private:
  tcpuResult code_ = TCPU_SUCCESS;
  std::string message_;
};

// A value or the Status saying why there is none.
template <class T>
class [[nodiscard]] Expected {
public:
  Expected(T value) : value_(std::move(value)) {}
  Expected(Status status) : status_(std::move(status)) {}

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Status& status() const { return status_; }
  T& operator*() { return *value_; }
  T* operator->() { return &*value_; }
  const T& operator*() const { return *value_; }
  const T* operator->() const { return &*value_; }
  T take() { return std::move(*value_); }

private:
  std::optional<T> value_;
  Status status_;
};

} // namespace tcpu

#endif // TCPU_STATUS_HPP
