import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Redis' cost of the reservation script, driven the way the service drives it (issue #35): coalesced
 * calls of K buyers of one bucket, each call with its own reservedAt and the buyer window on (1 attempt
 * a second, config/switches.yaml), replayed against a redis-server of its own, one variant of the
 * scripts after the other in the same run. Phases per variant: every buyer reserves; the same buyers
 * again inside their window (THROTTLED); again after it (ALREADY_RESERVED); new buyers of a sold-out
 * bucket (SOLD_OUT); a mix, every other buyer new (RESERVED) and the others back within their window
 * (THROTTLED). Per phase it reads CONFIG RESETSTAT then INFO commandstats (usec of EVALSHA and of
 * the commands the script ran; the script's own Lua time is the difference) and the INFO cpu delta, and,
 * when the server runs under {@code valgrind --tool=callgrind}, the instructions it executed for the phase
 * (callgrind_control -z before, -d after): a figure that does not move with the machine's load.
 *
 * <pre>java bench/ScriptCost.java PORT CALLS K [callgrind-pid callgrind-dir] name=dir-with-lua-files ...</pre>
 * Each dir holds buyer_window.lua and reserve_many.lua (old: `git show main:...` into a directory); a
 * dir that also holds a file named {@code function} is loaded as a Redis Function library instead
 * (FUNCTION LOAD: buyer_window.lua's functions at load, reserve_many.lua the function's body) and
 * called by FCALL (issue #35's fifth step measured it: no gain on Redis 7.0).
 * Pure JDK: it speaks RESP on a socket, nothing to download.
 */
public class ScriptCost {

    static Socket socket;
    static OutputStream out;
    static InputStream in;

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int calls = Integer.parseInt(args[1]);
        int k = Integer.parseInt(args[2]);
        int next = 3;
        String cgPid = null;
        File cgDir = null;
        if (!args[next].contains("=")) {
            cgPid = args[next];
            cgDir = new File(args[next + 1]);
            next += 2;
        }
        socket = new Socket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        System.out.printf("K=%d buyers a call, %d calls a phase%n", k, calls);
        System.out.printf("%-10s %-9s %8s %9s %9s %9s %9s %12s  %s%n", "variant", "phase", "buyers",
                "evalsha", "inner", "own-lua", "cpu", "instr", "inner commands (usec per buyer)");
        for (int v = next; v < args.length; v++) {
            String name = args[v].substring(0, args[v].indexOf('='));
            Path dir = Path.of(args[v].substring(args[v].indexOf('=') + 1));
            String source = Files.readString(dir.resolve("buyer_window.lua")) + Files.readString(dir.resolve("reserve_many.lua"));
            // since issue #35's second step the service sends each claim's event text in the requestId's
            // place (ReservationEventFields.packed); before it, the requestId
            // (and names the shape in a seventh argument before the buyers')
            packed = source.contains("'e', ARGV[base + 3]") || source.contains("'e', argv[base + 3]");
            // since its third step the call's reservations in one entry: shape 'es' (older scripts: 'e')
            shape = source.contains("'es'") ? "es" : "e";
            // since its fourth step a reservation is answered by the units left alone, any other verdict by
            // its name and as many values as it has (older scripts: three values per buyer)
            compact = source.contains("'SOLD_OUT'; o = o + 1");
            // since its sixth step a buyer's arguments are userId, reservationId and event; a quantity
            // other than 1 follows the buyers' with the buyer's place in the call (all take 1 here)
            noQuantity = source.contains("place in the call");
            packed = packed || noQuantity;
            call("FLUSHALL");
            String sha;
            if (Files.exists(dir.resolve("function"))) {
                // the same Lua as a Redis Function library: buyer_window.lua's functions defined once, at load
                String lib = "#!lua name=skcost\n" + Files.readString(dir.resolve("buyer_window.lua"))
                        + "\nredis.register_function('reserve_many', function(KEYS, ARGV)\n"
                        + Files.readString(dir.resolve("reserve_many.lua")) + "\nend)\n";
                call("FUNCTION", "FLUSH");
                Object loaded = call("FUNCTION", "LOAD", lib);
                if (!"skcost".equals(loaded)) throw new IllegalStateException("load: " + loaded);
                sha = null;
            } else {
                sha = (String) call("SCRIPT", "LOAD", source);
            }
            // a day ahead: the window hashes expire at absolute times (PEXPIREAT), and a phase under valgrind lasts seconds
            long t0 = System.currentTimeMillis() + 86_400_000L;
            String tag = "sk:{a7:s1:b0}";
            call("SET", tag + ":stock", "1000000000000");
            call("SET", "sk:{a8:s1:b0}:stock", "0");
            phase(name, "reserve", sha, tag, calls, k, 0, t0, 0, cgPid, cgDir, "RESERVED");
            phase(name, "throttled", sha, tag, calls, k, 0, t0, 1, cgPid, cgDir, "THROTTLED");
            phase(name, "already", sha, tag, calls, k, 0, t0, 1500, cgPid, cgDir, "ALREADY_RESERVED");
            phase(name, "soldout", sha, "sk:{a8:s1:b0}", calls, k, 1_000_000, t0, 0, cgPid, cgDir, "SOLD_OUT");
            // a call as in a sale under way: every other buyer new (reserves), the others back within
            // their window (the reserve phase's buyers of the same call: THROTTLED)
            mixed = true;
            phase(name, "mixed", sha, tag, calls, k, 0, t0, 1, cgPid, cgDir, "RESERVED", "THROTTLED");
            mixed = false;
        }
        socket.close();
    }

    /** Ids as an instance mints them (ReservationSequence: milliseconds since 2025-01-01 above 22 bits). */
    static long idCounter;

    static String mintedAt(long at) {
        return "7-1-0-" + Long.toString(((at - 1_735_689_600_000L) << 22) | (idCounter++ & 0x3F_FFFF), 36);
    }
    static boolean packed;
    static String shape;
    static boolean mixed;
    static boolean compact;
    static boolean noQuantity;

    static void phase(String variant, String phase, String sha, String tag, int calls, int k, int userOffset,
                      long t0, long later, String cgPid, File cgDir, String... expected) throws Exception {
        // a sale under way: the bucket's hashes hold thousands of buyers (hashtables, not the small
        // listpacks a fresh key starts as, whose every write scans the whole key), as does the window
        // hash of each period
        List<String> keys = new ArrayList<>(List.of(tag + ":buyers", tag + ":served"));
        for (long p = Math.floorDiv(t0 + later, 1000) - 1; p <= Math.floorDiv(t0 + later + calls, 1000); p++) {
            keys.add(tag + ":w1000:" + p);
        }
        for (String key : keys) {
            List<String> fill = new ArrayList<>(List.of("HSET", key));
            for (int i = 0; i < 2000; i++) {
                fill.add("f" + phase + i);
                fill.add("1,1,");
            }
            call(fill.toArray(String[]::new));
        }
        call("CONFIG", "RESETSTAT");
        double cpu0 = cpu();
        if (cgPid != null) {
            run("callgrind_control", "-z", cgPid);
        }
        Map<String, Integer> verdicts = new TreeMap<>();
        for (int c = 0; c < calls; c++) {
            long at = t0 + c + later;
            long period = Math.floorDiv(at, 1000);
            List<String> cmd = new ArrayList<>(List.of(sha == null ? "FCALL" : "EVALSHA", sha == null ? "reserve_many" : sha, "6", tag + ":stock", tag + ":buyers", tag + ":events",
                    tag + ":served", tag + ":w1000:" + (period - 1), tag + ":w1000:" + period,
                    Integer.toString(k), Long.toString(at), "7", "1", "1", "1000"));
            if (packed) {
                cmd.add(shape);
            }
            for (int j = 0; j < k; j++) {
                long user = 100_000_000L + userOffset + (long) c * k + j + (mixed && j % 2 == 0 ? 2_000_000 : 0);
                String id = mintedAt(at);
                cmd.add(Long.toString(user));
                if (!noQuantity) {
                    cmd.add("1");
                }
                cmd.add(id);
                cmd.add(packed ? id + "," + user + ",1," + at + ",r" + user : "r" + user);
            }
            Object reply = call(cmd.toArray(String[]::new));
            if (!(reply instanceof List<?> list)) {
                throw new IllegalStateException("script failed: " + reply);
            }
            for (int j = 0; j < list.size(); ) {
                Object first = list.get(j);
                String verdict = compact && first instanceof Long ? "RESERVED" : String.valueOf(first);
                verdicts.merge(verdict, 1, Integer::sum);
                j += !compact ? 3 : switch (verdict) {
                    case "THROTTLED" -> 3;
                    case "ALREADY_RESERVED", "INSUFFICIENT" -> 2;
                    default -> 1;
                };
            }
        }
        long instructions = -1;
        if (cgPid != null) {
            instructions = dumpedInstructions(cgPid, cgDir);
        }
        double cpu = cpu() - cpu0;
        long buyers = (long) calls * k;
        Map<String, long[]> stats = commandstats();
        long evalsha = stats.getOrDefault("evalsha", new long[2])[1] + stats.getOrDefault("fcall", new long[2])[1];
        long inner = 0;
        StringBuilder detail = new StringBuilder();
        for (var e : stats.entrySet()) {
            String cmd = e.getKey();
            if (cmd.equals("evalsha") || cmd.equals("fcall") || cmd.equals("info") || cmd.startsWith("config")) {
                continue;
            }
            inner += e.getValue()[1];
            detail.append(String.format("%s %.2f (%d calls) ", cmd, e.getValue()[1] / (double) buyers, e.getValue()[0]));
        }
        System.out.printf("%-10s %-9s %8d %9.2f %9.2f %9.2f %9.2f %12s  %s%s%n", variant, phase, buyers,
                evalsha / (double) buyers, inner / (double) buyers, (evalsha - inner) / (double) buyers,
                cpu * 1e6 / buyers, instructions < 0 ? "-" : Long.toString(instructions / buyers), detail,
                verdicts.keySet().equals(java.util.Set.of(expected)) ? (expected.length > 1 ? " " + verdicts : "")
                        : " UNEXPECTED VERDICTS " + verdicts);
    }

    static long dumpedInstructions(String pid, File dir) throws Exception {
        java.util.Set<String> before = new java.util.HashSet<>(List.of(dir.list()));
        run("callgrind_control", "-d", pid);
        for (int i = 0; i < 600; i++) {
            for (String f : dir.list()) {
                if (f.startsWith("callgrind.out." + pid) && !before.contains(f)) {
                    Thread.sleep(200);
                    for (String line : Files.readAllLines(new File(dir, f).toPath())) {
                        if (line.startsWith("summary:") || line.startsWith("totals:")) {
                            return Long.parseLong(line.substring(line.indexOf(':') + 1).trim().split(" ")[0]);
                        }
                    }
                }
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("no callgrind dump appeared");
    }

    static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        p.waitFor();
    }

    static double cpu() throws IOException {
        double s = 0;
        for (String line : ((String) call("INFO", "cpu")).split("\r\n")) {
            if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                s += Double.parseDouble(line.substring(line.indexOf(':') + 1));
            }
        }
        return s;
    }

    /** command -> {calls, usec} */
    static Map<String, long[]> commandstats() throws IOException {
        Map<String, long[]> stats = new TreeMap<>();
        for (String line : ((String) call("INFO", "commandstats")).split("\r\n")) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            String name = line.substring(8, line.indexOf(':'));
            long calls = 0, usec = 0;
            for (String kv : line.substring(line.indexOf(':') + 1).split(",")) {
                String[] p = kv.split("=");
                if (p[0].equals("calls")) calls = Long.parseLong(p[1]);
                if (p[0].equals("usec")) usec = Long.parseLong(p[1]);
            }
            stats.put(name, new long[] {calls, usec});
        }
        return stats;
    }

    static Object call(String... command) throws IOException {
        out.write(encode(command));
        out.flush();
        return read();
    }

    /** A command's RESP bytes (PacedReplay makes its calls' bytes before its paced loop). */
    static byte[] encode(String... command) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(256);
        buf.writeBytes(("*" + command.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String part : command) {
            byte[] b = part.getBytes(StandardCharsets.UTF_8);
            buf.writeBytes(("$" + b.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            buf.writeBytes(b);
            buf.writeBytes(new byte[] {'\r', '\n'});
        }
        return buf.toByteArray();
    }

    static Object read() throws IOException {
        int type = in.read();
        String line = line();
        switch (type) {
            case '+': return line;
            case '-': return "ERROR " + line;
            case ':': return Long.parseLong(line);
            case '$': {
                int n = Integer.parseInt(line);
                if (n < 0) return null;
                byte[] b = in.readNBytes(n);
                in.read(); in.read();
                return new String(b, StandardCharsets.UTF_8);
            }
            case '*': {
                int n = Integer.parseInt(line);
                List<Object> list = new ArrayList<>(Math.max(n, 0));
                for (int i = 0; i < n; i++) list.add(read());
                return list;
            }
            default: throw new IOException("unexpected reply type " + (char) type);
        }
    }

    static String line() throws IOException {
        StringBuilder s = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) throw new IOException("connection closed");
            s.append((char) c);
        }
        in.read();
        return s.toString();
    }
}
