"""The program's version, in one place below every other module: the package, ``--version``,
an output's ``generator`` and the cache's key read it here (the build reads it too:
``[tool.hatch.version]`` in pyproject.toml)."""

__version__ = "0.1.0"
