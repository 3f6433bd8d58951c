package seckill.admission;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.font.FontRenderContext;
import java.awt.geom.AffineTransform;
import java.awt.geom.Area;
import java.awt.geom.CubicCurve2D;
import java.awt.geom.Path2D;
import java.awt.geom.PathIterator;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.random.RandomGenerator;

import javax.imageio.ImageIO;

/**
 * Draws a captcha answer so that a template matcher or an OCR pass does not read it (issue #36: a fixed
 * 5x7 bitmap font at fixed places fell to a 60-line script). Each character takes its own font family,
 * style, size, rotation, scale and shear; its outline is bent by a smooth random warp, and it is drawn
 * filled or hollow. Neighbours overlap by a varying amount. Curves and arcs in ink colours cross the
 * characters, and a wave distortion bends the whole picture at the end. The alphabet leaves out what a
 * person confuses once distorted (0/O, 1/I/l, 2/Z, 5/S, 6/G, 8/B, E/F, P/R, U/V). All randomness comes
 * from the caller's generator, so a seeded test sees the same picture every run. Java2D in headless
 * mode; where the JDK finds no font at all, the glyph outlines fall back to a built-in block font,
 * distorted the same way.
 */
final class CaptchaPicture {

    static final String ALPHABET = "ACDEHKMNPTWXY3479";
    static final int WIDTH = 220;
    static final int HEIGHT = 70;

    private static final String[] FAMILIES = {Font.SANS_SERIF, Font.SERIF, Font.MONOSPACED, Font.DIALOG};
    private static final int[] STYLES = {Font.PLAIN, Font.BOLD, Font.ITALIC, Font.BOLD | Font.ITALIC};
    private static final FontRenderContext FRC = new FontRenderContext(null, true, true);

    private CaptchaPicture() {
    }

