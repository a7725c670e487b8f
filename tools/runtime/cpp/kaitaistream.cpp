// quakemodels' test runtime for Kaitai Struct C++/STL code -- NOT the official
// runtime (see tools/runtime/README.md).
#include "kaitai/kaitaistream.h"

#include <string.h>

#include <iterator>
#include <sstream>
#include <stdexcept>

namespace kaitai {

kstream::kstream(const std::string& data) : m_data(data), m_pos(0) {}

kstream::kstream(std::istream* in) : m_data(), m_pos(0) {
    std::ostringstream all;
    all << in->rdbuf();
    m_data = all.str();
}

bool kstream::is_eof() const { return m_pos >= size(); }

void kstream::seek(int64_t pos) {
    if (pos < 0) {
        std::ostringstream msg;
        msg << "seek to a negative position " << pos;
        throw std::out_of_range(msg.str());
    }
    m_pos = pos;
}

int64_t kstream::pos() const { return m_pos; }

int64_t kstream::size() const { return static_cast<int64_t>(m_data.size()); }

const char* kstream::take(int64_t n) {
    if (n < 0) {
        std::ostringstream msg;
        msg << "read of a negative length " << n << " at pos " << m_pos;
        throw std::invalid_argument(msg.str());
    }
    // As in Python's runtime, reading nothing succeeds anywhere, even past the end.
    if (n > 0 && (m_pos > size() || n > size() - m_pos)) {
        std::ostringstream msg;
        msg << "end of stream: " << n << " bytes at pos " << m_pos << " of " << size();
        throw std::out_of_range(msg.str());
    }
    const char* at = m_data.data() + m_pos;
    m_pos += n;
    return at;
}

uint8_t kstream::read_u1() { return static_cast<uint8_t>(take(1)[0]); }

// Little-endian by assembling bytes, so the host's byte order does not matter.
int16_t kstream::read_s2le() {
    const unsigned char* b = reinterpret_cast<const unsigned char*>(take(2));
    uint16_t v = static_cast<uint16_t>(b[0] | (b[1] << 8));
    return static_cast<int16_t>(v);
}

int32_t kstream::read_s4le() {
    const unsigned char* b = reinterpret_cast<const unsigned char*>(take(4));
    uint32_t v = static_cast<uint32_t>(b[0]) | (static_cast<uint32_t>(b[1]) << 8) |
                 (static_cast<uint32_t>(b[2]) << 16) | (static_cast<uint32_t>(b[3]) << 24);
    return static_cast<int32_t>(v);
}

int8_t kstream::read_s1() { return static_cast<int8_t>(read_u1()); }

uint16_t kstream::read_u2le() { return static_cast<uint16_t>(read_s2le()); }

uint32_t kstream::read_u4le() { return static_cast<uint32_t>(read_s4le()); }

double kstream::read_f8le() {
    uint64_t lo = read_u4le();
    uint64_t hi = read_u4le();
    uint64_t bits = lo | (hi << 32);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

float kstream::read_f4le() {
    uint32_t bits = static_cast<uint32_t>(read_s4le());
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

std::string kstream::read_bytes_term(char term, bool include, bool consume, bool eos_error) {
    int64_t start = m_pos < size() ? m_pos : size();
    const char* begin = m_data.data() + start;
    const void* found = memchr(begin, term, static_cast<size_t>(size() - start));
    if (found == NULL) {
        if (eos_error) {
            std::ostringstream msg;
            msg << "end of stream reached, but no terminator " << static_cast<int>(term)
                << " found";
            throw std::out_of_range(msg.str());
        }
        m_pos = size();
        return std::string(begin, static_cast<size_t>(size() - start));
    }
    int64_t len = static_cast<const char*>(found) - begin;
    m_pos = start + len + (consume ? 1 : 0);
    return std::string(begin, static_cast<size_t>(len + (include ? 1 : 0)));
}

std::string kstream::read_bytes(int64_t len) {
    const char* at = take(len);
    return std::string(at, static_cast<size_t>(len));
}

std::string kstream::bytes_strip_right(std::string src, char pad_byte) {
    std::string::size_type end = src.size();
    while (end > 0 && src[end - 1] == pad_byte) {
        --end;
    }
    return src.substr(0, end);
}

std::string kstream::bytes_terminate(std::string src, char term, bool include) {
    std::string::size_type at = src.find(term);
    if (at == std::string::npos) {
        return src;
    }
    return src.substr(0, include ? at + 1 : at);
}

std::string kstream::bytes_to_str(const std::string& src, const char* src_enc) {
    if (strcmp(src_enc, "ISO-8859-1") == 0) {
        // Each byte is the code point of its value; the result is UTF-8, as the official
        // runtime returns (and Python's str encodes for the digest).
        std::string out;
        out.reserve(src.size() * 2);
        for (std::string::size_type i = 0; i < src.size(); ++i) {
            unsigned char c = static_cast<unsigned char>(src[i]);
            if (c < 0x80) {
                out += static_cast<char>(c);
            } else {
                out += static_cast<char>(0xC0 | (c >> 6));
                out += static_cast<char>(0x80 | (c & 0x3F));
            }
        }
        return out;
    }
    if (strcmp(src_enc, "ASCII") != 0) {
        throw std::invalid_argument(std::string("unsupported encoding in the test runtime: ") +
                                    src_enc);
    }
    for (std::string::size_type i = 0; i < src.size(); ++i) {
        if (static_cast<unsigned char>(src[i]) >= 0x80) {
            std::ostringstream msg;
            msg << "byte 0x" << std::hex << static_cast<int>(static_cast<unsigned char>(src[i]))
                << " at index " << std::dec << i << " is not ASCII";
            throw std::invalid_argument(msg.str());
        }
    }
    return src;
}

}  // namespace kaitai
