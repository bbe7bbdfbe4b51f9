"""Every message a user reads, in English and Korean, from the gettext catalogues of ``attn_tutor/locale``.

The messages are data: ``attn_tutor/locale/attn_tutor.pot`` holds each one's key as its
``msgctxt`` and its English as its ``msgid``, and ``ko/LC_MESSAGES/attn_tutor.po`` the same
entries with the Korean as ``msgstr`` (translators open them in Poedit or Weblate; a test
runs ``msgfmt --check-format`` on every translation). The build (setup.py) compiles each
to a ``.mo``: the template as the English catalogue, each text its own translation. A
checkout run without a build of its own has no ``.mo``: there the sources are read.

``t(key, **args)`` looks a message up in the language spoken (:func:`language`) and fills in
its ``{placeholders}``. Each
language's ``.mo`` is read once, when a message of that language is first asked for,
by :class:`Catalogue`, the standard library's ``gettext.GNUTranslations`` indexed by
context: the compiled catalogue finds ``msgctxt + "\x04" + msgid``, and a key is the
context alone (Django's ``DjangoTranslation`` reads the parsed entries the same way).
A message a translation lacks (or marks fuzzy) is the English one, as in gettext.

A ``.mo`` sorts its entries by their English, so the catalogue's order — the one the
pages' JavaScript receives its sentences in — is read from the template, only by
:func:`keys` and :func:`messages`.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext
import os
import re
from collections.abc import Iterator

from attn_tutor.core import particles

LANGS = ("en", "ko")
DOMAIN = "attn_tutor"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), "locale")  # attn_tutor/locale
TEMPLATE = os.path.join(LOCALE_DIR, f"{DOMAIN}.pot")

_LANGUAGE: contextvars.ContextVar[str] = contextvars.ContextVar("attn_tutor_language", default="en")


def language() -> str:
    """The language spoken here: what the edge of this run, request or worker set (English if none did)."""
    return _LANGUAGE.get()


def set_language(lang: str) -> contextvars.Token[str]:
    """Speak ``lang`` from here on in this context: the command line's guard, a live request and a
    ``grade`` worker process at its start set it, once. Hand the token to :func:`reset_language`."""
    return _LANGUAGE.set(lang)


def reset_language(token: contextvars.Token[str]) -> None:
    """Speak again what was spoken before the :func:`set_language` that gave ``token``."""
    _LANGUAGE.reset(token)


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak ``lang`` for the block, then what was spoken before: how a sheet in both languages
    writes its second one. Not across a ``yield``: a generator may be resumed in another context."""
    token = _LANGUAGE.set(lang)
    try:
        yield
    finally:
        _LANGUAGE.reset(token)


class Catalogue(gettext.GNUTranslations):
    """A compiled catalogue whose entries are found by their context: our keys."""

    _catalog: dict[str, str]  # GNUTranslations' own table, which typeshed leaves out

    def by_key(self) -> dict[str, str]:
        """Every entry's text by its key (entries without a context, as the header, left out)."""
        return {original[: original.index("\x04")]: text for original, text in self._catalog.items() if "\x04" in original}


def compiled(lang: str) -> str:
    """The path of ``lang``'s compiled catalogue."""
    return os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", f"{DOMAIN}.mo")


def source(lang: str) -> str:
    """The path of ``lang``'s catalogue as written: the template for English, else its ``.po``."""
    return TEMPLATE if lang == "en" else os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", f"{DOMAIN}.po")


@functools.cache
def catalogue(lang: str) -> dict[str, str]:
    """``lang``'s messages by key, read once (the dict itself: read it, never change it).

    From the ``.mo`` the build compiled; in a checkout run without an install of its own
    (``python -m attn_tutor`` beside the sources, the package installed elsewhere) there is
    none, and the catalogue as written is read instead, by :func:`read_source`.
    """
    try:
        with open(compiled(lang), "rb") as file:
            return Catalogue(file).by_key()
    except FileNotFoundError:
        pass
    try:
        return read_source(source(lang), english=lang == "en")
    except FileNotFoundError:
        raise RuntimeError(
            f"{compiled(lang)} is missing and so is {source(lang)}: attn-tutor has no messages in {lang!r};"
            " run pip install . (or pip install -e .) in its folder"
        ) from None


