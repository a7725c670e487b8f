// quakemodels' test runtime for Kaitai Struct C++/STL code -- NOT the official
// kaitai_struct_cpp_stl_runtime. Written for this project (tools/runtime/README.md)
// so that `make spec-compile` can build and run the code the pinned compiler
// generates for ksy/*.ksy. It implements only what that code calls.
#ifndef QUAKEMODELS_KAITAI_KAITAISTREAM_H
#define QUAKEMODELS_KAITAI_KAITAISTREAM_H

// The API level the generated headers check for (0.11).
#ifndef KAITAI_STRUCT_VERSION
#define KAITAI_STRUCT_VERSION 11000L
#endif

#include <stdint.h>

#include <istream>
#include <string>

namespace kaitai {

// A read-only stream over bytes held in memory. The whole input is read at
// construction, so positions are plain byte offsets and a substream is a copy.
class kstream {
public:
    explicit kstream(const std::string& data);
    explicit kstream(std::istream* in);

    bool is_eof() const;
    // A negative position is an error; past the end is allowed (reads then fail).
    void seek(int64_t pos);
    int64_t pos() const;
    int64_t size() const;

    uint8_t read_u1();
    int8_t read_s1();
    int16_t read_s2le();
    uint16_t read_u2le();
    int32_t read_s4le();
    uint32_t read_u4le();
    float read_f4le();
    double read_f8le();
    std::string read_bytes(int64_t len);
    // Up to the byte ``term`` (kept when ``include``, stepped over when ``consume``); without
    // it, the rest of the stream, or an error when ``eos_error`` (Python's read_bytes_term).
    std::string read_bytes_term(char term, bool include, bool consume, bool eos_error);

    static std::string bytes_strip_right(std::string src, char pad_byte);
    static std::string bytes_terminate(std::string src, char term, bool include);
    // Only "ASCII" is supported: a byte >= 0x80 is an error, as in Python's decode.
    static std::string bytes_to_str(const std::string& src, const char* src_enc);

private:
    // The next n bytes, or an end-of-stream error naming the position.
    const char* take(int64_t n);

    std::string m_data;
    int64_t m_pos;
};

}  // namespace kaitai

#endif
