// The source revision the binary was built from, handed in by the package manifest (the git
// commit, "+changes" when the tree differed from it; "unknown" outside a git checkout).
#include "CLinux.h"

#ifndef LODESTONE_REVISION
#define LODESTONE_REVISION "unknown"
#endif

const char *lodestone_revision(void) { return LODESTONE_REVISION; }
