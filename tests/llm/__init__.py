"""Tests of littrace.llm.

Importing littrace here, before any test module imports litellm, makes litellm read its bundled
price map instead of fetching one over the network (littrace.runtime sets the variable).
"""

import littrace  # noqa: F401
