"""Any other HTML: flattened to text with its blocks as lines, then read as a text dump."""
