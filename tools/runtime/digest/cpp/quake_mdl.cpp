// tools/spec_digest.py's quake_mdl() for the generated C++ parser of quake_mdl.ksy.
#include "digest.h"
#include "quake_mdl.h"

static void vertex(Sum& s, quake_mdl_t::mdl_vertex_t* v) {
    s.nums(v->values());
    s.num(v->normal_index());
    s.num(v->x());
    s.num(v->y());
    s.num(v->z());
}

static std::vector<std::string> digest(kaitai::kstream* io) {
    quake_mdl_t r(io);
    quake_mdl_t::mdl_header_t* h = r.header();
    std::vector<std::string> out;
    out.push_back("ident " + hex(h->ident()));
    out.push_back(kv("version", h->version()));
    out.push_back(kv("num_skins", h->num_skins()));
    out.push_back(kv("skin_width", h->skin_width()));
    out.push_back(kv("skin_height", h->skin_height()));
    out.push_back(kv("num_verts", h->num_verts()));
    out.push_back(kv("num_tris", h->num_tris()));
    out.push_back(kv("num_frames", h->num_frames()));
    out.push_back(kv("synctype", h->synctype()));
    out.push_back(kv("flags", h->flags()));
    out.push_back(kv("skin_size", h->skin_size()));
    Sum s;
    s.n = 1;
    vec(s, h->scale());
    vec(s, h->origin());
    vec(s, h->eye_position());
    s.num(h->radius());
    s.num(h->size());
    out.push_back(s.line("header_floats"));
    s = Sum();
    for (size_t i = 0; i < r.skins()->size(); ++i) {
        quake_mdl_t::mdl_skin_t* sk = ptr((*r.skins())[i]);
        s.n++;
        s.num(sk->group());
        if (sk->group() == 0) {
            s.data(sk->single_texture_data());
        } else {
            s.num(sk->num_frames());
            s.nums(sk->frame_times());
            for (size_t j = 0; j < sk->group_texture_data()->size(); ++j) {
                s.data((*sk->group_texture_data())[j]);
            }
        }
    }
    out.push_back(s.line("skins"));
    s = Sum();
    for (size_t i = 0; i < r.texture_coordinates()->size(); ++i) {
        quake_mdl_t::mdl_texcoord_t* tc = ptr((*r.texture_coordinates())[i]);
        s.n++;
        s.num(tc->on_seam());
        s.num(tc->s());
        s.num(tc->t());
    }
    out.push_back(s.line("texture_coordinates"));
    s = Sum();
    for (size_t i = 0; i < r.triangles()->size(); ++i) {
        quake_mdl_t::mdl_triangle_t* tri = ptr((*r.triangles())[i]);
        s.n++;
        s.num(tri->faces_front());
        s.nums(tri->vertices());
    }
    out.push_back(s.line("triangles"));
    s = Sum();
    for (size_t i = 0; i < r.frames()->size(); ++i) {
        quake_mdl_t::mdl_frame_t* f = ptr((*r.frames())[i]);
        s.n++;
        s.num(f->type());
        if (f->type() != 0) {
            s.num(f->num_time());
            vertex(s, f->min());
            vertex(s, f->max());
            s.nums(f->time());
        }
        s.num(f->num_simple_frames());
        for (size_t j = 0; j < f->frames()->size(); ++j) {
            quake_mdl_t::mdl_simple_frame_t* p = ptr((*f->frames())[j]);
            vertex(s, p->bbox_min());
            vertex(s, p->bbox_max());
            s.data(p->name());
            for (size_t k = 0; k < p->vertices()->size(); ++k) {
                vertex(s, ptr((*p->vertices())[k]));
            }
        }
    }
    out.push_back(s.line("frames"));
    return out;
}

int main(int argc, char** argv) { return run_all(argc, argv, digest); }
