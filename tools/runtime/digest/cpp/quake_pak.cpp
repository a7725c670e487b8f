// tools/spec_digest.py's quake_pak() for the generated C++ parser of quake_pak.ksy.
#include "digest.h"
#include "quake_pak.h"

static std::vector<std::string> digest(kaitai::kstream* io) {
    quake_pak_t r(io);
    std::vector<std::string> out;
    out.push_back("magic " + hex(r.magic()));
    out.push_back(kv("ofs_index", r.ofs_index()));
    out.push_back(kv("len_index", r.len_index()));
    out.push_back(kv("num_files", r.num_files()));
    Sum s;
    for (size_t i = 0; i < r.index()->entries()->size(); ++i) {
        quake_pak_t::index_entry_t* e = ptr((*r.index()->entries())[i]);
        s.n++;
        s.data(e->name());
        s.num(e->ofs());
        s.num(e->size());
        s.data(e->body());
    }
    out.push_back(s.line("entries"));
    return out;
}

int main(int argc, char** argv) { return run_all(argc, argv, digest); }
