"""PAM v1.0 (Portable AI Memory): read, validate and inspect documents."""
