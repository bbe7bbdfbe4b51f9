"""Compiles the message catalogues when attn-tutor is built: pyproject.toml holds everything else.

The messages live in gettext catalogues under ``attn_tutor/locale/`` (docs/architecture.md):
the English template ``attn_tutor.pot`` and one ``<lang>/LC_MESSAGES/attn_tutor.po`` per
translation. ``build_py`` compiles each to the ``.mo`` that ``attn_tutor.core.i18n`` reads,
with Babel (a build requirement, never a run-time one): the template as the English
catalogue (each text its own translation), each ``.po`` as its language's. A fuzzy or
empty translation is left out, so the run falls back to the English, as gettext does.

``pip install .`` writes the ``.mo`` files into the wheel's build folder; ``pip install -e .``
(whose ``build_py`` copies nothing: the package is read from this folder) writes them
beside the ``.po`` files in ``attn_tutor/locale/``, where .gitignore keeps them out of git.
Either way an edited ``.po`` reaches the program by installing again.
"""

from __future__ import annotations

import os

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
LOCALE = os.path.join("attn_tutor", "locale")
DOMAIN = "attn_tutor"


def catalogues() -> dict[str, str]:
    """Each language's source catalogue (relative to this folder): the template for English, else its .po."""
    found = {"en": os.path.join(LOCALE, f"{DOMAIN}.pot")}
    for lang in sorted(os.listdir(os.path.join(HERE, LOCALE))):
        po = os.path.join(LOCALE, lang, "LC_MESSAGES", f"{DOMAIN}.po")
        if os.path.isfile(os.path.join(HERE, po)):
            found[lang] = po
    return found


def compiled(lang: str) -> str:
    """Where ``lang``'s .mo goes, relative to the folder that holds the attn_tutor package."""
    return os.path.join(LOCALE, lang, "LC_MESSAGES", f"{DOMAIN}.mo")


def compile_catalogues(target: str) -> list[str]:
    """Write every language's .mo under ``target``; return their paths."""
    written = []
    for lang, source in catalogues().items():
        with open(os.path.join(HERE, source), "rb") as file:
            catalog = read_po(file, locale=None if lang == "en" else lang, domain=DOMAIN)
        if lang == "en":
            for message in catalog:
                if message.id:
                    message.string = message.id
        path = os.path.join(target, compiled(lang))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as file:
            write_mo(file, catalog)
        written.append(path)
    return written


class BuildWithCatalogues(build_py):
    """``build_py`` that also compiles the message catalogues (into the build, or in place when editable)."""

    def run(self) -> None:
        super().run()
        compile_catalogues(HERE if self.editable_mode else self.build_lib)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if self.editable_mode:
            return outputs
        return outputs + [os.path.join(self.build_lib, compiled(lang)) for lang in catalogues()]


setup(cmdclass={"build_py": BuildWithCatalogues})
