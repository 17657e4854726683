"""Running the examples a corpus module's source documents, compiled build or not."""

from __future__ import annotations

import ast
import doctest
from types import ModuleType

from littrace.runtime import PROJECT_ROOT

_DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def run_source_examples(module: ModuleType) -> doctest.TestResults:
    """Run the ``>>>`` examples in the docstrings of ``module``'s source file against the
    module as imported.

    A compiled module (:mod:`littrace.native`) keeps no function docstrings for
    :func:`doctest.testmod` to find, so the docstrings are read from the source instead.
    """
    path = PROJECT_ROOT.joinpath(*module.__name__.split("."))
    source = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(verbose=False)
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, _DOCUMENTED) and (docstring := ast.get_docstring(node)):
            name = getattr(node, "name", module.__name__)
            line = getattr(node, "lineno", 0)
            test = parser.get_doctest(docstring, dict(vars(module)), name, str(source), line)
            runner.run(test)
    return runner.summarize(verbose=False)
