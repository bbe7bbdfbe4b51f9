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
    "cli.row_in_no_problem": (
        "no problem in {source} has a query token '{row}'",
        "{source}에 질의 토큰 '{row}'이(가) 있는 문제가 없습니다",
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
    "validate.valid": ("{path}: valid", "{path}: 올바름"),
    "validate.invalid": ("{path}: invalid ({count} errors)", "{path}: 오류 {count}개"),
    # --- loading problem sets (attn_tutor.problems) --------------------------------
    # --- solve (attn_tutor.solution_doc, attn_tutor.render) ------------------------
    "solve.given": ("Given", "주어진 값"),
    "solve.given_projection": (
        "Given: embeddings X and weights W_Q, W_K, W_V (Q = X·W_Q, K = X·W_K, V = X·W_V)",
        "주어진 값: 임베딩 X와 가중치 W_Q, W_K, W_V (Q = X·W_Q, K = X·W_K, V = X·W_V)",
    ),
    "solve.projected": ("Q, K, V after projection", "투영한 Q, K, V"),
    "solve.token": ("token", "토큰"),
    "solve.head": ("head {n}", "헤드 {n}"),
    "solve.query_key": ("query \\ key", "Query \\ Key"),
    "solve.scores": ("(a) Scores S = Q·Kᵀ", "(a) 스코어 S = Q·Kᵀ"),
    "solve.scaled": ("(b) Scaled scores S / {divisor}", "(b) 스케일링 S / {divisor}"),
    "solve.scaled_note": ("divided by {divisor}", "{divisor}로 나눔"),
    "solve.exps": ("(c) Softmax along each row: e^x and the row sum", "(c) 행별 Softmax: e^x와 행의 합"),
    "solve.sum": ("sum", "합"),
    "solve.weights": ("(c) Attention weights (each row sums to 1)", "(c) 어텐션 가중치 (각 행의 합 = 1)"),
    "solve.output": ("(d) Output = weights·V", "(d) 출력 = 가중치·V"),
    "solve.masked_note": (
        "— : masked (this query may not attend to that key)",
        "— : 마스크됨 (이 Query는 그 Key를 볼 수 없음)",
    ),
    "solve.overflow_note": (
        "∞ : e^x is too large to write down; the weights are computed exactly by subtracting the row's largest score first",
        "∞ : e^x가 너무 커서 적을 수 없음. 가중치는 행의 최댓값을 먼저 빼서 정확히 계산함",
    ),
    "solve.bars": ("Where {token} looks", "{token}의 시선"),
    "solve.explain": ("Worked arithmetic for {token}", "{token} 행의 계산 과정"),
    "solve.explain_stage.projection": ("projection", "투영"),
    "solve.explain_stage.scores": ("scores", "스코어"),
    "solve.explain_stage.scaled": ("scaling", "스케일링"),
    "solve.explain_stage.weights": ("softmax", "Softmax"),
    "solve.explain_stage.output": ("output", "출력"),
    "solve.no_values": (
        "This problem gives no V, so it stops at the weights.",
        "이 문제는 V가 없어 가중치에서 끝납니다.",
    ),
    "solve.cross": ("Cross-attention: the keys and values belong to {keys}.", "교차 어텐션: Key와 Value는 {keys}의 것입니다."),
    "solve.causal": ("Causal mask: each token sees only itself and the tokens before it.", "인과 마스크: 각 토큰은 자신과 앞의 토큰만 봅니다."),
    "solve.matrix_mask": ("Mask: a query sees only the keys marked 1.", "마스크: 각 Query는 1로 표시된 Key만 봅니다."),
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
