// tl: Triton's block language in C++20. One program per grid point works on
// whole blocks; see kernels/README.md for the guide and the mapping from
// triton.language.
#ifndef TCPU_TL_H
#define TCPU_TL_H

#include "tcpu/tl/atomic.h"
#include "tcpu/tl/block_ptr.h"
#include "tcpu/tl/core.h"
#include "tcpu/tl/dot.h"
#include "tcpu/tl/frontend.h"
#include "tcpu/tl/index.h"
#include "tcpu/tl/math_extra.h"
#include "tcpu/tl/memory.h"
#include "tcpu/tl/mx.h"
#include "tcpu/tl/program.h"
#include "tcpu/tl/random.h"
#include "tcpu/tl/random_blocks.h"
#include "tcpu/tl/rank_n.h"
#include "tcpu/tl/reduce.h"
#include "tcpu/tl/scan.h"
#include "tcpu/tl/shape.h"
#include "tcpu/tl/sort.h"

#endif
