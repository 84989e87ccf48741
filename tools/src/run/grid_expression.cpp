#include "run/grid_expression.hpp"

#include <algorithm>
#include <limits>
#include <memory>

namespace tcpu::cli {
namespace {

// Deeper nesting than any real grid needs; the limit keeps the recursive parser's stack
// bounded on hostile input ("((((...").
constexpr int kMaxNesting = 64;
// Left-associative chains ("1+1+...") nest too; bounding the tokens bounds every recursion
// over the tree (parse, checks, evaluation, destruction).
constexpr std::size_t kMaxTokens = 256;

constexpr std::array<const char*, 3> kAxisNames = {"gridX", "gridY", "gridZ"};

bool isBlank(char c) {
  return c == ' ' || c == '\t';
}
bool isDigit(char c) {
  return c >= '0' && c <= '9';
}
bool isIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isIdentifierChar(char c) {
  return isIdentifierStart(c) || isDigit(c);
}

// A character for a message: itself when printable, else \xNN.
std::string showCharacter(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x20 && byte < 0x7f) return std::string(1, c);
  constexpr char kHex[] = "0123456789abcdef";
  return concat("\\x", kHex[byte >> 4], kHex[byte & 15]);
}

struct Token {
  enum class Kind { Number, Name, Operator, End };
  Kind kind = Kind::End;
  std::string_view text;
  std::size_t offset = 0; // in the entry
  int64_t value = 0;      // Number
};

struct Node {
  enum class Kind { Literal, Name, Negate, Binary };
  Kind kind = Kind::Literal;
  char op = 0;
  int64_t value = 0;
  std::string name;
  std::size_t offset = 0; // in the entry
  std::unique_ptr<Node> left, right;
};

using NodePointer = std::unique_ptr<Node>;

// Parses one trimmed entry into a tree. Names are not checked here: parseGrid checks them
// against the kernel's arguments, evaluateGrid against the values it is given.
class EntryParser {
public:
  // entryColumn: the 1-based column of entry[0] in the whole --grid text.
  EntryParser(std::string_view entry, std::size_t entryColumn)
      : entry_(entry), entryColumn_(entryColumn) {}

  Expected<NodePointer> parse() {
    if (Status status = tokenize(); !status.ok()) return status;
    Expected<NodePointer> root = parseSum(0);
    if (!root) return root;
    const Token& extra = peek();
    if (extra.kind != Token::Kind::End) {
      if (extra.text == ")") return error(extra.offset, "unmatched ')'");
      return error(extra.offset, concat("expected an operator before '", extra.text, "'"));
    }
    return root;
  }

  Status error(std::size_t offset, const std::string& what) const {
    return Status(TCPU_ERROR_INVALID_VALUE, concat("--grid column ", entryColumn_ + offset, ": ",
                                                   what, " in '", entry_, "'"));
  }

private:
  Status tokenize() {
    std::size_t at = 0;
    while (at < entry_.size()) {
      const char c = entry_[at];
      if (tokens_.size() >= kMaxTokens)
        return error(at, concat("more than ", kMaxTokens, " tokens in one entry"));
      if (isBlank(c)) {
        ++at;
      } else if (isDigit(c)) {
        // Read what C would take as one number (a pp-number, roughly), so that 0x10, 10u and
        // 1e3 are rejected whole instead of splitting into a number and a name.
        std::size_t end = at;
        while (end < entry_.size() && (isIdentifierChar(entry_[end]) || entry_[end] == '.'))
          ++end;
        Expected<Token> number = readNumber(at, end);
        if (!number) return number.status();
        tokens_.push_back(*number);
        at = end;
      } else if (isIdentifierStart(c)) {
        std::size_t end = at;
        while (end < entry_.size() && isIdentifierChar(entry_[end]))
          ++end;
        tokens_.push_back({Token::Kind::Name, entry_.substr(at, end - at), at, 0});
        at = end;
      } else if (c == '-' && at + 1 < entry_.size() && entry_[at + 1] == '-') {
        return error(at, "'--' is C's decrement operator (write '- -')");
      } else if (std::string_view("+-*/%(),").find(c) != std::string_view::npos) {
        tokens_.push_back({Token::Kind::Operator, entry_.substr(at, 1), at, 0});
        ++at;
      } else {
        return error(at, concat("unexpected character '", showCharacter(c), "'"));
      }
    }
    tokens_.push_back({Token::Kind::End, {}, entry_.size(), 0});
    return {};
  }

