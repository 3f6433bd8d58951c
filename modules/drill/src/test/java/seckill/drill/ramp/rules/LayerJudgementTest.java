package seckill.drill.ramp.rules;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

/** The judgement of which layer gives first, on planted step figures. */
class LayerJudgementTest {

    private static final double NAN = Double.NaN;
    private final LayerJudgement judgement = new LayerJudgement(Thresholds.DEFAULTS);

    /** A healthy step: everything answered 202, fast, ordered as fast as reserved. */
    private static StepFigures calm(int step, double rate) {
        long sent = Math.round(rate * 10);
        return new StepFigures(step, rate, sent, Map.of(), 12, 40, 3, sent, rate, rate, 8);
    }

    private static StepFigures refusing(int step, double rate, Layer layer, long refused) {
        StepFigures c = calm(step, rate);
        return new StepFigures(step, rate, c.sent(), Map.of(layer, refused), c.reservedP99Millis(),
                c.scriptMicrosPerCall(), c.backlogEnd(), c.sent() - refused, rate, rate, c.databaseWaitMillis());
    }

    @Test
    void aCalmRampNamesNoLayer() {
        assertThat(judgement.first(List.of(calm(1, 100), calm(2, 200), calm(3, 300))), is(Optional.empty()));
    }

    @Test
    void admissionShedsAtTheFirstStepItsRefusalsPassTheShare() {
        // 1 % of 2,000 is 20: 20 refusals is not yet shedding, 21 is
        List<StepFigures> steps = List.of(calm(1, 100), refusing(2, 200, Layer.ADMISSION, 20),
                refusing(3, 300, Layer.ADMISSION, 400), refusing(4, 400, Layer.ADMISSION, 2_000));
        FirstToGive first = judgement.first(steps).orElseThrow();
        assertThat(first.layer(), is(Layer.ADMISSION));
        assertThat(first.named().how(), is(Giving.How.SHEDS));
        assertThat(first.step(), is(3));
        assertThat(first.offeredRate(), is(300.0));
        assertThat(first.sentence(), containsString("admission sheds first, at 300.0 req/s offered (step 3): "
                + "400 of 3000 requests refused (13.3 % > 1.0 %)"));
    }

    @Test
    void inOneStepTheLayerNearestTheBuyerIsNamedAndTheOthersListed() {
        StepFigures both = new StepFigures(2, 200, 2_000, Map.of(Layer.ADMISSION, 100L, Layer.EDGE, 50L), 900, 40, 3,
                1_850, 185, 185, 8);
        FirstToGive first = judgement.first(List.of(calm(1, 100), both)).orElseThrow();
        assertThat(first.layer(), is(Layer.EDGE));
        assertThat(first.all().stream().map(Giving::layer).toList(),
                contains(Layer.EDGE, Layer.ADMISSION, Layer.RESERVATION));
    }

    @Test
    void aSlowReservationPathSaturatesByItsP99OrItsScriptTime() {
        StepFigures slow = new StepFigures(1, 100, 1_000, Map.of(), 251, 40, 0, 1_000, 100, 100, 8);
        assertThat(judgement.gave(slow).getFirst().evidence(), containsString("p99 of 202 answers 251.0 ms > 250.0 ms"));
        StepFigures busyRedis = new StepFigures(1, 100, 1_000, Map.of(), 20, 1_500, 0, 1_000, 100, 100, 8);
        Giving g = judgement.gave(busyRedis).getFirst();
        assertThat(g.layer(), is(Layer.RESERVATION));
        assertThat(g.how(), is(Giving.How.SATURATES));
        assertThat(g.evidence(), containsString("1500 µs"));
        // BUSY and HALTED answers are the reservation path shedding
        assertThat(judgement.gave(refusing(1, 100, Layer.RESERVATION, 500)).getFirst().how(), is(Giving.How.SHEDS));
    }

    @Test
    void theStreamSaturatesByItsBacklogOrByOrdersFallingBehind() {
        StepFigures backlog = new StepFigures(4, 400, 4_000, Map.of(), 20, 40, 1_001, 4_000, 400, 390, 8);
        assertThat(judgement.gave(backlog).getFirst().evidence(), is("stream backlog 1001 entries > 1000"));
        StepFigures behind = new StepFigures(4, 400, 4_000, Map.of(), 20, 40, 900, 4_000, 400, 199, 8);
        assertThat(judgement.gave(behind).getFirst().layer(), is(Layer.STREAM));
        // too few reservations to judge the ordering rate by
        StepFigures few = new StepFigures(1, 4, 40, Map.of(), 20, 40, 30, 40, 4, 0, 8);
        assertThat(judgement.gave(few), empty());
    }

    @Test
    void theDatabaseSaturatesByItsTransactionTimeAndShedsByItsUnavailableAnswers() {
        FirstToGive first = judgement.first(List.of(calm(1, 100), calm(2, 200),
                new StepFigures(3, 300, 3_000, Map.of(), 20, 40, 10, 3_000, 300, 300, 180))).orElseThrow();
        assertThat(first.layer(), is(Layer.DATABASE));
        assertThat(first.step(), is(3));
        assertThat(first.named().evidence(), is("ordering transaction 180.0 ms on average > 100.0 ms"));
        assertThat(judgement.gave(refusing(1, 100, Layer.DATABASE, 30)).getFirst().layer(), is(Layer.DATABASE));
    }

    @Test
    void figuresThatCouldNotBeReadJudgeNothing() {
        StepFigures unknown = new StepFigures(1, 100, 1_000, Map.of(), NAN, NAN, -1, 1_000, 100, NAN, NAN);
        assertThat(judgement.gave(unknown), empty());
    }

    @Test
    void theThresholdsAreOptions() {
        LayerJudgement strict = new LayerJudgement(new Thresholds(0, 10, 30, 2, 0, 1, 5));
        List<Layer> layers = strict.gave(calm(1, 100)).stream().map(Giving::layer).toList();
        assertThat(layers, contains(Layer.RESERVATION, Layer.STREAM, Layer.DATABASE));
        assertThat(strict.gave(refusing(1, 100, Layer.EDGE, 1)).getFirst().layer(), is(Layer.EDGE));
    }

    @Test
    void answersAreToldApartByTheirShape() {
        assertThat(Answer.of(429, "THROTTLED", Optional.of("EDGE")), is(Answer.EDGE_THROTTLED));
        assertThat(Answer.of(429, "HTTP_429", Optional.empty()), is(Answer.EDGE_THROTTLED));
        assertThat(Answer.of(429, "THROTTLED", Optional.of("GLOBAL")), is(Answer.ADMISSION_GLOBAL));
        assertThat(Answer.of(429, "THROTTLED", Optional.of("BUYER")), is(Answer.ADMISSION_BUYER));
        assertThat(Answer.of(502, "HTTP_502", Optional.empty()), is(Answer.EDGE_FAILED));
        assertThat(Answer.of(503, "BUSY", Optional.empty()), is(Answer.BUSY));
        assertThat(Answer.of(503, "HALTED", Optional.empty()), is(Answer.HALTED));
        assertThat(Answer.of(503, "DATABASE_UNAVAILABLE", Optional.empty()).layer(), is(Optional.of(Layer.DATABASE)));
        assertThat(Answer.of(410, "SOLD_OUT", Optional.empty()), is(Answer.SOLD_OUT));
        assertThat(Answer.of(202, null, Optional.empty()), is(Answer.RESERVED));
        assertThat(Answer.of(403, "TOKEN_INVALID", Optional.empty()), is(Answer.OTHER));
    }
}