    static byte[] png(String answer, RandomGenerator random) {
        BufferedImage image = draw(answer, random);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode captcha PNG", e);
        }
        return out.toByteArray();
    }

    static BufferedImage draw(String answer, RandomGenerator random) {
        BufferedImage canvas = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setPaint(new GradientPaint(0, 0, pale(random), WIDTH, HEIGHT, pale(random)));
        g.fillRect(0, 0, WIDTH, HEIGHT);
        for (int i = 0; i < 6; i++) {
            // soft blobs: a global threshold cannot take the background out as one level
            g.setColor(new Color(150 + random.nextInt(80), 150 + random.nextInt(80), 150 + random.nextInt(80), 90));
            int r = 12 + random.nextInt(22);
            g.fillOval(random.nextInt(WIDTH) - r, random.nextInt(HEIGHT) - r, 2 * r, 2 * r);
        }
        double x = 8 + random.nextInt(12);
        for (char c : answer.toCharArray()) {
            Shape glyph = warped(glyph(c, random), random);
            Rectangle2D box = glyph.getBounds2D();
            double angle = (random.nextDouble() - 0.5) * 0.7;  // about ±20°
            AffineTransform place = new AffineTransform();
            place.translate(x + box.getWidth() / 2, HEIGHT / 2.0 + (random.nextDouble() - 0.5) * 12);
            place.rotate(angle);
            place.shear((random.nextDouble() - 0.5) * 0.5, 0);
            place.translate(-box.getCenterX(), -box.getCenterY());
            Shape placed = place.createTransformedShape(glyph);
            g.setColor(ink(random));
            if (random.nextInt(10) < 3) {
                g.setStroke(new BasicStroke(2.2f + random.nextFloat(), BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
                g.draw(placed);
            } else {
                g.fill(placed);
            }
            // neighbours overlap: there is no gap a segmenter could cut at
            x += box.getWidth() * (0.86 + random.nextDouble() * 0.16);
        }
        for (int i = 0; i < 2 + random.nextInt(2); i++) {
            g.setColor(ink(random));
            g.setStroke(new BasicStroke(1.3f + random.nextFloat() * 1.2f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
            g.draw(new CubicCurve2D.Double(-5, random.nextInt(HEIGHT), random.nextInt(WIDTH), random.nextInt(HEIGHT) * 1.4 - 14,
                    random.nextInt(WIDTH), random.nextInt(HEIGHT) * 1.4 - 14, WIDTH + 5, random.nextInt(HEIGHT)));
        }
        for (int i = 0; i < 1 + random.nextInt(2); i++) {
            g.setColor(ink(random));
            g.setStroke(new BasicStroke(1.3f + random.nextFloat()));
            int w = 40 + random.nextInt(80);
            int h = 30 + random.nextInt(40);
            g.drawArc(random.nextInt(WIDTH - 40), random.nextInt(HEIGHT) - h / 2, w, h, random.nextInt(360),
                    120 + random.nextInt(180));
        }
        g.dispose();
        return waved(canvas, random);
    }

    /** The character's outline in a random font, or in the block font where the JDK has none. */
    private static Shape glyph(char c, RandomGenerator random) {
        float size = 42 + random.nextInt(10);
        try {
            Font font = new Font(FAMILIES[random.nextInt(FAMILIES.length)], STYLES[random.nextInt(STYLES.length)],
                    Math.round(size));
            Shape outline = font.createGlyphVector(FRC, String.valueOf(c)).getOutline();
            if (!outline.getBounds2D().isEmpty()) {
                double sx = 0.8 + random.nextDouble() * 0.45;
                double sy = 0.85 + random.nextDouble() * 0.3;
                return AffineTransform.getScaleInstance(sx, sy).createTransformedShape(outline);
            }
        } catch (RuntimeException | Error e) {
            // a JDK without fontconfig or fonts: the block font below is still distorted the same way
        }
        return BlockFont.outline(c, size / 9);
    }

    /** Bends the outline: every point moves by two smooth random waves, so no two draws share a shape. */
    private static Shape warped(Shape outline, RandomGenerator random) {
        double ax = 1.2 + random.nextDouble() * 1.8;
        double ay = 1.2 + random.nextDouble() * 1.8;
        double fx = 0.15 + random.nextDouble() * 0.2;
        double fy = 0.15 + random.nextDouble() * 0.2;
        double px = random.nextDouble() * Math.PI * 2;
        double py = random.nextDouble() * Math.PI * 2;
        Path2D.Double path = new Path2D.Double(Path2D.WIND_NON_ZERO);
        PathIterator it = outline.getPathIterator(null, 0.5);
        double[] p = new double[6];
        while (!it.isDone()) {
            int type = it.currentSegment(p);
            double x = p[0] + ax * Math.sin(p[1] * fy + px);
            double y = p[1] + ay * Math.sin(p[0] * fx + py);
            switch (type) {
                case PathIterator.SEG_MOVETO -> path.moveTo(x, y);
                case PathIterator.SEG_LINETO -> path.lineTo(x, y);
                case PathIterator.SEG_CLOSE -> path.closePath();
                default -> path.lineTo(x, y);  // a flattening iterator gives only the three above
            }
            it.next();
        }
        path.setWindingRule(outline.getPathIterator(null).getWindingRule());
        return path;
    }

    /** The whole picture through a wave: rows and columns shift by sines of their own period and phase. */
    private static BufferedImage waved(BufferedImage src, RandomGenerator random) {
        double ax = 2 + random.nextDouble() * 1.5;
        double ay = 2.5 + random.nextDouble() * 1.5;
        double px = 28 + random.nextDouble() * 20;
        double py = 60 + random.nextDouble() * 50;
        double phx = random.nextDouble() * Math.PI * 2;
        double phy = random.nextDouble() * Math.PI * 2;
        int[] from = src.getRGB(0, 0, WIDTH, HEIGHT, null, 0, WIDTH);
        int[] to = new int[from.length];
        for (int y = 0; y < HEIGHT; y++) {
            int shift = (int) Math.round(ax * Math.sin(2 * Math.PI * y / px + phx));
            for (int x = 0; x < WIDTH; x++) {
                int sx = Math.clamp(x + shift, 0, WIDTH - 1);
                int sy = Math.clamp((int) Math.round(y + ay * Math.sin(2 * Math.PI * x / py + phy)), 0, HEIGHT - 1);
                to[y * WIDTH + x] = from[sy * WIDTH + sx];
            }
        }
        BufferedImage out = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        out.setRGB(0, 0, WIDTH, HEIGHT, to, 0, WIDTH);
        return out;
    }

    private static Color pale(RandomGenerator random) {
        return new Color(200 + random.nextInt(56), 200 + random.nextInt(56), 200 + random.nextInt(56));
    }

    private static Color ink(RandomGenerator random) {
        return new Color(random.nextInt(110), random.nextInt(110), random.nextInt(130));
    }

    /** Outlines from a 5x7 block pattern, for a JDK that has no font to draw with. */
    private static final class BlockFont {
        private static final java.util.Map<Character, String> ROWS = java.util.Map.ofEntries(
                java.util.Map.entry('A', ".###.#...##...######...##...##...#"),
                java.util.Map.entry('C', ".#####....#....#....#....#.....####"),
                java.util.Map.entry('D', "####.#...##...##...##...##...#####."),
                java.util.Map.entry('E', "######....#....####.#....#....#####"),
                java.util.Map.entry('H', "#...##...##...#######...##...##...#"),
                java.util.Map.entry('K', "#...##..#.#.#..##...#.#..#..#.#...#"),
                java.util.Map.entry('M', "#...###.###.#.##.#.##...##...##...#"),
                java.util.Map.entry('N', "#...###..##.#.##..###...##...##...#"),
                java.util.Map.entry('P', "####.#...##...#####.#....#....#...."),
                java.util.Map.entry('T', "#####..#....#....#....#....#....#.."),
                java.util.Map.entry('W', "#...##...##...##.#.##.#.###.###...#"),
                java.util.Map.entry('X', "#...#.#.#...#....#....#...#.#.#...#"),
                java.util.Map.entry('Y', "#...#.#.#...#....#....#....#....#.."),
                java.util.Map.entry('3', "####.....#....#.###.....#....#####."),
                java.util.Map.entry('4', "#..#.#..#.#..#.#####...#....#....#."),
                java.util.Map.entry('7', "#####....#...#...#...#....#....#..."),
                java.util.Map.entry('9', ".###.#...##...#.####....#....#.###."));

        static Shape outline(char c, double cell) {
            String rows = ROWS.get(c);
            Area area = new Area();
            for (int i = 0; i < rows.length(); i++) {
                if (rows.charAt(i) == '#') {
                    area.add(new Area(new Rectangle2D.Double((i % 5) * cell, (i / 5) * cell - 7 * cell, cell, cell)));
                }
            }
            return area;
        }
    }
}
