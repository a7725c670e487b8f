// quakemodels' test runtime for Kaitai Struct Java code -- NOT the official
// io.kaitai:kaitai-struct-runtime (see tools/runtime/README.md).
package io.kaitai.struct;

/** Base of every generated type: holds the stream the type was read from. */
public abstract class KaitaiStruct {
    protected KaitaiStream _io;

    public KaitaiStruct(KaitaiStream _io) {
        this._io = _io;
    }

    public KaitaiStream _io() {
        return _io;
    }
}
