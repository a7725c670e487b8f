// The checksum of tools/spec_digest.py's Sum, for Digest.java and GenericDigest.java.
import java.nio.charset.StandardCharsets;
import java.util.List;

/** FNV-1a 64 over numbers as little-endian doubles (one canonical NaN) and byte strings. */
final class Sum {
    long h = 0xcbf29ce484222325L;
    long n = 0;

    void raw(byte[] data) {
        for (byte b : data) {
            h ^= (b & 0xff);
            h *= 0x100000001b3L;
        }
    }

    void num(double v) {
        long bits = Double.isNaN(v) ? 0x7ff8000000000000L : Double.doubleToRawLongBits(v);
        for (int i = 0; i < 8; i++) {
            h ^= (bits >>> (8 * i)) & 0xff;
            h *= 0x100000001b3L;
        }
    }

    void nums(List<? extends Number> values) {
        for (Number v : values) {
            num(v.doubleValue());
        }
    }

    void data(byte[] bytes) {
        num(bytes.length);
        raw(bytes);
    }

    void text(String s) {
        data(s.getBytes(StandardCharsets.UTF_8));  // as the Python and C++ digests
    }

    String line(String key) {
        return key + " " + n + " " + String.format("%016x", h);
    }
}
