// The generic digest of tools/spec_digest.py (any spec, walked by its ksy) for the C++ parsers
// generated from ksy/: `feed` turns every value the generated accessors return into the
// checksum, and the driver tools/spec_digest.py generates per spec (cpp_generic_driver) calls
// it field by field, with one `walk` per type. Built as C++11 (the generated parser and the
// runtime may be C++98: they are linked, not included into each other's standard).
#ifndef QUAKEMODELS_GENERIC_H
#define QUAKEMODELS_GENERIC_H

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "digest.h"
#include "kaitai/kaitaistruct.h"

// What an absent field (its `if` false) feeds: spec_digest.NONE.
static const std::string NONE("\xff\xfeNONE", 6);

inline void feed(Sum& s, const std::string& v) { s.data(v); }

template <typename T>
typename std::enable_if<std::is_arithmetic<T>::value>::type feed(Sum& s, T v) {
    s.num(static_cast<double>(v));
}

template <typename T>
typename std::enable_if<std::is_enum<T>::value>::type feed(Sum& s, T v) {
    s.num(static_cast<double>(static_cast<int64_t>(v)));
}

// A structure: its own fields, through the driver's walk for its type (found when the
// template is instantiated, after the driver declared every walk).
template <typename T>
typename std::enable_if<std::is_base_of<kaitai::kstruct, T>::value>::type feed(Sum& s, T* p) {
    if (p == nullptr) {
        s.raw(NONE);
        return;
    }
    walk(s, p);
}

template <typename T>
void feed(Sum& s, const std::unique_ptr<T>& p) {
    if (!p) {
        s.raw(NONE);
        return;
    }
    feed(s, p.get());
}

template <typename T>
void feed(Sum& s, const std::vector<T>& v) {
    s.num(static_cast<double>(v.size()));
    for (const auto& item : v) {
        feed(s, item);
    }
}

template <typename T>
void feed(Sum& s, std::vector<T>* v) {
    if (v == nullptr) {
        s.raw(NONE);
        return;
    }
    feed(s, *v);
}

// The count on a root field's line: a list's length, else 1 (0 when absent).
template <typename T>
size_t count(std::vector<T>* v) {
    return v == nullptr ? 0 : v->size();
}

template <typename T>
size_t count(const std::unique_ptr<T>& p) {
    return p ? count(p.get()) : 0;
}

template <typename T>
size_t count(T* p) {
    return p == nullptr ? 0 : 1;
}

template <typename T>
typename std::enable_if<!std::is_pointer<T>::value, size_t>::type count(const T&) {
    return 1;
}

#endif
