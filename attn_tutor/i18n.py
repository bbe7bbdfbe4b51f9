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
    # The file as a whole.
    "problems.not_found": ("no such file; check the path", "파일이 없습니다. 경로를 확인하세요"),
    "problems.no_such_set": (
        "no such file, and no packaged problem set of that name; packaged sets: {sets}",
        "그런 파일이 없고 그 이름의 내장 문제 세트도 없습니다. 내장 세트: {sets}",
    ),
    "problems.is_directory": (
        "is a directory; give a problem-set file (.yaml) instead",
        "디렉터리입니다. 문제 세트 파일(.yaml)을 지정하세요",
    ),
    "problems.unreadable": ("cannot be read: {reason}", "파일을 읽을 수 없습니다: {reason}"),
    "problems.not_utf8": (
        "the file is not UTF-8 text (byte {byte} here cannot be read; was it saved as CP949/EUC-KR?); save it as UTF-8",
        "파일이 UTF-8 텍스트가 아닙니다 (이 자리의 바이트 {byte}을(를) 읽을 수 없습니다. CP949/EUC-KR로 저장하지 않았나요?). UTF-8로 다시 저장하세요",
    ),
    "problems.empty_file": (
        "the file is empty; a problem set needs a 'problems:' list",
        "파일이 비어 있습니다. 문제 세트에는 'problems:' 목록이 있어야 합니다",
    ),
    "problems.control_character": (
        "the file contains a control character ({char}) that YAML does not allow; delete it",
        "YAML에서 쓸 수 없는 제어 문자({char})가 들어 있습니다. 지우세요",
    ),
    "problems.tab": (
        "a tab character here; YAML indentation must use spaces, not tabs",
        "여기에 탭 문자가 있습니다. YAML의 들여쓰기에는 탭이 아니라 공백을 써야 합니다",
    ),
    "problems.yaml_syntax": ("this is not valid YAML: {detail}", "올바른 YAML이 아닙니다: {detail}"),
    "problems.multiple_documents": (
        "a second YAML document starts here ('---'); put every problem in the one 'problems:' list",
        "여기서 두 번째 YAML 문서('---')가 시작됩니다. 모든 문제를 하나의 'problems:' 목록에 넣으세요",
    ),
    "problems.alias": (
        "'*{name}' repeats the value anchored as '&{name}'; anchors and aliases are not allowed in problem sets, so write the values out in full",
        "'*{name}'은(는) '&{name}'로 표시한 값을 되풀이하는 별칭입니다. 문제 세트에서는 앵커와 별칭을 쓸 수 없으니 값을 모두 직접 쓰세요",
    ),
    "problems.tag": (
        "the tag '{tag}' is not allowed; a problem set holds only numbers, text, lists and mappings",
        "'{tag}' 태그는 쓸 수 없습니다. 문제 세트에는 숫자, 텍스트, 목록, 매핑만 쓸 수 있습니다",
    ),
    "problems.top_is_list": (
        "the file is a list; write 'problems:' on the line above it and indent the list under it",
        "파일 전체가 목록입니다. 그 위 줄에 'problems:'를 쓰고 목록을 그 아래로 들여 쓰세요",
    ),
    "problems.not_mapping_top": (
        "the top level of the file must be a mapping with a 'problems:' list (and, optionally, 'title:')",
        "파일의 최상위는 'problems:' 목록(필요하면 'title:'도)을 담은 매핑이어야 합니다",
    ),
    "problems.missing_problems": (
        "the file has no 'problems:' list",
        "파일에 'problems:' 목록이 없습니다",
    ),
    # Keys and shapes of values.
    "problems.duplicate_key": (
        "{path} is given twice (first on line {first_line}); YAML would silently keep only the last one, so delete one",
        "{path}이(가) 두 번 나옵니다 (처음은 {first_line}행). YAML은 마지막 것만 조용히 남기므로 하나를 지우세요",
    ),
    "problems.bad_key": (
        "a key in {path} is a list or a mapping; keys must be plain names",
        "{path}에 목록이나 매핑으로 된 키가 있습니다. 키는 이름이어야 합니다",
    ),
    "problems.unknown_key": (
        "{path} is not a known key; the keys allowed here are: {allowed}",
        "{path}은(는) 알 수 없는 키입니다. 여기서 쓸 수 있는 키: {allowed}",
    ),
    "problems.unknown_key_suggest": (
        "{path} is not a known key; did you mean '{suggestion}'?",
        "{path}은(는) 알 수 없는 키입니다. '{suggestion}'을(를) 쓰려던 것인가요?",
    ),
    "problems.key_not_in_head": (
        "{path}: '{field}' belongs to the problem, not to a head (every head shares it)",
        "{path}: '{field}'은(는) head가 아니라 문제에 씁니다 (모든 head가 함께 씁니다)",
    ),
    "problems.missing_key": ("{path} is missing '{field}'", "{path}에 '{field}'이(가) 없습니다"),
    "problems.expected_mapping": (
        "{path} must be a mapping of keys to values, e.g. lines like 'id: a'",
        "{path}은(는) 키와 값의 매핑이어야 합니다 (예: 'id: a' 같은 줄)",
    ),
    "problems.expected_list": (
        "{path} must be a list, e.g. [a, b] or lines starting with '- '",
        "{path}은(는) 목록이어야 합니다 (예: [a, b] 또는 '- '로 시작하는 줄)",
    ),
    "problems.expected_text": (
        "{path} must be a single value, not a list or a mapping",
        "{path}은(는) 목록이나 매핑이 아닌 하나의 값이어야 합니다",
    ),
    "problems.empty_list": (
        "{path} is empty; give at least one entry",
        "{path}이(가) 비어 있습니다. 항목을 하나 이상 쓰세요",
    ),
    "problems.empty_text": ("{path} is empty", "{path}이(가) 비어 있습니다"),
    "problems.empty_item": (
        "{path} entry {item} is empty",
        "{path}의 {item}번째 항목이 비어 있습니다",
    ),
    "problems.item_not_text": (
        "{path} entry {item} must be a single word or number, not a list or a mapping",
        "{path}의 {item}번째 항목은 목록이나 매핑이 아닌 낱말이나 수 하나여야 합니다",
    ),
    # Ids and tokens.
    "problems.duplicate_id": (
        "the id '{id}' is used twice (first on line {first_line}); every problem needs its own id",
        "id '{id}'이(가) 두 번 쓰였습니다 (처음은 {first_line}행). 문제마다 id가 달라야 합니다",
    ),
    "problems.duplicate_token": (
        "{path}: '{token}' appears twice (entries {first} and {second}); tokens must be unique, so tell repeats apart, e.g. '{token}1' and '{token}2'",
        "{path}: '{token}'이(가) 두 번 나옵니다 ({first}번째와 {second}번째). 토큰은 서로 달라야 하니 '{token}1', '{token}2'처럼 구별하세요",
    ),
    "problems.duplicate_entry": (
        "{path}: '{value}' is listed twice",
        "{path}: '{value}'이(가) 두 번 나옵니다",
    ),
    # Matrices.
    "problems.expected_matrix": (
        "{path} must be a list of rows, each a list of numbers, e.g. [[1, 0], [0, 1]]",
        "{path}은(는) 행의 목록이어야 하고, 각 행은 숫자의 목록입니다 (예: [[1, 0], [0, 1]])",
    ),
    "problems.row_not_list": (
        "{path} row {row} must be a list of numbers, e.g. [1, 0]",
        "{path}의 {row}행은 숫자의 목록이어야 합니다 (예: [1, 0])",
    ),
    "problems.empty_row": (
        "{path} row {row} is empty; give at least one number",
        "{path}의 {row}행이 비어 있습니다. 숫자를 하나 이상 쓰세요",
    ),
    "problems.entry_not_number": (
        "{path} row {row}, entry {col} is {text}, which is not a number",
        "{path}의 {row}행 {col}번째 값 {text}은(는) 숫자가 아닙니다",
    ),
    "problems.entry_boolean": (
        "{path} row {row}, entry {col} is {text}, which YAML reads as true/false, not a number; write a number such as 1 or 0",
        "{path}의 {row}행 {col}번째 값 {text}은(는) YAML에서 참/거짓으로 읽혀 숫자가 아닙니다. 1이나 0 같은 숫자로 쓰세요",
    ),
    "problems.entry_quoted": (
        "{path} row {row}, entry {col} is {text}, which is text, not a number; write numbers without quotes",
        "{path}의 {row}행 {col}번째 값 {text}은(는) 텍스트로 적혀 있어 숫자가 아닙니다. 숫자는 따옴표 없이 쓰세요",
    ),
    "problems.entry_not_finite": (
        "{path} row {row}, entry {col} is {text}, which is not a finite number; write an ordinary number",
        "{path}의 {row}행 {col}번째 값 {text}은(는) 유한한 수가 아닙니다. 보통의 수를 쓰세요",
    ),
    "problems.entry_too_large": (
        "{path} row {row}, entry {col} is {text}; numbers must lie between -1e15 and 1e15",
        "{path}의 {row}행 {col}번째 값 {text}이(가) 너무 큽니다. 수는 -1e15와 1e15 사이여야 합니다",
    ),
    "problems.entry_missing": (
        "{path} row {row}, entry {col} is empty; write a number",
        "{path}의 {row}행 {col}번째 값이 비어 있습니다. 숫자를 쓰세요",
    ),
    "problems.entry_not_scalar": (
        "{path} row {row}, entry {col} is a list or a mapping; each entry must be one number",
        "{path}의 {row}행 {col}번째 값이 목록이나 매핑입니다. 값마다 숫자 하나만 쓰세요",
    ),
    "problems.row_length": (
        "{path} row {row} has {count} numbers; row 1 has {expected}",
        "{path}의 {row}행에는 숫자가 {count}개 있지만 1행에는 {expected}개 있습니다",
    ),
    "problems.row_length_1": (
        "{path} row {row} has 1 number; row 1 has {expected}",
        "{path}의 {row}행에는 숫자가 1개 있지만 1행에는 {expected}개 있습니다",
    ),
    "problems.row_length_dk_1": (
        "{path} row {row} has 1 number; {ref} has d_k = {expected}",
        "{path}의 {row}행에는 숫자가 1개 있지만 {ref}의 d_k는 {expected}입니다",
    ),
    "problems.row_length_dk": (
        "{path} row {row} has {count} numbers; {ref} has d_k = {expected}",
        "{path}의 {row}행에는 숫자가 {count}개 있지만 {ref}의 d_k는 {expected}입니다",
    ),
    "problems.rows_vs_tokens": (
        "{path} needs one row per token ({tokens_key} has {expected}), but it has {count}",
        "{path}에는 토큰마다 한 행씩 있어야 하는데 ({tokens_key}의 토큰 {expected}개) 행이 {count}개입니다",
    ),
    "problems.w_rows": (
        "{path} needs one row per column of X (d_in = {expected}), but it has {count}",
        "{path}에는 X의 열마다 한 행씩 {expected}개의 행이 있어야 하는데 (d_in = {expected}) {count}개가 있습니다",
    ),
    "problems.key_tokens_vs_x": (
        "{path} needs one token per row of X ({expected}), because the keys are projected from X, but it has {count}",
        "키는 X에서 투영되므로 {path}에는 X의 행마다 토큰이 하나씩, 즉 {expected}개 있어야 하는데 {count}개가 있습니다",
    ),
    # Which matrices a problem or head gives.
    "problems.no_matrices": (
        "{path} has no matrices; give Q and K (and V if it has values), or X with W_Q and W_K (and W_V), or a 'heads:' list",
        "{path}에 행렬이 없습니다. Q와 K(값이 있으면 V도), 또는 X와 W_Q, W_K(그리고 W_V), 또는 'heads:' 목록을 쓰세요",
    ),
    "problems.head_no_matrices": (
        "{path} has no matrices; give Q and K (and V), or W_Q and W_K (and W_V) to project X",
        "{path}에 행렬이 없습니다. Q와 K(그리고 V), 또는 X를 투영할 W_Q와 W_K(그리고 W_V)를 쓰세요",
    ),
    "problems.mixed_forms": (
        "{path} gives both {direct} and {projected}; give either Q, K, V directly or W_Q, W_K, W_V to project X, not both",
        "{path}에 {direct}와(과) {projected}가 함께 있습니다. Q, K, V를 직접 주거나 X를 투영할 W_Q, W_K, W_V를 주거나, 둘 중 하나만 쓰세요",
    ),
    "problems.needs_x": (
        "{path} uses W_Q and W_K, which project X, but it has no X; add X (one row per token)",
        "{path}은(는) X를 투영하는 W_Q, W_K를 쓰지만 X가 없습니다. X를 쓰세요 (토큰마다 한 행)",
    ),
    "problems.unused_x": (
        "{path} is given, but Q, K, V are given directly, so X is not used; remove X or give W_Q, W_K, W_V instead",
        "{path}이(가) 있지만 Q, K, V를 직접 주었기 때문에 X는 쓰이지 않습니다. X를 지우거나 대신 W_Q, W_K, W_V를 쓰세요",
    ),
    "problems.heads_and_matrices": (
        "{path}: with 'heads:', put {field} inside each head, not beside 'heads:'",
        "{path}: 'heads:'를 쓸 때는 {field}을(를) 'heads:' 옆이 아니라 각 head 안에 쓰세요",
    ),
    "problems.values_partial": (
        "{path}: some heads have values (V or W_V) and some do not; give values to every head or to none",
        "{path}: 값(V 또는 W_V)이 있는 head와 없는 head가 섞여 있습니다. 모든 head에 값을 주거나 모두 빼세요",
    ),
    # Options.
    "problems.divide_by": (
        "{path} must be sqrt_d or a positive number from 1e-15 to 1e15 (1 means unscaled), but it is {text}",
        "{path}은(는) sqrt_d이거나 1e-15 이상 1e15 이하의 양수여야 합니다 (1이면 나누지 않습니다). 지금 값: {text}",
    ),
    "problems.mask_word": (
        "{path} must be none, causal or a 0/1 matrix, but it is {text}",
        "{path}은(는) none, causal 또는 0/1 행렬이어야 합니다. 지금 값: {text}",
    ),
    "problems.mask_rows": (
        "{path} needs one row per query token ({expected}), but it has {count}",
        "{path}에는 질의 토큰마다 한 행씩 {expected}개의 행이 있어야 하는데 {count}개가 있습니다",
    ),
    "problems.mask_row_length": (
        "{path} row {row} needs one entry per key token ({expected}), but it has {count}",
        "{path}의 {row}행에는 키 토큰마다 값이 하나씩 {expected}개 있어야 하는데 {count}개가 있습니다",
    ),
    "problems.mask_entry": (
        "{path} row {row}, entry {col} is {text}; mask entries are 1 (may attend) or 0 (may not)",
        "{path}의 {row}행 {col}번째 값이 {text}입니다. 마스크 값은 1(참조 가능) 또는 0(참조 불가)이어야 합니다",
    ),
    "problems.mask_empty_row": (
        "{path} row {row} (token '{token}') has no 1, so that token may attend to nothing; put a 1 in at least one column",
        "{path}의 {row}행(토큰 '{token}')에 1이 없어 이 토큰은 아무것도 참조할 수 없습니다. 적어도 한 열에 1을 넣으세요",
    ),
    "problems.unknown_row": (
        "{path}: '{token}' is not one of the query tokens ({tokens})",
        "{path}: '{token}'은(는) 질의 토큰이 아닙니다 (토큰: {tokens})",
    ),
    "problems.unknown_row_suggest": (
        "{path}: '{token}' is not one of the query tokens; did you mean '{suggestion}'?",
        "{path}: '{token}'은(는) 질의 토큰이 아닙니다. '{suggestion}'을(를) 쓰려던 것인가요?",
    ),
    "problems.unknown_stage": (
        "{path}: '{stage}' is not a stage; the stages are scores, scaled, weights and output",
        "{path}: '{stage}'은(는) 단계 이름이 아닙니다. 단계는 scores, scaled, weights, output입니다",
    ),
    "problems.unknown_stage_suggest": (
        "{path}: '{stage}' is not a stage; did you mean '{suggestion}'?",
        "{path}: '{stage}'은(는) 단계 이름이 아닙니다. '{suggestion}'을(를) 쓰려던 것인가요?",
    ),
    "problems.output_without_values": (
        "{path} asks for output, but the problem has no V (or W_V), so it stops at the weights",
        "{path}에서 output을 묻지만 이 문제에는 V(또는 W_V)가 없어 가중치에서 끝납니다",
    ),
    "problems.decimals": (
        "{path} must be a whole number from 0 to 10, but it is {text}",
        "{path}은(는) 0부터 10까지의 정수여야 합니다. 지금 값: {text}",
    ),
    "problems.tolerance": (
        "{path} must be a number greater than 0 and at most 1, but it is {text}",
        "{path}은(는) 0보다 크고 1 이하인 수여야 합니다. 지금 값: {text}",
    ),
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
