// The value digest of tools/spec_digest.py, for the C++ parsers generated from ksy/
// (make spec-compile). Builds as C++98 and C++11: the generated accessors return raw
// pointers in both, and vectors are indexed, so the same driver reads both APIs.
#ifndef QUAKEMODELS_DIGEST_H
#define QUAKEMODELS_DIGEST_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmath>
#include <exception>
#include <fstream>
#include <memory>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "kaitai/kaitaistream.h"

// FNV-1a 64 over numbers fed as little-endian IEEE doubles (one canonical NaN) and over
// byte strings fed as their length, then their bytes.
class Sum {
public:
    Sum() : h(0xcbf29ce484222325ULL), n(0) {}

    void raw(const std::string& data) {
        for (std::string::size_type i = 0; i < data.size(); ++i) {
            byte(static_cast<unsigned char>(data[i]));
        }
    }
    void num(double v) {
        uint64_t bits;
        if (v != v) {
            bits = 0x7ff8000000000000ULL;
        } else {
            memcpy(&bits, &v, sizeof bits);
        }
        for (int i = 0; i < 8; ++i) {
            byte(static_cast<unsigned char>((bits >> (8 * i)) & 0xff));
        }
    }
    void data(const std::string& s) {
        num(static_cast<double>(s.size()));
        raw(s);
    }
    template <typename T>
    void nums(const std::vector<T>* values) {
        for (size_t i = 0; i < values->size(); ++i) {
            num(static_cast<double>((*values)[i]));
        }
    }
    std::string line(const char* key) const {
        char buf[64];
        snprintf(buf, sizeof buf, " %lu %016llx", static_cast<unsigned long>(n),
                 static_cast<unsigned long long>(h));
        return std::string(key) + buf;
    }

    uint64_t h;
    size_t n;

private:
    void byte(unsigned char b) {
        h ^= b;
        h *= 0x100000001b3ULL;
    }
};

inline std::string hex(const std::string& s) {
    std::string out;
    char buf[3];
    for (std::string::size_type i = 0; i < s.size(); ++i) {
        snprintf(buf, sizeof buf, "%02x", static_cast<unsigned>(static_cast<unsigned char>(s[i])));
        out += buf;
    }
    return out;
}

template <typename T>
std::string kv(const char* key, T value) {
    std::ostringstream out;
    out << key << " " << value;
    return out.str();
}

// An element of a generated vector of objects: a raw pointer (C++98) or a unique_ptr (C++11).
template <typename T>
T* ptr(T* p) {
    return p;
}
#if __cplusplus >= 201103L
template <typename T>
T* ptr(const std::unique_ptr<T>& p) {
    return p.get();
}
#endif

template <typename V>
void vec(Sum& s, V* v) {
    s.num(v->x());
    s.num(v->y());
    s.num(v->z());
}

// Runs `digest` (file stream -> lines) on every file named on the command line and prints
// each block; a file the parser rejects is the single line "error".
inline int run_all(int argc, char** argv, std::vector<std::string> (*digest)(kaitai::kstream*)) {
    for (int i = 1; i < argc; ++i) {
        std::vector<std::string> lines;
        try {
            std::ifstream in(argv[i], std::ios::in | std::ios::binary);
            if (!in) {
                std::cerr << argv[i] << ": cannot open\n";
                return 2;
            }
            kaitai::kstream ks(&in);
            lines = digest(&ks);
        } catch (const std::exception&) {
            lines.clear();
            lines.push_back("error");
        }
        std::cout << "== " << argv[i] << "\n";
        for (size_t j = 0; j < lines.size(); ++j) {
            std::cout << lines[j] << "\n";
        }
    }
    return 0;
}

#endif
