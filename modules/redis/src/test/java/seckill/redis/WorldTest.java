package seckill.redis;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** An activity's world from its id alone (issue #34, docs/rehearsal.md). */
class WorldTest {

    @Test
    void realIdsAreRealAndRehearsalIdsStartAtTenToTheFifteen() {
        assertThat(World.of(1), is(World.REAL));
        assertThat(World.of(999_999_999_999_999L), is(World.REAL));
        assertThat(World.of(1_000_000_000_000_000L), is(World.REHEARSAL));
        assertThat(World.of(999_999_999_999_999_999L), is(World.REHEARSAL));
        // exact in a JavaScript number
        assertThat(World.REHEARSAL_IDS_FROM < (1L << 53), is(true));
    }

    @Test
    void theRealPrefixIsTheOneEveryKeyHadAndTheRehearsalsIsItsOwn() {
        assertThat(World.REAL.key("streams"), is("sk:streams"));
        assertThat(World.REHEARSAL.key("streams"), is("rh:streams"));
    }
}
