"""One catalogue of every message a user reads, in English and Korean.

``t(key, lang, **args)`` looks a message up and fills in its ``{placeholders}``.
Keys are grouped by the module that uses them. A test checks that every key has
both languages and that both use the same placeholders.
"""

from __future__ import annotations

import os

LANGS = ("en", "ko")

# key: (English, Korean)
MESSAGES: dict[str, tuple[str, str]] = {
    # --- command line -------------------------------------------------------------
    "cli.error": ("error: {message}", "오류: {message}"),
    "cli.file_exists": (
        "{path} already exists; add --force to overwrite it",
        "{path} 파일이 이미 있습니다. 덮어쓰려면 --force를 붙이세요",
    ),
    "cli.no_such_problem": (
        "no problem with id '{id}' in {source}; its problems are: {ids}",
        "{source}에 id가 '{id}'인 문제가 없습니다. 있는 문제: {ids}",
    ),
    "cli.no_such_row": (
        "problem '{problem}' has no query token '{row}'; its tokens are: {tokens}",
        "문제 '{problem}'에 질의 토큰 '{row}'이(가) 없습니다. 토큰: {tokens}",
    ),
    "cli.no_such_stage": (
        "problem '{problem}' has no stage '{stage}' (it has no values, so it stops at the weights)",
        "문제 '{problem}'에는 '{stage}' 단계가 없습니다 (V가 없어 가중치에서 끝납니다)",
    ),
    "cli.bad_lang": (
        "unknown language '{lang}'; use ko or en",
        "알 수 없는 언어 '{lang}'입니다. ko 또는 en을 쓰세요",
    ),
    "cli.interrupted": ("interrupted", "중단되었습니다"),
    # --- loading problem sets (attn_tutor.problems) --------------------------------
    # --- solve (attn_tutor.render) -------------------------------------------------
    # --- quiz (attn_tutor.answers, attn_tutor.grading, attn_tutor.quiz) -------------
    # --- grade (attn_tutor.classbook) ----------------------------------------------
    # --- export and generate (attn_tutor.render.*, attn_tutor.generate) ------------
}


def t(key: str, lang: str = "en", /, **args: object) -> str:
    """The message ``key`` in ``lang``, with ``args`` filled in."""
    english, korean = MESSAGES[key]
    template = korean if lang == "ko" else english
    return template.format(**args) if args else template


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
