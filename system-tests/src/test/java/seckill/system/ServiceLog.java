package seckill.system;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What the service in this JVM logs while a test runs, read through a JUL handler on the root logger
 * (Helidon's System.Logger, Jersey and the service's own loggers all end there). A test that sends
 * hostile input asserts that none of it made the service log a stack trace or a SEVERE entry: a
 * client must not be able to fill the log, nor to make the operator believe the service is broken.
 */
public final class ServiceLog extends Handler implements AutoCloseable {

    private final List<String> alarming = new CopyOnWriteArrayList<>();
    private final Logger root = Logger.getLogger("");

    private ServiceLog() {
        setLevel(Level.ALL);
    }

    public static ServiceLog capture() {
        ServiceLog log = new ServiceLog();
        log.root.addHandler(log);
        return log;
    }

    /** Entries at SEVERE or carrying a throwable, each as "LEVEL logger: message [exception]". */
    public List<String> alarming() {
        return List.copyOf(alarming);
    }

    @Override
    public void publish(LogRecord entry) {
        if (entry.getLevel().intValue() >= Level.SEVERE.intValue() || entry.getThrown() != null) {
            Throwable thrown = entry.getThrown();
            alarming.add(entry.getLevel() + " " + entry.getLoggerName() + ": " + entry.getMessage()
                    + (thrown == null ? "" : " [" + thrown + "]"));
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        root.removeHandler(this);
    }
}
