package seckill.admission;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.random.RandomGenerator;

import javax.imageio.ImageIO;

/**
 * Draws a captcha answer as a PNG with a built-in 5x7 pixel font, jitter and noise. No system font
 * is needed, so it renders the same on a headless server without fontconfig.
 */
final class CaptchaPicture {

    static final String ALPHABET = "ACDEFHKMNPRTWXY3479";
    private static final int SCALE = 4;
    private static final Map<Character, String[]> GLYPHS = Map.ofEntries(
            Map.entry('A', new String[] {".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"}),
            Map.entry('C', new String[] {".####", "#....", "#....", "#....", "#....", "#....", ".####"}),
            Map.entry('D', new String[] {"####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."}),
            Map.entry('E', new String[] {"#####", "#....", "#....", "####.", "#....", "#....", "#####"}),
            Map.entry('F', new String[] {"#####", "#....", "#....", "####.", "#....", "#....", "#...."}),
            Map.entry('H', new String[] {"#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"}),
            Map.entry('K', new String[] {"#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"}),
            Map.entry('M', new String[] {"#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"}),
            Map.entry('N', new String[] {"#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#", "#...#"}),
            Map.entry('P', new String[] {"####.", "#...#", "#...#", "####.", "#....", "#....", "#...."}),
            Map.entry('R', new String[] {"####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"}),
            Map.entry('T', new String[] {"#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."}),
            Map.entry('W', new String[] {"#...#", "#...#", "#...#", "#.#.#", "#.#.#", "##.##", "#...#"}),
            Map.entry('X', new String[] {"#...#", ".#.#.", "..#..", "..#..", "..#..", ".#.#.", "#...#"}),
            Map.entry('Y', new String[] {"#...#", ".#.#.", "..#..", "..#..", "..#..", "..#..", "..#.."}),
            Map.entry('3', new String[] {"####.", "....#", "....#", ".###.", "....#", "....#", "####."}),
            Map.entry('4', new String[] {"#..#.", "#..#.", "#..#.", "#####", "...#.", "...#.", "...#."}),
            Map.entry('7', new String[] {"#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."}),
            Map.entry('9', new String[] {".###.", "#...#", "#...#", ".####", "....#", "....#", ".###."}));

    private CaptchaPicture() {
    }

    static byte[] png(String answer, RandomGenerator random) {
        int width = 16 + answer.length() * (5 * SCALE + 8);
        int height = 7 * SCALE + 24;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        for (int x = 0; x < width; x++) {
            for (int y = 0; y < height; y++) {
                int shade = 225 + random.nextInt(30);
                image.setRGB(x, y, rgb(shade, shade, shade));
            }
        }
        int left = 8;
        for (char c : answer.toCharArray()) {
            String[] glyph = GLYPHS.get(c);
            int top = 6 + random.nextInt(12);
            int ink = rgb(random.nextInt(90), random.nextInt(90), random.nextInt(120));
            for (int row = 0; row < 7; row++) {
                for (int col = 0; col < 5; col++) {
                    if (glyph[row].charAt(col) == '#') {
                        fill(image, left + col * SCALE + row / 3, top + row * SCALE, SCALE, ink);
                    }
                }
            }
            left += 5 * SCALE + 8;
        }
        for (int i = 0; i < width * height / 12; i++) {
            image.setRGB(random.nextInt(width), random.nextInt(height), rgb(random.nextInt(256), random.nextInt(256),
                    random.nextInt(256)));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode captcha PNG", e);
        }
        return out.toByteArray();
    }

    private static void fill(BufferedImage image, int x0, int y0, int size, int color) {
        for (int x = x0; x < Math.min(image.getWidth(), x0 + size); x++) {
            for (int y = y0; y < Math.min(image.getHeight(), y0 + size); y++) {
                image.setRGB(x, y, color);
            }
        }
    }

    private static int rgb(int r, int g, int b) {
        return (r << 16) | (g << 8) | b;
    }
}
