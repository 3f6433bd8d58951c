package seckill.app.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The proxies whose {@code X-Forwarded-For} entries are believed, as CIDR ranges, and the rule that
 * finds the client behind them (RFC 7239's reasoning): walk the hops from the nearest, the
 * connection's peer, towards the left; the first address that is not a trusted proxy is the client.
 * Entries left of it are whatever the client chose to send and count for nothing. Plain Java.
 */
final class TrustedProxies {

    private static final Pattern IP_LITERAL = Pattern.compile("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*");

    private record Range(byte[] network, int prefix) {
        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xFF << (8 - rest)) & 0xFF;
            return (address[full] & mask) == (network[full] & mask);
        }
    }

    private final List<Range> ranges;

    private TrustedProxies(List<Range> ranges) {
        this.ranges = ranges;
    }

    /**
     * Parses a comma-separated list of {@code address/prefix} (or single addresses).
     *
     * @throws IllegalArgumentException naming the first entry that is not one
     */
    static TrustedProxies parse(String cidrs) {
        List<Range> ranges = new ArrayList<>();
        for (String entry : cidrs.split(",")) {
            String cidr = entry.trim();
            if (cidr.isEmpty()) {
                continue;
            }
            String[] parts = cidr.split("/", 2);
            byte[] network = literal(parts[0]).orElseThrow(() -> new IllegalArgumentException(
                    "seckill.admission.trusted-proxies: not an address or CIDR range: " + cidr));
            int prefix;
            try {
                prefix = parts.length == 2 ? Integer.parseInt(parts[1]) : network.length * 8;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("seckill.admission.trusted-proxies: bad prefix in " + cidr);
            }
            if (prefix < 0 || prefix > network.length * 8) {
                throw new IllegalArgumentException("seckill.admission.trusted-proxies: bad prefix in " + cidr);
            }
            ranges.add(new Range(network, prefix));
        }
        return new TrustedProxies(List.copyOf(ranges));
    }

    boolean trusts(String address) {
        return literal(address).map(bytes -> ranges.stream().anyMatch(r -> r.contains(bytes))).orElse(false);
    }

    /** The client: the rightmost hop, counting the peer last, that is not a trusted proxy. */
    String clientOf(String peer, String forwardedFor) {
        if (!trusts(peer) || forwardedFor == null || forwardedFor.isBlank()) {
            return peer;
        }
        String[] hops = forwardedFor.split(",");
        for (int i = hops.length - 1; i >= 0; i--) {
            String hop = hops[i].trim();
            if (!trusts(hop)) {
                return hop;
            }
        }
        // every hop is a proxy of ours: the leftmost is as far as anyone can tell
        return hops[0].trim();
    }

    /** The bytes of an IP literal; never a DNS lookup. */
    private static java.util.Optional<byte[]> literal(String text) {
        String address = text.trim();
        if (address.startsWith("[") && address.endsWith("]")) {
            address = address.substring(1, address.length() - 1);
        }
        if (!IP_LITERAL.matcher(address).matches()) {
            return java.util.Optional.empty();
        }
        try {
            return java.util.Optional.of(InetAddress.getByName(address).getAddress());
        } catch (UnknownHostException e) {
            return java.util.Optional.empty();
        }
    }
}
