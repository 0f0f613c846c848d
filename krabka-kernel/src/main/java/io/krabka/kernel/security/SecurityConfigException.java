package io.krabka.kernel.security;

/** A security setting that is wrong, naming its key; the broker reports it as any bad setting. */
public final class SecurityConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String key;

    /** A bad value of {@code key}. */
    public SecurityConfigException(String key, String message) {
        super(message);
        this.key = key;
    }

    /** The key at fault. */
    public String key() {
        return key;
    }
}
