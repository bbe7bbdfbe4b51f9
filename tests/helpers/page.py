"""Reading the JSON a practice page carries in its ``<script type="application/json">`` elements."""

from __future__ import annotations

import json
import re


def script_json(html: str, element_id: str = "page-data"):
    """The JSON of ``script#element_id`` (``page-data``: the page's data), or None when the page has no such element."""
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', html, re.S)
    return None if found is None else json.loads(found.group(1))
