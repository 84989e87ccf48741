// Does not compile: the test checks that clang's diagnostic comes back.
extern "C" void broken(unsigned x, unsigned y, unsigned z, unsigned a, unsigned b, unsigned c) {
  int value = undeclared_name + 1;
}
