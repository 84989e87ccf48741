#include "tutorial_test_support.hpp"
