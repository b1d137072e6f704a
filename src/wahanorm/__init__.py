"""wahanorm: scraped Warhammer 40,000 rules text → canonical JSON, and what changed."""

__version__ = "0.1.0"
