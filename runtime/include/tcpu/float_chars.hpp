// std::from_chars for float and double everywhere tcpu builds: libstdc++ has it; libc++ (macOS)
// has it only from version 20, and there only on macOS 26 at run time. Where it is missing, the
// same contract is kept with strtod_l/strtof_l in the C locale: no leading whitespace or '+', no
// hexadecimal, [first, ptr) is what was read, result_out_of_range on overflow and underflow.
#ifndef TCPU_FLOAT_CHARS_HPP
#define TCPU_FLOAT_CHARS_HPP

#include <charconv>
#include <system_error>
#include <type_traits>

#if defined(_LIBCPP_VERSION)
// newlocale and strtod_l: Darwin declares them in <xlocale.h>, glibc in <locale.h> and <stdlib.h>.
#if defined(__APPLE__)
#include <xlocale.h>
#else
#include <locale.h>
#endif

#include <cerrno>
#include <cstdlib>
#include <string>
#endif

namespace tcpu {

template <class T>
  requires std::is_same_v<T, float> || std::is_same_v<T, double>
std::from_chars_result floatFromChars(const char* first, const char* last, T& value) {
#if !defined(_LIBCPP_VERSION)
  return std::from_chars(first, last, value);
#else
  const char* digits = first != last && *first == '-' ? first + 1 : first;
  if (digits == last || !((*digits >= '0' && *digits <= '9') || *digits == '.' || *digits == 'i' ||
                          *digits == 'I' || *digits == 'n' || *digits == 'N'))
    return {first, std::errc::invalid_argument};
  // Hexadecimal is not from_chars' general format: "0x1p3" reads as "0".
  const bool hex = last - digits > 1 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
  const std::string text(first, hex ? digits + 1 : last);
  static const locale_t classic = newlocale(LC_ALL_MASK, "C", nullptr);
  char* end = nullptr;
  errno = 0;
  const T parsed = std::is_same_v<T, float> ? static_cast<T>(strtof_l(text.c_str(), &end, classic))
                                            : static_cast<T>(strtod_l(text.c_str(), &end, classic));
  const char* stop = first + (end - text.c_str());
  if (stop == first) return {first, std::errc::invalid_argument};
  if (errno == ERANGE) return {stop, std::errc::result_out_of_range};
  value = parsed;
  return {stop, std::errc()};
#endif
}

} // namespace tcpu

#endif // TCPU_FLOAT_CHARS_HPP
