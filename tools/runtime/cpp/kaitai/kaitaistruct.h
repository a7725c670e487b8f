// quakemodels' test runtime for Kaitai Struct C++/STL code -- NOT the official
// runtime (see tools/runtime/README.md).
#ifndef QUAKEMODELS_KAITAI_KAITAISTRUCT_H
#define QUAKEMODELS_KAITAI_KAITAISTRUCT_H

#include "kaitai/kaitaistream.h"

namespace kaitai {

// Base of every generated type: holds the stream the type was read from.
class kstruct {
public:
    explicit kstruct(kstream* io) : m__io(io) {}
    virtual ~kstruct() {}
    kstream* _io() { return m__io; }

protected:
    kstream* m__io;
};

}  // namespace kaitai

#endif
