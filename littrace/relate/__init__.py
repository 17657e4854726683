"""Paper-to-paper expansion (Lit3R §2.1.3): Ranking B and the A/B fusion, in
:mod:`~littrace.relate.expand`."""
