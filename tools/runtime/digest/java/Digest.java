// tools/spec_digest.py for the Java parsers generated from ksy/ (make spec-compile):
//   java -cp ... Digest SPEC_ID FILE...
// The same blocks, keys, order and checksums as the Python digest; change them together.

import io.kaitai.struct.ByteBufferKaitaiStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

public class Digest {
    static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        for (byte b : bytes) {
            s.append(String.format("%02x", b & 0xff));
        }
        return s.toString();
    }

    static void vec(Sum s, double x, double y, double z) {
        s.num(x);
        s.num(y);
        s.num(z);
    }

    static List<String> md2(Quake2Md2 r) {
        List<String> out = new ArrayList<String>();
        out.add("magic " + hex(r.magic()));
        out.add("version " + r.version());
        out.add("skin_width_px " + r.skinWidthPx());
        out.add("skin_height_px " + r.skinHeightPx());
        out.add("bytes_per_frame " + r.bytesPerFrame());
        out.add("num_skins " + r.numSkins());
        out.add("vertices_per_frame " + r.verticesPerFrame());
        out.add("num_tex_coords " + r.numTexCoords());
        out.add("num_triangles " + r.numTriangles());
        out.add("num_gl_cmds " + r.numGlCmds());
        out.add("num_frames " + r.numFrames());
        out.add("ofs_skins " + r.ofsSkins());
        out.add("ofs_tex_coords " + r.ofsTexCoords());
        out.add("ofs_triangles " + r.ofsTriangles());
        out.add("ofs_frames " + r.ofsFrames());
        out.add("ofs_gl_cmds " + r.ofsGlCmds());
        out.add("ofs_end " + r.ofsEnd());
        Sum s = new Sum();
        for (String name : r.skins()) {
            s.n++;
            s.text(name);
        }
        out.add(s.line("skins"));
        s = new Sum();
        for (Quake2Md2.TexPoint t : r.texCoords()) {
            s.n++;
            s.num(t.sPx());
            s.num(t.tPx());
            s.num(t.sNormalized());
            s.num(t.tNormalized());
        }
        out.add(s.line("tex_coords"));
        s = new Sum();
        for (Quake2Md2.Triangle t : r.triangles()) {
            s.n++;
            s.nums(t.vertexIndices());
            s.nums(t.texPointIndices());
        }
        out.add(s.line("triangles"));
        s = new Sum();
        for (Quake2Md2.Frame f : r.frames()) {
            s.n++;
            vec(s, f.scale().x(), f.scale().y(), f.scale().z());
            vec(s, f.translate().x(), f.translate().y(), f.translate().z());
            s.text(f.name());
            for (Quake2Md2.Vertex v : f.vertices()) {
                Quake2Md2.CompressedVec p = v.position();
                vec(s, p.xCompressed(), p.yCompressed(), p.zCompressed());
                s.num(v.normalIndex());
                vec(s, p.x(), p.y(), p.z());
                s.nums(v.normal());
            }
        }
        out.add(s.line("frames"));
        s = new Sum();
        if (r.glCmds().items() != null) {
            for (Quake2Md2.GlCmd c : r.glCmds().items()) {
                s.n++;
                s.num(c.cmdNumVertices());
                s.num(c.numVertices());
                s.num(c.primitive().id());
                for (Quake2Md2.GlVertex gv : c.vertices()) {
                    s.nums(gv.texCoordsNormalized());
                    s.num(gv.vertexIndex());
                }
            }
        }
        out.add(s.line("gl_cmds"));
        return out;
    }

    static List<String> md3(Quake3Md3 r) {
        List<String> out = new ArrayList<String>();
        out.add("magic " + hex(r.magic()));
        out.add("version " + r.version());
        out.add("name " + r.name());
        out.add("flags " + r.flags());
        out.add("num_frames " + r.numFrames());
        out.add("num_tags " + r.numTags());
        out.add("num_surfaces " + r.numSurfaces());
        out.add("num_skins " + r.numSkins());
        out.add("ofs_frames " + r.ofsFrames());
        out.add("ofs_tags " + r.ofsTags());
        out.add("ofs_surfaces " + r.ofsSurfaces());
        out.add("ofs_end " + r.ofsEnd());
        Sum s = new Sum();
        for (Quake3Md3.Frame f : r.frames()) {
            s.n++;
            vec(s, f.minBounds().x(), f.minBounds().y(), f.minBounds().z());
            vec(s, f.maxBounds().x(), f.maxBounds().y(), f.maxBounds().z());
            vec(s, f.localOrigin().x(), f.localOrigin().y(), f.localOrigin().z());
            s.num(f.radius());
            s.text(f.name());
        }
        out.add(s.line("frames"));
        s = new Sum();
        for (Quake3Md3.Tag t : r.tags()) {
            s.n++;
            s.text(t.name());
            vec(s, t.origin().x(), t.origin().y(), t.origin().z());
            for (Quake3Md3.Vec3f a : t.axis()) {
                vec(s, a.x(), a.y(), a.z());
            }
        }
        out.add(s.line("tags"));
        Sum heads = new Sum(), shaders = new Sum(), tris = new Sum(), uvs = new Sum();
        Sum verts = new Sum();
        for (Quake3Md3.Surface su : r.surfaces()) {
            heads.n++;
            heads.data(su.magic());
            heads.text(su.name());
            int[] fields = {su.flags(), su.numFrames(), su.numShaders(), su.numVertices(),
                su.numTriangles(), su.ofsTriangles(), su.ofsShaders(), su.ofsTexCoords(),
                su.ofsVertices(), su.ofsEnd()};
            for (int v : fields) {
                heads.num(v);
            }
            for (Quake3Md3.Shader sh : su.shaders()) {
                shaders.n++;
                shaders.text(sh.name());
                shaders.num(sh.shaderIndex());
            }
            for (Quake3Md3.Triangle t : su.triangles()) {
                tris.n++;
                tris.nums(t.vertexIndices());
            }
            for (Quake3Md3.TexCoord tc : su.texCoords()) {
                uvs.n++;
                uvs.num(tc.s());
                uvs.num(tc.t());
            }
            for (Quake3Md3.Vertex v : su.vertices()) {
                verts.n++;
                vec(verts, v.xCompressed(), v.yCompressed(), v.zCompressed());
                verts.num(v.normalLng());
                verts.num(v.normalLat());
                vec(verts, v.x(), v.y(), v.z());
                verts.num(v.lat());
                verts.num(v.lng());
            }
        }
        out.add(heads.line("surfaces"));
        out.add(shaders.line("shaders"));
        out.add(tris.line("triangles"));
        out.add(uvs.line("tex_coords"));
        out.add(verts.line("vertices"));
        return out;
    }

    static void mdlVertex(Sum s, QuakeMdl.MdlVertex v) {
        s.nums(v.values());
        s.num(v.normalIndex());
        vec(s, v.x(), v.y(), v.z());
    }

    static List<String> mdl(QuakeMdl r) {
        QuakeMdl.MdlHeader h = r.header();
        List<String> out = new ArrayList<String>();
        out.add("ident " + hex(h.ident()));
        out.add("version " + h.version());
        out.add("num_skins " + h.numSkins());
        out.add("skin_width " + h.skinWidth());
        out.add("skin_height " + h.skinHeight());
        out.add("num_verts " + h.numVerts());
        out.add("num_tris " + h.numTris());
        out.add("num_frames " + h.numFrames());
        out.add("synctype " + h.synctype());
        out.add("flags " + h.flags());
        out.add("skin_size " + h.skinSize());
        Sum s = new Sum();
        s.n = 1;
        vec(s, h.scale().x(), h.scale().y(), h.scale().z());
        vec(s, h.origin().x(), h.origin().y(), h.origin().z());
        vec(s, h.eyePosition().x(), h.eyePosition().y(), h.eyePosition().z());
        s.num(h.radius());
        s.num(h.size());
        out.add(s.line("header_floats"));
        s = new Sum();
        for (QuakeMdl.MdlSkin sk : r.skins()) {
            s.n++;
            s.num(sk.group());
            if (sk.group() == 0) {
                s.data(sk.singleTextureData());
            } else {
                s.num(sk.numFrames());
                s.nums(sk.frameTimes());
                for (byte[] image : sk.groupTextureData()) {
                    s.data(image);
                }
            }
        }
        out.add(s.line("skins"));
        s = new Sum();
        for (QuakeMdl.MdlTexcoord tc : r.textureCoordinates()) {
            s.n++;
            vec(s, tc.onSeam(), tc.s(), tc.t());
        }
        out.add(s.line("texture_coordinates"));
        s = new Sum();
        for (QuakeMdl.MdlTriangle t : r.triangles()) {
            s.n++;
            s.num(t.facesFront());
            s.nums(t.vertices());
        }
        out.add(s.line("triangles"));
        s = new Sum();
        for (QuakeMdl.MdlFrame f : r.frames()) {
            s.n++;
            s.num(f.type());
            if (f.type() != 0) {
                s.num(f.numTime());
                mdlVertex(s, f.min());
                mdlVertex(s, f.max());
                s.nums(f.time());
            }
            s.num(f.numSimpleFrames());
            for (QuakeMdl.MdlSimpleFrame p : f.frames()) {
                mdlVertex(s, p.bboxMin());
                mdlVertex(s, p.bboxMax());
                s.text(p.name());
                for (QuakeMdl.MdlVertex v : p.vertices()) {
                    mdlVertex(s, v);
                }
            }
        }
        out.add(s.line("frames"));
        return out;
    }

    static List<String> pak(QuakePak r) {
        List<String> out = new ArrayList<String>();
        out.add("magic " + hex(r.magic()));
        out.add("ofs_index " + r.ofsIndex());
        out.add("len_index " + r.lenIndex());
        out.add("num_files " + r.numFiles());
        Sum s = new Sum();
        for (QuakePak.IndexEntry e : r.index().entries()) {
            s.n++;
            s.text(e.name());
            s.num(e.ofs());
            s.num(e.size());
            s.data(e.body());
        }
        out.add(s.line("entries"));
        return out;
    }

    static List<String> digest(String spec, String file) throws java.io.IOException {
        ByteBufferKaitaiStream io = new ByteBufferKaitaiStream(file);
        if (spec.equals("quake2_md2")) {
            return md2(new Quake2Md2(io));
        } else if (spec.equals("quake3_md3")) {
            return md3(new Quake3Md3(io));
        } else if (spec.equals("quake_mdl")) {
            return mdl(new QuakeMdl(io));
        } else if (spec.equals("quake_pak")) {
            return pak(new QuakePak(io));
        }
        throw new IllegalArgumentException("unknown spec " + spec);
    }

    public static void main(String[] args) throws java.io.IOException {
        StringBuilder out = new StringBuilder();
        for (int i = 1; i < args.length; i++) {
            List<String> lines;
            try {
                lines = digest(args[0], args[i]);
            } catch (java.io.IOException e) {
                throw e;  // an unreadable file is a usage error, not a parse result
            } catch (RuntimeException e) {
                lines = new ArrayList<String>();
                lines.add("error");
            }
            out.append("== ").append(args[i]).append("\n");
            for (String line : lines) {
                out.append(line).append("\n");
            }
        }
        System.out.print(out);
    }
}
