// placeholder, replaced by the port of the tutorial
#include "tcpu/tl.h"
