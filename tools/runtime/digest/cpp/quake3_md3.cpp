// tools/spec_digest.py's quake3_md3() for the generated C++ parser of quake3_md3.ksy.
#include "digest.h"
#include "quake3_md3.h"

static std::vector<std::string> digest(kaitai::kstream* io) {
    quake3_md3_t r(io);
    std::vector<std::string> out;
    out.push_back("magic " + hex(r.magic()));
    out.push_back(kv("version", r.version()));
    out.push_back("name " + r.name());
    out.push_back(kv("flags", r.flags()));
    out.push_back(kv("num_frames", r.num_frames()));
    out.push_back(kv("num_tags", r.num_tags()));
    out.push_back(kv("num_surfaces", r.num_surfaces()));
    out.push_back(kv("num_skins", r.num_skins()));
    out.push_back(kv("ofs_frames", r.ofs_frames()));
    out.push_back(kv("ofs_tags", r.ofs_tags()));
    out.push_back(kv("ofs_surfaces", r.ofs_surfaces()));
    out.push_back(kv("ofs_end", r.ofs_end()));
    Sum s;
    for (size_t i = 0; i < r.frames()->size(); ++i) {
        quake3_md3_t::frame_t* f = ptr((*r.frames())[i]);
        s.n++;
        vec(s, f->min_bounds());
        vec(s, f->max_bounds());
        vec(s, f->local_origin());
        s.num(f->radius());
        s.data(f->name());
    }
    out.push_back(s.line("frames"));
    s = Sum();
    for (size_t i = 0; i < r.tags()->size(); ++i) {
        quake3_md3_t::tag_t* t = ptr((*r.tags())[i]);
        s.n++;
        s.data(t->name());
        vec(s, t->origin());
        for (size_t a = 0; a < t->axis()->size(); ++a) {
            vec(s, ptr((*t->axis())[a]));
        }
    }
    out.push_back(s.line("tags"));
    Sum heads, shaders, tris, uvs, verts;
    for (size_t i = 0; i < r.surfaces()->size(); ++i) {
        quake3_md3_t::surface_t* su = ptr((*r.surfaces())[i]);
        heads.n++;
        heads.data(su->magic());
        heads.data(su->name());
        heads.num(su->flags());
        heads.num(su->num_frames());
        heads.num(su->num_shaders());
        heads.num(su->num_vertices());
        heads.num(su->num_triangles());
        heads.num(su->ofs_triangles());
        heads.num(su->ofs_shaders());
        heads.num(su->ofs_tex_coords());
        heads.num(su->ofs_vertices());
        heads.num(su->ofs_end());
        for (size_t j = 0; j < su->shaders()->size(); ++j) {
            quake3_md3_t::shader_t* sh = ptr((*su->shaders())[j]);
            shaders.n++;
            shaders.data(sh->name());
            shaders.num(sh->shader_index());
        }
        for (size_t j = 0; j < su->triangles()->size(); ++j) {
            tris.n++;
            tris.nums((*su->triangles())[j]->vertex_indices());
        }
        for (size_t j = 0; j < su->tex_coords()->size(); ++j) {
            quake3_md3_t::tex_coord_t* tc = ptr((*su->tex_coords())[j]);
            uvs.n++;
            uvs.num(tc->s());
            uvs.num(tc->t());
        }
        for (size_t j = 0; j < su->vertices()->size(); ++j) {
            quake3_md3_t::vertex_t* v = ptr((*su->vertices())[j]);
            verts.n++;
            verts.num(v->x_compressed());
            verts.num(v->y_compressed());
            verts.num(v->z_compressed());
            verts.num(v->normal_lng());
            verts.num(v->normal_lat());
            verts.num(v->x());
            verts.num(v->y());
            verts.num(v->z());
            verts.num(v->lat());
            verts.num(v->lng());
        }
    }
    out.push_back(heads.line("surfaces"));
    out.push_back(shaders.line("shaders"));
    out.push_back(tris.line("triangles"));
    out.push_back(uvs.line("tex_coords"));
    out.push_back(verts.line("vertices"));
    return out;
}

int main(int argc, char** argv) { return run_all(argc, argv, digest); }
