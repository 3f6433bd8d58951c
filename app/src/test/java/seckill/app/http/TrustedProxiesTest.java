package seckill.app.http;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Which X-Forwarded-For entry is the client, without a server. */
class TrustedProxiesTest {

    private final TrustedProxies loopbackAndLan = TrustedProxies.parse("127.0.0.0/8, ::1/128, 10.0.0.0/8");

    @Test
    void theEntryAppendedByOurProxyIsTheClientNotTheOneTheClientForged() {
        assertThat(loopbackAndLan.clientOf("127.0.0.1", "198.51.100.1, 203.0.113.7"), is("203.0.113.7"));
    }

    @Test
    void trustedHopsArePassedFromTheRight() {
        assertThat(loopbackAndLan.clientOf("127.0.0.1", "203.0.113.7, 10.1.2.3, 10.0.0.9"), is("203.0.113.7"));
        assertThat(loopbackAndLan.clientOf("::1", "2001:db8::7"), is("2001:db8::7"));
    }

    @Test
    void aPeerThatIsNoProxyOfOursIsTheClientWhateverItSends() {
        assertThat(loopbackAndLan.clientOf("198.51.100.9", "10.0.0.1, 127.0.0.1"), is("198.51.100.9"));
        assertThat(loopbackAndLan.clientOf("127.0.0.1", null), is("127.0.0.1"));
    }

    @Test
    void aHopThatIsNoAddressStopsTheWalk() {
        assertThat(loopbackAndLan.clientOf("127.0.0.1", "203.0.113.7, unknown"), is("unknown"));
    }

    @Test
    void onlyProxiesMeansTheLeftmostIsAsFarAsAnyoneCanTell() {
        assertThat(loopbackAndLan.clientOf("127.0.0.1", "10.0.0.5, 10.0.0.6"), is("10.0.0.5"));
    }

    @Test
    void prefixesAreHonouredToTheBit() {
        TrustedProxies narrow = TrustedProxies.parse("192.168.4.0/23");
        assertThat(narrow.trusts("192.168.5.200"), is(true));
        assertThat(narrow.trusts("192.168.6.1"), is(false));
        assertThat(narrow.trusts("not-an-ip.example"), is(false));
    }

    @Test
    void timeGrowsLinearlyWithTheHeader() {
        // a hop of colons ending in a non-address character made the old literal pattern backtrack
        // over every colon for every colon (#36: 2.8 s for 16 KB); four times the text must cost
        // about four times the time, not sixteen
        String quarter = ":".repeat(16 * 1024) + "g";
        String whole = ":".repeat(64 * 1024) + "g";
        long small = fastestOfFive(quarter);
        long large = fastestOfFive(whole);
        System.out.printf("TrustedProxiesTest: one hop of 16 KB %d µs, of 64 KB %d µs%n", small / 1_000, large / 1_000);
        assertThat("16 KB: " + small / 1_000 + " µs, 64 KB: " + large / 1_000 + " µs",
                large <= 6 * small + 20_000_000L, is(true));
    }

    @Test
    void onlyTheNearestHopsAreWalkedAndAHugeHopIsCutShort() {
        TrustedProxies proxies = TrustedProxies.parse("10.0.0.0/8", 3);
        // past the bound every hop examined was a proxy of ours: the farthest examined is the answer
        assertThat(proxies.clientOf("10.0.0.1", "198.51.100.1, 10.0.0.5, 10.0.0.4, 10.0.0.3, 10.0.0.2"), is("10.0.0.4"));
        assertThat(proxies.clientOf("10.0.0.1", "198.51.100.1, 10.0.0.3, 10.0.0.2"), is("198.51.100.1"));
        // a client's own text never becomes a key longer than any address
        assertThat(proxies.clientOf("10.0.0.1", "x".repeat(10_000)).length(), is(TrustedProxies.MAX_HOP_CHARS));
    }

    /** The fastest of five runs (warm), or of fewer once they took a second in all: slow is slow enough. */
    private long fastestOfFive(String forwardedFor) {
        long best = Long.MAX_VALUE;
        long spent = 0;
        for (int i = 0; i < 5 && spent < 1_000_000_000L; i++) {
            long start = System.nanoTime();
            loopbackAndLan.clientOf("127.0.0.1", forwardedFor);
            long took = System.nanoTime() - start;
            best = Math.min(best, took);
            spent += took;
        }
        return best;
    }

    @Test
    void aBadRangeIsRefusedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TrustedProxies.parse("10.0.0.0/33"));
        assertThat(e.getMessage(), is("seckill.admission.trusted-proxies: bad prefix in 10.0.0.0/33"));
    }
}