_PO_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


def read_source(path: str, *, english: bool) -> dict[str, str]:
    """The entries of a ``.po`` or ``.pot`` by key, as the build compiles them (setup.py, with Babel):
    the English of the template (``english``), else each ``msgstr``; a fuzzy or empty one left out.

    Only what a catalogue of ours holds is read: ``msgctxt``, ``msgid`` and ``msgstr``, each
    string on one line or continued on the next ones, ``#,`` flags, other comments skipped.
    """
    found: dict[str, str] = {}
    entry: dict[str, str] = {}
    field = ""
    fuzzy = False

    def close() -> None:
        nonlocal fuzzy
        text = entry.get("msgid", "") if english else entry.get("msgstr", "")
        if "msgctxt" in entry and text and not fuzzy:
            found[entry["msgctxt"]] = text
        entry.clear()
        fuzzy = False

    with open(path, encoding="utf-8") as file:
        for line in file:
            line = line.strip()
            if line.startswith('"'):
                entry[field] += _unquoted(line)
                continue
            if "msgstr" in entry:  # the entry ended: what follows is the next one's
                close()
            if line.startswith("#,"):
                fuzzy = fuzzy or "fuzzy" in line[2:].replace(",", " ").split()
            elif line and not line.startswith("#"):
                field, _, quoted = line.partition(" ")
                entry[field] = _unquoted(quoted)
    close()
    return found


def _unquoted(quoted: str) -> str:
    """The text of one quoted string of a ``.po`` line, its C escapes undone."""
    inner = quoted.strip()[1:-1]
    return re.sub(r"\\(.)", lambda match: _PO_ESCAPES.get(match.group(1), match.group(1)), inner)


def text(key: str) -> str:
    """The message ``key`` in the language spoken, as written in the catalogue: placeholders and particle markers left in."""
    if _LANGUAGE.get() == "ko":
        found = catalogue("ko").get(key)
        if found is not None:
            return found
    return catalogue("en")[key]


def has(key: str) -> bool:
    """Whether the catalogue has a message ``key``."""
    return key in catalogue("en")


@functools.cache
def keys() -> tuple[str, ...]:
    """Every key, in the catalogue's order: the template's msgctxt lines, read once."""
    with open(TEMPLATE, encoding="utf-8") as file:
        return tuple(line[len('msgctxt "') : -len('"\n')] for line in file if line.startswith('msgctxt "'))


def messages(prefixes: str | tuple[str, ...]) -> dict[str, str]:
    """The messages whose keys start with one of ``prefixes``, in the catalogue's order, as written
    (placeholders left as ``{name}``): the sentences a page's JavaScript fills in itself."""
    return {key: text(key) for key in keys() if key.startswith(prefixes)}


def t(key: str, /, **args: object) -> str:
    """The message ``key`` in the language spoken, with ``args`` filled in and its particles chosen.

    A particle is marked by its form after a consonant in square brackets, ``{path}[을]``;
    :mod:`attn_tutor.core.particles` picks 을 or 를 for what is written before it.
    """
    template = text(key)
    parts = _particle_parts.get(template)
    if parts is None:
        parts = _particle_parts[template] = particles.MARKER.split(template)
    if len(parts) == 1:
        return template.format(**args) if args else template
    if args:
        parts = [part.format(**args) if index % 2 == 0 else part for index, part in enumerate(parts)]
    return particles.resolve(parts)


_particle_parts: dict[str, list[str]] = {}  # a template split at its particle markers, once


def known_lang(value: str) -> bool:
    """Whether ``--lang value`` names a language of the catalogue: ``ko`` or ``en``, in any case."""
    return value.strip().lower() in LANGS


def resolve_lang(option: str | None = None, environ: dict[str, str] | None = None) -> str:
    """``--lang``, else ``ATTN_TUTOR_LANG``, else ``LANG`` starting with ``ko``, else English."""
    env = os.environ if environ is None else environ
    for choice in (option, env.get("ATTN_TUTOR_LANG")):
        if choice:
            choice = choice.strip().lower()
            if choice.startswith("ko"):
                return "ko"
            if choice.startswith("en"):
                return "en"
    return "ko" if env.get("LANG", "").lower().startswith("ko") else "en"
