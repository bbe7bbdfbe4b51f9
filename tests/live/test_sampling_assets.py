"""The server serves a sampling problem's scripts and stylesheet (the engine's port and the temperature
slider, attn_tutor/practice/assets) at ``/assets/NAME`` as it serves the practice page's, for a live page
with a sampling problem to load; no other name."""

from __future__ import annotations

from helpers.live_app import joined

from attn_tutor.practice import page


def test_the_sampling_assets_are_served_as_the_package_has_them(app):
    kim = joined(app)
    for name, media in (("sampling.js", "text/javascript"), ("temperature.js", "text/javascript"), ("temperature.css", "text/css")):
        reply = kim.get(f"/assets/{name}")
        assert reply.status_code == 200, name
        assert reply.headers["content-type"].startswith(media)
        assert reply.text == page.asset(name)
    assert "AttnTutor.sampling" not in kim.get("/").text  # a page of attention problems does not load them
    assert kim.get("/assets/sampling.py").status_code == 404
