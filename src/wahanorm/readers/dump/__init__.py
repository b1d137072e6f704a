"""Text dumps of Wahapedia datasheet pages, in the three layouts met in the wild (pipe tables,
one cell per line, textContent)."""
