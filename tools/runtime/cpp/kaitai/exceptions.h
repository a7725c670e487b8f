// quakemodels' test runtime for Kaitai Struct C++/STL code -- NOT the official
// runtime (see tools/runtime/README.md). The errors generated code throws.
#ifndef QUAKEMODELS_KAITAI_EXCEPTIONS_H
#define QUAKEMODELS_KAITAI_EXCEPTIONS_H

#include <sstream>
#include <stdexcept>
#include <string>

#include "kaitai/kaitaistream.h"

namespace kaitai {

// A parse error at a spec path (e.g. "/seq/1"), carrying the stream position.
class kstruct_error : public std::runtime_error {
public:
    kstruct_error(const std::string& what, kstream* io, const std::string& src_path)
        : std::runtime_error(src_path + ": at pos " + pos_of(io) + ": " + what) {}

private:
    static std::string pos_of(kstream* io) {
        std::ostringstream out;
        if (io) {
            out << io->pos();
        } else {
            out << "?";
        }
        return out.str();
    }
};

class validation_failed_error : public kstruct_error {
public:
    validation_failed_error(const std::string& what, kstream* io, const std::string& src_path)
        : kstruct_error("validation failed: " + what, io, src_path) {}
};

// `valid: eq` / `contents` mismatch. The values are kept for callers that want them.
template <typename T>
class validation_not_equal_error : public validation_failed_error {
public:
    validation_not_equal_error(const T& expected, const T& actual, kstream* io,
                               const std::string& src_path)
        : validation_failed_error("not equal", io, src_path),
          m_expected(expected),
          m_actual(actual) {}
    virtual ~validation_not_equal_error() throw() {}
    const T& expected() const { return m_expected; }
    const T& actual() const { return m_actual; }

private:
    T m_expected;
    T m_actual;
};

}  // namespace kaitai

#endif
