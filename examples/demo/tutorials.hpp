// The demo's second table: Triton's tutorials ported to tl (kernels/tutorials),
// each run on a small input and checked against a double-precision reference.
#ifndef TCPU_EXAMPLES_DEMO_TUTORIALS_HPP
#define TCPU_EXAMPLES_DEMO_TUTORIALS_HPP

namespace tcpu::demo {

// Prints one row per kernel; true when every result is within its tolerance.
bool runTutorials(const char* kernelsDirectory);

} // namespace tcpu::demo

#endif
