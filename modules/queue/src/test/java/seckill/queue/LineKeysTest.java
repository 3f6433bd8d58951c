package seckill.queue;

import java.util.List;

import org.junit.jupiter.api.Test;
import seckill.redis.World;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/** Issue #34: a real line's keys are spelled as they always were; a rehearsal's line lives under rh:. */
class LineKeysTest {

    @Test
    void aRealLinesKeysAreUnchanged() {
        assertThat(new LineKeys(7).line(), is(List.of("sk:{q:a7}:pre", "sk:{q:a7}:line", "sk:{q:a7}:meta",
                "sk:{q:a7}:places", "sk:{q:a7}:passes", "sk:{q:a7}:done")));
        assertThat(new LineKeys(7).admitting(5).get(6), is("sk:{q:a7}:s5"));
        assertThat(new LineKeys(7).meta(), is("sk:{q:a7}:meta"));
    }

    @Test
    void aRehearsalsLineHasKeysOfItsOwn() {
        long rehearsal = World.REHEARSAL_IDS_FROM + 7;
        LineKeys keys = new LineKeys(rehearsal);
        assertThat(keys.admitting(5), everyItem(startsWith("rh:{q:a" + rehearsal + "}:")));
        assertThat(keys.claiming(), everyItem(startsWith("rh:{q:a" + rehearsal + "}:")));
        assertThat(keys.using(), everyItem(startsWith("rh:{q:a" + rehearsal + "}:")));
    }
}
