package seckill.app.http;

import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import seckill.ledger.api.catalogue.NewActivity;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Issue #34: until the rehearsal path is separated end to end (docs/rehearsal.md), a launch asking for a
 * rehearsal is refused with 501 REHEARSAL_NOT_AVAILABLE, never read as a real activity (before, the field
 * was ignored and a drill asking for a shadow sale got a real one, in the real tables and keys).
 */
class RehearsalRefusalTest {

    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

    private static NewActivity read(String extra) {
        return AdminActivitiesResource.read(JsonBody.parse("""
                {"name":"s","startsAt":"2030-01-01T10:00:00Z","endsAt":"2030-01-01T11:00:00Z",
                 "skus":[{"skuId":1,"stock":5}]%s}""".formatted(extra)), NOW, name -> Optional.empty());
    }

    @Test
    void aRehearsalIsRefusedAsNotAvailable() {
        Problem problem = assertThrows(Problem.class, () -> read(",\"rehearsal\":true"));
        assertThat(problem.status(), is(501));
        assertThat(problem.code(), is("REHEARSAL_NOT_AVAILABLE"));
        assertThat(problem.getMessage(), containsString("nothing was created"));
    }

    @Test
    void aRealActivityReadsAsBeforeWithOrWithoutTheField() {
        assertThat(read(",\"rehearsal\":false"), is(read("")));
        assertThat(read(",\"rehearsal\":null"), is(read("")));
    }

    @Test
    void aRehearsalFieldThatIsNotABooleanIsInvalid() {
        Problem problem = assertThrows(Problem.class, () -> read(",\"rehearsal\":\"yes\""));
        assertThat(problem.status(), is(400));
        assertThat(problem.getMessage(), containsString("rehearsal must be true or false"));
        // an invalid body is named as such first, even when it asks for a rehearsal
        Problem both = assertThrows(Problem.class, () -> AdminActivitiesResource.read(JsonBody.parse(
                "{\"name\":\"s\",\"rehearsal\":true}"), NOW, name -> Optional.empty()));
        assertThat(both.status(), is(400));
    }
}
