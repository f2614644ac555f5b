"""memrepo: long-term memory for AI agents that people can trust.

An extractor proposes, a deterministic gate decides, git keeps every fact and its story.
"""

from __future__ import annotations

__version__ = "0.1.0"
