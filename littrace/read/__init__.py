"""Read: paper-local reading, selection, evidence localization, synthesis and output."""
