// --grid expressions: the accepted C subset, its evaluation with C semantics, and an error
// with a column for everything outside it.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "run/grid_expression.hpp"

namespace tcpu::cli {
namespace {

const std::vector<std::string> kNames = {"x_ptr", "n"};

// The error message of parsing `text`, or "" (and a test failure) when it parses.
std::string parseError(const std::string& text) {
  Expected<GridExpressions> grid = parseGrid(text, kNames);
  EXPECT_FALSE(grid) << text;
  if (grid) return "";
  EXPECT_EQ(grid.status().code(), TCPU_ERROR_INVALID_VALUE);
  return grid.status().message();
}

// Axis 0 of "<expression>,1,1" evaluated with n.
Expected<uint32_t> evaluate(const std::string& expression, int64_t n) {
  Expected<GridExpressions> grid = parseGrid(expression + ",1,1", kNames);
  if (!grid) return grid.status();
  return evaluateGrid(*grid, 0, {{"n", n}});
}

TEST(GridExpression, KeepsEachEntryTrimmedAsWritten) {
  Expected<GridExpressions> grid = parseGrid(" (n + 1023)/1024 ,\t1,n % 7 ", kNames);
  ASSERT_TRUE(grid) << grid.status().message();
  EXPECT_EQ(grid->text[0], "(n + 1023)/1024");
  EXPECT_EQ(grid->text[1], "1");
  EXPECT_EQ(grid->text[2], "n % 7");
}

TEST(GridExpression, EvaluatesEachAxisWithPrecedenceAndParentheses) {
  Expected<GridExpressions> grid = parseGrid("(n+1023)/1024, 2+3*4, (2+3)*4-n%3", kNames);
  ASSERT_TRUE(grid) << grid.status().message();
  const std::map<std::string, int64_t> values = {{"n", 5000}, {"x_ptr", 0}};
  EXPECT_EQ(*evaluateGrid(*grid, 0, values), 5u);
  EXPECT_EQ(*evaluateGrid(*grid, 1, values), 14u);
  EXPECT_EQ(*evaluateGrid(*grid, 2, values), 18u); // 20 - 5000 % 3
}

TEST(GridExpression, DivisionAndRemainderTruncateTowardZeroAsInC) {
  EXPECT_EQ(*evaluate("-n/2 + 10", 7), 7u); // -7/2 == -3
  EXPECT_EQ(*evaluate("-n%3 + 5", 7), 4u);  // -7%3 == -1
  EXPECT_EQ(*evaluate("n/-2 + 10", 7), 7u); // 7/-2 == -3
  EXPECT_EQ(*evaluate("n - -1", 7), 8u);    // unary minus after a binary one
  EXPECT_EQ(*evaluate("- - n", 7), 7u);
}

TEST(GridExpression, ResultMustFitAGridDimension) {
  EXPECT_EQ(*evaluate("4294967295", 0), 4294967295u);
  EXPECT_EQ(*evaluate("0", 0), 0u);
  Expected<uint32_t> negative = evaluate("n-2000", 1000);
  ASSERT_FALSE(negative);
  EXPECT_EQ(negative.status().message(),
            "--grid gridX 'n-2000' is -1000; a grid dimension must be in [0, 4294967295]");
  Expected<uint32_t> large = evaluate("n*2", 4294967295);
  ASSERT_FALSE(large);
  EXPECT_NE(large.status().message().find("is 8589934590"), std::string::npos);
}

TEST(GridExpression, ArithmeticErrorsNameTheAxisAndOperation) {
  Expected<GridExpressions> grid = parseGrid("1, n/(n-n), n%0", kNames);
  ASSERT_TRUE(grid);
  Expected<uint32_t> byZero = evaluateGrid(*grid, 1, {{"n", 3}});
  ASSERT_FALSE(byZero);
  EXPECT_EQ(byZero.status().message(), "--grid gridY 'n/(n-n)': division by zero in 3 / 0");
  Expected<uint32_t> remainderByZero = evaluateGrid(*grid, 2, {{"n", 3}});
  ASSERT_FALSE(remainderByZero);
  EXPECT_NE(remainderByZero.status().message().find("division by zero in 3 % 0"),
            std::string::npos);

  Expected<uint32_t> product = evaluate("n*n", 4294967296LL * 4);
  ASSERT_FALSE(product);
  EXPECT_NE(product.status().message().find("int64 overflow in 17179869184 * 17179869184"),
            std::string::npos);
  Expected<uint32_t> quotient = evaluate("(-9223372036854775807-1)/-1", 0);
  ASSERT_FALSE(quotient);
  EXPECT_NE(quotient.status().message().find("int64 overflow"), std::string::npos);
  Expected<uint32_t> negation = evaluate("-(-9223372036854775807-1)", 0);
  ASSERT_FALSE(negation);
  EXPECT_NE(negation.status().message().find("overflow in unary '-'"), std::string::npos);
}

TEST(GridExpression, NameWithoutValueAndBadAxisAreErrors) {
  Expected<GridExpressions> grid = parseGrid("n,1,1", kNames);
  ASSERT_TRUE(grid);
  Expected<uint32_t> missing = evaluateGrid(*grid, 0, {{"x_ptr", 1}});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.status().message(), "--grid gridX 'n': argument 'n' has no value");
  EXPECT_FALSE(evaluateGrid(*grid, 3, {{"n", 1}}));
  EXPECT_FALSE(evaluateGrid(*grid, -1, {{"n", 1}}));
}

TEST(GridExpression, UnknownArgumentNamesColumnEntryAndArguments) {
  EXPECT_EQ(parseError("1,1, (m+1023)/1024"),
            "--grid column 7: unknown argument 'm' in '(m+1023)/1024' (arguments: x_ptr, n)");
  Expected<GridExpressions> none = parseGrid("k,1,1", {});
  ASSERT_FALSE(none);
  EXPECT_NE(none.status().message().find("unknown argument 'k'"), std::string::npos);
  EXPECT_NE(none.status().message().find("no scalar arguments"), std::string::npos);
}

TEST(GridExpression, WrongEntryCountsAndEmptyEntriesAreErrors) {
  EXPECT_EQ(parseError("1,2"), "--grid column 4: '1,2' has 2 entries; expected 3 (gX,gY,gZ)");
  EXPECT_EQ(parseError("n"), "--grid column 2: 'n' has 1 entry; expected 3 (gX,gY,gZ)");
  EXPECT_EQ(parseError("1,2,3,4"),
            "--grid column 6: '1,2,3,4' has more than 3 entries; expected 3 (gX,gY,gZ)");
  EXPECT_EQ(parseError("1, ,1"), "--grid column 4: entry 2 (gridY) is empty in '1, ,1'");
  EXPECT_EQ(parseError("1,1,"), "--grid column 5: entry 3 (gridZ) is empty in '1,1,'");
  EXPECT_NE(parseError("").find("has 1 entry"), std::string::npos);
}

TEST(GridExpression, UnbalancedParenthesesAndTrailingOperatorsAreErrors) {
  EXPECT_EQ(parseError("(n+1,1,1"), "--grid column 1: unclosed '(' in '(n+1'");
  EXPECT_EQ(parseError("n+1),1,1"), "--grid column 4: unmatched ')' in 'n+1)'");
  EXPECT_EQ(parseError("1,n*,1"), "--grid column 5: missing operand after '*' in 'n*'");
  EXPECT_EQ(parseError("1,1,()"),
            "--grid column 6: expected a number, an argument or '(' but found ')' in '()'");
  EXPECT_EQ(parseError("(n 2),1,1"), "--grid column 4: expected ')' but found '2' in '(n 2)'");
  EXPECT_EQ(parseError("n 2,1,1"), "--grid column 3: expected an operator before '2' in 'n 2'");
}

TEST(GridExpression, RejectsWhatCWouldReadDifferentlyOrWhatIsNotInTheSubset) {
  EXPECT_EQ(parseError("010,1,1"),
            "--grid column 1: '010' has a leading zero (C reads it as octal) in '010'");
  EXPECT_NE(parseError("0x10,1,1").find("'0x10' is not a decimal integer"), std::string::npos);
  EXPECT_NE(parseError("10u,1,1").find("'10u' is not a decimal integer"), std::string::npos);
  EXPECT_NE(parseError("1.5,1,1").find("'1.5' is not a decimal integer"), std::string::npos);
  EXPECT_EQ(parseError("n--1,1,1"),
            "--grid column 2: '--' is C's decrement operator (write '- -') in 'n--1'");
  EXPECT_NE(parseError("n/*c*/2,1,1").find("but found '*'"), std::string::npos);
  EXPECT_NE(parseError("+n,1,1").find("but found '+'"), std::string::npos);
  EXPECT_NE(parseError("n<<1,1,1").find("column 2: unexpected character '<'"), std::string::npos);
  EXPECT_NE(parseError("n;1,1,1").find("unexpected character ';'"), std::string::npos);
  EXPECT_NE(parseError("n\n,1,1").find("unexpected character '\\x0a'"), std::string::npos);
  EXPECT_NE(parseError("\xc3\xa9,1,1").find("unexpected character '\\xc3'"), std::string::npos);
  EXPECT_EQ(parseError("f(n),1,1"),
            "--grid column 1: unknown function 'f' (cdiv, min and max are known) in 'f(n)'");
  EXPECT_NE(parseError("(int)n,1,1").find("column 6: expected an operator before 'n'"),
            std::string::npos);
  EXPECT_NE(parseError("sizeof n,1,1").find("expected an operator before 'n'"), std::string::npos);
  EXPECT_NE(parseError("9223372036854775808,1,1").find("does not fit in int64"), std::string::npos);
}

TEST(GridExpression, CdivMinAndMaxAreTheFunctionsTritonGridsUse) {
  EXPECT_EQ(*evaluate("cdiv(n, 1024)", 98432), 97u);
  EXPECT_EQ(*evaluate("cdiv(n, 1024)", 1024), 1u);
  EXPECT_EQ(*evaluate("cdiv(n, 1024)", 0), 0u);
  EXPECT_EQ(*evaluate("cdiv(-n, 4) + 9", 7), 8u); // ceil(-1.75) == -1
  EXPECT_EQ(*evaluate("min(cdiv(n, 128), 64)", 100000), 64u);
  EXPECT_EQ(*evaluate("max(n - 10, 1)", 3), 1u);
  EXPECT_EQ(*evaluate("2 * max(min(n, 8), (n))", 5), 10u);
  // Commas inside a call do not separate grid entries.
  Expected<GridExpressions> grid = parseGrid("cdiv(n, 64), max(n, 2), 1", kNames);
  ASSERT_TRUE(grid) << grid.status().message();
  EXPECT_EQ(grid->text[0], "cdiv(n, 64)");
  EXPECT_EQ(grid->text[1], "max(n, 2)");
  const Expected<uint32_t> zero = evaluate("cdiv(n, n - 7)", 7);
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.status().message(),
            "--grid gridX 'cdiv(n, n - 7)': cdiv(7, 0) needs a positive divisor");
  EXPECT_EQ(parseError("cdiv(n),1,1"), "--grid column 7: cdiv() takes two arguments in 'cdiv(n)'");
  EXPECT_EQ(parseError("cdiv(n 2),1,1"),
            "--grid column 8: cdiv() takes two arguments in 'cdiv(n 2)'");
  EXPECT_EQ(parseError("min(n, 1, 2),1,1"),
            "--grid column 9: min() takes two arguments; found ',' in 'min(n, 1, 2)'");
  EXPECT_EQ(parseError("max(n, 1,1,1"), "--grid column 1: unclosed '(' in 'max(n'");
  EXPECT_EQ(parseError("(1, 2),1,1"), "--grid column 3: expected ')' but found ',' in '(1, 2)'");
  const std::vector<std::string> shadowing = {"max", "n"};
  Expected<GridExpressions> hidden = parseGrid("max(n, 2),1,1", shadowing);
  ASSERT_FALSE(hidden);
  EXPECT_EQ(hidden.status().message(), "--grid column 1: 'max' is an argument of the kernel, so "
                                       "it cannot be called here in 'max(n, 2)'");
  EXPECT_TRUE(parseGrid("max + 1,1,1", shadowing)); // the argument itself is fine
}

