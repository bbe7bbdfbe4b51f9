"""The message catalogue: both languages, the same placeholders, the compiled files, the choice of language.

The catalogue's sources are gettext files under ``attn_tutor/locale``: the English template
``attn_tutor.pot`` and the Korean ``ko/LC_MESSAGES/attn_tutor.po``, each key a ``msgctxt``.
GNU gettext's ``msgfmt --check-format`` checks every translation's placeholders against the
English ones, in one call; the installed package reads the ``.mo`` files the build compiled
from them, which must say what the sources say.
"""

from __future__ import annotations

import os
import re
import shutil
import string
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po
from helpers.language import in_language
from helpers.paths import PACKAGE

from attn_tutor.core import i18n
from attn_tutor.core.i18n import catalogue, keys, messages, resolve_lang, t, text

LOCALE = PACKAGE / "locale"  # this checkout's sources (the tests run the installed package)
TEMPLATE = LOCALE / "attn_tutor.pot"
TRANSLATIONS = sorted(LOCALE.glob("*/LC_MESSAGES/attn_tutor.po"))


def read(path):
    with path.open("rb") as file:
        return [message for message in read_po(file) if message.id]


def placeholders(template: str) -> set[str]:
    """The fields of a str.format template, ``""`` for a positional ``{}``."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def test_every_message_has_both_languages():
    assert keys() and len(set(keys())) == len(keys())
    for lang in i18n.LANGS:
        assert set(catalogue(lang)) == set(keys()), f"{lang}: a message missing, empty or fuzzy in its catalogue"
        assert all(sentence.strip() for sentence in in_language(lang, messages, "").values()), lang


def test_korean_messages_are_korean():
    hangul = sum(any("\uac00" <= ch <= "\ud7a3" for ch in ko) for ko in in_language("ko", messages, "").values())
    assert hangul >= 0.8 * len(keys())


def test_the_translations_are_the_template_translated():
    """Every translation holds the template's keys and English, in the template's order (msgmerge keeps them so)."""
    template = [(message.context, message.id) for message in read(TEMPLATE)]
    assert TRANSLATIONS == [LOCALE / "ko" / "LC_MESSAGES" / "attn_tutor.po"]
    for path in TRANSLATIONS:
        assert [(message.context, message.id) for message in read(path)] == template, path
        assert not [message.context for message in read(path) if not message.string or message.fuzzy], path


@pytest.mark.gettext
def test_msgfmt_finds_every_translations_placeholders_the_same():
    """``msgfmt --check-format``: each translation's {placeholders} are the English ones (python-brace-format)."""
    for path in TRANSLATIONS:
        checked = subprocess.run(["msgfmt", "--check-format", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
    for path in [TEMPLATE, *TRANSLATIONS]:  # msgfmt checks only the entries flagged as brace formats
        for message in read(path):
            flagged = "python-brace-format" in message.flags
            assert flagged == bool(placeholders(message.id) | placeholders(message.string)), (path.name, message.context)


@pytest.mark.gettext
def test_msgfmt_refuses_a_translation_that_drops_or_renames_a_placeholder(tmp_path):
    source = (LOCALE / "ko" / "LC_MESSAGES" / "attn_tutor.po").read_text(encoding="utf-8")
    for wrong in ('msgstr "오류: {mesage}"', 'msgstr "오류"'):
        broken = tmp_path / "ko.po"
        broken.write_text(source.replace('msgstr "오류: {message}"', wrong, 1), encoding="utf-8")
        checked = subprocess.run(["msgfmt", "--check-format", "-o", "/dev/null", str(broken)], capture_output=True, text=True)
        assert checked.returncode != 0 and "a format specification for argument" in checked.stderr, wrong


def test_the_compiled_catalogues_say_what_the_sources_say():
    """The installed .mo files hold every entry of the .pot and .po, word for word (else: pip install again)."""
    template = read(TEMPLATE)
    assert keys() == tuple(message.context for message in template)
    assert catalogue("en") == {message.context: message.id for message in template}
    for path in TRANSLATIONS:
        lang = path.parent.parent.name
        assert catalogue(lang) == {message.context: message.string for message in read(path)}, lang
    assert in_language("ko", text, "cli.error") == "오류: {message}" and text("cli.error") == "error: {message}"


def test_the_pages_take_their_sentences_in_the_catalogues_order():
    wanted = ("live.", "grading.verdict.")
    for lang in i18n.LANGS:
        found = in_language(lang, messages, wanted)
        assert list(found) == [key for key in keys() if key.startswith(wanted)]
        assert all(found[key] == in_language(lang, text, key) for key in found)


def test_a_missing_catalogue_says_how_to_make_it():
    with pytest.raises(RuntimeError, match=r"attn_tutor\.mo is missing and so is .*attn_tutor\.po: .* pip install"):
        catalogue("xx")


def test_a_checkout_with_no_compiled_catalogue_reads_the_sources_word_for_word():
    """``python -m attn_tutor`` beside the sources, the package installed elsewhere: no .mo, the same messages."""
    for path in [TEMPLATE, *TRANSLATIONS]:
        english = path == TEMPLATE
        expected = {message.context: message.id if english else message.string for message in read(path)}
        assert i18n.read_source(str(path), english=english) == expected, path.name


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        ('msgctxt "a"\nmsgid "A"\nmsgstr "에이"\n', {"a": "에이"}),
        ('msgctxt "a"\nmsgid ""\n"A "\n"long"\nmsgstr ""\n"에이 "\n"길게"\n', {"a": "에이 길게"}),
        ('msgctxt "a"\nmsgid "A"\nmsgstr "\\"q\\" \\\\n\\tx\\n"\n', {"a": '"q" \\n\tx\n'}),
        ('#, fuzzy, python-brace-format\nmsgctxt "a"\nmsgid "A"\nmsgstr "에이"\n\nmsgctxt "b"\nmsgid "B"\nmsgstr "비"\n', {"b": "비"}),
        ('#. a note\n# a comment\nmsgctxt "a"\nmsgid "A"\nmsgstr ""\n\nmsgctxt "b"\nmsgid "B"\nmsgstr "비"\n', {"b": "비"}),
        ('#~ msgctxt "old"\n#~ msgid "Old"\n#~ msgstr "옛"\nmsgctxt "a"\nmsgid "A"\nmsgstr "에이"\n', {"a": "에이"}),
    ],
    ids=["one line", "continued", "escapes", "fuzzy left out", "empty left out", "obsolete left out"],
)
def test_a_translation_is_read_as_the_build_compiles_it(tmp_path, entries, expected):
    po = tmp_path / "ko.po"
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' + entries, encoding="utf-8")
    assert i18n.read_source(str(po), english=False) == expected
    with po.open("rb") as file:  # Babel, which the build compiles with, reads the same
        assert {m.context: m.string for m in read_po(file) if m.id and m.string and not m.fuzzy} == expected