  Expected<Token> readNumber(std::size_t begin, std::size_t end) const {
    const std::string_view text = entry_.substr(begin, end - begin);
    for (char c : text)
      if (!isDigit(c)) return error(begin, concat("'", text, "' is not a decimal integer"));
    if (text.size() > 1 && text[0] == '0')
      return error(begin, concat("'", text, "' has a leading zero (C reads it as octal)"));
    int64_t value = 0;
    for (char c : text) {
      if (__builtin_mul_overflow(value, 10, &value) ||
          __builtin_add_overflow(value, c - '0', &value))
        return error(begin, concat("'", text, "' does not fit in int64"));
    }
    return Token{Token::Kind::Number, text, begin, value};
  }

  const Token& peek() const { return tokens_[next_]; }
  bool takeOperator(std::string_view ops, char& taken) {
    const Token& token = peek();
    if (token.kind != Token::Kind::Operator || ops.find(token.text[0]) == std::string_view::npos)
      return false;
    taken = token.text[0];
    ++next_;
    return true;
  }

  static NodePointer binary(char op, std::size_t offset, NodePointer left, NodePointer right) {
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::Binary;
    node->op = op;
    node->offset = offset;
    node->left = std::move(left);
    node->right = std::move(right);
    return node;
  }

  // sum := product (('+' | '-') product)*
  Expected<NodePointer> parseSum(int depth) {
    Expected<NodePointer> left = parseProduct(depth);
    if (!left) return left;
    char op = 0;
    while (true) {
      const std::size_t offset = peek().offset;
      if (!takeOperator("+-", op)) return left;
      Expected<NodePointer> right = parseProduct(depth);
      if (!right) return right;
      left = binary(op, offset, left.take(), right.take());
    }
  }

  // product := unary (('*' | '/' | '%') unary)*
  Expected<NodePointer> parseProduct(int depth) {
    Expected<NodePointer> left = parseUnary(depth);
    if (!left) return left;
    char op = 0;
    while (true) {
      const std::size_t offset = peek().offset;
      if (!takeOperator("*/%", op)) return left;
      Expected<NodePointer> right = parseUnary(depth);
      if (!right) return right;
      left = binary(op, offset, left.take(), right.take());
    }
  }

  // unary := '-' unary | primary
  Expected<NodePointer> parseUnary(int depth) {
    const std::size_t offset = peek().offset;
    char op = 0;
    if (!takeOperator("-", op)) return parsePrimary(depth);
    if (depth >= kMaxNesting)
      return error(offset, concat("more than ", kMaxNesting, " nested operators"));
    Expected<NodePointer> operand = parseUnary(depth + 1);
    if (!operand) return operand;
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::Negate;
    node->offset = offset;
    node->left = operand.take();
    return node;
  }

  // primary := number | name | '(' sum ')'
  Expected<NodePointer> parsePrimary(int depth) {
    const Token token = peek();
    auto node = std::make_unique<Node>();
    node->offset = token.offset;
    switch (token.kind) {
    case Token::Kind::Number:
      ++next_;
      node->kind = Node::Kind::Literal;
      node->value = token.value;
      return node;
    case Token::Kind::Name:
      ++next_;
      if (peek().kind == Token::Kind::Operator && peek().text == "(")
        return parseCall(token, depth);
      node->kind = Node::Kind::Name;
      node->name = std::string(token.text);
      return node;
    case Token::Kind::End:
      return error(token.offset,
                   next_ == 0 ? "empty expression"
                              : concat("missing operand after '", tokens_[next_ - 1].text, "'"));
    case Token::Kind::Operator:
      break;
    }
    if (token.text != "(")
      return error(token.offset,
                   concat("expected a number, an argument or '(' but found '", token.text, "'"));
    if (depth >= kMaxNesting)
      return error(token.offset, concat("more than ", kMaxNesting, " nested parentheses"));
    ++next_;
    Expected<NodePointer> inner = parseSum(depth + 1);
    if (!inner) return inner;
    const Token& closing = peek();
    if (closing.kind == Token::Kind::End) return error(token.offset, "unclosed '('");
    if (closing.text != ")")
      return error(closing.offset, concat("expected ')' but found '", closing.text, "'"));
    ++next_;
    return inner;
  }

