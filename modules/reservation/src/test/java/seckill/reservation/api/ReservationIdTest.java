package seckill.reservation.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** The text form of a reservation id, read by hand: it accepts exactly what the documented form does. */
class ReservationIdTest {

    // the documented form, as the parser used to check it with a regex
    private static final Pattern FORM = Pattern.compile("[1-9][0-9]{0,17}-[1-9][0-9]{0,17}-[0-9]{1,4}-[0-9a-z]{1,13}");

    private static Optional<ReservationId> byTheForm(String text) {
        if (!FORM.matcher(text).matches()) {
            return Optional.empty();
        }
        String[] parts = text.split("-");
        try {
            return Optional.of(new ReservationId(Long.parseLong(parts[0]), Long.parseLong(parts[1]),
                    Integer.parseInt(parts[2]), Long.parseLong(parts[3], 36)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Test
    void anIdReadsBackFromItsTextAndMalformedOnesAreRefused() {
        ReservationId id = new ReservationId(ReservationId.MAX_PART, 7, 9999, Long.MAX_VALUE);
        assertThat(ReservationId.parse(id.toString()), is(Optional.of(id)));
        assertThat(ReservationId.parse("12-3-0-a1"), is(Optional.of(new ReservationId(12, 3, 0, 361))));
        for (String bad : List.of("", "-", "1-2-3", "1-2-3-4-5", "01-2-3-4", "1-02-3-4", "1-2-12345-4", "1-2-3-A",
                "1-2-3-", "-1-2-3-4", "1-2--3-4", "1-2-3-zzzzzzzzzzzzz", "1-2-3-12345678901234", "1 -2-3-4",
                "1234567890123456789-2-3-4", "1-2-3-4 ", "١-2-3-4")) {
            assertThat(bad, ReservationId.parse(bad), is(Optional.empty()));
        }
        assertThat(ReservationId.parse(null), is(Optional.empty()));
    }

    @Test
    void itAgreesWithTheDocumentedFormOnManyNearMisses() {
        Random random = new Random(20261130);
        String alphabet = "0123456789az-Z ";
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(24);
            for (int j = 0; j < length; j++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            texts.add(text.toString());
            // and well-formed ids with one character changed
            ReservationId id = new ReservationId(1 + random.nextLong(ReservationId.MAX_PART), 1 + random.nextInt(1000),
                    random.nextInt(10_000), random.nextLong(Long.MAX_VALUE));
            StringBuilder near = new StringBuilder(id.toString());
            near.setCharAt(random.nextInt(near.length()), alphabet.charAt(random.nextInt(alphabet.length())));
            texts.add(near.toString());
        }
        int accepted = 0;
        for (String text : texts) {
            Optional<ReservationId> expected = byTheForm(text);
            assertThat(text, ReservationId.parse(text), is(expected));
            accepted += expected.isPresent() ? 1 : 0;
        }
        // the sample holds both kinds in number, so agreement means something
        assertThat(accepted > 50_000 && accepted < 350_000, is(true));
    }
}
