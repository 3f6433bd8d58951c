package seckill.app.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * The proxies whose {@code X-Forwarded-For} entries are believed, as CIDR ranges, and the rule that
 * finds the client behind them (RFC 7239's reasoning): walk the hops from the nearest, the
 * connection's peer, towards the left; the first address that is not a trusted proxy is the client.
 * Entries left of it are whatever the client chose to send and count for nothing. Plain Java.
 *
 * <p>The header is client text of any length, so every step here is linear in it: hops are found
 * by scanning for commas from the right, at most {@code maxHops} of them are looked at, a hop is
 * recognised as an address by its characters and length before {@link InetAddress} sees it (a
 * backtracking pattern took 2.8 s for one 16 KB hop of colons, #36), and a hop that is no address
 * is cut to {@link #MAX_HOP_CHARS} before it becomes a key anywhere.
 */
final class TrustedProxies {

    /** Longest textual IP address: eight IPv6 groups with an embedded IPv4 ({@code ffff:…:255.255.255.255}). */
    static final int MAX_HOP_CHARS = 45;
    /** Hops examined from the right unless configured ({@code seckill.admission.max-forwarded-hops}). */
    static final int DEFAULT_MAX_HOPS = 16;

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
    private final int maxHops;

    private TrustedProxies(List<Range> ranges, int maxHops) {
        this.ranges = ranges;
        this.maxHops = maxHops;
    }

    static TrustedProxies parse(String cidrs) {
        return parse(cidrs, DEFAULT_MAX_HOPS);
    }

    /**
     * Parses a comma-separated list of {@code address/prefix} (or single addresses).
     *
     * {@code maxHops} bounds how many {@code X-Forwarded-For} entries, from the right, are looked at.
     *
     * @throws IllegalArgumentException naming the first entry that is not one
     */
    static TrustedProxies parse(String cidrs, int maxHops) {
        if (maxHops < 1) {
            throw new IllegalArgumentException("seckill.admission.max-forwarded-hops must be at least 1");
        }
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
        return new TrustedProxies(List.copyOf(ranges), maxHops);
    }

    boolean trusts(String address) {
        return literal(address).map(bytes -> ranges.stream().anyMatch(r -> r.contains(bytes))).orElse(false);
    }

    /**
     * The client: the rightmost hop, counting the peer last, that is not a trusted proxy; when the
     * {@code maxHops} nearest hops are all proxies of ours, the farthest of them (as far as anyone can tell).
     */
    String clientOf(String peer, String forwardedFor) {
        if (!trusts(peer) || forwardedFor == null || forwardedFor.isBlank()) {
            return peer;
        }
        String farthest = peer;
        int end = forwardedFor.length();
        for (int examined = 0; examined < maxHops && end >= 0; examined++) {
            int comma = forwardedFor.lastIndexOf(',', end - 1);
            String hop = bounded(forwardedFor, comma + 1, end);
            if (!trusts(hop)) {
                return hop;
            }
            farthest = hop;
            end = comma;
        }
        return farthest;
    }

    /** The hop between {@code from} and {@code to}, trimmed, and never longer than any address. */
    private static String bounded(String text, int from, int to) {
        while (from < to && Character.isWhitespace(text.charAt(from))) {
            from++;
        }
        while (to > from && Character.isWhitespace(text.charAt(to - 1))) {
            to--;
        }
        return text.substring(from, Math.min(to, from + MAX_HOP_CHARS));
    }

    /**
     * The bytes of an IP literal; never a DNS lookup. Decided by one pass over at most
     * {@link #MAX_HOP_CHARS} characters: digits and dots (IPv4), or hex digits, dots and at least one
     * colon (IPv6); only text of that shape reaches {@link InetAddress}, which then parses it without
     * asking a resolver.
     */
    private static java.util.Optional<byte[]> literal(String text) {
        String address = text.trim();
        if (address.startsWith("[") && address.endsWith("]")) {
            address = address.substring(1, address.length() - 1);
        }
        if (address.isEmpty() || address.length() > MAX_HOP_CHARS) {
            return java.util.Optional.empty();
        }
        boolean colon = false;
        boolean hexLetter = false;
        for (int i = 0; i < address.length(); i++) {
            char c = address.charAt(i);
            if (c == ':') {
                colon = true;
            } else if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) {
                hexLetter = true;
            } else if (!(c >= '0' && c <= '9') && c != '.') {
                return java.util.Optional.empty();
            }
        }
        if (hexLetter && !colon) {
            return java.util.Optional.empty();
        }
        try {
            return java.util.Optional.of(InetAddress.getByName(address).getAddress());
        } catch (UnknownHostException e) {
            return java.util.Optional.empty();
        }
    }
}
