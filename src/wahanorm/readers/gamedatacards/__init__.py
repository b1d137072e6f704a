"""Game-Datacards JSON: one file per faction, 10th and 11th edition."""
