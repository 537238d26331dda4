"""Corpus acquisition and readers.

- :mod:`mgbias.corpora.download`: :func:`~mgbias.corpora.download.fetch` a URL
  (``http(s)://``, ``file://``) into place, validated, with a SHA-256 sidecar.
- :mod:`mgbias.corpora.checksums`: SHA-256 digests and ``sha256sum``-style sidecars.
- :mod:`mgbias.corpora.opus`: stream sentence pairs from OPUS moses zips.
"""
