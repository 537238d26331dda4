"""Probes of a masked LM beyond the pair measures, one module per experiment."""
