"""Interchange formats: PAM v1.0 and (later) AIMEM Bundle v1."""
