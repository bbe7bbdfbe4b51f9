"""One Korean term per concept: the glossary every Korean sentence keeps to.

Each concept has the one Korean term the catalogue uses and the synonyms it must not
use (a student who reads "질의 토큰" in one message and "Query 토큰" in the next
wonders whether they are two things). Quoted text ('heads:', a YAML key) and
placeholders are not prose and are left out of the check.
"""

from __future__ import annotations

import re

import pytest
from helpers.language import in_language

from attn_tutor.core.i18n import messages, text

# English term: (the Korean term, synonyms not to use)
GLOSSARY = {
    "query token": ("Query 토큰", ("질의 토큰", "질의", "쿼리", "query 토큰")),
    "key": ("Key", ("키 토큰", "key 토큰")),
    "head": ("헤드", ("head",)),
    "score": ("스코어", ("어텐션 점수", "주의 점수")),
    "scaled scores": ("스케일된 스코어", ("스케일링한 스코어", "나눈 스코어", "나눈 점수", "스케일드 스코어")),
    "weights": ("가중치", ("웨이트", "비중")),
    "softmax": ("Softmax", ("소프트맥스",)),
    "output": ("출력", ("아웃풋",)),
    "mask": ("마스크", ("가려진", "가림")),
    "problem set": ("문제 세트", ("문제집", "문제 모음")),
    "answer file": ("답안 파일", ("답 파일", "답지")),
    "roster": ("명단", ("로스터", "학생 목록")),
    "variant": ("변형", ("배리언트", "변종")),
    "worksheet": ("활동지", ("워크시트", "학습지")),
    "hand-back sheet": ("채점 결과지", ("피드백 시트", "결과 시트")),
    "hint": ("힌트", ("도움말 힌트", "귀띔")),
}

NOT_PROSE = re.compile(r"'[^']*'|‘[^’]*’|\{[^{}]*\}|--[\w-]+")


def prose(korean: str) -> str:
    return NOT_PROSE.sub(" ", korean)


@pytest.mark.parametrize("concept", sorted(GLOSSARY))
def test_no_korean_message_uses_a_synonym_of_the_glossarys_term(concept):
    term, banned = GLOSSARY[concept]
    used = {key: korean for key, korean in in_language("ko", messages, "").items() if any(b in prose(korean) for b in banned)}
    assert not used, f"use {term!r} for {concept!r}: {used}"


@pytest.mark.parametrize("concept", sorted(GLOSSARY))
def test_the_glossarys_term_is_the_one_the_catalogue_uses(concept):
    term, _banned = GLOSSARY[concept]
    assert any(term in korean for korean in in_language("ko", messages, "").values()), term


def test_every_english_message_about_query_tokens_says_query_token_in_korean():
    keys = [key for key, english in in_language("en", messages, "").items() if "query token" in english.lower() and not key.startswith("help.")]
    assert keys
    for key in keys:
        assert "Query 토큰" in in_language("ko", text, key), key
