"""Recall: finding memories and messages again."""