  // call := ('cdiv' | 'min' | 'max') '(' sum ',' sum ')', as Triton users write grids
  // (triton.cdiv(n, BLOCK)); a Binary node whose op is 'c', '<' or '>'.
  Expected<NodePointer> parseCall(const Token& name, int depth) {
    char op = 0;
    if (name.text == "cdiv")
      op = 'c';
    else if (name.text == "min")
      op = '<';
    else if (name.text == "max")
      op = '>';
    else
      return error(name.offset,
                   concat("unknown function '", name.text, "' (cdiv, min and max are known)"));
    if (depth >= kMaxNesting)
      return error(name.offset, concat("more than ", kMaxNesting, " nested parentheses"));
    ++next_; // '('
    Expected<NodePointer> first = parseSum(depth + 1);
    if (!first) return first;
    char comma = 0;
    if (peek().kind == Token::Kind::End) return error(name.offset, "unclosed '('");
    if (!takeOperator(",", comma))
      return error(peek().offset, concat(name.text, "() takes two arguments"));
    Expected<NodePointer> second = parseSum(depth + 1);
    if (!second) return second;
    const Token& closing = peek();
    if (closing.kind == Token::Kind::End) return error(name.offset, "unclosed '('");
    if (closing.text != ")")
      return error(closing.offset,
                   concat(name.text, "() takes two arguments; found '", closing.text, "'"));
    ++next_;
    NodePointer call = binary(op, name.offset, first.take(), second.take());
    call->name = std::string(name.text); // for messages, and to refuse an argument of that name
    return call;
  }

  std::string_view entry_;
  std::size_t entryColumn_;
  std::vector<Token> tokens_;
  std::size_t next_ = 0;
};

// The first name (leftmost in the text) that `known` rejects, or null.
const Node* firstUnknownName(const Node& node, const std::vector<std::string>& known) {
  if (node.kind == Node::Kind::Name) {
    for (const std::string& name : known)
      if (name == node.name) return nullptr;
    return &node;
  }
  for (const NodePointer* child : {&node.left, &node.right}) {
    if (!*child) continue;
    if (const Node* unknown = firstUnknownName(**child, known)) return unknown;
  }
  return nullptr;
}

// The first call (leftmost) to a function that is also one of `arguments` (the generated C
// could not call it: the parameter hides it), or null.
const Node* firstShadowedCall(const Node& node, const std::vector<std::string>& arguments) {
  if (node.kind == Node::Kind::Binary && !node.name.empty())
    for (const std::string& argument : arguments)
      if (argument == node.name) return &node;
  for (const NodePointer* child : {&node.left, &node.right}) {
    if (!*child) continue;
    if (const Node* shadowed = firstShadowedCall(**child, arguments)) return shadowed;
  }
  return nullptr;
}

std::string listArguments(const std::vector<std::string>& names) {
  if (names.empty()) return "(the kernel has no scalar arguments)";
  std::string list = "(arguments: ";
  for (std::size_t i = 0; i < names.size(); ++i)
    list += (i ? ", " : "") + names[i];
  return list + ")";
}

// Evaluates a parsed entry; `fail` builds the error for a reason.
class Evaluator {
public:
  Evaluator(const std::map<std::string, int64_t>& values, std::string prefix)
      : values_(values), prefix_(std::move(prefix)) {}

  Expected<int64_t> evaluate(const Node& node) const {
    switch (node.kind) {
    case Node::Kind::Literal:
      return node.value;
    case Node::Kind::Name: {
      auto found = values_.find(node.name);
      if (found == values_.end()) return fail(concat("argument '", node.name, "' has no value"));
      return found->second;
    }
    case Node::Kind::Negate: {
      Expected<int64_t> operand = evaluate(*node.left);
      if (!operand) return operand;
      if (*operand == std::numeric_limits<int64_t>::min()) return fail("overflow in unary '-'");
      return -*operand;
    }
    case Node::Kind::Binary:
      break;
    }
    Expected<int64_t> left = evaluate(*node.left);
    if (!left) return left;
    Expected<int64_t> right = evaluate(*node.right);
    if (!right) return right;
    return apply(node.op, *left, *right);
  }

private:
  Expected<int64_t> apply(char op, int64_t left, int64_t right) const {
    int64_t result = 0;
    const std::string operation = concat(left, " ", op, " ", right);
    switch (op) {
    case '+':
      if (__builtin_add_overflow(left, right, &result)) break;
      return result;
    case '-':
      if (__builtin_sub_overflow(left, right, &result)) break;
      return result;
    case '*':
      if (__builtin_mul_overflow(left, right, &result)) break;
      return result;
    case 'c': // cdiv: ceil(left / right), for a positive divisor (Triton's (x + y - 1) // y)
      if (right <= 0) return fail(concat("cdiv(", left, ", ", right, ") needs a positive divisor"));
      return left / right + (left % right != 0 && left > 0 ? 1 : 0);
    case '<':
      return std::min(left, right);
    case '>':
      return std::max(left, right);
    default: // '/' and '%': C's truncating division, and its undefined cases as errors
      if (right == 0) return fail(concat("division by zero in ", operation));
      if (left == std::numeric_limits<int64_t>::min() && right == -1) break;
      return op == '/' ? left / right : left % right;
    }
    return fail(concat("int64 overflow in ", operation));
  }

