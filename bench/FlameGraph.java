import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Turns a JFR recording's CPU samples ({@code jdk.ExecutionSample}) into a flame graph (SVG) and a
 * text summary of where the time goes, by layer. Run by bench/run-benchmarks.sh as a single-file
 * program: {@code java bench/FlameGraph.java rec.jfr out.svg out.txt "title"}. The JDK reads the
 * recording; nothing is downloaded.
 */
public class FlameGraph {

    /** Layers a frame is attributed to, first match wins; the order puts our code before the libraries. */
    static final Map<String, String> LAYERS = new LinkedHashMap<>();

    static {
        LAYERS.put("seckill.", "seckill (our code)");
        LAYERS.put("redis.clients.", "Jedis (Redis client)");
        LAYERS.put("org.glassfish.jersey.", "Jersey (JAX-RS)");
        LAYERS.put("org.glassfish.hk2.", "HK2 (Jersey's injection)");
        LAYERS.put("org.jvnet.hk2.", "HK2 (Jersey's injection)");
        LAYERS.put("org.jboss.weld.", "Weld (CDI)");
        LAYERS.put("io.helidon.microprofile.", "Helidon MP glue");
        LAYERS.put("io.helidon.metrics", "metrics");
        LAYERS.put("io.micrometer.", "metrics");
        LAYERS.put("io.helidon.webserver.", "Helidon web server");
        LAYERS.put("io.helidon.http.", "Helidon web server");
        LAYERS.put("io.helidon.common.", "Helidon common");
        LAYERS.put("org.eclipse.parsson.", "JSON (Parsson)");
        LAYERS.put("com.mysql.", "MySQL driver (ordering)");
        LAYERS.put("io.helidon.dbclient.", "Helidon DB client (ordering)");
        LAYERS.put("sun.nio.", "JDK I/O");
        LAYERS.put("java.net.", "JDK I/O");
        LAYERS.put("java.", "JDK");
        LAYERS.put("jdk.", "JDK");
        LAYERS.put("sun.", "JDK");
    }

    static final class Node {
        final String name;
        final Map<String, Node> children = new HashMap<>();
        long samples;

        Node(String name) {
            this.name = name;
        }
    }

