// The generic digest of tools/spec_digest.py (any spec, walked by its ksy) for the Java
// parsers generated from ksy/ (make spec-compile):
//   java -cp ... GenericDigest SCHEMA FILE...
// SCHEMA is tools/spec_digest.py's java_schema: "T <class binary name>" then "F <accessor>
// <ksy id>" per field, the root type first. Every accessor is called by reflection and
// its value fed as the Python digest feeds it; change them together.
import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStream;
import io.kaitai.struct.KaitaiStruct;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class GenericDigest {
    /** spec_digest.NONE: what an absent field (its `if` false) feeds. */
    static final byte[] NONE = {(byte) 0xff, (byte) 0xfe, 'N', 'O', 'N', 'E'};

    /** Type binary name -> its fields (accessor, ksy id) in walk order. */
    final Map<String, List<String[]>> types = new LinkedHashMap<String, List<String[]>>();
    String root;

    GenericDigest(String schema) throws java.io.IOException {
        List<String[]> fields = null;
        for (String line : Files.readAllLines(Paths.get(schema), StandardCharsets.UTF_8)) {
            String[] parts = line.split(" ");
            if (parts[0].equals("T")) {
                fields = new ArrayList<String[]>();
                types.put(parts[1], fields);
                if (root == null) {
                    root = parts[1];
                }
            } else if (parts[0].equals("F") && fields != null) {
                fields.add(new String[] {parts[1], parts[2]});
            }
        }
    }

    static Object get(Object obj, String accessor) {
        try {
            Method m = obj.getClass().getMethod(accessor);
            return m.invoke(obj);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;  // the parser's own rejection
            }
            throw new IllegalStateException(cause);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no accessor " + accessor + " on " + obj.getClass(), e);
        }
    }

    void feed(Sum s, Object value) {
        if (value == null) {
            s.raw(NONE);
        } else if (value instanceof byte[]) {
            s.data((byte[]) value);
        } else if (value instanceof String) {
            s.text((String) value);
        } else if (value instanceof List) {
            List<?> items = (List<?>) value;
            s.num(items.size());
            for (Object item : items) {
                feed(s, item);
            }
        } else if (value instanceof Boolean) {
            s.num(((Boolean) value) ? 1.0 : 0.0);
        } else if (value instanceof Number) {
            s.num(((Number) value).doubleValue());
        } else if (value instanceof Enum) {
            s.num(((Number) get(value, "id")).doubleValue());
        } else if (value instanceof KaitaiStruct) {
            walk(s, (KaitaiStruct) value);
        } else {
            throw new IllegalStateException("cannot digest a " + value.getClass());
        }
    }

    void walk(Sum s, KaitaiStruct obj) {
        for (String[] field : types.get(obj.getClass().getName())) {
            feed(s, get(obj, field[0]));
        }
    }

    List<String> digest(String file) throws java.io.IOException {
        KaitaiStream io = new ByteBufferKaitaiStream(file);
        Object r;
        try {
            r = Class.forName(root).getConstructor(KaitaiStream.class).newInstance(io);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;  // the parser's own rejection
            }
            throw new IllegalStateException(cause);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build " + root, e);
        }
        List<String> out = new ArrayList<String>();
        for (String[] field : types.get(root)) {
            Object value = get(r, field[0]);
            Sum s = new Sum();
            s.n = value == null ? 0 : value instanceof List ? ((List<?>) value).size() : 1;
            feed(s, value);
            out.add(s.line(field[1]));
        }
        return out;
    }

    public static void main(String[] args) throws java.io.IOException {
        GenericDigest walker = new GenericDigest(args[0]);
        StringBuilder out = new StringBuilder();
        for (int i = 1; i < args.length; i++) {
            List<String> lines;
            try {
                lines = walker.digest(args[i]);
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
