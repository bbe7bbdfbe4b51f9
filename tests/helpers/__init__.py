"""What several test folders share: paths, outside tools, small builders and oracles.

On ``sys.path`` through pyproject's ``[tool.pytest.ini_options] pythonpath``; test
files import it as ``from helpers.paths import CLASS``.
"""
