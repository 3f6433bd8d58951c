import java.io.BufferedInputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Redis' CPU per reserving buyer when reserve_many.lua is driven at a given pace (issue #35): the
 * service does not keep its master busy (at the paced purchase load of bench/redis-cpu.sh it sends
 * a few hundred calls a second of about 30 buyers each, and Redis sleeps between them), where
 * bench/master-throughput.sh saturates it with calls of 64. This replays the service's coalesced
 * calls (K new buyers of one bucket, three arguments each, the buyer window on at 1 attempt a
 * second, the events in one 'es' entry) on one connection, one call in flight, started every
 * 1/rate seconds for SECONDS (rate 0: each as soon as the last answered, 600,000 buyers), and
 * prints how busy the master's thread was and its CPU (INFO cpu, user + sys) per buyer, so the
 * same script's cost can be read at the service's batch size and duty cycle and at the saturated
 * replay's.
 *
 * <pre>java bench/PacedReplay.java PORT K CALLS_PER_SECOND SECONDS LUA_DIR</pre>
 * LUA_DIR holds buyer_window.lua and reserve_many.lua. The server is flushed first. Pure JDK: it
 * speaks RESP on a socket through ScriptCost.java beside it (a multi-file source program: Java 22+).
 */
public class PacedReplay {

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int k = Integer.parseInt(args[1]);
        double rate = Double.parseDouble(args[2]);
        double seconds = Double.parseDouble(args[3]);
        Path lua = Path.of(args[4]);
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setTcpNoDelay(true);
            ScriptCost.out = socket.getOutputStream();
            ScriptCost.in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            ScriptCost.call("FLUSHALL");
            String sha = (String) ScriptCost.call("SCRIPT", "LOAD",
                    Files.readString(lua.resolve("buyer_window.lua")) + Files.readString(lua.resolve("reserve_many.lua")));
            // a day ahead, as master-throughput.sh: the window hashes expire at absolute times
            long at = System.currentTimeMillis() + 86_400_000L;
            long period = at / 1000;
            String tag = "sk:{a7:s1:b0}";
            List<String> keys = List.of(tag + ":stock", tag + ":buyers", tag + ":events", tag + ":served",
                    tag + ":w1000:" + (period - 1), tag + ":w1000:" + period);
            ScriptCost.call("SET", keys.get(0), "1000000000000");
            // the hashes of a sale under way: hashtables of 2,000 fields (the placeholder makes them so)
            for (String key : List.of(keys.get(1), keys.get(3), keys.get(5))) {
                List<String> hset = new ArrayList<>(List.of("HSET", key, "_", "x".repeat(80)));
                for (int i = 0; i < 2000; i++) {
                    hset.add("f" + i);
                    hset.add("1,1,");
                }
                ScriptCost.call(hset.toArray(String[]::new));
            }
            // paced: rate x seconds calls; full speed: 600,000 buyers (the calls are made before the clock starts)
            int calls = rate > 0 ? (int) Math.round(rate * seconds) : Math.max(1, 600_000 / k);
            SplittableRandom random = new SplittableRandom(35);
            List<byte[]> prepared = new ArrayList<>(calls);
            for (int c = 0; c < calls; c++) {
                List<String> call = new ArrayList<>(List.of("EVALSHA", sha, "6"));
                call.addAll(keys);
                call.addAll(List.of(Integer.toString(k), Long.toString(at), "7", "1", "1", "1000", "es"));
                for (int b = 0; b < k; b++) {
                    String user = Long.toString(random.nextLong(100_000_000_000L, 1_000_000_000_000L));
                    String id = "7-1-0-" + random.nextLong(100_000_000_000L, 1_000_000_000_000L);
                    call.add(user);
                    call.add(id);
                    call.add(id + "," + user + ",1," + at + ",r" + user);
                }
                prepared.add(ScriptCost.encode(call.toArray(String[]::new)));
            }
            long stock0 = Long.parseLong((String) ScriptCost.call("GET", keys.get(0)));
            double cpu0 = ScriptCost.cpu();
            long start = System.nanoTime();
            long interval = rate > 0 ? (long) (1e9 / rate) : 0;
            long next = start;
            for (byte[] call : prepared) {
                ScriptCost.out.write(call);
                ScriptCost.out.flush();
                Object answer = ScriptCost.read();
                if (!(answer instanceof List<?>)) {
                    throw new IllegalStateException("the script answered " + answer);
                }
                if (interval > 0) {
                    next += interval;
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                }
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            double cpu = ScriptCost.cpu() - cpu0;
            long reserved = stock0 - Long.parseLong((String) ScriptCost.call("GET", keys.get(0)));
            long buyers = (long) calls * k;
            System.out.printf("K=%d pace=%s calls=%d buyers/s=%.0f reserved=%d busy=%.0f%% cpu_us_per_buyer=%.2f%n",
                    k, rate > 0 ? String.format("%.0f/s", rate) : "full", calls, buyers / elapsed, reserved,
                    100 * cpu / elapsed, cpu * 1e6 / buyers);
        }
    }
}
