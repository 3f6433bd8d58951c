package seckill.admission;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;

/** The captcha picture: the same seed draws the same picture, no confusable characters, and what a picture costs. */
class CaptchaPictureTest {

    @Test
    void aSeededGeneratorDrawsTheSamePictureEveryRun() {
        assertThat(Arrays.equals(CaptchaPicture.png("AC3X9", new SplittableRandom(42)),
                CaptchaPicture.png("AC3X9", new SplittableRandom(42))), is(true));
        assertThat(Arrays.equals(CaptchaPicture.png("AC3X9", new SplittableRandom(42)),
                CaptchaPicture.png("AC3X9", new SplittableRandom(43))), is(false));
    }

    @Test
    void theAlphabetLeavesOutWhatPeopleConfuse() {
        for (char c : "0O1IL2Z5S6G8BFRUV".toCharArray()) {
            assertThat(c + " is not used", CaptchaPicture.ALPHABET.indexOf(c), is(-1));
        }
    }

    @Test
    void drawingOneCostsMilliseconds() throws Exception {
        SplittableRandom random = new SplittableRandom(7);
        Path samples = Files.createDirectories(Path.of("target", "captcha-samples"));
        for (int i = 0; i < 20; i++) {
            // warm-up, and pictures to look at
            Files.write(samples.resolve("sample-" + i + ".png"), CaptchaPicture.png(answer(random), random));
        }
        int n = 200;
        long started = System.nanoTime();
        long bytes = 0;
        for (int i = 0; i < n; i++) {
            bytes += CaptchaPicture.png(answer(random), random).length;
        }
        double millis = (System.nanoTime() - started) / 1e6 / n;
        System.out.printf("captcha picture: %.2f ms and %d bytes per challenge (mean of %d)%n", millis, bytes / n, n);
        // a guard against a pathological change only: the machine is shared, the figure printed is what to read
        assertThat(millis, lessThan(500.0));
    }

    private static String answer(SplittableRandom random) {
        StringBuilder answer = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            answer.append(CaptchaPicture.ALPHABET.charAt(random.nextInt(CaptchaPicture.ALPHABET.length())));
        }
        return answer.toString();
    }
}
