"""Masked language models: loading, demo training, the scoring engine and its cache."""
