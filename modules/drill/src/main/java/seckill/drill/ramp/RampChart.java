package seckill.drill.ramp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import seckill.drill.ramp.rules.FirstToGive;
import seckill.drill.ramp.rules.Layer;

/**
 * The ramp as an SVG chart, written by hand (no library): the steps on x; on the left axis the
 * offered rate, the reserved rate and each layer's refusals per second; on the right axis the p99 of
 * the 202 answers. One point per step and series (a {@code circle} with the series as its class); the
 * step where the first layer gave way is marked.
 */
public final class RampChart {

    /** One step as the chart shows it; NaN where nothing was measured. */
    public record Point(int step, double offeredRate, double reservedRate, Map<Layer, Double> refusedRate,
                        double p99Millis) {
    }

    private static final int WIDTH = 820;
    private static final int HEIGHT = 440;
    private static final int LEFT = 70;
    private static final int RIGHT = 160;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;
    private static final Map<String, String> COLOURS = new LinkedHashMap<>();

    static {
        COLOURS.put("offered", "#444444");
        COLOURS.put("reserved", "#2e7d32");
        COLOURS.put("edge", "#6a1b9a");
        COLOURS.put("admission", "#ef6c00");
        COLOURS.put("reservation", "#c62828");
        COLOURS.put("database", "#1565c0");
        COLOURS.put("p99", "#00838f");
    }

    private RampChart() {
    }

    public static String svg(String title, List<Point> points, Optional<FirstToGive> first) {
        double maxRate = 1;
        double maxP99 = 1;
        for (Point p : points) {
            maxRate = Math.max(maxRate, finite(p.offeredRate()));
            maxRate = Math.max(maxRate, finite(p.reservedRate()));
            for (double r : p.refusedRate().values()) {
                maxRate = Math.max(maxRate, finite(r));
            }
            maxP99 = Math.max(maxP99, finite(p.p99Millis()));
        }
        maxRate *= 1.1;
        maxP99 *= 1.1;
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        StringBuilder s = new StringBuilder();
        s.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        s.append(f("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">\n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        s.append(f("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", WIDTH, HEIGHT));
        s.append(f("<text x=\"%d\" y=\"24\" font-size=\"15\" font-weight=\"bold\">%s</text>\n", LEFT, escape(title)));
        // axes, with five ticks on each y axis
        s.append(f("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", LEFT, TOP, LEFT, TOP + plotH));
        s.append(f("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", LEFT, TOP + plotH,
                LEFT + plotW, TOP + plotH));
        s.append(f("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"/>\n", LEFT + plotW, TOP, LEFT + plotW,
                TOP + plotH, COLOURS.get("p99")));
        for (int i = 0; i <= 5; i++) {
            double y = TOP + plotH - plotH * i / 5.0;
            s.append(f("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eeeeee\"/>\n", LEFT + 1, y,
                    LEFT + plotW, y));
            s.append(f("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n", LEFT - 6, y + 4, maxRate * i / 5));
            s.append(f("<text x=\"%d\" y=\"%.1f\" fill=\"%s\">%.0f</text>\n", LEFT + plotW + 6, y + 4,
                    COLOURS.get("p99"), maxP99 * i / 5));
        }
        s.append(f("<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\">requests per second"
                + "</text>\n", TOP + plotH / 2, TOP + plotH / 2));
        s.append(f("<text x=\"%d\" y=\"%d\" fill=\"%s\">p99 of 202, ms</text>\n", LEFT + plotW + 6, TOP - 10,
                COLOURS.get("p99")));
        List<Double> xs = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            double x = LEFT + (points.size() == 1 ? plotW / 2.0 : plotW * (0.05 + 0.9 * i / (points.size() - 1)));
            xs.add(x);
            Point p = points.get(i);
            s.append(f("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x, TOP + plotH + 16, p.step()));
            s.append(f("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#777777\">%.0f/s</text>\n", x,
                    TOP + plotH + 30, p.offeredRate()));
        }
        s.append(f("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">step (offered rate)</text>\n", LEFT + plotW / 2,
                HEIGHT - 10));
        first.ifPresent(g -> {
            int index = indexOf(points, g.step());
            if (index >= 0) {
                double x = xs.get(index);
                s.append(f("<line class=\"first-to-give\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c62828\" "
                        + "stroke-dasharray=\"4 3\"/>\n", x, TOP, x, TOP + plotH));
                s.append(f("<text x=\"%.1f\" y=\"%d\" fill=\"#c62828\" text-anchor=\"middle\">%s %s</text>\n", x,
                        TOP - 4, escape(g.layer().jsonName()), g.named().how().word()));
            }
        });
        for (String series : COLOURS.keySet()) {
            boolean right = series.equals("p99");
            double max = right ? maxP99 : maxRate;
            StringBuilder line = new StringBuilder();
            StringBuilder dots = new StringBuilder();
            for (int i = 0; i < points.size(); i++) {
                double v = value(points.get(i), series);
                if (Double.isNaN(v)) {
                    continue;
                }
                double y = TOP + plotH - plotH * v / max;
                line.append(f("%.1f,%.1f ", xs.get(i), y));
                dots.append(f("<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>step %d: %s %.1f"
                        + "</title></circle>\n", series, xs.get(i), y, COLOURS.get(series), points.get(i).step(), series, v));
            }
            if (line.isEmpty()) {
                continue;
            }
            s.append(f("<polyline class=\"%s\" points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>\n",
                    series, line.toString().trim(), COLOURS.get(series), right ? " stroke-dasharray=\"6 3\"" : ""));
            s.append(dots);
        }
        int ly = TOP + 20;
        for (Map.Entry<String, String> c : COLOURS.entrySet()) {
            String label = switch (c.getKey()) {
                case "offered" -> "offered";
                case "reserved" -> "202 reserved";
                case "p99" -> "p99 of 202";
                default -> c.getKey() + " refused";
            };
            s.append(f("<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"4\" fill=\"%s\"/>\n", LEFT + plotW + 46, ly - 4,
                    c.getValue()));
            s.append(f("<text x=\"%d\" y=\"%d\">%s</text>\n", LEFT + plotW + 62, ly, label));
            ly += 18;
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private static double value(Point p, String series) {
        return switch (series) {
            case "offered" -> p.offeredRate();
            case "reserved" -> p.reservedRate();
            case "p99" -> p.p99Millis();
            default -> p.refusedRate().getOrDefault(Layer.valueOf(series.toUpperCase(Locale.ROOT)), 0.0);
        };
    }

    private static int indexOf(List<Point> points, int step) {
        for (int i = 0; i < points.size(); i++) {
            if (points.get(i).step() == step) {
                return i;
            }
        }
        return -1;
    }

    private static double finite(double v) {
        return Double.isFinite(v) ? v : 0;
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