  Status fail(const std::string& what) const {
    return Status(TCPU_ERROR_INVALID_VALUE, concat(prefix_, what));
  }

  const std::map<std::string, int64_t>& values_;
  std::string prefix_;
};

} // namespace

namespace {

// The first ',' at or after `begin` outside parentheses (cdiv(a, b) has its own), or npos.
// With a '(' never closed, the first ',' at all: the entry then ends there and its parser says
// "unclosed '('" instead of the grid seeming to have too few entries.
std::size_t topLevelComma(std::string_view text, std::size_t begin) {
  int depth = 0;
  for (std::size_t i = begin; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && depth > 0) --depth;
    if (text[i] == ',' && depth == 0) return i;
  }
  return depth > 0 ? text.find(',', begin) : std::string_view::npos;
}

} // namespace

Expected<GridExpressions> parseGrid(std::string_view text,
                                    const std::vector<std::string>& argumentNames) {
  GridExpressions grid;
  std::size_t entryBegin = 0;
  for (int axis = 0; axis < 3; ++axis) {
    const bool last = axis == 2;
    std::size_t entryEnd = topLevelComma(text, entryBegin);
    if (entryEnd == std::string_view::npos) {
      if (!last)
        return Status(TCPU_ERROR_INVALID_VALUE,
                      concat("--grid column ", text.size() + 1, ": '", text, "' has ", axis + 1,
                             " entr", axis ? "ies" : "y", "; expected 3 (gX,gY,gZ)"));
      entryEnd = text.size();
    } else if (last) {
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat("--grid column ", entryEnd + 1, ": '", text,
                           "' has more than 3 entries; expected 3 (gX,gY,gZ)"));
    }
    std::size_t first = entryBegin, end = entryEnd;
    while (first < end && isBlank(text[first]))
      ++first;
    while (end > first && isBlank(text[end - 1]))
      --end;
    const std::string_view entry = text.substr(first, end - first);
    if (entry.empty())
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat("--grid column ", first + 1, ": entry ", axis + 1, " (",
                           kAxisNames[axis], ") is empty in '", text, "'"));
    EntryParser parser(entry, first + 1);
    Expected<NodePointer> root = parser.parse();
    if (!root) return root.status();
    if (const Node* unknown = firstUnknownName(**root, argumentNames))
      return Status(
          TCPU_ERROR_INVALID_VALUE,
          concat(parser.error(unknown->offset, concat("unknown argument '", unknown->name, "'"))
                     .message(),
                 " ", listArguments(argumentNames)));
    if (const Node* shadowed = firstShadowedCall(**root, argumentNames))
      return parser.error(shadowed->offset, concat("'", shadowed->name,
                                                   "' is an argument of the kernel, so "
                                                   "it cannot be called here"));
    grid.text[axis] = std::string(entry);
    entryBegin = entryEnd + 1;
  }
  return grid;
}

Expected<uint32_t> evaluateGrid(const GridExpressions& grid, int axis,
                                const std::map<std::string, int64_t>& values) {
  if (axis < 0 || axis > 2)
    return Status(TCPU_ERROR_INVALID_VALUE, concat("--grid axis ", axis, " is not 0, 1 or 2"));
  const std::string& text = grid.text[axis];
  Expected<NodePointer> root = EntryParser(text, 1).parse();
  if (!root) return root.status();
  const Evaluator evaluator(values, concat("--grid ", kAxisNames[axis], " '", text, "': "));
  Expected<int64_t> value = evaluator.evaluate(**root);
  if (!value) return value.status();
  if (*value < 0 || *value > int64_t{std::numeric_limits<uint32_t>::max()})
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat("--grid ", kAxisNames[axis], " '", text, "' is ", *value,
                         "; a grid dimension must be in [0, 4294967295]"));
  return static_cast<uint32_t>(*value);
}

} // namespace tcpu::cli
