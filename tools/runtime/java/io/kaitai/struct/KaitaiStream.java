// quakemodels' test runtime for Kaitai Struct Java code -- NOT the official
// io.kaitai:kaitai-struct-runtime (see tools/runtime/README.md). Only what the
// code generated for ksy/*.ksy calls is here.
package io.kaitai.struct;

/** A read-only little-endian byte stream, as the generated parsers use it. */
public abstract class KaitaiStream {
    public abstract boolean isEof();

    /** Seeks to an absolute position; negative is an error, past the end is allowed. */
    public abstract void seek(long newPos);

    public abstract long pos();

    public abstract long size();

    public abstract int readU1();

    public abstract short readS2le();

    /** Up to the byte {@code term} (kept when {@code includeTerm}, stepped over when
     * {@code consumeTerm}); without it, the rest of the stream, or an error when
     * {@code eosError} (Python's read_bytes_term). */
    public byte[] readBytesTerm(byte term, boolean includeTerm, boolean consumeTerm, boolean eosError) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        while (true) {
            if (isEof()) {
                if (eosError) {
                    throw new RuntimeException("end of stream reached, but no terminator " + term + " found");
                }
                return out.toByteArray();
            }
            long at = pos();
            byte c = (byte) readU1();
            if (c == term) {
                if (includeTerm) {
                    out.write(c);
                }
                if (!consumeTerm) {
                    seek(at);
                }
                return out.toByteArray();
            }
            out.write(c);
        }
    }

    public byte readS1() {
        return (byte) readU1();
    }

    public int readU2le() {
        return readS2le() & 0xffff;
    }

    public long readU4le() {
        return readS4le() & 0xffffffffL;
    }

    public double readF8le() {
        long lo = readU4le();
        long hi = readU4le();
        return Double.longBitsToDouble(lo | (hi << 32));
    }

    public abstract int readS4le();

    public abstract float readF4le();

    public abstract byte[] readBytes(long n);

    /** The next n bytes as a stream of their own (positions start at 0). */
    public abstract KaitaiStream substream(long n);

    /** The bytes before the first {@code term} (with it when {@code includeTerm}). */
    public static byte[] bytesTerminate(byte[] bytes, byte term, boolean includeTerm) {
        int end = 0;
        while (end < bytes.length && bytes[end] != term) {
            end++;
        }
        if (includeTerm && end < bytes.length) {
            end++;
        }
        byte[] out = new byte[end];
        System.arraycopy(bytes, 0, out, 0, end);
        return out;
    }

    /** Every error a generated parser raises on bad data. */
    public static class KaitaiStructError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public KaitaiStructError(String msg, String srcPath) {
            super(srcPath + ": " + msg);
        }
    }

    /** A `valid:` or `contents:` check failed. */
    public static class ValidationFailedError extends KaitaiStructError {
        private static final long serialVersionUID = 1L;

        public ValidationFailedError(String msg, KaitaiStream io, String srcPath) {
            super("at pos " + (io == null ? "?" : Long.toString(io.pos())) + ": " + msg, srcPath);
        }
    }

    /** A value differs from the one the spec requires. */
    public static class ValidationNotEqualError extends ValidationFailedError {
        private static final long serialVersionUID = 1L;

        public ValidationNotEqualError(byte[] expected, byte[] actual, KaitaiStream io, String srcPath) {
            super("not equal, expected " + hex(expected) + ", but got " + hex(actual), io, srcPath);
        }

        public ValidationNotEqualError(long expected, long actual, KaitaiStream io, String srcPath) {
            super("not equal, expected " + expected + ", but got " + actual, io, srcPath);
        }

        private static String hex(byte[] bytes) {
            StringBuilder s = new StringBuilder("[");
            for (int i = 0; i < bytes.length; i++) {
                s.append(i == 0 ? "" : " ").append(String.format("%02x", bytes[i] & 0xff));
            }
            return s.append("]").toString();
        }
    }
}
