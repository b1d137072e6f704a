"""Wahapedia's CSV data export: a folder of pipe-delimited tables."""