    public static void main(String[] args) throws IOException {
        Path recording = Path.of(args[0]);
        Node root = new Node("all");
        Map<String, Long> selfByLayer = new HashMap<>();
        Map<String, Long> inclusiveByLayer = new HashMap<>();
        Map<String, Long> selfByMethod = new HashMap<>();
        Map<String, Long> selfByCaller = new HashMap<>();
        long total = 0;
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
                    continue;
                }
                List<RecordedFrame> frames = event.getStackTrace().getFrames();  // leaf first
                total++;
                root.samples++;
                Node node = root;
                for (int i = frames.size() - 1; i >= 0; i--) {
                    String name = nameOf(frames.get(i));
                    node = node.children.computeIfAbsent(name, Node::new);
                    node.samples++;
                }
                if (!frames.isEmpty()) {
                    String leaf = nameOf(frames.get(0));
                    selfByMethod.merge(leaf, 1L, Long::sum);
                    // a JDK leaf is charged to the nearest caller outside the JDK: time in HashMap.get
                    // called by Jersey is Jersey's cost
                    String layer = null;
                    for (RecordedFrame frame : frames) {
                        String l = layerOf(nameOf(frame));
                        if (!l.equals("JDK") || frame == frames.get(frames.size() - 1)) {
                            layer = l;
                            selfByCaller.merge(nameOf(frame), 1L, Long::sum);
                            break;
                        }
                    }
                    selfByLayer.merge(layer, 1L, Long::sum);
                }
                frames.stream().map(f -> layerOf(nameOf(f))).distinct()
                        .forEach(l -> inclusiveByLayer.merge(l, 1L, Long::sum));
            }
        }
        String title = args.length > 3 ? args[3] : recording.getFileName().toString();
        writeSvg(root, Path.of(args[1]), title);
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(args[2])))) {
            out.printf("%s: %d CPU samples%n%n", title, total);
            out.println("self time by layer (a JDK frame is charged to the first non-JDK caller):");
            print(out, selfByLayer, total, 20);
            out.println();
            out.println("samples with the layer anywhere on the stack:");
            print(out, inclusiveByLayer, total, 20);
            out.println();
            out.println("hottest methods outside the JDK (self, JDK frames charged to them):");
            print(out, selfByCaller, total, 20);
            out.println();
            out.println("hottest methods (self):");
            print(out, selfByMethod, total, 15);
        }
    }

    static void print(PrintWriter out, Map<String, Long> counts, long total, int limit) {
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(limit)
                .forEach(e -> out.printf(Locale.ROOT, "  %5.1f%%  %s%n", 100.0 * e.getValue() / Math.max(1, total), e.getKey()));
    }

    static String nameOf(RecordedFrame frame) {
        if (frame.getMethod() == null) {
            return "?";
        }
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    static String layerOf(String frame) {
        for (Map.Entry<String, String> layer : LAYERS.entrySet()) {
            if (frame.startsWith(layer.getKey())) {
                return layer.getValue();
            }
        }
        return "other";
    }

    static String colourOf(String frame) {
        return switch (layerOf(frame)) {
            case "seckill (our code)" -> "#4caf50";
            case "Jedis (Redis client)" -> "#42a5f5";
            case "Jersey (JAX-RS)", "HK2 (Jersey's injection)" -> "#ef5350";
            case "Weld (CDI)", "Helidon MP glue" -> "#ec407a";
            case "Helidon web server", "Helidon common" -> "#ffa726";
            case "JSON (Parsson)", "metrics" -> "#ab47bc";
            case "MySQL driver (ordering)", "Helidon DB client (ordering)" -> "#8d6e63";
            default -> "#bdbdbd";
        };
    }

    static void writeSvg(Node root, Path svg, String title) throws IOException {
        int width = 1800;
        int rowHeight = 16;
        int depth = depthOf(root);
        int height = (depth + 2) * rowHeight + 30;
        List<String> rects = new ArrayList<>();
        layout(root, 0, 0, width / (double) Math.max(1, root.samples), root.samples, height - rowHeight, rowHeight, rects);
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(svg))) {
            out.printf("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"monospace\" font-size=\"11\">%n",
                    width, height);
            out.printf("<rect width=\"100%%\" height=\"100%%\" fill=\"#fffef5\"/>%n");
            out.printf("<text x=\"10\" y=\"18\" font-size=\"14\">%s (%d samples; width = share of CPU samples; green: seckill, "
                    + "red: Jersey/HK2, pink: CDI, orange: web server, blue: Jedis, purple: JSON/metrics, brown: MySQL)</text>%n",
                    escape(title), root.samples);
            rects.forEach(out::println);
            out.println("</svg>");
        }
    }

    static void layout(Node node, double x, int level, double scale, long total, int y, int rowHeight, List<String> rects) {
        double w = node.samples * scale;
        if (w < 0.3) {
            return;
        }
        String label = node.name.substring(Math.max(0, node.name.lastIndexOf('.', node.name.lastIndexOf('.') - 1) + 1));
        int chars = (int) (w / 7);
        String shown = chars < 3 ? "" : label.length() > chars ? label.substring(0, chars - 1) + "…" : label;
        rects.add(String.format(Locale.ROOT,
                "<g><title>%s (%d samples, %.2f%%)</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
                        + "stroke=\"#fff\" stroke-width=\"0.5\"/><text x=\"%.1f\" y=\"%d\">%s</text></g>",
                escape(node.name), node.samples, 100.0 * node.samples / total, x, y, w, rowHeight - 1, colourOf(node.name),
                x + 2, y + rowHeight - 4, escape(shown)));
        double childX = x;
        List<Node> children = new ArrayList<>(node.children.values());
        children.sort(Comparator.comparing(n -> n.name));
        for (Node child : children) {
            layout(child, childX, level + 1, scale, total, y - rowHeight, rowHeight, rects);
            childX += child.samples * scale;
        }
    }

    static int depthOf(Node node) {
        int max = 0;
        for (Node child : node.children.values()) {
            max = Math.max(max, depthOf(child));
        }
        return max + 1;
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