def test_python_dash_m_in_a_checkout_with_no_compiled_catalogue_speaks_both_languages(tmp_path):
    """The package run from its sources, never installed there: the messages come from the .po files."""
    shutil.copytree(PACKAGE, tmp_path / "attn_tutor", ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    where = subprocess.run([sys.executable, "-c", "import attn_tutor; print(attn_tutor.__file__)"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert where.stdout.startswith(str(tmp_path)), where
    for lang, said in (("ko", "스코어 S = Q·Kᵀ"), ("en", "Scores S = Q·Kᵀ")):
        run = subprocess.run([sys.executable, "-m", "attn_tutor", "solve", "--lang", lang], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
        assert run.returncode == 0 and said in run.stdout, run.stderr
    assert not list((tmp_path / "attn_tutor").rglob("*.mo"))


@pytest.mark.parametrize(
    ("option", "env", "expected"),
    [
        ("ko", {}, "ko"),
        ("en", {"ATTN_TUTOR_LANG": "ko"}, "en"),
        (None, {"ATTN_TUTOR_LANG": "ko"}, "ko"),
        (None, {"ATTN_TUTOR_LANG": "en", "LANG": "ko_KR.UTF-8"}, "en"),
        (None, {"LANG": "ko_KR.UTF-8"}, "ko"),
        (None, {"LANG": "en_US.UTF-8"}, "en"),
        (None, {}, "en"),
    ],
)
def test_language_choice(option, env, expected):
    assert resolve_lang(option, env) == expected


def test_t_fills_placeholders_in_both_languages():
    assert "생선을" in in_language("ko", t, "solve.bars", token="생선을")
    assert "생선을" in in_language("en", t, "solve.bars", token="생선을")


# --- Korean that reads naturally --------------------------------------------------------

TOKEN_PLACEHOLDERS = ("token", "row", "keys")


def test_no_korean_message_glues_a_particle_to_a_token():
    """"친구를의 시선" came from "{token}의 시선": a token is quoted or followed by a noun (행), never a particle."""
    glued = re.compile(r"\{(" + "|".join(TOKEN_PLACEHOLDERS) + r")\}[의을를이가은는에와과로도만]")
    bad = {key: korean for key, korean in in_language("ko", messages, "").items() if glued.search(korean)}
    assert not bad, bad
