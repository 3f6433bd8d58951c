package seckill.app.infra;

import java.util.Locale;
import java.util.Set;

/**
 * A store's address as the log may show it: the user and password of a URL's authority
 * ({@code redis://user:secret@host}, {@code jdbc:mysql://user:secret@host/db}) and the values of
 * credential parameters ({@code ?user=…&password=…}, Connector/J's {@code (host=…,password=…)}) are
 * replaced by {@code ***}; host, port, database and the other parameters stay, because they are
 * what an operator reads the line for. One linear pass, no pattern: the text is configuration, but
 * a log line is no place to be slow.
 */
public final class RedactedAddress {

    static final String MASK = "***";
    /** Parameter names whose values are credentials (Connector/J's, MariaDB's and common ones). */
    private static final Set<String> SECRET_KEYS = Set.of("user", "username", "password", "pwd", "pass", "password1",
            "password2", "password3", "passwd", "secret", "token", "auth", "trustcertificatekeystorepassword",
            "clientcertificatekeystorepassword", "sslpassword", "xdevapi.ssl-truststore-password");

    private RedactedAddress() {
    }

    public static String of(String address) {
        if (address == null) {
            return null;
        }
        return parameters(authority(address));
    }

    /** {@code scheme://userinfo@host…} with the user info masked (the last {@code @} before the path). */
    private static String authority(String address) {
        int scheme = address.indexOf("://");
        if (scheme < 0) {
            return address;
        }
        int start = scheme + 3;
        int end = address.length();
        for (int i = start; i < address.length(); i++) {
            char c = address.charAt(i);
            if (c == '/' || c == '?' || c == '#') {
                end = i;
                break;
            }
        }
        int at = address.lastIndexOf('@', end - 1);
        if (at < start) {
            return address;
        }
        return address.substring(0, start) + MASK + address.substring(at);
    }

    /** Every {@code key=value} whose key names a credential, wherever it stands, with the value masked. */
    private static String parameters(String address) {
        StringBuilder out = new StringBuilder(address.length());
        int keyStart = 0;
        int i = 0;
        while (i < address.length()) {
            char c = address.charAt(i);
            if (c == '=') {
                String key = address.substring(keyStart, i).trim().toLowerCase(Locale.ROOT);
                out.append(c);
                int valueEnd = i + 1;
                while (valueEnd < address.length() && !isSeparator(address.charAt(valueEnd))) {
                    valueEnd++;
                }
                out.append(SECRET_KEYS.contains(key) ? MASK : address.substring(i + 1, valueEnd));
                i = valueEnd;
                keyStart = i;
                continue;
            }
            out.append(c);
            if (isSeparator(c)) {
                keyStart = i + 1;
            }
            i++;
        }
        return out.toString();
    }

    private static boolean isSeparator(char c) {
        return c == '&' || c == '?' || c == ';' || c == ',' || c == '(' || c == ')' || c == '/';
    }
}
