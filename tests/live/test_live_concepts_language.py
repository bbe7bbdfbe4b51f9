"""Issue 35, rule 7, in the live class: a session speaks its language in every concept text, the
set's texts written ``{ko, en}`` included, and the feedback of a choice sent in practice."""

from __future__ import annotations

import re

import pytest
from helpers.language import in_language
from helpers.live_app import CH13, ORIGIN, SECRET
from helpers.page import script_json
from starlette.testclient import TestClient

from attn_tutor.live.app import make_app
from attn_tutor.sessions.opening import open_store
from attn_tutor.solve.concepts import show

ENGLISH_WORD = re.compile(r"\b(?!softmax\b)[a-z]{3,}\b")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_live_page_and_its_feedback_speak_the_sessions_language(live_store_url, lang):
    shown = {c.id: in_language(lang, show, c, CH13) for c in CH13.concepts}
    with open_store(live_store_url, CH13, create=True) as store:
        app = make_app(store, CH13, lang=lang, secret=SECRET, student_url="http://192.0.2.7:8000/")
        client = TestClient(app, base_url=ORIGIN)
        data = script_json(client.get("/").text)
        for item in data["concepts"]:
            own = shown[item["id"]]
            assert item["stem"].startswith(own.stem) and sorted(item["options"]) == sorted(own.options)
            assert item["explanation"] == own.explanation
            texts = [item["stem"], *item["options"], *(f for f in item["feedback"] if f), item["explanation"] or ""]
            if lang == "ko":
                assert not [t for t in texts if ENGLISH_WORD.search(t)], item["id"]
            else:
                assert not [t for t in texts if re.search("[가-힣]", t) and item["kind"] != "computed" and item["id"] != "bank-two-sentences"]
        eat = shown["eat-attends"]
        assert "‘먹었다’" in eat.stem and ("Which key" in eat.stem) == (lang == "en")
