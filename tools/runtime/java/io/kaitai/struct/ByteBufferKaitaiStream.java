// quakemodels' test runtime for Kaitai Struct Java code -- NOT the official
// io.kaitai:kaitai-struct-runtime (see tools/runtime/README.md).
package io.kaitai.struct;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Paths;

/** A {@link KaitaiStream} over bytes in memory (a file is read whole). */
public class ByteBufferKaitaiStream extends KaitaiStream {
    private final ByteBuffer bb;
    // Set by a seek past the end, where a ByteBuffer cannot be positioned.
    private boolean pastEnd = false;

    public ByteBufferKaitaiStream(String fileName) throws IOException {
        this(Files.readAllBytes(Paths.get(fileName)));
    }

    public ByteBufferKaitaiStream(byte[] bytes) {
        this(ByteBuffer.wrap(bytes));
    }

    public ByteBufferKaitaiStream(ByteBuffer buffer) {
        bb = buffer.slice();
        bb.order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public boolean isEof() {
        return !bb.hasRemaining();
    }

    @Override
    public void seek(long newPos) {
        if (newPos < 0) {
            throw new IllegalArgumentException("seek to a negative position " + newPos);
        }
        // A ByteBuffer cannot sit past its limit: clamp there, and remember nothing
        // more is readable (any read then fails as past the end would).
        bb.position((int) Math.min(newPos, (long) bb.limit()));
        pastEnd = newPos > bb.limit();
    }

    @Override
    public long pos() {
        return bb.position();
    }

    @Override
    public long size() {
        return bb.limit();
    }

    private void need(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("read of a negative length " + n + " at pos " + pos());
        }
        // As in Python's runtime, reading nothing succeeds anywhere, even past the end.
        if (n > 0 && (pastEnd || n > bb.remaining())) {
            throw new BufferUnderflowException();
        }
    }

    @Override
    public int readU1() {
        need(1);
        return bb.get() & 0xff;
    }

    @Override
    public short readS2le() {
        need(2);
        return bb.getShort();
    }

    @Override
    public int readS4le() {
        need(4);
        return bb.getInt();
    }

    @Override
    public float readF4le() {
        need(4);
        return bb.getFloat();
    }

    @Override
    public byte[] readBytes(long n) {
        need(n);
        byte[] out = new byte[(int) n];
        bb.get(out);
        return out;
    }

    @Override
    public KaitaiStream substream(long n) {
        return new ByteBufferKaitaiStream(readBytes(n));
    }
}