TEST(GridExpression, HostileNestingAndLengthAreErrorsNotCrashes) {
  EXPECT_NE(parseError(std::string(100, '(') + "1,1,1").find("nested parentheses"),
            std::string::npos);
  std::string calls;
  for (int i = 0; i < 100; ++i)
    calls += "cdiv(";
  EXPECT_NE(parseError(calls + "1,1,1").find("nested parentheses"), std::string::npos);
  EXPECT_NE(parseError(std::string(100000, '(') + "1,1,1").find("tokens in one entry"),
            std::string::npos);
  std::string negations;
  for (int i = 0; i < 100; ++i)
    negations += "- ";
  EXPECT_NE(parseError(negations + "1,1,1").find("nested operators"), std::string::npos);
  std::string chain = "1";
  for (int i = 0; i < 50000; ++i)
    chain += "+1";
  EXPECT_NE(parseError(chain + ",1,1").find("tokens in one entry"), std::string::npos);
}

// The point of the subset: an accepted entry pasted into C computes what evaluateGrid does.
TEST(GridExpression, AcceptedEntriesMeanTheSameCompiledAsC) {
  const std::vector<std::string> entries = {"(n+1023)/1024", "-n/2 + 1000000", "-n % 3 + 9",
                                            "n/-4+1000000",  "n - -1",         "((n))*2%97",
                                            "- - n"};
  std::string pattern = (std::filesystem::temp_directory_path() / "tcpu_grid_c_XXXXXX").string();
  ASSERT_NE(mkdtemp(pattern.data()), nullptr);
  const std::filesystem::path directory = pattern;
  std::ofstream program(directory / "grid.c");
  program << "#include <stdint.h>\n#include <stdio.h>\nint main(void) {\n  int64_t n = 1234567;\n";
  for (const std::string& entry : entries) {
    ASSERT_TRUE(parseGrid(entry + ",1,1", kNames)) << entry;
    program << "  printf(\"%lld\\n\", (long long)(" << entry << "));\n";
  }
  program << "  return 0;\n}\n";
  program.close();
  const std::string binary = (directory / "grid").string();
  const std::string build = std::string(TCPU_C_COMPILER) + " -std=c11 -Werror -o " + binary + " " +
                            (directory / "grid.c").string();
  ASSERT_EQ(std::system(build.c_str()), 0) << build;
  FILE* output = popen(binary.c_str(), "r");
  ASSERT_NE(output, nullptr);
  for (const std::string& entry : entries) {
    long long fromC = -1;
    ASSERT_EQ(std::fscanf(output, "%lld", &fromC), 1) << entry;
    Expected<uint32_t> ours = evaluate(entry, 1234567);
    ASSERT_TRUE(ours) << ours.status().message();
    EXPECT_EQ(static_cast<long long>(*ours), fromC) << entry;
  }
  pclose(output);
  std::filesystem::remove_all(directory);
}

} // namespace
} // namespace tcpu::cli
