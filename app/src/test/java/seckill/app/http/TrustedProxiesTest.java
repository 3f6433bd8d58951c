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
    void aBadRangeIsRefusedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TrustedProxies.parse("10.0.0.0/33"));
        assertThat(e.getMessage(), is("seckill.admission.trusted-proxies: bad prefix in 10.0.0.0/33"));
    }
}
