"""The task tests import the real ``tasks`` and ``flows`` packages, not these test folders."""

from __future__ import annotations
