// The .npy reader and writer: round trips of every supported dtype and shape, files as NumPy
// writes them, and a specific error (never a crash) for each kind of malformed file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "formats/data_types.hpp"
#include "formats/npy.hpp"

namespace tcpu::cli {
namespace {

std::span<const std::byte> bytesOf(const std::string& text) {
  return {reinterpret_cast<const std::byte*>(text.data()), text.size()};
}

// A version-1.0 file with `header` (padded as NumPy pads) followed by `data`.
std::string npyFile(const std::string& header, const std::string& data, char major = 1) {
  const std::size_t preamble = major == 1 ? 10 : 12;
  std::string padded = header;
  padded.append((64 - (preamble + header.size() + 1) % 64) % 64, ' ');
  padded += '\n';
  std::string file = "\x93NUMPY";
  file += major;
  file += '\0';
  for (std::size_t i = 0; i < preamble - 8; ++i)
    file += static_cast<char>((padded.size() >> (8 * i)) & 0xff);
  return file + padded + data;
}

std::string header(const std::string& descr, const std::string& shape,
                   const std::string& fortran = "False") {
  return "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
}

std::string parseError(const std::string& file) {
  Expected<NpyArray> array = parseNpy(bytesOf(file));
  EXPECT_FALSE(array);
  if (array) return "";
  EXPECT_EQ(array.status().code(), TCPU_ERROR_INVALID_VALUE);
  return array.status().message();
}

TEST(Npy, RoundTripsEveryTypeAndShape) {
  const std::vector<tcpuDataType> types = {
      TCPU_TYPE_I1,  TCPU_TYPE_I8,  TCPU_TYPE_I16, TCPU_TYPE_I32,  TCPU_TYPE_I64,  TCPU_TYPE_U8,
      TCPU_TYPE_U16, TCPU_TYPE_U32, TCPU_TYPE_U64, TCPU_TYPE_FP16, TCPU_TYPE_FP32, TCPU_TYPE_FP64};
  const std::vector<std::vector<uint64_t>> shapes = {{}, {5}, {2, 3}, {0}, {2, 0, 3}, {1, 1, 1, 7}};
  for (tcpuDataType type : types) {
    for (const std::vector<uint64_t>& shape : shapes) {
      NpyArray array{type, shape, {}};
      array.data.resize(*elementCount(shape) * dataTypeSize(type));
      for (std::size_t i = 0; i < array.data.size(); ++i)
        array.data[i] = static_cast<std::byte>(i * 37 + 11);
      Expected<std::string> file = formatNpy(array);
      ASSERT_TRUE(file) << file.status().message();
      EXPECT_EQ((file->size() - array.data.size()) % 64, 0u) << "data starts 64-byte aligned";
      Expected<NpyArray> back = parseNpy(bytesOf(*file));
      ASSERT_TRUE(back) << back.status().message();
      EXPECT_EQ(back->type, type) << tcpuDataTypeName(type);
      EXPECT_EQ(back->shape, shape);
      EXPECT_EQ(back->data, array.data);
    }
  }
}

TEST(Npy, WritesTheHeaderNumPyWrites) {
  NpyArray array{TCPU_TYPE_FP32, {3}, std::vector<std::byte>(12)};
  Expected<std::string> file = formatNpy(array);
  ASSERT_TRUE(file);
  // np.save(f, np.zeros(3, np.float32)): header length 118, so that data starts at 128.
  EXPECT_EQ(file->substr(0, 10), std::string("\x93NUMPY\x01\x00\x76\x00", 10));
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
  EXPECT_EQ(file->substr(10, dict.size()), dict);
  EXPECT_EQ(file->substr(10 + dict.size(), 127 - 10 - dict.size()),
            std::string(127 - 10 - dict.size(), ' '));
  EXPECT_EQ((*file)[127], '\n');
  EXPECT_EQ(file->size(), 128u + 12u);
}

TEST(Npy, Bf16IsWrittenAsItsBitsInU2) {
  EXPECT_EQ(npyDescriptor(TCPU_TYPE_BF16), "<u2");
  Expected<std::string> file = formatNpy({TCPU_TYPE_BF16, {2}, std::vector<std::byte>(4)});
  ASSERT_TRUE(file);
  Expected<NpyArray> back = parseNpy(bytesOf(*file));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->type, TCPU_TYPE_U16);
  EXPECT_EQ(npyDescriptor(TCPU_TYPE_PTR), "");
  EXPECT_FALSE(formatNpy({TCPU_TYPE_PTR, {1}, std::vector<std::byte>(8)}));
}

TEST(Npy, ReadsVersions2And3AndTheSpellingsNumPyAccepts) {
  for (char major : {'\x02', '\x03'}) {
    Expected<NpyArray> array = parseNpy(bytesOf(npyFile(header("<i4", "(2,)"), "abcdefgh", major)));
    ASSERT_TRUE(array) << array.status().message();
    EXPECT_EQ(array->type, TCPU_TYPE_I32);
    EXPECT_EQ(array->shape, std::vector<uint64_t>{2});
  }
  // '<' on one-byte types, double quotes, keys in another order, no trailing comma, Python 2's
  // long suffix, a scalar.
  Expected<NpyArray> int8 = parseNpy(bytesOf(npyFile(header("<i1", "(2,)"), "ab")));
  ASSERT_TRUE(int8) << int8.status().message();
  EXPECT_EQ(int8->type, TCPU_TYPE_I8);
  Expected<NpyArray> reordered = parseNpy(
      bytesOf(npyFile("{\"shape\": (2L, 1L), \"fortran_order\": False, \"descr\": \"|b1\"}",
                      std::string("\x01\x00", 2))));
  ASSERT_TRUE(reordered) << reordered.status().message();
  EXPECT_EQ(reordered->type, TCPU_TYPE_I1);
  EXPECT_EQ(reordered->shape, (std::vector<uint64_t>{2, 1}));
  Expected<NpyArray> scalar = parseNpy(bytesOf(npyFile(header("<f8", "()"), "12345678")));
  ASSERT_TRUE(scalar) << scalar.status().message();
  EXPECT_TRUE(scalar->shape.empty());
  EXPECT_EQ(scalar->data.size(), 8u);
}

TEST(Npy, PreambleErrorsSayWhatIsWrong) {
  EXPECT_EQ(parseError("\x93NUM"),
            "npy: the file is 4 bytes, shorter than the 10-byte preamble of a .npy file");
  EXPECT_EQ(parseError("PK\x03\x04 not npy"), "npy: bad magic: a .npy file starts with \\x93NUMPY");
  EXPECT_EQ(parseError(std::string("\x93NUMPY\x04\x00\x10\x00", 10) + std::string(16, ' ')),
            "npy: format version 4.0 is not supported (1.0, 2.0 and 3.0 are)");
  EXPECT_NE(parseError(std::string("\x93NUMPY\x02\x00\x10\x00", 10)).find("12-byte preamble"),
            std::string::npos);
  EXPECT_EQ(parseError(std::string("\x93NUMPY\x01\x00\xff\x00{}", 12)),
            "npy: the header of 255 bytes runs past the end of the 12-byte file");
  EXPECT_NE(parseError(npyFile(header("<f4", "(3,)"), "12345678901"))
                .find("the data is 11 bytes but shape (3,) of fp32 needs 12"),
            std::string::npos);
  EXPECT_NE(parseError(npyFile(header("<f4", "(3,)"), "1234567890123")).find("data is 13 bytes"),
            std::string::npos);
}

TEST(Npy, HeaderErrorsSayWhatIsWrong) {
  const auto error = [](const std::string& text) { return parseError(npyFile(text, "")); };
  EXPECT_NE(error("['descr', '<f4']").find("the header is not a dict"), std::string::npos);
  EXPECT_EQ(error("{'descr': '<f4', 'fortran_order': False}"),
            "npy: the header has no 'shape' key");
  EXPECT_EQ(error("{'shape': (0,), 'fortran_order': False}"), "npy: the header has no 'descr' key");
  EXPECT_EQ(error("{'descr': '<f4', 'shape': (0,)}"), "npy: the header has no 'fortran_order' key");
  EXPECT_NE(error("{'descr': '<f4', 'descr': '<f4'}").find("has key 'descr' twice"),
            std::string::npos);
  EXPECT_NE(error("{'descr': '<f4', 'version': 2}").find("header key 'version' is not one of"),
            std::string::npos);
  EXPECT_NE(error("{'descr' '<f4'}").find("expected ':' after key 'descr'"), std::string::npos);
  EXPECT_NE(error("{'descr': '<f4").find("unterminated string"), std::string::npos);
  EXPECT_NE(error("{'descr': '<f\\x34'}").find("escapes"), std::string::npos);
  EXPECT_NE(error("{'descr': '<f4' 'shape': ()}").find("expected ',' or '}'"), std::string::npos);
  EXPECT_NE(error(header("<f4", "(0,)") + " extra").find("unexpected text after the dict"),
            std::string::npos);
  EXPECT_NE(error("{'fortran_order': maybe}").find("must be True or False"), std::string::npos);
}

TEST(Npy, DtypeAndLayoutErrorsSayWhatIsWrong) {
  const auto error = [](const std::string& descr, const std::string& shape,
                        const std::string& fortran = "False") {
    return parseError(npyFile(header(descr, shape, fortran), ""));
  };
  EXPECT_EQ(error(">f4", "(0,)"), "npy: dtype '>f4' is big-endian; only little-endian data is "
                                  "supported");
  EXPECT_NE(error("<c8", "(0,)").find("dtype '<c8' is not supported (supported: <f2"),
            std::string::npos);
  EXPECT_NE(error("|f4", "(0,)").find("dtype '|f4' is not supported"), std::string::npos);
  EXPECT_NE(error("<U3", "(0,)").find("not supported"), std::string::npos);
  EXPECT_NE(error("f4", "(0,)").find("not supported"), std::string::npos);
  EXPECT_NE(
      parseError(npyFile("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (0,)}", ""))
          .find("structured dtypes"),
      std::string::npos);
  EXPECT_NE(error("<f4", "(2, 2)", "True").find("fortran_order is True"), std::string::npos);
}

TEST(Npy, ShapeErrorsSayWhatIsWrong) {
  const auto error = [](const std::string& shape) {
    return parseError(npyFile(header("<f8", shape), ""));
  };
  EXPECT_NE(error("(-1,)").find("a shape dimension is negative"), std::string::npos);
  EXPECT_NE(error("(3)").find("write (n,)"), std::string::npos);
  EXPECT_NE(error("3").find("shape must be a tuple"), std::string::npos);
  EXPECT_NE(error("(3; 4)").find("expected ',' or ')' in the shape"), std::string::npos);
  EXPECT_NE(error("(a,)").find("expected a dimension"), std::string::npos);
  EXPECT_NE(error("(99999999999999999999999,)").find("does not fit in 64 bits"), std::string::npos);
  EXPECT_EQ(error("(4294967296, 4294967296)"), "npy: the shape's element count overflows 64 bits");
  EXPECT_NE(error("(4611686018427387904,)").find("needs more than 2^64 bytes"), std::string::npos);
  std::string deep = "(";
  for (int i = 0; i < 65; ++i)
    deep += "1,";
  EXPECT_NE(error(deep + ")").find("more than 64 dimensions"), std::string::npos);
}

TEST(Npy, WriterRejectsDataThatDoesNotMatchTheShape) {
  Expected<std::string> file = formatNpy({TCPU_TYPE_I32, {2, 2}, std::vector<std::byte>(12)});
  ASSERT_FALSE(file);
  EXPECT_EQ(file.status().message(), "npy: the data is 12 bytes but shape (2, 2) of i32 needs 16");
}

// Every prefix of a valid file, and random corruptions of one, are errors or arrays: never a
// crash, a hang or an allocation sized from unchecked fields.
TEST(Npy, TruncatedAndCorruptedFilesNeverCrash) {
  const std::string valid = *formatNpy({TCPU_TYPE_I16, {2, 3}, std::vector<std::byte>(12)});
  for (std::size_t size = 0; size < valid.size(); ++size)
    EXPECT_FALSE(parseNpy(bytesOf(valid.substr(0, size)))) << "prefix of " << size << " bytes";
  std::mt19937_64 random(1234);
  for (int round = 0; round < 5000; ++round) {
    std::string corrupt = valid;
    const int flips = 1 + static_cast<int>(random() % 4);
    for (int i = 0; i < flips; ++i)
      corrupt[random() % 128] = static_cast<char>(random() & 0xff);
    Expected<NpyArray> array = parseNpy(bytesOf(corrupt));
    if (array) {
      Expected<uint64_t> count = elementCount(array->shape);
      ASSERT_TRUE(count);
      EXPECT_EQ(array->data.size(), *count * dataTypeSize(array->type));
    }
  }
}

TEST(Npy, ReadingAFileNamesThePathAndTheProblem) {
  std::string pattern = (std::filesystem::temp_directory_path() / "tcpu_npy_XXXXXX").string();
  ASSERT_NE(mkdtemp(pattern.data()), nullptr);
  const std::filesystem::path directory = pattern;

  Expected<NpyArray> missing = readNpyFile(directory / "missing.npy");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.status().code(), TCPU_ERROR_FILE_NOT_FOUND);
  EXPECT_NE(missing.status().message().find("missing.npy' does not exist"), std::string::npos);

  Expected<NpyArray> folder = readNpyFile(directory);
  ASSERT_FALSE(folder);
  EXPECT_NE(folder.status().message().find("is not a regular file"), std::string::npos);

  std::ofstream(directory / "bad.npy") << "not a numpy file";
  Expected<NpyArray> bad = readNpyFile(directory / "bad.npy");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.status().code(), TCPU_ERROR_INVALID_VALUE);
  EXPECT_EQ(bad.status().message(), (directory / "bad.npy").string() +
                                        ": npy: bad magic: a .npy "
                                        "file starts with \\x93NUMPY");

  const std::string good =
      *formatNpy({TCPU_TYPE_U8, {3}, {std::byte{1}, std::byte{2}, std::byte{3}}});
  std::ofstream(directory / "good.npy", std::ios::binary) << good;
  Expected<NpyArray> read = readNpyFile(directory / "good.npy");
  ASSERT_TRUE(read) << read.status().message();
  EXPECT_EQ(read->data, (std::vector<std::byte>{std::byte{1}, std::byte{2}, std::byte{3}}));
  std::filesystem::remove_all(directory);
}

} // namespace
} // namespace tcpu::cli
