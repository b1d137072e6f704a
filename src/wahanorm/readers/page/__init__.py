"""Saved Wahapedia pages (HTML): datasheet pages and faction overview pages, read through their
DOM."""
