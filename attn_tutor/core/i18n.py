"""One catalogue of every message a user reads, in English and Korean.

It is long because it is one catalogue: every sentence in both languages in one
place, so a translator reads it top to bottom and a test checks every pair.

``t(key, lang, **args)`` looks a message up and fills in its ``{placeholders}``.
Keys are grouped by the module that uses them. A test checks that every key has
both languages and that both use the same placeholders.
"""

from __future__ import annotations

import os

from attn_tutor.core import particles

LANGS = ("en", "ko")

# key: (English, Korean)
MESSAGES: dict[str, tuple[str, str]] = {
    # --- command line -------------------------------------------------------------
    "cli.error": ("error: {message}", "오류: {message}"),
    "cli.file_exists": (
        "{path} already exists; add --force to overwrite it",
        "{path} 파일이 이미 있습니다. 덮어쓰려면 --force를 붙이세요",
    ),
    # text typed in an option (banks: --title); see attn_tutor.cli.options.checked_text
    "cli.option_unsafe_character": (
        "{option} holds an invisible or control character ({char}, character {position}); type it without",
        "{option}에 보이지 않는 문자나 제어 문자({char}, {position}번째 글자)가 있습니다. 그 문자 없이 입력하세요",
    ),
    "cli.option_blank": (
        "{option} is blank; give the title to show, or leave {option} out to use the set's own title",
        "{option} 값이 비어 있습니다. 보여 줄 제목을 쓰세요. {option} 없이 실행하면 문제 세트의 제목을 씁니다",
    ),
    "cli.option_too_long": (
        "{option} is {count} characters long; at most {limit} are allowed, as for a title in a problem set",
        "{option} 값의 길이가 {count}자입니다. 문제 세트의 제목처럼 최대 {limit}자까지입니다",
    ),
    "cli.no_such_problem": (
        "no problem with id '{id}' in {source}; its problems are: {ids}",
        "{source}에 id가 '{id}'인 문제가 없습니다. 있는 문제: {ids}",
    ),
    "cli.no_such_row": (
        "problem '{problem}' has no query token '{row}'; its tokens are: {tokens}",
        "문제 '{problem}'에 Query 토큰 '{row}'[이] 없습니다. 토큰: {tokens}",
    ),
    "cli.row_in_no_problem": (
        "no problem in {source} has a query token '{row}'",
        "{source}에 Query 토큰 '{row}'[이] 있는 문제가 없습니다",
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
    "cli.large_needs_json": (
        "--large is for --format json only: a problem beyond the hand-sized limits is worked by the machine, not shown as tables",
        "--large는 --format json에서만 쓸 수 있습니다. 손계산 한도를 넘는 문제는 표로 보여 주지 않고 기계가 계산합니다",
    ),
    "output.failed": (
        "cannot write to standard output: {reason}; free some space, or send the output somewhere else",
        "표준 출력에 쓸 수 없습니다: {reason}. 공간을 확보하거나 출력을 다른 곳으로 보내세요",
    ),
    "output.closed": (
        "standard output is closed, so nothing could be shown; run the command with an output",
        "표준 출력이 닫혀 있어 아무것도 보여 줄 수 없습니다. 출력이 있는 상태로 실행하세요",
    ),
    "output.encoding": (
        "standard output cannot show these characters (encoding {encoding}); set PYTHONIOENCODING=utf-8",
        "표준 출력이 이 문자를 보여 줄 수 없습니다 (인코딩 {encoding}). PYTHONIOENCODING=utf-8로 설정하세요",
    ),
    "cli.written": ("written to {path}", "{path}에 저장했습니다"),
    "files.is_dir": (
        "{path} is a directory; give a file name to write to",
        "{path}[은] 디렉터리입니다. 저장할 파일 이름을 주세요",
    ),
    "files.no_dir": (
        "cannot write {path}: there is no directory {directory}",
        "{path}에 쓸 수 없습니다: {directory} 디렉터리가 없습니다",
    ),
    "files.cannot_write": ("cannot write {path}: {reason}", "{path}에 쓸 수 없습니다: {reason}"),
    "files.cannot_check": ("cannot check {path}: {reason}", "{path}[을] 확인할 수 없습니다: {reason}"),
    "files.spool_failed": (
        "cannot keep the class's rows in temporary files in {directory}: {reason}; nothing was written "
        "(free some space there, or set TMPDIR to a folder with room, and run again)",
        "{directory}의 임시 파일에 학급의 행을 둘 수 없습니다: {reason}. 아무것도 쓰지 않았습니다 "
        "(그곳의 공간을 비우거나 TMPDIR을 여유 있는 폴더로 지정한 뒤 다시 실행하세요)",
    ),
    "files.symlink": (
        "{path} is a symbolic link; --force replaces only regular files, so give the file it points to, or another name",
        "{path}[은] 심볼릭 링크입니다. --force는 일반 파일만 바꾸므로 링크가 가리키는 파일이나 다른 이름을 주세요",
    ),
    "files.not_regular": (
        "{path} is a device, FIFO or socket, not a regular file; --force replaces only regular files, so give another name",
        "{path}[은] 장치, FIFO 또는 소켓이지 일반 파일이 아닙니다. --force는 일반 파일만 바꾸므로 다른 이름을 주세요",
    ),
    "files.is_input": (
        "{path} is one of this command's inputs; it is never overwritten, even with --force; give another name",
        "{path}[은] 이 명령의 입력 파일입니다. --force로도 덮어쓰지 않으니 다른 이름을 주세요",
    ),
    "files.appeared": (
        "{path} appeared while attn-tutor was working and was left as it is; nothing was written there "
        "(run again with another name, or with --force to replace it)",
        "작업하는 동안 {path} 파일이 생겨서 그대로 두었고, 아무것도 쓰지 않았습니다 "
        "(다른 이름으로, 또는 바꾸려면 --force를 붙여 다시 실행하세요)",
    ),
    "files.in_graded_directory": (
        "{path} is inside {directory}, which is being graded; write the outputs outside the answer directory",
        "{path}[은] 채점하는 디렉터리 {directory} 안에 있습니다. 출력 파일은 답안 디렉터리 밖에 쓰세요",
    ),
    "files.sheet_is_input": (
        "the hand-back sheet of '{student}' would be {path}, one of this command's inputs; it is never overwritten, "
        "even with --force, and nothing was written; give --feedback another folder",
        "'{student}'의 돌려줄 답안지가 이 명령의 입력 파일인 {path}[이] 됩니다. --force로도 덮어쓰지 않으며 아무것도 "
        "저장하지 않았습니다. --feedback에 다른 폴더를 주세요",
    ),
    "files.not_a_dir": (
        "{path} exists and is not a directory; give a directory to write the files into",
        "{path}[이] 이미 있고 디렉터리가 아닙니다. 파일을 저장할 디렉터리를 주세요",
    ),
    "validate.valid": ("{path}: valid", "{path}: 올바름"),
    "validate.invalid": ("{path}: invalid ({count} errors)", "{path}: 오류 {count}개"),
    "validate.invalid_one": ("{path}: invalid (1 error)", "{path}: 오류 1개"),
    "validate.warning": ("warning: {message}", "경고: {message}"),
    # validate given an answer file (helper "inputs").
    "validate.answer_valid": ("{path}: a valid answer file", "{path}: 올바른 답안 파일"),
    "validate.answer_invalid": ("{path}: an answer file with {count} problems", "{path}: 답안 파일, 문제점 {count}개"),
    "validate.answer_invalid_one": ("{path}: an answer file with 1 problem", "{path}: 답안 파일, 문제점 1개"),
    # inputs-review: a gradebook given to validate
    "validate.gradebook": (
        "{path}: a gradebook attn-tutor wrote, neither an answer file nor a problem set",
        "{path}: attn-tutor가 쓴 성적표로, 답안 파일도 문제 세트도 아닙니다",
    ),
    "show.no_such_set": (
        "there is no packaged problem set '{name}'; packaged sets: {sets}",
        "'{name}'[이라는] 내장 문제 세트가 없습니다. 내장 세트: {sets}",
    ),
    "list.col.id": ("id", "id"),
    "list.col.title": ("title", "제목"),
    "list.col.tokens": ("tokens", "토큰"),
    "list.col.d_k": ("d_k", "d_k"),
    "list.col.rows": ("rows asked", "묻는 행"),
    "list.col.stages": ("stages asked", "묻는 단계"),
    "list.heads": ("{d_k} ({count} heads)", "{d_k} (헤드 {count}개)"),
    "list.count": ("{count} problems", "문제 {count}개"),
    "list.count_one": ("1 problem", "문제 1개"),
    "list.see": (
        "Solve one with: {solve}. Practise one with: {quiz}.",
        "풀이 보기: {solve}. 연습하기: {quiz}.",
    ),
    # --- command-line help (attn_tutor.cli.help): option help texts are these keys ----
    "help.app": (
        "A tutor and grader for computing scaled dot-product attention by hand.",
        "스케일드 닷-프로덕트 어텐션을 손으로 계산하는 연습과 채점 도구입니다.",
    ),
    "help.version": ("Show the version and exit.", "버전을 보여 주고 끝냅니다."),
    "help.help": ("Show this message and exit.", "이 도움말을 보여 주고 끝냅니다."),
    "help.panel.arguments": ("Arguments", "인자"),
    "help.panel.options": ("Options", "옵션"),
    "help.panel.commands": ("Commands", "명령"),
    "help.default": ("[default: {}]", "[기본값: {}]"),
    "help.required": ("[required]", "[필수]"),
    # --- our own help layout and click's usage errors (attn_tutor.cli.help) ---------
    "help.usage": ("Usage:", "사용법:"),
    "help.usage.options": ("[OPTIONS]", "[옵션]"),
    "help.usage.command": ("COMMAND [ARGS]...", "명령 [인자]..."),
    "help.metavar.text": ("TEXT", "텍스트"),
    "help.metavar.integer": ("INTEGER", "정수"),
    "help.metavar.number": ("NUMBER", "수"),
    "help.metavar.path": ("PATH", "경로"),
    "help.range.between": ("[{low} to {high}]", "[{low}~{high}]"),
    "help.range.at_least": ("[at least {low}]", "[{low} 이상]"),
    "help.range.at_most": ("[at most {high}]", "[{high} 이하]"),
    "help.default_word": ("default", "기본값"),
    "click.try_help": ("Try '{command} --help' for help.", "도움말 보기: {command} --help"),
    "click.no_such_option": ("no such option: {name}.", "그런 옵션이 없습니다: {name}."),
    "click.did_you_mean": ("Did you mean {names}?", "혹시 {names}인가요?"),
    "click.no_such_command": ("no such command: {name}.", "그런 명령이 없습니다: {name}."),
    "click.missing_command": ("a command is missing; the commands are listed by --help.", "명령이 빠졌습니다. 명령 목록은 --help로 보세요."),
    "click.missing_argument": ("missing argument {name}.", "인자가 빠졌습니다: {name}."),
    "click.missing_option": ("missing option {name}.", "옵션이 빠졌습니다: {name}."),
    "click.choose_from": ("Choose from: {choices}.", "다음 중에서 고르세요: {choices}."),
    "click.invalid_value": ("invalid value for {name}: {detail}", "{name}의 값이 잘못되었습니다: {detail}"),
    "click.invalid_value_bare": ("invalid value: {detail}", "값이 잘못되었습니다: {detail}"),
    "click.not_one_of": ("{value} is not one of {choices}.", "{value}: {choices} 중 하나여야 합니다."),
    "click.not_integer": ("{value} is not a whole number.", "{value}: 정수가 아닙니다."),
    "click.not_number": ("{value} is not a number.", "{value}: 수가 아닙니다."),
    "click.out_of_range": ("{value} is outside {range}.", "{value}: {range} 범위를 벗어납니다."),
    "click.path_missing": ("{value} does not exist.", "{value}: 그런 파일이나 디렉터리가 없습니다."),
    "click.path_is_file": ("{value} is a file; a directory is needed.", "{value}: 파일입니다. 디렉터리가 필요합니다."),
    "click.path_is_directory": ("{value} is a directory; a file is needed.", "{value}: 디렉터리입니다. 파일이 필요합니다."),
    "click.path_unreadable": ("{value} cannot be read.", "{value}: 읽을 수 없습니다."),
    "click.path_unwritable": ("{value} cannot be written.", "{value}: 쓸 수 없습니다."),
    "click.needs_value": ("option {name} needs a value.", "옵션 {name}에는 값이 필요합니다."),
    "click.needs_values": ("option {name} needs {count} values.", "옵션 {name}에는 값이 {count}개 필요합니다."),
    "click.takes_no_value": ("option {name} takes no value.", "옵션 {name}에는 값을 줄 수 없습니다."),
    "click.argument_values": ("argument {name} takes {count} values.", "인자 {name}에는 값이 {count}개 필요합니다."),
    "click.extra_arguments": ("unexpected extra argument(s): {args}.", "필요 없는 인자가 더 있습니다: {args}."),
    "help.cmd.solve": (
        "Show a problem worked out stage by stage: scores, scaling, softmax, output. Without FILE: the chapter's example, then the other problems.",
        "문제를 단계별로 풀어 보여 줍니다: 스코어, 스케일링, Softmax, 출력. FILE이 없으면 본문 예제와 나머지 문제 목록을 보여 줍니다.",
    ),
    "help.cmd.validate": (
        "Check problem-set files without solving them; list every error found.",
        "문제 세트 파일을 풀지 않고 검사해 찾은 오류를 모두 보여 줍니다.",
    ),
    "help.cmd.list": (
        "List a problem set's problems: id, title, tokens, d_k, the rows and stages asked.",
        "문제 세트의 문제 목록: id, 제목, 토큰, d_k, 묻는 행과 단계.",
    ),
    "help.cmd.show": (
        "Print a packaged problem set's YAML, comments and all, to copy and edit: attn-tutor show ch13 > my-set.yaml",
        "내장 문제 세트의 YAML을 주석까지 그대로 출력합니다. 복사해서 고쳐 쓰세요: attn-tutor show ch13 > my-set.yaml",
    ),
    "help.cmd.quiz": (
        "Practise or sit an exam: type each stage of a row, get it marked cell by cell; type ? for a hint, q to stop.",
        "연습이나 시험: 행의 단계마다 답을 입력하면 칸마다 채점합니다. ?를 입력하면 힌트를 보여 주고, q를 입력하면 끝냅니다.",
    ),
    "help.cmd.grade": (
        "Mark a whole class's answer files: a gradebook, an item analysis, a score chart.",
        "학급 전체의 답안 파일을 채점합니다: 성적표, 문항 분석, 점수 분포.",
    ),
    "help.cmd.export": (
        "Write a printable worksheet (HTML, Markdown, LaTeX or PDF), its answer key, and per-student variants; "
        "or a Moodle or Canvas (QTI) question bank that marks itself.",
        "인쇄용 활동지(HTML, Markdown, LaTeX, PDF)와 정답, 학생별 변형을 만들거나, 스스로 채점하는 Moodle·Canvas(QTI) "
        "문제 은행을 만듭니다.",
    ),
    "help.cmd.generate": (
        "Write a new problem-set YAML of random, hand-computable problems, commented for editing.",
        "손으로 풀 수 있는 무작위 문제로 새 문제 세트 YAML을 만듭니다 (고치기 쉽게 주석 포함).",
    ),
    "help.cmd.serve": (
        "Run a live class: students answer on their phones, the teacher sees the class's answers as they come.",
        "실시간 수업을 엽니다: 학생은 휴대폰으로 답하고, 선생님은 반 전체의 답을 실시간으로 봅니다.",
    ),
    "help.serve.host": (
        "The address to listen on (default 0.0.0.0: every network of this computer).",
        "받을 주소 (기본값 0.0.0.0: 이 컴퓨터의 모든 네트워크).",
    ),
    "help.serve.port": ("The port to listen on (default 8000; 0: any free port).", "받을 포트 (기본값 8000, 0: 비어 있는 아무 포트)."),
    "help.serve.db": (
        "The session's database: a SQLite file (continued if it exists) or a postgresql:// URL (default: a new file named after the set and the time).",
        "수업 데이터베이스: SQLite 파일(있으면 이어 함) 또는 postgresql:// URL (기본값: 세트 이름과 시각으로 새 파일).",
    ),
    "help.serve.mode": ("practice (marks at once) or exam (marks when a problem closes).", "practice(바로 채점 결과) 또는 exam(문제를 마감하면 채점 결과)."),
    "help.serve.workers": ("Server processes (more than 1 needs PostgreSQL).", "서버 프로세스 수 (2 이상은 PostgreSQL 필요)."),
    "help.lang": (
        "Language of messages and help: ko or en (default: ATTN_TUTOR_LANG, then LANG).",
        "메시지와 도움말의 언어: ko 또는 en (기본값: ATTN_TUTOR_LANG, 그다음 LANG).",
    ),
    "help.set": (
        "A problem-set YAML file, or a packaged set's name (default: ch13).",
        "문제 세트 YAML 파일 또는 내장 세트 이름 (기본값: ch13).",
    ),
    "help.problem": ("Only the problem with this id.", "이 id의 문제만."),
    "help.row": ("Only this query token's row.", "이 Query 토큰의 행만."),
    "help.solve.all": ("Every problem of the set, not only the first.", "첫 문제만이 아니라 세트의 모든 문제."),
    "help.solve.stage": (
        "Stop after this stage (softmax is another name for weights).",
        "이 단계까지만 (softmax는 weights와 같습니다).",
    ),
    "help.solve.explain": ("Write out each cell's arithmetic.", "칸마다 계산 과정을 적어 보여 줍니다."),
    "help.solve.decimals": ("Decimal places (default: the problem's).", "소수 자릿수 (기본값: 문제에 적힌 값)."),
    "help.solve.variant": (
        "Solve the variant with this number (as printed on a worksheet), regenerated exactly as grade does.",
        "이 번호의 변형(활동지에 찍힌 번호)을 grade와 똑같이 다시 만들어 풉니다.",
    ),
    "help.solve.large": (
        "With --format json: allow a demonstration beyond the hand-sized limits (up to 512 tokens and d 512), written problem by problem.",
        "--format json과 함께: 손계산 한도를 넘는 시연용 문제를 허용합니다 (토큰 512개, d 512까지). 문제마다 이어서 씁니다.",
    ),
    "help.solve.format": (
        "How to print: a table in the terminal, or every problem as json or markdown.",
        "출력 형식: 터미널의 표, 또는 모든 문제를 json이나 markdown으로.",
    ),
    "help.random": (
        "A fresh practice problem made from a seed (the same as generate makes from that seed).",
        "시드로 만든 새 연습 문제 (같은 시드의 generate와 같은 문제).",
    ),
    "help.random.tokens": ("With --random: how many tokens (default 3).", "--random과 함께: 토큰 수 (기본값 3)."),
    "help.random.dim": ("With --random: d_k (default 2).", "--random과 함께: d_k (기본값 2)."),
    "help.random.seed": (
        "With --random: the seed (default: a new one, shown so you can replay it).",
        "--random과 함께: 시드 (기본값: 새 시드. 다시 풀 수 있게 보여 줍니다).",
    ),
    "help.random.causal": (
        "With --random: a causal mask (each token sees only itself and earlier ones).",
        "--random과 함께: 인과 마스크 (각 토큰은 자신과 앞 토큰만 봅니다).",
    ),
    "help.list.format": ("A table, or json.", "표 또는 json."),
    "help.show.name": ("The packaged set's name (default: ch13).", "내장 세트 이름 (기본값: ch13)."),
    "help.validate.files": (
        "Problem-set YAML files to check, or packaged sets' names; answer files (YAML with student: or answers:, or CSV) are checked as grade reads them.",
        "검사할 문제 세트 YAML 파일 또는 내장 세트 이름. 답안 파일(student:나 answers:가 있는 YAML, 또는 CSV)은 grade가 읽는 대로 검사합니다.",
    ),
    "help.quiz.exam": (
        "Exam mode: no feedback until the end; errors carried forward.",
        "시험 모드: 끝날 때까지 피드백 없음, 앞 단계의 값으로 이어 채점.",
    ),
    "help.follow_through": (
        "Credit for a cell right from the student's own earlier numbers.",
        "앞 단계에서 학생이 구한 값으로 맞게 계산한 칸에 줄 점수.",
    ),
    "help.quiz.report": ("Write the marks as JSON to this file.", "채점 결과를 이 파일에 JSON으로 저장합니다."),
    "help.quiz.student": ("The student's name, for the report.", "보고서에 적을 학생 이름."),
    "help.quiz.force": ("Overwrite the --report file if it exists.", "--report 파일이 있으면 덮어씁니다."),
    "help.grade.paths": (
        "Answer files (.yaml, .yml, .csv), directories searched for them, or a live session (a .sqlite file serve made, a postgresql:// URL).",
        "답안 파일(.yaml, .yml, .csv), 그 파일을 찾을 디렉터리, 또는 라이브 세션(serve가 만든 .sqlite 파일, postgresql:// URL).",
    ),
    "help.grade.problems": (
        "Problem set for every answer (a file or a packaged name); overrides the files'.",
        "모든 답안에 쓸 문제 세트 (파일 또는 내장 이름). 답안 파일에 적힌 것보다 우선합니다.",
    ),
    "help.grade.csv": ("Write the gradebook to this CSV file.", "성적표를 이 CSV 파일에 저장합니다."),
    "help.grade.json": ("Write every student's full report to this JSON file.", "학생별 전체 보고서를 이 JSON 파일에 저장합니다."),
    "help.grade.name_column": (
        "The CSV column holding the student's name (default: student, name, 이름 or 성명).",
        "CSV에서 학생 이름이 있는 열 (기본값: student, name, 이름, 성명 중 하나).",
    ),
    "help.validate.problems": (
        "The problem set answer files are checked against (default: the one each names).",
        "답안 파일을 확인할 문제 세트 (기본값: 각 파일이 적은 세트).",
    ),
    "help.grade.variant_column": (
        "The CSV column holding the variant number (default: variant, 변형 or 변형 번호).",
        "CSV에서 변형 번호가 있는 열 (기본값: variant, 변형, 변형 번호 중 하나).",
    ),
    "help.grade.jobs": (
        "Worker processes (default: every CPU this process may use).",
        "작업 프로세스 수 (기본값: 이 프로세스가 쓸 수 있는 모든 CPU).",
    ),
    "help.grade.roster": (
        "The class list exported from Canvas or Moodle: match every student to it.",
        "Canvas나 Moodle에서 내보낸 학생 명단: 모든 학생을 명단과 대조합니다.",
    ),
    "help.grade.csv_layout": (
        "--csv as the full gradebook, or as Canvas's or Moodle's grade import (needs --roster).",
        "--csv를 전체 성적표로, 또는 Canvas나 Moodle의 성적 가져오기 형식으로 씁니다 (--roster 필요).",
    ),
    "help.grade.assignment": (
        "The LMS grade column's name (default: the roster's only one).",
        "LMS 성적 열의 이름 (기본값: 명단에 성적 열이 하나뿐이면 그 열).",
    ),
    "help.grade.match": (
        "A CSV (student,id) or YAML file mapping answer-file students to roster IDs, to settle conflicts.",
        "답안 파일의 학생을 명단 ID에 짝짓는 CSV(student,id) 또는 YAML 파일 (충돌을 풀 때).",
    ),
    "help.grade.out_of": (
        "Scale LMS grades to this many points (Canvas: by default the roster's Points Possible).",
        "LMS 성적을 이 만점으로 환산합니다 (Canvas: 기본값은 명단의 Points Possible).",
    ),
    "help.grade.feedback": (
        "Write a hand-back sheet per student into this directory.",
        "학생마다 채점 결과지를 이 디렉터리에 저장합니다.",
    ),
    "help.grade.feedback_format": ("The hand-back sheets' format: html or pdf.", "채점 결과지 형식: html 또는 pdf."),
    "help.grade.class_report": (
        "Write the class at a glance (charts) to this HTML file.",
        "학급 전체를 한눈에 보는 보고서(그래프)를 이 HTML 파일에 저장합니다.",
    ),
    "help.grade.force": ("Overwrite the output files if they exist.", "출력 파일이 있으면 덮어씁니다."),
    "help.output": ("Write to this file (default: standard output).", "이 파일에 씁니다 (기본값: 표준 출력)."),
    "help.force": ("Overwrite the output file if it exists.", "출력 파일이 있으면 덮어씁니다."),
    "help.export.format": (
        "html, md, tex, pdf, moodle (Moodle XML), qti (a QTI 1.2 zip for Canvas) or page (the interactive practice page) (default: from the -o suffix, else html).",
        "html, md, tex, pdf, moodle(Moodle XML), qti(Canvas용 QTI 1.2 zip), page(대화형 연습 페이지) 중 하나 (기본값: -o 파일의 확장자, 없으면 html).",
    ),
    "help.export.key_table": (
        "Write every variant's answers as one compact table, for markers.",
        "모든 변형의 정답을 채점자용 표 하나로 씁니다.",
    ),
    "help.export.paper": ("Paper size of a pdf or tex file: a4 (default) or letter.", "pdf·tex 파일의 용지: a4(기본값) 또는 letter."),
    "help.export.answers": ("Add the answer key after the questions.", "문제 뒤에 정답을 붙입니다."),
    "help.export.key_only": ("Write the answer key alone.", "정답만 씁니다."),
    "help.export.variants": (
        "Make N versions with new numbers, one per student (needs --seed).",
        "숫자를 바꾼 N개의 변형을 학생마다 하나씩 만듭니다 (--seed 필요).",
    ),
    "help.export.seed": (
        "Seed of the variants: sheet k prints the variant number S*1000+k, which remakes it. Alone, it means --variants 1.",
        "변형의 시드: k번째 활동지에는 변형 번호 S*1000+k가 찍히고, 그 번호로 같은 활동지를 다시 만듭니다. 혼자 쓰면 --variants 1.",
    ),
    "help.export.title": ("The sheets' title (default: the set's).", "활동지 제목 (기본값: 세트의 제목)."),
    "help.generate.tokens": ("Tokens per problem.", "문제마다 토큰 수."),
    "help.generate.dim": ("d_k: the length of each q, k and v.", "d_k: q, k, v 벡터의 길이."),
    "help.generate.count": ("How many problems.", "문제 수."),
    "help.generate.seed": (
        "The same seed makes the same file, and problem 1 is quiz --random's and solve --random's problem of that seed (default: a new one, written in the file).",
        "같은 시드는 같은 파일을 만들고, 1번 문제는 그 시드의 quiz --random, solve --random 문제와 같습니다 (기본값: 새 시드, 파일에 적힘).",
    ),
    "help.generate.causal": (
        "Causal mask: each token sees only itself and earlier ones.",
        "인과 마스크: 각 토큰은 자신과 앞 토큰만 봅니다.",
    ),
    # --- loading problem sets (attn_tutor.problems.load) --------------------------------
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
    "input.fifo": (
        "is a FIFO (a named pipe), not a regular file; give a file saved on disk",
        "FIFO(이름 있는 파이프)이지 일반 파일이 아닙니다. 디스크에 저장된 파일을 주세요",
    ),
    "input.device": (
        "is a device, not a regular file; give a file saved on disk",
        "장치 파일이지 일반 파일이 아닙니다. 디스크에 저장된 파일을 주세요",
    ),
    "input.socket": (
        "is a socket, not a regular file; give a file saved on disk",
        "소켓이지 일반 파일이 아닙니다. 디스크에 저장된 파일을 주세요",
    ),
    "input.not_regular": (
        "is not a regular file; give a file saved on disk",
        "일반 파일이 아닙니다. 디스크에 저장된 파일을 주세요",
    ),
    # Links that lead to no file (helper "inputs").
    "input.dangling_link": (
        "is a link to a file that does not exist",
        "없는 파일을 가리키는 링크입니다",
    ),
    "input.link_loop": (
        "is a link that leads round in a loop, never to a file",
        "파일에 닿지 않고 맴도는 링크입니다",
    ),
    "input.too_large": (
        "the file is larger than the limit of {limit} bytes; nothing was read from it",
        "파일이 한도({limit}바이트)보다 큽니다. 아무것도 읽지 않았습니다",
    ),
    "problems.not_utf8": (
        "the file is not UTF-8 text (byte {byte} here cannot be read; was it saved as CP949/EUC-KR?); save it as UTF-8",
        "파일이 UTF-8 텍스트가 아닙니다 (이 자리의 바이트 {byte}[을] 읽을 수 없습니다. CP949/EUC-KR로 저장하지 않았나요?). UTF-8로 다시 저장하세요",
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
    # YAML syntax errors in words (attn_tutor.core.yamlread._syntax), for problem sets and answer files alike
    "yaml.colon_in_value": (
        "a second ':' here: a value that contains ': ' must be quoted (title: 'a: b'), and each key goes on a line of its own",
        "여기에 두 번째 ':'가 있습니다. ': '가 들어 있는 값은 따옴표로 감싸고(title: 'a: b'), 키는 한 줄에 하나씩 쓰세요",
    ),
    "yaml.missing_colon": (
        "'{text}' has no ':' after its key: write 'key: value' (a space after the colon)",
        "'{text}'에는 키 뒤에 ':'가 없습니다. '키: 값'처럼 쓰세요 (콜론 뒤에 공백)",
    ),
    "yaml.unclosed_quote": (
        "the quote {quote} opened here is never closed: end the text with {quote} on the same line",
        "여기서 연 따옴표 {quote}[이] 닫히지 않았습니다. 같은 줄에서 {quote}[으로] 글을 끝내세요",
    ),
    "yaml.escape": (
        "a backslash inside double quotes starts an escape such as \\n: put the text in single quotes ('C:\\dir') or write the backslash twice",
        "큰따옴표 안의 역슬래시는 \\n 같은 이스케이프의 시작입니다. 작은따옴표로 감싸거나('C:\\dir') 역슬래시를 두 번 쓰세요",
    ),
    "yaml.unclosed_bracket": (
        "the '{open}' opened at line {line}, column {column} is not closed: close it with '{close}' here",
        "{line}행 {column}열에서 연 '{open}'[이] 닫히지 않았습니다. 여기에 '{close}'[을] 써서 닫으세요",
    ),
    "yaml.flow_expected": (
        "inside the '{open}' opened at line {line}, column {column}, items are separated by ',' and it ends with '{close}'; this is neither",
        "{line}행 {column}열에서 연 '{open}' 안에서는 항목을 ','로 구분하고 '{close}'[으로] 끝냅니다. 여기는 둘 다 아닙니다",
    ),
    "yaml.reserved_character": (
        "a YAML value cannot start with '{char}': put the value in quotes",
        "YAML에서는 값을 '{char}'[으로] 시작할 수 없습니다. 값을 따옴표로 감싸세요",
    ),
    "yaml.undefined_alias": (
        "'*{name}' refers to an anchor '&{name}' that is not defined above; to write '*' itself, put the value in quotes",
        "'*{name}'[은] 위에 없는 앵커 '&{name}'[을] 가리킵니다. '*' 글자 자체를 쓰려면 값을 따옴표로 감싸세요",
    ),
    "yaml.bad_anchor": (
        "'{char}' here must be followed by a name (an anchor or an alias); to write '{char}' itself, put the value in quotes",
        "여기의 '{char}' 뒤에는 이름(앵커나 별칭)이 와야 합니다. '{char}' 글자 자체를 쓰려면 값을 따옴표로 감싸세요",
    ),
    "yaml.block_scalar": (
        "only a comment may follow '{char}' on its line: write the text on the lines below, indented, or put it in quotes",
        "'{char}' 뒤에는 같은 줄에 주석만 올 수 있습니다. 글은 아래 줄에 들여 써서 쓰거나 따옴표로 감싸세요",
    ),
    "yaml.directive": (
        "a line starting with '%' is a YAML directive: put the value in quotes",
        "'%'로 시작하는 줄은 YAML 지시문입니다. 값을 따옴표로 감싸세요",
    ),
    "yaml.after_value": (
        "'{text}' follows a value already complete on this line: delete it, or put the whole value in quotes",
        "이 줄에서 이미 끝난 값 뒤에 '{text}'[이] 있습니다. 지우거나 값 전체를 따옴표로 감싸세요",
    ),
    "yaml.indentation_list": (
        "this line's indentation does not fit the list that starts at line {line}, column {column}: start each item with '- ' at that column and indent its keys alike",
        "이 줄의 들여쓰기가 {line}행 {column}열에서 시작하는 목록과 맞지 않습니다. 항목마다 그 열에서 '- '로 시작하고, 항목의 키는 똑같이 들여 쓰세요",
    ),
    "yaml.indentation_mapping": (
        "this line's indentation does not fit the mapping that starts at line {line}, column {column}: the keys of one mapping start at one column, and '-' needs a space after it",
        "이 줄의 들여쓰기가 {line}행 {column}열에서 시작하는 매핑과 맞지 않습니다. 한 매핑의 키는 같은 열에서 시작하고, '-' 뒤에는 공백이 있어야 합니다",
    ),
    "yaml.dash_space": (
        "'-' starts a list item only with a space after it: write '- {text}'",
        "'-' 뒤에 공백이 있어야 목록의 항목이 됩니다. '- {text}'처럼 쓰세요",
    ),
    "yaml.multiple_documents": (
        "a second YAML document starts here ('---'): an answer file holds one student's answers; delete the '---' line or split the file",
        "여기서 두 번째 YAML 문서('---')가 시작됩니다. 답안 파일 하나에는 학생 한 명의 답만 씁니다. '---' 줄을 지우거나 파일을 나누세요",
    ),
    "problems.multiple_documents": (
        "a second YAML document starts here ('---'); put every problem in the one 'problems:' list",
        "여기서 두 번째 YAML 문서('---')가 시작됩니다. 모든 문제를 하나의 'problems:' 목록에 넣으세요",
    ),
    "problems.alias": (
        "'*{name}' repeats the value anchored as '&{name}'; anchors and aliases are not allowed in problem sets, so write the values out in full",
        "'*{name}'[은] '&{name}'[으로] 표시한 값을 되풀이하는 별칭입니다. 문제 세트에서는 앵커와 별칭을 쓸 수 없으니 값을 모두 직접 쓰세요",
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
        "{path}[이] 두 번 나옵니다 (처음은 {first_line}행). YAML은 마지막 것만 조용히 남기므로 하나를 지우세요",
    ),
    "problems.bad_key": (
        "a key in {path} is a list or a mapping; keys must be plain names",
        "{path}에 목록이나 매핑으로 된 키가 있습니다. 키는 이름이어야 합니다",
    ),
    "problems.unknown_key": (
        "{path} is not a known key; the keys allowed here are: {allowed}",
        "{path}[은] 알 수 없는 키입니다. 여기서 쓸 수 있는 키: {allowed}",
    ),
    "problems.unknown_key_suggest": (
        "{path} is not a known key; did you mean '{suggestion}'?",
        "{path}[은] 알 수 없는 키입니다. '{suggestion}'[을] 쓰려던 것인가요?",
    ),
    "problems.key_not_in_head": (
        "{path}: '{field}' belongs to the problem, not to a head (every head shares it)",
        "{path}: '{field}'[은] 헤드가 아니라 문제에 씁니다 (모든 헤드가 함께 씁니다)",
    ),
    "problems.missing_key": ("{path} is missing '{field}'", "{path}에 '{field}'[이] 없습니다"),
    "problems.expected_mapping": (
        "{path} must be a mapping of keys to values, e.g. lines like 'id: a'",
        "{path}[은] 키와 값의 매핑이어야 합니다 (예: 'id: a' 같은 줄)",
    ),
    "problems.expected_list": (
        "{path} must be a list, e.g. [a, b] or lines starting with '- '",
        "{path}[은] 목록이어야 합니다 (예: [a, b] 또는 '- '로 시작하는 줄)",
    ),
    "problems.expected_text": (
        "{path} must be a single value, not a list or a mapping",
        "{path}[은] 목록이나 매핑이 아닌 하나의 값이어야 합니다",
    ),
    "problems.empty_list": (
        "{path} is empty; give at least one entry",
        "{path}[이] 비어 있습니다. 항목을 하나 이상 쓰세요",
    ),
    "problems.empty_text": ("{path} is empty", "{path}[이] 비어 있습니다"),
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
        "id '{id}'[이] 두 번 쓰였습니다 (처음은 {first_line}행). 문제마다 id가 달라야 합니다",
    ),
    "problems.duplicate_token": (
        "{path}: '{token}' appears twice (entries {first} and {second}); tokens must be unique, so tell repeats apart, e.g. '{token}1' and '{token}2'",
        "{path}: '{token}'[이] 두 번 나옵니다 ({first}번째와 {second}번째). 토큰은 서로 달라야 하니 '{token}1', '{token}2'처럼 구별하세요",
    ),
    "problems.duplicate_entry": (
        "{path}: '{value}' is listed twice",
        "{path}: '{value}'[이] 두 번 나옵니다",
    ),
    # Matrices.
    "problems.expected_matrix": (
        "{path} must be a list of rows, each a list of numbers, e.g. [[1, 0], [0, 1]]",
        "{path}[은] 행의 목록이어야 하고, 각 행은 숫자의 목록입니다 (예: [[1, 0], [0, 1]])",
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
        "{path}의 {row}행 {col}번째 값 {text}[은] 숫자가 아닙니다",
    ),
    "problems.entry_boolean": (
        "{path} row {row}, entry {col} is {text}, which YAML reads as true/false, not a number; write a number such as 1 or 0",
        "{path}의 {row}행 {col}번째 값 {text}[은] YAML에서 참/거짓으로 읽혀 숫자가 아닙니다. 1이나 0 같은 숫자로 쓰세요",
    ),
    "problems.entry_quoted": (
        "{path} row {row}, entry {col} is {text}, which is text, not a number; write numbers without quotes",
        "{path}의 {row}행 {col}번째 값 {text}[은] 텍스트로 적혀 있어 숫자가 아닙니다. 숫자는 따옴표 없이 쓰세요",
    ),
    "problems.entry_not_finite": (
        "{path} row {row}, entry {col} is {text}, which is not a finite number; write an ordinary number",
        "{path}의 {row}행 {col}번째 값 {text}[은] 유한한 수가 아닙니다. 보통의 수를 쓰세요",
    ),
    "problems.entry_too_large": (
        "{path} row {row}, entry {col} is {text}; entries must lie between -1000000 and 1000000 (a hand-sized limit)",
        "{path}의 {row}행 {col}번째 값 {text}[이] 너무 큽니다. 값은 -1000000과 1000000 사이여야 합니다 (손계산 한도)",
    ),
    "problems.entry_decimals": (
        "{path} row {row}, entry {col} is {text}; entries have at most 4 decimal places (a hand-sized limit)",
        "{path}의 {row}행 {col}번째 값 {text}[은] 소수점 아래가 너무 깁니다. 값은 소수점 아래 4자리까지입니다 (손계산 한도)",
    ),
    "problems.matrix_too_large": (
        "{path} is {rows} × {cols}; a matrix has at most {max_rows} rows and {max_cols} numbers per row (hand-sized limits)",
        "{path}[은] {rows} × {cols}입니다. 행렬은 최대 {max_rows}행, 한 행에 수 {max_cols}개까지입니다 (손계산 한도)",
    ),
    "problems.too_many_tokens": (
        "{path} has {count} tokens; at most {limit} are allowed (a hand-sized limit)",
        "{path}에 토큰이 {count}개 있습니다. 최대 {limit}개까지입니다 (손계산 한도)",
    ),
    "problems.too_many_heads": (
        "{path} has {count} heads; at most {limit} are allowed (a hand-sized limit)",
        "{path}에 헤드가 {count}개 있습니다. 최대 {limit}개까지입니다 (손계산 한도)",
    ),
    "problems.too_many_problems": (
        "{path} has {count} problems; at most {limit} are allowed in one set (a hand-sized limit)",
        "{path}에 문제가 {count}개 있습니다. 한 세트에 최대 {limit}개까지입니다 (손계산 한도)",
    ),
    "problems.too_many_cells": (
        "{path} has {count} score cells in all (heads × tokens × key tokens, summed); at most {limit} are allowed "
        "in one set (a hand-sized limit); split the set",
        "{path}의 스코어 칸이 모두 {count}개입니다 (헤드 × 토큰 × Key 토큰의 합). 한 세트에 최대 {limit}개까지입니다 "
        "(손계산 한도). 세트를 나누세요",
    ),
    # which limit a size is past: solve --large's own (_large), or the hand-sized one --large lifts (_lifted)
    "problems.too_many_tokens_large": (
        "{path} has {count} tokens; at most {limit} are allowed, even with --large",
        "{path}에 토큰이 {count}개 있습니다. --large로도 최대 {limit}개까지입니다",
    ),
    "problems.too_many_tokens_lifted": (
        "{path} has {count} tokens; at most {limit} are allowed (a hand-sized limit); solve --format json --large works up to {large}",
        "{path}에 토큰이 {count}개 있습니다. 최대 {limit}개까지입니다 (손계산 한도). solve --format json --large로는 {large}개까지 풀 수 있습니다",
    ),
    "problems.too_many_heads_large": (
        "{path} has {count} heads; at most {limit} are allowed, even with --large",
        "{path}에 헤드가 {count}개 있습니다. --large로도 최대 {limit}개까지입니다",
    ),
    "problems.too_many_heads_lifted": (
        "{path} has {count} heads; at most {limit} are allowed (a hand-sized limit); solve --format json --large works up to {large}",
        "{path}에 헤드가 {count}개 있습니다. 최대 {limit}개까지입니다 (손계산 한도). solve --format json --large로는 {large}개까지 풀 수 있습니다",
    ),
    "problems.too_many_problems_large": (
        "{path} has {count} problems; at most {limit} are allowed in one set, even with --large",
        "{path}에 문제가 {count}개 있습니다. --large로도 한 세트에 최대 {limit}개까지입니다",
    ),
    "problems.too_many_problems_lifted": (
        "{path} has {count} problems; at most {limit} are allowed in one set (a hand-sized limit); solve --format json --large works up to {large}",
        "{path}에 문제가 {count}개 있습니다. 한 세트에 최대 {limit}개까지입니다 (손계산 한도). solve --format json --large로는 {large}개까지 풀 수 있습니다",
    ),
    "problems.too_many_cells_large": (
        "{path} has {count} score cells in all (heads × tokens × key tokens, summed); at most {limit} are allowed "
        "in one set, even with --large; split the set",
        "{path}의 스코어 칸이 모두 {count}개입니다 (헤드 × 토큰 × Key 토큰의 합). --large로도 한 세트에 최대 {limit}개까지입니다. "
        "세트를 나누세요",
    ),
    "problems.too_many_cells_lifted": (
        "{path} has {count} score cells in all (heads × tokens × key tokens, summed); at most {limit} are allowed "
        "in one set (a hand-sized limit); split the set, or solve --format json --large works up to {large}",
        "{path}의 스코어 칸이 모두 {count}개입니다 (헤드 × 토큰 × Key 토큰의 합). 한 세트에 최대 {limit}개까지입니다 "
        "(손계산 한도). 세트를 나누거나, solve --format json --large로 {large}개까지 풀 수 있습니다",
    ),
    "problems.matrix_too_large_large": (
        "{path} is {rows} × {cols}; a matrix has at most {max_rows} rows and {max_cols} numbers per row, even with --large",
        "{path}[은] {rows} × {cols}입니다. --large로도 행렬은 최대 {max_rows}행, 한 행에 수 {max_cols}개까지입니다",
    ),
    "problems.matrix_too_large_lifted": (
        "{path} is {rows} × {cols}; a matrix has at most {max_rows} rows and {max_cols} numbers per row (hand-sized limits); "
        "solve --format json --large works up to {large_rows} rows and {large_cols} numbers per row",
        "{path}[은] {rows} × {cols}입니다. 행렬은 최대 {max_rows}행, 한 행에 수 {max_cols}개까지입니다 (손계산 한도). "
        "solve --format json --large로는 {large_rows}행, 한 행에 {large_cols}개까지 풀 수 있습니다",
    ),
    "problems.file_too_large_large": (
        "the file is larger than the limit of {limit} bytes, even with --large; nothing was read from it",
        "파일이 한도({limit}바이트)보다 큽니다. --large로도 이 이상은 읽지 않습니다. 아무것도 읽지 않았습니다",
    ),
    "problems.file_too_large_lifted": (
        "the file is larger than the limit of {limit} bytes (a hand-sized limit); nothing was read from it; "
        "solve --format json --large reads up to {large} bytes",
        "파일이 한도({limit}바이트)보다 큽니다 (손계산 한도). 아무것도 읽지 않았습니다. "
        "solve --format json --large로는 {large}바이트까지 읽습니다",
    ),
    # the limit sentences' forms for a student's hand-back sheet: the limit, without the teacher's way round it
    "problems.too_many_tokens_large.sheet": (
        "{path} has {count} tokens; at most {limit} are allowed",
        "{path}에 토큰이 {count}개 있습니다. 최대 {limit}개까지입니다",
    ),
    "problems.too_many_tokens_lifted.sheet": (
        "{path} has {count} tokens; at most {limit} are allowed",
        "{path}에 토큰이 {count}개 있습니다. 최대 {limit}개까지입니다",
    ),
    "problems.too_many_heads_large.sheet": (
        "{path} has {count} heads; at most {limit} are allowed",
        "{path}에 헤드가 {count}개 있습니다. 최대 {limit}개까지입니다",
    ),
    "problems.too_many_heads_lifted.sheet": (
        "{path} has {count} heads; at most {limit} are allowed",
        "{path}에 헤드가 {count}개 있습니다. 최대 {limit}개까지입니다",
    ),
    "problems.too_many_problems_large.sheet": (
        "{path} has {count} problems; at most {limit} are allowed in one set",
        "{path}에 문제가 {count}개 있습니다. 한 세트에 최대 {limit}개까지입니다",
    ),
    "problems.too_many_problems_lifted.sheet": (
        "{path} has {count} problems; at most {limit} are allowed in one set",
        "{path}에 문제가 {count}개 있습니다. 한 세트에 최대 {limit}개까지입니다",
    ),
    "problems.too_many_cells_large.sheet": (
        "{path} has {count} score cells in all (heads × tokens × key tokens, summed); at most {limit} are allowed in one set",
        "{path}의 스코어 칸이 모두 {count}개입니다 (헤드 × 토큰 × Key 토큰의 합). 한 세트에 최대 {limit}개까지입니다",
    ),
    "problems.too_many_cells_lifted.sheet": (
        "{path} has {count} score cells in all (heads × tokens × key tokens, summed); at most {limit} are allowed in one set",
        "{path}의 스코어 칸이 모두 {count}개입니다 (헤드 × 토큰 × Key 토큰의 합). 한 세트에 최대 {limit}개까지입니다",
    ),
    "problems.matrix_too_large_large.sheet": (
        "{path} is {rows} × {cols}; a matrix has at most {max_rows} rows and {max_cols} numbers per row",
        "{path}[은] {rows} × {cols}입니다. 행렬은 최대 {max_rows}행, 한 행에 수 {max_cols}개까지입니다",
    ),
    "problems.matrix_too_large_lifted.sheet": (
        "{path} is {rows} × {cols}; a matrix has at most {max_rows} rows and {max_cols} numbers per row",
        "{path}[은] {rows} × {cols}입니다. 행렬은 최대 {max_rows}행, 한 행에 수 {max_cols}개까지입니다",
    ),
    "problems.file_too_large_large.sheet": (
        "the file is larger than the limit of {limit} bytes; nothing was read from it",
        "파일이 한도({limit}바이트)보다 큽니다. 아무것도 읽지 않았습니다",
    ),
    "problems.file_too_large_lifted.sheet": (
        "the file is larger than the limit of {limit} bytes; nothing was read from it",
        "파일이 한도({limit}바이트)보다 큽니다. 아무것도 읽지 않았습니다",
    ),
    "problems.unsafe_character": (
        "{path} holds an invisible or control character ({char}, character {position}); delete it",
        "{path}에 보이지 않는 문자나 제어 문자({char}, {position}번째 글자)가 있습니다. 지우세요",
    ),
    "problems.text_too_long": (
        "{path} is {count} characters long; at most {limit} are allowed",
        "{path}의 길이가 {count}자입니다. 최대 {limit}자까지입니다",
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
        "{path}에 {direct}[과] {projected}[이] 함께 있습니다. Q, K, V를 직접 주거나 X를 투영할 W_Q, W_K, W_V를 주거나, 둘 중 하나만 쓰세요",
    ),
    "problems.needs_x": (
        "{path} uses W_Q and W_K, which project X, but it has no X; add X (one row per token)",
        "{path}[은] X를 투영하는 W_Q, W_K를 쓰지만 X가 없습니다. X를 쓰세요 (토큰마다 한 행)",
    ),
    "problems.unused_x": (
        "{path} is given, but Q, K, V are given directly, so X is not used; remove X or give W_Q, W_K, W_V instead",
        "{path}[이] 있지만 Q, K, V를 직접 주었기 때문에 X는 쓰이지 않습니다. X를 지우거나 대신 W_Q, W_K, W_V를 쓰세요",
    ),
    "problems.heads_and_matrices": (
        "{path}: with 'heads:', put {field} inside each head, not beside 'heads:'",
        "{path}: 'heads:'를 쓸 때는 {field}[을] 'heads:' 옆이 아니라 각 헤드 안에 쓰세요",
    ),
    "problems.values_partial": (
        "{path}: some heads have values (V or W_V) and some do not; give values to every head or to none",
        "{path}: 값(V 또는 W_V)이 있는 헤드와 없는 헤드가 섞여 있습니다. 모든 헤드에 값을 주거나 모두 빼세요",
    ),
    # Options.
    "problems.divide_by": (
        "{path} must be sqrt_d or a positive number from 1e-15 to 1e15 (1 means unscaled), but it is {text}",
        "{path}[은] sqrt_d이거나 1e-15 이상 1e15 이하의 양수여야 합니다 (1이면 나누지 않습니다). 지금 값: {text}",
    ),
    "problems.mask_word": (
        "{path} must be none, causal or a 0/1 matrix, but it is {text}",
        "{path}[은] none, causal 또는 0/1 행렬이어야 합니다. 지금 값: {text}",
    ),
    "problems.mask_rows": (
        "{path} needs one row per query token ({expected}), but it has {count}",
        "{path}에는 Query 토큰마다 한 행씩 {expected}개의 행이 있어야 하는데 {count}개가 있습니다",
    ),
    "problems.mask_row_length": (
        "{path} row {row} needs one entry per key token ({expected}), but it has {count}",
        "{path}의 {row}행에는 Key 토큰마다 값이 하나씩 {expected}개 있어야 하는데 {count}개가 있습니다",
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
        "{path}: '{token}'[은] Query 토큰이 아닙니다 (토큰: {tokens})",
    ),
    "problems.unknown_row_suggest": (
        "{path}: '{token}' is not one of the query tokens; did you mean '{suggestion}'?",
        "{path}: '{token}'[은] Query 토큰이 아닙니다. '{suggestion}'[을] 쓰려던 것인가요?",
    ),
    "problems.unknown_stage": (
        "{path}: '{stage}' is not a stage; the stages are scores, scaled, weights (or softmax) and output",
        "{path}: '{stage}'[은] 단계 이름이 아닙니다. 단계는 scores, scaled, weights(또는 softmax), output입니다",
    ),
    "problems.unknown_stage_suggest": (
        "{path}: '{stage}' is not a stage; did you mean '{suggestion}'?",
        "{path}: '{stage}'[은] 단계 이름이 아닙니다. '{suggestion}'[을] 쓰려던 것인가요?",
    ),
    "problems.output_without_values": (
        "{path} asks for output, but the problem has no V (or W_V), so it stops at the weights",
        "{path}에서 output을 묻지만 이 문제에는 V(또는 W_V)가 없어 가중치에서 끝납니다",
    ),
    # Concept items (concepts: beside problems:), read by attn_tutor.problems.concept_fields.
    "problems.too_many_concepts": (
        "concepts has {count} items; a set may have at most {limit}",
        "concepts에 문항이 {count}개 있습니다. 한 세트에 최대 {limit}개까지입니다",
    ),
    "problems.concept_key_for_kind": (
        "{path}: '{field}' is not used by a {kind} item; its keys are: {allowed}",
        "{path}: '{field}'[은] {kind} 문항에 쓰지 않는 키입니다. 쓸 수 있는 키: {allowed}",
    ),
    "problems.concept_id": (
        "{path}: '{id}' is not a usable id; use lowercase letters, digits and -, e.g. why-scale",
        "{path}: '{id}'[은] 쓸 수 없는 id입니다. 영문 소문자, 숫자, -만 쓰세요 (예: why-scale)",
    ),
    "problems.duplicate_concept_id": (
        "the concept id '{id}' is used twice (first on line {first_line}); every item needs its own id",
        "개념 문항 id '{id}'[이] 두 번 쓰였습니다 (처음은 {first_line}행). 문항마다 id가 달라야 합니다",
    ),
    "problems.concept_kind": (
        "{path}: '{value}' is not a kind of item; use one of: {allowed}",
        "{path}: '{value}'[은] 문항 종류가 아닙니다. 다음 중 하나를 쓰세요: {allowed}",
    ),
    "problems.concept_kind_suggest": (
        "{path}: '{value}' is not a kind of item; did you mean '{suggestion}'?",
        "{path}: '{value}'[은] 문항 종류가 아닙니다. '{suggestion}'[을] 쓰려던 것인가요?",
    ),
    "problems.concept_flag": (
        "{path} is '{text}'; write true or false",
        "{path} 값이 '{text}'입니다. true 또는 false로 쓰세요",
    ),
    "problems.concept_option_count": (
        "{path} has {count} options; a choice item has {least} to {most}",
        "{path}에 선택지가 {count}개 있습니다. 선택 문항의 선택지는 {least}~{most}개입니다",
    ),
    "problems.concept_no_feedback": (
        "{path} (option {option}) is wrong but has no feedback; say in a sentence which misconception choosing it reveals",
        "{path}({option}번째 선택지)는 오답인데 feedback이 없습니다. 이 선택지를 고르면 드러나는 오해를 한 문장으로 쓰세요",
    ),
    "problems.concept_same_option": (
        "{path}: options {first} and {second} have the same text; every option must differ",
        "{path}: {first}번째와 {second}번째 선택지의 글이 같습니다. 선택지는 모두 달라야 합니다",
    ),
    "problems.concept_no_right": (
        "{path} has no right option; mark at least one with right: true",
        "{path}에 정답 선택지가 없습니다. 적어도 하나에 right: true를 쓰세요",
    ),
    "problems.concept_one_right": (
        "{path} has {count} right options; exactly one must be right: true, or write several: true for an item with several",
        "{path}에 정답 선택지가 {count}개 있습니다. 정확히 하나만 right: true여야 합니다. 정답이 여럿인 문항이면 several: true를 쓰세요",
    ),
    "problems.concept_ask": (
        "{path}: '{value}' is not something a computed item can ask; use one of: {allowed}",
        "{path}: '{value}'[은] 계산 문항이 물을 수 있는 것이 아닙니다. 다음 중 하나를 쓰세요: {allowed}",
    ),
    "problems.concept_ask_suggest": (
        "{path}: '{value}' is not something a computed item can ask; did you mean '{suggestion}'?",
        "{path}: '{value}'[은] 계산 문항이 물을 수 있는 것이 아닙니다. '{suggestion}'[을] 쓰려던 것인가요?",
    ),
    "problems.concept_problem": (
        "{path}: no problem has the id '{id}'; the set's problems are: {ids}",
        "{path}: id가 '{id}'인 문제가 없습니다. 세트의 문제: {ids}",
    ),
    "problems.concept_problem_suggest": (
        "{path}: no problem has the id '{id}'; did you mean '{suggestion}'?",
        "{path}: id가 '{id}'인 문제가 없습니다. '{suggestion}'[을] 쓰려던 것인가요?",
    ),
    "problems.concept_multi_head": (
        "{path}: problem '{id}' has several heads; a computed item works from a problem with one head",
        "{path}: 문제 '{id}'에는 헤드가 여럿입니다. 계산 문항은 헤드가 하나인 문제로 만듭니다",
    ),
    "problems.concept_needs_row": (
        "{path} asks {ask}, which is about one query row; add row: with one of the problem's query tokens",
        "{path}[은] Query 토큰 한 행에 대한 {ask}[을] 묻습니다. row:에 그 문제의 Query 토큰 하나를 쓰세요",
    ),
    "problems.concept_no_row": (
        "{path}: {ask} chooses among the problem's rows, so it takes no row:; delete it",
        "{path}: {ask}[은] 문제의 행들 가운데서 고르므로 row:를 쓰지 않습니다. 지우세요",
    ),
    "problems.concept_step_count": (
        "{path} has {count} steps; an order item has {least} to {most}",
        "{path}에 단계가 {count}개 있습니다. 순서 문항의 단계는 {least}~{most}개입니다",
    ),
    "problems.concept_tie": (
        "{path}: in problem '{problem}' the answer is a tie ({tied}, equal at the problem's {decimals} decimals); choose a row or a problem with one clear answer",
        "{path}: 문제 '{problem}'에서 답이 동률입니다 ({tied}, 문제의 소수 {decimals}자리에서 같음). 답이 하나로 분명한 행이나 문제를 고르세요",
    ),
    # Concept items as shown and marked (attn_tutor.solve.concepts, attn_tutor.marking.concepts).
    "concepts.unscaled.sharper": ("sharper: the largest weight grows", "더 뾰족해진다: 가장 큰 가중치가 커진다"),
    "concepts.unscaled.flatter": ("flatter: the weights even out", "더 평평해진다: 가중치가 고르게 된다"),
    "concepts.unscaled.unchanged": ("unchanged", "그대로다"),
    "concepts.worked.weights": (
        "The weights of '{row}': {pairs}.",
        "'{row}'의 가중치: {pairs}.",
    ),
    "concepts.worked.rows": (
        "Each row's largest weight: {pairs}.",
        "행마다 가장 큰 가중치: {pairs}.",
    ),
    "concepts.worked.unscaled": (
        "The largest weight of '{row}' is {before} with ÷√d and {after} without.",
        "'{row}'의 가장 큰 가중치는 ÷√d를 하면 {before}, 하지 않으면 {after}입니다.",
    ),
    "concepts.feedback.computed": (
        "{chosen}: {chosen_number}, but {right}: {right_number}",
        "{chosen}[은] {chosen_number}, {right}[은] {right_number}입니다",
    ),
    "concepts.answer_unreadable": (
        "answer with the option's letter ({first} to {last}) or its number (1 to {count})",
        "선택지의 글자({first}~{last})나 번호(1~{count})로 답하세요",
    ),
    "concepts.answer_one": (
        "choose one option: its letter ({first} to {last}) or its number",
        "선택지 하나를 고르세요: 글자({first}~{last})나 번호로",
    ),
    "concepts.answer_repeated": (
        "an option is named twice; name each option you choose once",
        "같은 선택지를 두 번 썼습니다. 고르는 선택지를 한 번씩만 쓰세요",
    ),
    "concepts.answer_order": (
        "give all {count} labels ({first} to {last}) once each, first step first, e.g. C A D B",
        "{count}개의 글자({first}~{last})를 한 번씩, 첫 단계부터 차례로 쓰세요 (예: C A D B)",
    ),
    "concepts.order_wrong": (
        "not this order; the right order is {answer}",
        "이 순서가 아닙니다. 맞는 순서는 {answer}입니다",
    ),
    "concepts.several_missed": (
        "also right: {labels}",
        "정답이 더 있습니다: {labels}",
    ),
    "concepts.heading": ("Concept items", "개념 문항"),
    "concepts.several_note": ("Several options are right: choose every one.", "정답이 여럿입니다. 맞는 것을 모두 고르세요."),
    "concepts.order_note": (
        "Put the steps in order: write their letters, first step first (e.g. C A D B).",
        "단계를 순서대로 놓으세요. 첫 단계부터 글자를 차례로 쓰세요 (예: C A D B).",
    ),
    "concepts.answer_line": ("Answer: {answer}", "정답: {answer}"),
    "concepts.answer_order_line": ("Answer, in order: {answer}", "정답 순서: {answer}"),
    "concepts.answer_tied": (
        "Answer: {answer} (these numbers tie: each is right)",
        "정답: {answer} (이 수치에서는 동률이라 모두 정답입니다)",
    ),
    "concepts.solve_more": (
        "--all shows the set's {count} concept items too, with their answers",
        "--all이면 세트의 개념 문항 {count}개도 정답과 함께 보여 줍니다",
    ),
    "problems.decimals": (
        "{path} must be a whole number from 0 to 10, but it is {text}",
        "{path}[은] 0부터 10까지의 정수여야 합니다. 지금 값: {text}",
    ),
    "problems.tolerance": (
        "{path} must be a number greater than 0 and at most 1, but it is {text}",
        "{path}[은] 0보다 크고 1 이하인 수여야 합니다. 지금 값: {text}",
    ),
    # fair: a tolerance tighter than the printed answer (attn_tutor.problems.load)
    "problems.tolerance_below_half": (
        "{path} is {text}, less than half a unit in the last of decimals: {decimals} places ({half}), so a student who types the answer exactly as printed would be marked wrong; leave tolerance out to use the default that fits decimals, or make it at least {half}",
        "{path}[은] decimals: {decimals}자리의 마지막 자리 반 단위({half})보다 작은 {text}입니다. 이대로면 인쇄된 답을 그대로 쓴 학생도 오답 처리됩니다. tolerance를 빼서 decimals에 맞춘 기본값을 쓰거나 {half} 이상으로 하세요",
    ),
    "problems.tolerance_tight": (
        "problem {id}: tolerance {tolerance} is tighter than decimals: {decimals} allows (rounding as asked and carrying the rounded numbers moves the {stage} by up to {needed}), so answers worked correctly may be marked wrong; leave tolerance out to use the default that fits decimals, or raise it",
        "문제 {id}: tolerance {tolerance}[은] decimals: {decimals}에 비해 너무 작습니다 (요구대로 반올림한 값을 이어 쓰면 {stage}[이] 최대 {needed}까지 달라집니다). 바르게 계산한 답도 오답이 될 수 있으니, tolerance를 빼서 decimals에 맞춘 기본값을 쓰거나 더 크게 하세요",
    ),
    # --- solve (attn_tutor.solve.layout, attn_tutor.render) ------------------------
    "solve.variant_title": ("{title} — variant {variant}", "{title} — 변형 {variant}"),
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
    "solve.scaled": ("(b) Scaled scores S / {divisor}", "(b) 스케일된 스코어 S / {divisor}"),
    "solve.scaled_note": ("divided by {divisor}", "{divisor}[으로] 나눔"),
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
    "solve.bars": ("Where {token} looks", "‘{token}’ 행의 시선"),
    "solve.explain": ("Worked arithmetic for {token}", "‘{token}’ 행의 계산 과정"),
    "solve.approx_note": (
        "≈ : the result is worked from the unrounded values, so the rounded numbers shown need not add up to its last digit.",
        "≈ : 결과는 반올림하기 전의 값으로 계산했으므로, 보이는 반올림된 숫자로 계산하면 마지막 자리가 다를 수 있습니다.",
    ),
    "solve.explain_stage.projection": ("projection", "투영"),
    "solve.explain_stage.scores": ("scores", "스코어"),
    "solve.explain_stage.scaled": ("scaling", "스케일링"),
    "solve.explain_stage.weights": ("softmax", "Softmax"),
    "solve.explain_stage.output": ("output", "출력"),
    "solve.no_values": (
        "This problem gives no V, so it stops at the weights.",
        "이 문제는 V가 없어 가중치에서 끝납니다.",
    ),
    "solve.cross": ("Cross-attention: the keys and values belong to {keys}.", "교차 어텐션: Key와 Value의 토큰은 {keys}입니다."),
    "solve.causal": ("Causal mask: each token sees only itself and the tokens before it.", "인과 마스크: 각 토큰은 자신과 앞의 토큰만 봅니다."),
    "solve.matrix_mask": ("Mask: a query sees only the keys marked 1.", "마스크: 각 Query는 1로 표시된 Key만 봅니다."),
    "solve.overview": ("The set's other {count} problems", "이 세트의 다른 문제 {count}개"),
    "solve.overview_one": ("The set's other problem", "이 세트의 다른 문제 1개"),
    "solve.overview_all": ("Every problem at once: {command}", "모든 문제를 한 번에: {command}"),
    "solve.seed": ("Random problem, seed {seed}. Make it again with:\n  {command}", "무작위 문제, 시드 {seed}. 다시 만들려면:\n  {command}"),
    "solve.random_and_variant": (
        "--variant remakes a printed sheet of a problem set; --random makes a new problem: use one or the other",
        "--variant는 문제 세트의 인쇄된 변형을 다시 만들고, --random은 새 문제를 만듭니다. 둘 중 하나만 쓰세요",
    ),
    "solve.random_and_all": (
        "--random makes one problem: leave out --all",
        "--random은 문제를 하나 만듭니다: --all은 빼세요",
    ),
    # --- quiz (attn_tutor.marking.answers, attn_tutor.marking.marker, attn_tutor.quiz.loop) -------------
    # answers (attn_tutor.marking.answers): {text} is the offending text as typed, {pos} its 1-based character
    "answers.too_long": (
        "the answer is {length} characters long; at most {limit} are read",
        "답이 {length}자입니다. 최대 {limit}자까지만 읽습니다",
    ),
    "answers.empty": (
        "nothing to read: type the row's numbers separated by spaces or commas",
        "읽을 내용이 없습니다. 행의 숫자를 공백이나 쉼표로 구분해 입력하세요",
    ),
    "answers.wrong_count": (
        "this row has {expected} numbers, but the answer has {given} (read as {read})",
        "이 행의 숫자는 {expected}개인데 답은 {given}개입니다 (읽은 값: {read})",
    ),
    "answers.bad_character": (
        "could not read '{text}' at character {pos}: this character is not part of a number or a formula",
        "{pos}번째 글자 '{text}'[을] 읽을 수 없습니다: 숫자나 식에 쓰는 글자가 아닙니다",
    ),
    "answers.hangul": (
        "could not read '{text}' at character {pos}: it is Korean text; switch the keyboard to English (한/영 key) to type numbers and formulas",
        "{pos}번째 글자의 '{text}'[을] 읽을 수 없습니다: 한글입니다. 한/영 키로 영문 입력으로 바꿔 숫자와 식을 입력하세요",
    ),
    "answers.unknown_word": (
        "could not read '{text}' at character {pos}: only numbers, + - * / ^ ( ) %, sqrt, √, exp and e are understood",
        "{pos}번째 글자의 '{text}'[을] 읽을 수 없습니다: 숫자, + - * / ^ ( ) %, sqrt, √, exp, e만 쓸 수 있습니다",
    ),
    "answers.not_finite_word": (
        "could not read '{text}' at character {pos}: an answer must be a finite number",
        "{pos}번째 글자의 '{text}'[을] 읽을 수 없습니다: 답은 유한한 숫자여야 합니다",
    ),
    "answers.bad_number": (
        "could not read '{text}' at character {pos}: this is not a number",
        "{pos}번째 글자의 '{text}'[을] 읽을 수 없습니다: 숫자가 아닙니다",
    ),
    "answers.two_points": (
        "could not read '{text}' at character {pos}: a number has two decimal points",
        "{pos}번째 글자의 '{text}'[을] 읽을 수 없습니다: 한 숫자에 소수점이 두 개 있습니다",
    ),
    "answers.number_too_large": (
        "could not read '{text}' at character {pos}: the number is too large",
        "{pos}번째 글자의 '{text}'[을] 읽을 수 없습니다: 숫자가 너무 큽니다",
    ),
    "answers.too_deep": (
        "could not read '{text}' at character {pos}: more than {limit} levels of nesting",
        "{pos}번째 글자의 '{text}'[을] 읽을 수 없습니다: {limit}단계보다 깊게 겹쳐 있습니다",
    ),
    "answers.unopened": (
        "could not read '{text}' at character {pos}: there is no opening bracket for it to close",
        "{pos}번째 글자의 '{text}'[을] 읽을 수 없습니다: 짝이 되는 여는 괄호가 없습니다",
    ),
    "answers.unclosed": (
        "could not read '{text}' at character {pos}: this bracket is never closed",
        "{pos}번째 글자의 '{text}'[을] 읽을 수 없습니다: 이 괄호가 닫히지 않았습니다",
    ),
    "answers.mismatched": (
        "could not read '{text}' at character {pos}: it does not match the '{open}' at character {open_pos}",
        "{pos}번째 글자의 '{text}'[을] 읽을 수 없습니다: {open_pos}번째 글자의 '{open}'[과] 짝이 맞지 않습니다",
    ),
    "answers.square_bracket": (
        "could not read '{text}' at character {pos}: square brackets may only surround the whole row; use ( ) in a formula",
        "{pos}번째 글자의 '{text}'[을] 읽을 수 없습니다: 대괄호는 행 전체를 감쌀 때만 씁니다. 식 안에서는 ( )를 쓰세요",
    ),
    "answers.expected_close": (
        "could not read '{text}' at character {pos}: expected ')' to close the '(' at character {open_pos}",
        "{pos}번째 글자의 '{text}'[을] 읽을 수 없습니다: {open_pos}번째 글자의 '('를 닫는 ')'가 와야 합니다",
    ),
    "answers.empty_cell": (
        "could not read '{text}' at character {pos}: there is no number before this comma",
        "{pos}번째 글자의 '{text}'[을] 읽을 수 없습니다: 이 쉼표 앞에 숫자가 없습니다",
    ),
    "answers.implicit_multiplication": (
        "could not read '{text}' at character {pos}: write * to multiply (for example 2*sqrt(2)), or a space or comma between two numbers",
        "{pos}번째 글자의 '{text}'[을] 읽을 수 없습니다: 곱하려면 *를 쓰고(예: 2*sqrt(2)), 두 숫자 사이에는 공백이나 쉼표를 넣으세요",
    ),
    "answers.unexpected": (
        "could not read '{text}' at character {pos}: it cannot follow what comes before it",
        "{pos}번째 글자의 '{text}'[을] 읽을 수 없습니다: 앞의 내용 뒤에 올 수 없습니다",
    ),
    "answers.missing_number": (
        "the answer ends too early: a number is missing after '{text}' at character {pos}",
        "답이 너무 일찍 끝납니다: {pos}번째 글자의 '{text}' 뒤에 숫자가 없습니다",
    ),
    "answers.expected_number": (
        "could not read '{text}' at character {pos}: expected a number here",
        "{pos}번째 글자의 '{text}'[을] 읽을 수 없습니다: 여기에는 숫자가 와야 합니다",
    ),
    "answers.division_by_zero": (
        "could not compute '{text}' at character {pos}: division by zero",
        "{pos}번째 글자부터의 '{text}'[을] 계산할 수 없습니다: 0으로 나눕니다",
    ),
    "answers.sqrt_negative": (
        "could not compute '{text}' at character {pos}: the square root of a negative number",
        "{pos}번째 글자부터의 '{text}'[을] 계산할 수 없습니다: 음수의 제곱근입니다",
    ),
    "answers.negative_power": (
        "could not compute '{text}' at character {pos}: a negative number to a fractional power",
        "{pos}번째 글자부터의 '{text}'[을] 계산할 수 없습니다: 음수의 분수 거듭제곱입니다",
    ),
    "answers.exponent_too_large": (
        "could not compute '{text}' at character {pos}: the exponent {exponent} is larger than {limit}",
        "{pos}번째 글자부터의 '{text}'[을] 계산할 수 없습니다: 지수 {exponent}[이] {limit}보다 큽니다",
    ),
    "answers.too_large": (
        "could not compute '{text}' at character {pos}: the result would be larger than {limit}",
        "{pos}번째 글자부터의 '{text}'[을] 계산할 수 없습니다: 결과가 {limit}보다 커집니다",
    ),
    "grading.verdict.correct": ("correct", "정답"),
    "grading.verdict.follow_through": ("follow-through", "이어 계산 인정"),
    "grading.verdict.partial": ("partly right", "일부 정답"),
    "grading.verdict.wrong": ("wrong", "오답"),
    "grading.verdict.missing": ("no answer", "답 없음"),
    "grading.diagnosis.not_scaled": (
        "You did not divide by √d: these are the scores themselves.",
        "√d로 나누지 않았습니다: 스코어를 그대로 적었습니다.",
    ),
    "grading.diagnosis.divided_by_d": (
        "You divided by d instead of √d.",
        "√d 대신 d로 나누었습니다.",
    ),
    "grading.diagnosis.no_exp": (
        "You divided the scaled scores by their sum without taking e^x first.",
        "e^x를 구하지 않고 스케일된 스코어를 그 합으로 나누었습니다.",
    ),
    "grading.diagnosis.not_normalized": (
        "These are e^x of the scaled scores: divide each by the row's sum of e^x.",
        "스케일된 스코어의 e^x입니다: 각각을 행의 e^x 합으로 나누세요.",
    ),
    "grading.diagnosis.skipped_scaling": (
        "This is the softmax of the unscaled scores: divide by √d before the softmax.",
        "스케일링하지 않은 스코어의 Softmax입니다: Softmax 전에 √d로 나누세요.",
    ),
    "grading.diagnosis.column_softmax": (
        "You normalised down each column; the softmax runs along the row (each row sums to 1).",
        "열 방향으로 정규화했습니다. Softmax는 행을 따라 합니다 (각 행의 합 = 1).",
    ),
    "grading.diagnosis.transposed_scores": (
        "Query and key are swapped (this is a column of S): use this token's q with each key's k.",
        "Query와 Key가 뒤바뀌었습니다 (S의 열): 이 토큰의 q와 각 Key의 k를 내적하세요.",
    ),
    "grading.diagnosis.used_keys": (
        "You mixed the keys: the output is weights·V, not weights·K.",
        "Key를 섞었습니다: 출력은 가중치·K가 아니라 가중치·V입니다.",
    ),
    "grading.diagnosis.ignored_mask": (
        "You took the softmax over masked keys too: a masked key gets weight 0, and the sum of e^x runs only over the keys this token may see.",
        "마스크된 Key까지 Softmax에 넣었습니다: 마스크된 Key의 가중치는 0이고, e^x의 합은 이 토큰이 볼 수 있는 Key만 더합니다.",
    ),
    "grading.diagnosis.rounding": (
        "Rounded too soon: keep more decimals in the earlier steps.",
        "너무 일찍 반올림했습니다: 앞 단계에서 소수 자릿수를 더 남기세요.",
    ),
    "grading.rounding.divisor": (
        "Rounded too soon: you divided by {divisor} rounded to {places} ({rounded}). Keep {divisor} to at least {keep}.",
        "너무 일찍 반올림했습니다: {divisor}[을] {places}[으로] 반올림한 {rounded}[으로] 나누었습니다. {divisor}[은] {keep} 이상 남기세요.",
    ),
    "grading.rounding.previous": (
        "Rounded too soon: you worked from the {stage} rounded to {places}. Keep at least {keep} in them.",
        "너무 일찍 반올림했습니다: {stage}[을] {places}[으로] 반올림해서 계산했습니다. {keep} 이상 남기세요.",
    ),
    "grading.rounding.exps": (
        "Rounded too soon: you rounded each e^x to {places} before adding and dividing. Keep at least {keep}.",
        "너무 일찍 반올림했습니다: e^x를 각각 {places}[으로] 반올림한 뒤 더하고 나누었습니다. {keep} 이상 남기세요.",
    ),
    "grading.rounding.sum": (
        "Rounded too soon: you rounded the sum of e^x to {places} before dividing. Keep at least {keep}.",
        "너무 일찍 반올림했습니다: e^x의 합을 {places}[으로] 반올림한 뒤 나누었습니다. {keep} 이상 남기세요.",
    ),
    # fair: practice mode's note on a right row that shows early rounding (quiz, page)
    "quiz.early_rounding_note": (
        "Marked right (within the tolerance), but the numbers show a habit to fix. {sentence}",
        "허용 오차 안이라 정답으로 처리했지만, 고칠 습관이 보입니다. {sentence}",
    ),
    "grading.places": ("{n} decimal places", "소수 {n}자리"),
    "grading.places_0": ("whole numbers", "정수"),
    "grading.places_1": ("1 decimal place", "소수 1자리"),
    "grading.rounded_stage.scores": ("scores", "스코어"),
    "grading.rounded_stage.scaled": ("scaled scores", "스케일된 스코어"),
    "grading.rounded_stage.weights": ("weights", "가중치"),
    "grading.diagnosis_name.not_scaled": ("not divided by √d", "√d로 안 나눔"),
    "grading.diagnosis_name.divided_by_d": ("divided by d", "d로 나눔"),
    "grading.diagnosis_name.no_exp": ("no e^x", "e^x 빠짐"),
    "grading.diagnosis_name.not_normalized": ("not normalised", "정규화 안 함"),
    "grading.diagnosis_name.skipped_scaling": ("softmax of unscaled scores", "스케일링 없이 Softmax"),
    "grading.diagnosis_name.column_softmax": ("softmax down a column", "열 방향 Softmax"),
    "grading.diagnosis_name.transposed_scores": ("query and key swapped", "Query와 Key가 뒤바뀜"),
    "grading.diagnosis_name.used_keys": ("mixed K, not V", "V 대신 K를 섞음"),
    "grading.diagnosis_name.ignored_mask": ("mask ignored", "마스크 무시"),
    "grading.diagnosis_name.rounding": ("rounded too soon", "너무 이른 반올림"),
    "quiz.intro.practice": (
        "Practice: type each row on one line, numbers separated by spaces or commas (3/4, 6/1.414, e^0.71/88.5 and 78.6% work too). ? shows a hint, q stops. After each stage you see which cells are right and the exact row.",
        "연습: 각 행을 한 줄에 입력하세요. 숫자는 공백이나 쉼표로 구분합니다 (3/4, 6/1.414, e^0.71/88.5, 78.6%도 됩니다). ?는 힌트, q는 종료. 단계마다 어느 칸이 맞았는지와 정답 행을 보여 줍니다.",
    ),
    "quiz.intro.exam": (
        "Exam: type each row on one line, numbers separated by spaces or commas. ? shows a hint (hints are counted), q stops. Nothing is marked until the end, and each stage is marked against your own earlier numbers.",
        "시험: 각 행을 한 줄에 입력하세요. 숫자는 공백이나 쉼표로 구분합니다. ?는 힌트(횟수가 기록됨), q는 종료. 채점은 끝에 한 번에 하며, 각 단계는 앞 단계에서 구한 본인 값을 기준으로도 채점합니다.",
    ),
    "quiz.prompt": ("> ", "> "),
    "quiz.row": ("Row {token}", "‘{token}’ 행"),
    "quiz.ask": (
        "Type the {token} row: {count} numbers, one per key ({cells}).",
        "‘{token}’ 행을 입력하세요: Key마다 하나씩 숫자 {count}개 ({cells}).",
    ),
    "quiz.ask_output": (
        "Type the output of {token}: {count} numbers (components {cells}).",
        "‘{token}’ 행의 출력을 입력하세요: 숫자 {count}개 (성분 {cells}).",
    ),
    "quiz.ask_decimals": (
        "Round to {decimals} decimal places.",
        "소수점 아래 {decimals}자리까지 반올림하세요.",
    ),
    "quiz.progress": ("question {n} of {total}", "{total}문제 중 {n}번째"),
    "quiz.ask_masked": (
        "Masked cells (—) may be left out, or typed as any number (0 for a weight).",
        "마스크된 칸(—)은 빼고 입력해도 되고, 아무 숫자나 적어도 됩니다 (가중치는 0).",
    ),
    "quiz.wrong_count": ("type {expected} numbers here; got {given}", "여기에는 숫자 {expected}개를 입력하세요 (입력한 숫자: {given}개)"),
    "quiz.wrong_count_masked": (
        "type {expected} numbers here (or {open} without the masked cells); got {given}",
        "여기에는 숫자 {expected}개(마스크된 칸을 빼면 {open}개)를 입력하세요 (입력한 숫자: {given}개)",
    ),
    "quiz.again": ("Try again (? for a hint, q to stop).", "다시 입력하세요 (? 힌트, q 종료)."),
    "quiz.empty": (
        "Type the row's numbers on one line (? for a hint, q to stop).",
        "행의 숫자를 한 줄에 입력하세요 (? 힌트, q 종료).",
    ),
    "quiz.hint.scores": (
        "Hint: score = q({token})·k — multiply q by each key's k component by component and add.",
        "힌트: 스코어 = q({token})·k — q와 각 Key의 k를 성분끼리 곱해서 더하세요.",
    ),
    "quiz.hint.scaled": (
        "Hint: scaled score = score / {divisor}, for each key of the {token} row.",
        "힌트: 스케일된 스코어 = 스코어 / {divisor} (‘{token}’ 행의 Key마다).",
    ),
    "quiz.hint.weights": (
        "Hint: weight = e^x / (the sum of e^x over the row), x being the scaled scores of the {token} row.",
        "힌트: 가중치 = e^x / (행의 e^x 합). x는 ‘{token}’ 행의 스케일된 스코어입니다.",
    ),
    "quiz.hint.output": (
        "Hint: output of {token} = the sum over keys of weight × v (each key's value vector).",
        "힌트: ‘{token}’ 행의 출력 = Key마다 가중치 × v (그 Key의 Value 벡터)를 모두 더한 것.",
    ),
    "quiz.hint.cell": ("Hint: cell {n} ({label}), worked out:", "힌트: {n}번 칸 ({label})의 계산:"),
    "quiz.hint.cell_own": (
        "Hint: cell {n} ({label}), worked out from your own previous row:",
        "힌트: {n}번 칸 ({label})의 계산 (앞 단계에서 입력한 본인 값으로):",
    ),
    "quiz.hint.no_more": (
        "No more hints for this row: every cell has been worked out. Type the row (q to stop).",
        "이 행의 힌트는 더 없습니다: 모든 칸의 계산을 보여 드렸습니다. 행을 입력하세요 (q 종료).",
    ),
    "quiz.verdict": ("{verdict} — {points} / 1", "{verdict} — {points} / 1점"),
    "quiz.cell_off": ("cell {n} ({label}): {given} — expected {expected}", "{n}번 칸 ({label}): {given} — 정답 {expected}"),
    "quiz.cell_follow": (
        "cell {n} ({label}): {given} — right from your own previous row ({carried}); exact {expected}",
        "{n}번 칸 ({label}): {given} — 앞 단계 본인 값으로는 맞음 ({carried}), 정답 {expected}",
    ),
    "quiz.go_on": ("Go on from the exact row below.", "아래 정답 행에서 이어 가세요."),
    "quiz.summary.title": ("Summary", "결과"),
    "quiz.summary.mistakes": ("What went wrong", "틀린 이유"),
    "quiz.stage.scores": ("scores", "스코어"),
    "quiz.stage.scaled": ("scaled", "스케일된 스코어"),
    "quiz.stage.weights": ("weights", "가중치"),
    "quiz.stage.output": ("output", "출력"),
    "quiz.stage.choice": ("concept item", "개념 문항"),  # a concept item's column in the gradebook (concepts/<id>)
    "quiz.summary.problem": ("problem", "문제"),
    "quiz.summary.row": ("row", "행"),
    "quiz.summary.stage": ("stage", "단계"),
    "quiz.summary.verdict": ("verdict", "판정"),
    "quiz.summary.off": ("cells off", "틀린 칸"),
    "quiz.summary.hints": ("hints", "힌트"),
    "quiz.summary.points": ("points", "점수"),
    # The quiz's concept items (attn_tutor.quiz.loop).
    "quiz.concept_ask.one": ("Type the letter (or the number) of your choice.", "고른 선택지의 글자(또는 번호)를 쓰세요."),
    "quiz.concept_ask.several": (
        "Several options are right: type every letter you choose, e.g. A, C.",
        "정답이 여럿입니다. 고른 글자를 모두 쓰세요 (예: A, C).",
    ),
    "quiz.concept_ask.order": (
        "Type the letters in order, first step first, e.g. C A D B.",
        "첫 단계부터 글자를 차례로 쓰세요 (예: C A D B).",
    ),
    "quiz.concept_no_hint": (
        "a concept item has no hint; reread the stem and the options (q stops)",
        "개념 문항에는 힌트가 없습니다. 질문과 선택지를 다시 읽어 보세요 (q: 그만)",
    ),
    "quiz.concept_right": ("Right: {answer}.", "정답입니다: {answer}."),
    "quiz.concept_wrong": ("Not right: you chose {chosen}; the answer is {answer}.", "틀렸습니다: {chosen}[을] 골랐고, 정답은 {answer}입니다."),
    "quiz.summary.concepts": ("Concept items", "개념 문항"),
    "quiz.summary.concept": ("item", "문항"),
    "quiz.summary.chosen": ("chosen", "고른 답"),
    "quiz.summary.answer": ("answer", "정답"),
    "quiz.summary.misconceptions": ("What the wrong choices reveal", "오답이 드러내는 오해"),
    "quiz.score": ("Score: {score} / {max}", "점수: {score} / {max}"),
    "quiz.stopped.quit": (
        "Stopped after {asked} of {total} questions. Score so far: {score} / {max}",
        "{total}문제 중 {asked}번째에서 멈췄습니다. 지금까지 점수: {score} / {max}",
    ),
    "quiz.stopped.eof": (
        "Input ended after {asked} of {total} questions. Score so far: {score} / {max}",
        "{total}문제 중 {asked}번째에서 입력이 끝났습니다. 지금까지 점수: {score} / {max}",
    ),
    "quiz.stopped.quit_one": (
        "Stopped before the only question. Score so far: {score} / {max}",
        "하나뿐인 문제에서 멈췄습니다. 지금까지 점수: {score} / {max}",
    ),
    "quiz.stopped.eof_one": (
        "Input ended before the only question was answered. Score so far: {score} / {max}",
        "하나뿐인 문제에 답하기 전에 입력이 끝났습니다. 지금까지 점수: {score} / {max}",
    ),
    "quiz.stopped.interrupt_one": (
        "Interrupted before the only question was answered. Score so far: {score} / {max}",
        "하나뿐인 문제에 답하기 전에 중단되었습니다. 지금까지 점수: {score} / {max}",
    ),
    "quiz.stopped.interrupt": (
        "Interrupted after {asked} of {total} questions. Score so far: {score} / {max}",
        "{total}문제 중 {asked}번째에서 중단되었습니다. 지금까지 점수: {score} / {max}",
    ),
    "quiz.seed": ("Random problem, seed {seed}. Replay it with:", "무작위 문제, 시드 {seed}. 다시 풀려면:"),
    "quiz.report_written": ("Report written to {path}", "보고서를 {path}에 저장했습니다"),
    "quiz.random_only": (
        "--tokens, --dim, --seed and --causal go with --random",
        "--tokens, --dim, --seed, --causal은 --random과 함께 쓰세요",
    ),
    "quiz.random_and_file": (
        "--random makes its own problem: leave out FILE and --problem",
        "--random은 문제를 새로 만듭니다: FILE과 --problem은 빼세요",
    ),
    # fair: variants pairwise distinct (attn_tutor.variants.generate)
    "generate.too_few_variants": (
        "problem {id} has only {count} variants that are fair and differ from each other in their numbers and in every asked stage's answers (each of the next {attempts} sheets drawn repeated one); ask for at most {count} variants, or give the problem a wider range of numbers",
        "문제 {id}에서 공정하면서 숫자와 요구한 모든 단계의 답이 서로 다른 변형은 {count}개뿐입니다 (이어서 뽑은 활동지 {attempts}장이 모두 앞의 것과 겹쳤습니다). 변형을 {count}개 이하로 요청하거나 문제의 숫자 범위를 넓히세요",
    ),
    "generate.variant_numbers_ran_out": (
        "seed {seed} gives only {count} variants that are fair and differ from each other in their numbers and in every asked stage's answers: {skipped} of its {numbers} variant numbers repeated an earlier sheet, most often in problem {id}; ask for at most {count} variants, or give problem {id} a wider range of numbers",
        "시드 {seed}에서 공정하면서 숫자와 요구한 모든 단계의 답이 서로 다른 변형은 {count}개뿐입니다: 변형 번호 {numbers}개 중 {skipped}개가 앞의 활동지와 겹쳤고, 가장 많이 겹친 것은 문제 {id}입니다. 변형을 {count}개 이하로 요청하거나 문제 {id}의 숫자 범위를 넓히세요",
    ),
    "generate.no_fair_variant": (
        "could not make variant {seed} of problem {id} fair in {attempts} draws (numbers from the problem's own ranges, e^x in its band, no answer on a rounding tie, no weights that round to one-hot, every mistake still visible); give the problem a wider range of numbers or fewer asked decimals, or use another --seed",
        "문제 {id}의 변형 {seed}[을] {attempts}번 뽑아도 공정하게 만들 수 없었습니다 (원래 문제의 숫자 범위, 비슷한 e^x 크기, 반올림 경계에 걸리지 않는 답, 원-핫으로 반올림되지 않는 가중치, 드러나는 실수). 문제의 숫자 범위를 넓히거나 소수 자릿수를 줄이거나, 다른 --seed를 쓰세요",
    ),
    "generate.bad_seed": (
        "the seed must be a whole number from 0 to {most}, not {seed}",
        "시드는 0부터 {most}까지의 정수여야 합니다 ({seed}[은] 쓸 수 없습니다)",
    ),
    "generate.bad_tokens": (
        "the number of tokens must be from 1 to {most}, not {tokens}",
        "토큰 수는 1부터 {most}까지여야 합니다 ({tokens}[은] 쓸 수 없습니다)",
    ),
    "generate.bad_dim": (
        "the dimension must be from 1 to {most}, not {dim}",
        "차원은 1부터 {most}까지여야 합니다 ({dim}[은] 쓸 수 없습니다)",
    ),
    # --- grade (attn_tutor.gradebook) ----------------------------------------------
    "grade.in_item": ("{item}: {message}", "{item}: {message}"),
    "grade.problem_set_error": (
        "cannot load the problem set '{name}': {message}",
        "문제 세트 '{name}'[을] 불러올 수 없습니다: {message}",
    ),
    "grade.problem_set_outside": (
        "problem_set '{name}' is neither a packaged set nor a file under {directory}, so it was not used "
        "and nothing was marked; mark the class with --problems SET, or keep the set in this directory",
        "problem_set '{name}'[은] 내장 세트도 아니고 {directory} 아래의 파일도 아니어서 쓰지 않았고, 채점하지 않았습니다. "
        "--problems SET으로 채점하거나 문제 세트를 이 디렉터리에 두세요",
    ),
    "grade.problem_set_overridden": (
        "this answer names the problem set '{name}', but it was marked against --problems {used}",
        "이 답안은 문제 세트 '{name}'[을] 적었지만 --problems {used}[으로] 채점했습니다",
    ),
    "grade.problem_set_invalid": (
        "the problem set '{name}' this answer names is not a valid problem set, so nothing was marked; "
        "attn-tutor validate {name} lists what is wrong",
        "이 답안이 적은 문제 세트 '{name}'[은] 올바른 문제 세트가 아니어서 채점하지 않았습니다. "
        "attn-tutor validate {name}[으로] 무엇이 잘못됐는지 보세요",
    ),
    # What a student's hand-back sheet says instead (helper "inputs"): no path of the teacher's, no option or command.
    "grade.problem_set_outside.sheet": (
        "problem_set '{name}' is not a set your teacher uses, so nothing was marked",
        "problem_set '{name}'[은] 선생님이 쓰는 세트가 아니어서 채점하지 않았습니다",
    ),
    "grade.problem_set_overridden.sheet": (
        "this answer names the problem set '{name}', but it was marked against the set your teacher chose",
        "이 답안은 문제 세트 '{name}'[을] 적었지만 선생님이 고른 세트로 채점했습니다",
    ),
    "grade.problem_set_invalid.sheet": (
        "the problem set this answer names is not a valid problem set, so nothing was marked",
        "이 답안이 적은 문제 세트가 올바른 문제 세트가 아니어서 채점하지 않았습니다",
    ),
    "grade.problem_set_error.sheet": (
        "the problem set could not be loaded, so nothing was marked",
        "문제 세트를 불러올 수 없어서 채점하지 않았습니다",
    ),
    "grade.broken_problem_set.sheet": (
        "this file has 'problems:' and no 'student:' or 'answers:'; an answer file writes its answers under 'answers:'",
        "이 파일에는 'problems:'가 있고 'student:'와 'answers:'가 없습니다. 답안 파일은 답을 'answers:' 아래에 씁니다",
    ),
    "grade.internal_error.sheet": (
        "this file could not be marked; your teacher has been told why",
        "이 파일은 채점하지 못했습니다. 선생님께 이유가 전달되었습니다",
    ),
    "grade.problem_set_missing": (
        "the problem set '{name}' this answer names does not exist (packaged sets: {sets}), so nothing was marked",
        "이 답안이 적은 문제 세트 '{name}'[이] 없어서 (내장 세트: {sets}) 채점하지 않았습니다",
    ),
    "grade.sets_used": (
        "the students were marked against {count} different problem sets:",
        "학생들이 서로 다른 문제 세트 {count}개로 채점되었습니다:",
    ),
    "grade.set_students": ("{name}: {students}", "{name}: {students}"),
    "grade.csv_needs_problems": (
        "{path} has no problem_set column; say which set marks it with --problems SET (for example --problems ch13)",
        "{path}에 problem_set 열이 없습니다. --problems SET으로 채점할 세트를 정하세요 (예: --problems ch13)",
    ),
    "grade.duplicate_student": (
        "the student '{student}' appears more than once: {places}",
        "학생 '{student}'[이] 여러 번 나옵니다: {places}",
    ),
    "grade.csv_line_break": (
        "the cell in column {column} runs over {lines} lines (to line {last}); a form never writes a line break "
        "there, so a quote is probably not closed",
        "{column}번째 열의 칸이 {lines}줄에 걸쳐 있습니다 ({last}행까지). 양식은 그 자리에 줄바꿈을 쓰지 않으므로 "
        "따옴표가 닫히지 않은 것 같습니다",
    ),
    # Files under a graded folder that are not marked, each named with why (helper "inputs").
    "grade.left_out.problem_set": (
        "not marked: {path} (a problem set, not an answer file)",
        "채점하지 않음: {path} (답안 파일이 아니라 문제 세트입니다)",
    ),
    "grade.left_out.gradebook": (
        "not marked: {path} (a gradebook attn-tutor wrote, not answers)",
        "채점하지 않음: {path} (답안이 아니라 attn-tutor가 쓴 성적표입니다)",
    ),
    "grade.left_out.hidden": (
        "not marked: {path} (hidden: its name starts with a dot)",
        "채점하지 않음: {path} (이름이 점(.)으로 시작하는 숨김 항목입니다)",
    ),
    "grade.left_out.not_answers": (
        "not marked: {path} (not a .yaml, .yml or .csv file)",
        "채점하지 않음: {path} (.yaml, .yml, .csv 파일이 아닙니다)",
    ),
    "grade.left_out.folder_link": (
        "not marked: {path} (a link to a folder, not followed; name the folder itself to grade it)",
        "채점하지 않음: {path} (폴더로 가는 링크라서 따라가지 않았습니다. 채점하려면 그 폴더를 직접 주세요)",
    ),
    "grade.left_out.unreadable_folder": (
        "not marked: {path} (a folder that cannot be read: {reason})",
        "채점하지 않음: {path} (읽을 수 없는 폴더입니다: {reason})",
    ),
    "grade.no_students": (
        "no student's answers were found: every file was left out (each is named below)",
        "학생 답안을 찾지 못했습니다. 모든 파일을 채점하지 않았습니다 (아래에 각 파일이 있습니다)",
    ),
    "grade.left_out.same_file": (
        "not marked again: {path} (the same file as {first}, marked once)",
        "다시 채점하지 않음: {path} ({first}[과] 같은 파일이라 한 번만 채점했습니다)",
    ),
    "grade.left_out.input": (
        "not marked: {path} (the {option} file of this run)",
        "채점하지 않음: {path} (이번 실행의 {option} 파일입니다)",
    ),
    # inputs-review: an empty column name given; a CSV's columns with no heading but something in them; no student's row
    "grade.empty_column_option": (
        "{option} needs a column's heading, as the CSV's first row writes it; it was given empty",
        "{option}에는 CSV 첫 행에 쓰인 열 제목을 주어야 하는데, 빈 값을 주었습니다",
    ),
    "grade.unused_blank_columns": (
        "{path}:1: not used: what is in the columns without a heading (column number {columns}); "
        "head each answer column problem/row/stage",
        "{path}:1: 쓰지 않은 열: 제목 없이 내용만 있는 열 ({columns}번째 열). 답안 열의 제목은 문제/행/단계로 쓰세요",
    ),
    "grade.left_out.no_rows": (
        "not marked: {path} (a CSV with no student's row under its header)",
        "채점하지 않음: {path} (첫 행 아래에 학생 행이 없는 CSV입니다)",
    ),
    "grade.unused_columns": (
        "{path}:1: not used: {columns} (a column is read when it is the student's name, the variant, "
        "problem_set or problem/row/stage)",
        "{path}:1: 쓰지 않은 열: {columns} (학생 이름, 변형, problem_set, 문제/행/단계 열만 읽습니다)",
    ),
    "grade.csv_no_variant_column": (
        "there is no column '{column}' (named by --variant-column); the columns are: {columns}",
        "--variant-column으로 준 '{column}' 열이 없습니다. 열: {columns}",
    ),
    "grade.problems_for_answers": (
        "'problems:' is where a problem set lists its problems; an answer file writes its answers under 'answers:'",
        "'problems:'는 문제 세트가 문제를 적는 자리입니다. 답안 파일은 답을 'answers:' 아래에 씁니다",
    ),
    "grade.broken_problem_set": (
        "this file has 'problems:' and no 'student:' or 'answers:', like a problem set, but it does not load as one, "
        "so it was read as an answer file; if it is a problem set, attn-tutor validate {file} lists what is wrong",
        "이 파일은 문제 세트처럼 'problems:'가 있고 'student:'와 'answers:'가 없지만 문제 세트로 읽히지 않아 답안 파일로 읽었습니다. "
        "문제 세트라면 attn-tutor validate {file}로 무엇이 잘못됐는지 보세요",
    ),
    "grade.boolean": (
        "{item}: '{value}' reads as yes/no, not as a number; write the number",
        "{item}: '{value}'[은] 숫자가 아니라 예/아니오로 읽힙니다. 숫자로 쓰세요",
    ),
    "grade.not_a_number": ("{item}: each cell must be one number", "{item}: 각 칸에는 숫자 하나를 써야 합니다"),
    "grade.empty_cell": (
        "{item}: a cell is empty; write every number of the row or leave the whole answer out",
        "{item}: 빈 칸이 있습니다. 행의 숫자를 모두 쓰거나 답 전체를 비워 두세요",
    ),
    "grade.one_number": (
        "{item}: the cell '{value}' holds more than one number; write one number per cell",
        "{item}: '{value}' 칸에 숫자가 둘 이상 있습니다. 한 칸에 숫자 하나씩 쓰세요",
    ),
    "grade.bad_answer_shape": (
        "{item}: an answer must be a list of numbers or one line of text",
        "{item}: 답은 숫자 목록이거나 한 줄의 글이어야 합니다",
    ),
    "grade.not_mapping": ("{what} must be a mapping (key: value lines)", "{what}[은] '키: 값' 형태의 매핑이어야 합니다"),
    "grade.bad_key": ("{what}: a key must be plain text", "{what}: 키는 일반 글자여야 합니다"),
    "grade.duplicate_key": (
        "'{key}' appears more than once in {what}; neither copy is used",
        "{what}에 '{key}'[이] 두 번 이상 있습니다. 어느 것도 쓰지 않습니다",
    ),
    "grade.bad_yaml": ("not valid YAML: {problem}", "올바른 YAML이 아닙니다: {problem}"),
    "grade.empty_file": ("the file is empty", "파일이 비어 있습니다"),
    "grade.not_answer_file": (
        "an answer file must be a mapping with student, problem_set, variant and answers",
        "답안 파일은 student, problem_set, variant, answers를 담은 매핑이어야 합니다",
    ),
    "grade.bad_student": ("student must be a name", "student에는 이름을 써야 합니다"),
    "grade.bad_problem_set": (
        "problem_set must be a packaged set's name or a path",
        "problem_set에는 내장 세트 이름이나 파일 경로를 써야 합니다",
    ),
    "grade.bad_variant": (
        "variant must be a whole number from 0 to 2^63 − 1 written in decimal, not '{value}'",
        "variant는 0부터 2^63 − 1까지의 십진 정수여야 합니다 ('{value}'[은] 안 됩니다)",
    ),
    "grade.unknown_key": (
        "unknown key '{key}'; an answer file has: {keys}",
        "알 수 없는 키 '{key}'입니다. 답안 파일의 키: {keys}",
    ),
    # inputs-review: a misspelt top-level key of an answer file
    "grade.unknown_key_suggest": (
        "unknown key '{key}'; did you mean '{suggestion}'? An answer file has: {keys}",
        "알 수 없는 키 '{key}'입니다. '{suggestion}'[을] 쓰려던 것인가요? 답안 파일의 키: {keys}",
    ),
    "grade.bad_csv": ("not valid CSV: {problem}", "올바른 CSV가 아닙니다: {problem}"),
    "grade.csv_no_student": (
        "the first row must name the columns, one of them the student's name: student, name, 이름 or 성명 (or say which with --name-column)",
        "첫 행에는 열 이름이 있어야 하고, 그중 하나는 학생 이름 열(student, name, 이름, 성명 중 하나)이어야 합니다 (다른 이름이면 --name-column으로 알려 주세요)",
    ),
    "grade.csv_no_name_column": (
        "there is no column '{column}' (named by --name-column); the columns are: {columns}",
        "--name-column으로 준 '{column}' 열이 없습니다. 열: {columns}",
    ),
    "grade.bad_column": ("column '{column}' is not problem/row/stage", "열 '{column}'[은] 문제/행/단계 형식이 아닙니다"),
    "grade.duplicate_column": (
        "column '{column}' appears more than once; neither is used",
        "열 '{column}'[이] 두 번 이상 있습니다. 어느 것도 쓰지 않습니다",
    ),
    "grade.no_student": ("this row has no student name", "이 행에 학생 이름이 없습니다"),
    "grade.extra_cells": (
        "this row has {given} cells but the header names {expected}",
        "이 행에는 칸이 {given}개 있지만 첫 행의 열은 {expected}개입니다",
    ),
    "grade.not_utf8": ("not UTF-8 text (at byte {offset})", "UTF-8 글이 아닙니다 ({offset}번째 바이트)"),
    "grade.not_utf8_line": (
        "not UTF-8 text from this line on; save the file as UTF-8",
        "이 행부터 UTF-8 글이 아닙니다. 파일을 UTF-8로 저장하세요",
    ),
    "grade.too_large": ("the file is larger than {limit} bytes", "파일이 {limit}바이트보다 큽니다"),
    "grade.unreadable": ("cannot read the file: {reason}", "파일을 읽을 수 없습니다: {reason}"),
    "grade.progress": ("grading", "채점 중"),
    # --jobs above the CPUs this process may use (grade-flat)
    "grade.jobs_capped": (
        "--jobs {asked} is more than the {cpus} CPUs this process may use: at most {cpus} worker processes mark the class",
        "--jobs {asked}: 이 프로세스가 쓸 수 있는 CPU가 {cpus}개라서 작업 프로세스는 최대 {cpus}개만 채점합니다",
    ),
    "grade.jobs_capped_one": (
        "--jobs {asked} is more than the one CPU this process may use: the class is marked in this process alone",
        "--jobs {asked}: 이 프로세스가 쓸 수 있는 CPU가 1개라서 이 프로세스 하나로 채점합니다",
    ),
    "grade.internal_error": (
        "attn-tutor could not grade this file ({reason}); nothing in it was marked. The rest of the class was; please report this file",
        "attn-tutor가 이 파일을 채점하지 못했습니다 ({reason}). 이 파일은 채점되지 않았고 나머지 학생은 채점되었습니다. 이 파일을 알려 주세요",
    ),
    "grade.unknown_problem": (
        "{item}: no problem '{problem}' in this problem set; its problems are: {ids}",
        "{item}: 이 문제 세트에 문제 '{problem}'[이] 없습니다. 있는 문제: {ids}",
    ),
    "grade.unknown_row": (
        "{item}: problem '{problem}' does not ask for the row '{row}'; it asks: {rows}",
        "{item}: 문제 '{problem}'[은] '{row}' 행을 묻지 않습니다. 묻는 행: {rows}",
    ),
    "grade.unknown_stage": (
        "{item}: the stage '{stage}' is not asked; asked: {stages}",
        "{item}: '{stage}' 단계는 묻지 않습니다. 묻는 단계: {stages}",
    ),
    # Did-you-mean for an answer file's problem, row and stage (helper "inputs").
    "grade.unknown_problem_suggest": (
        "{item}: no problem '{problem}' in this problem set; did you mean '{suggestion}'? Its problems are: {ids}",
        "{item}: 이 문제 세트에 문제 '{problem}'[이] 없습니다. '{suggestion}'[을] 쓰려던 것인가요? 있는 문제: {ids}",
    ),
    "grade.unknown_row_suggest": (
        "{item}: problem '{problem}' does not ask for the row '{row}'; did you mean '{suggestion}'? It asks: {rows}",
        "{item}: 문제 '{problem}'[은] '{row}' 행을 묻지 않습니다. '{suggestion}'[을] 쓰려던 것인가요? 묻는 행: {rows}",
    ),
    "grade.unknown_stage_suggest": (
        "{item}: the stage '{stage}' is not asked; did you mean '{suggestion}'? Asked: {stages}",
        "{item}: '{stage}' 단계는 묻지 않습니다. '{suggestion}'[을] 쓰려던 것인가요? 묻는 단계: {stages}",
    ),
    # Concept items in answer files (concepts: {id: B}, CSV columns concepts/<id>).
    "grade.concept_not_text": (
        "{item} must be the choice's letter or number, e.g. B, or \"C A D B\" for an order",
        "{item}에는 고른 선택지의 글자나 번호를 쓰세요 (예: B, 순서 문항은 \"C A D B\")",
    ),
    "grade.concept_unreadable": (
        "{item}: '{value}' names no option; write a letter from {first} to {last} or its number",
        "{item}: '{value}'[은] 선택지가 아닙니다. {first}~{last}의 글자나 그 번호를 쓰세요",
    ),
    "grade.concept_one": (
        "{item}: '{value}' names more than one option; the item has one right option, so choose one ({first} to {last})",
        "{item}: '{value}'에 선택지가 여럿입니다. 정답이 하나인 문항이니 하나만 고르세요 ({first}~{last})",
    ),
    "grade.concept_repeated": (
        "{item}: '{value}' names an option twice; name each choice once",
        "{item}: '{value}'에 같은 선택지가 두 번 나옵니다. 한 번씩만 쓰세요",
    ),
    "grade.concept_order": (
        "{item}: '{value}' is not every label once; write all of {first} to {last} in order, e.g. \"C A D B\"",
        "{item}: '{value}'에 글자가 한 번씩 다 있지 않습니다. {first}~{last}를 모두 순서대로 쓰세요 (예: \"C A D B\")",
    ),
    "grade.concept_cell.correct": ("right: {choice}", "정답: {choice}"),
    "grade.concept_cell.wrong": ("wrong: {choice}", "오답: {choice}"),
    "grade.concept_cell.missing": ("no answer", "답 없음"),
    "grade.unknown_concept": (
        "{item}: the set has no concept item of that id; its items are: {ids}",
        "{item}: 그런 id의 개념 문항이 없습니다. 있는 문항: {ids}",
    ),
    "grade.unknown_concept_suggest": (
        "{item}: the set has no concept item of that id; did you mean '{suggestion}'?",
        "{item}: 그런 id의 개념 문항이 없습니다. '{suggestion}'[을] 쓰려던 것인가요?",
    ),
    "grade.wrong_count": (
        "{item}: {given} numbers given, {expected} expected",
        "{item}: 숫자 {expected}개가 필요한데 {given}개를 썼습니다",
    ),
    "grade.wrong_count_masked": (
        "{item}: {given} numbers given, {expected} expected (or {open} with the masked cells left out)",
        "{item}: 숫자 {expected}개(마스크된 칸을 빼면 {open}개)가 필요한데 {given}개를 썼습니다",
    ),
    "grade.no_such_path": ("{path} does not exist", "{path}[이] 없습니다"),
    "grade.no_files": ("no answer files (.yaml, .yml, .csv) found", "답안 파일(.yaml, .yml, .csv)을 찾지 못했습니다"),
    "grade.same_output": ("--csv and --json name the same file: {path}", "--csv와 --json이 같은 파일입니다: {path}"),
    "grade.outputs_clash": ("{first} and {second} name the same file: {path}", "{first}[과] {second}[이] 같은 파일입니다: {path}"),
    "grade.layout_needs_csv": ("--csv-layout {layout} needs --csv FILE", "--csv-layout {layout}에는 --csv 파일이 필요합니다"),
    "grade.roster_needs_layout": (
        "--assignment and --out-of go with --csv-layout canvas or moodle",
        "--assignment와 --out-of는 --csv-layout canvas 또는 moodle과 함께 쓰세요",
    ),
    "grade.written": ("gradebook written to {path}", "성적표를 {path}에 저장했습니다"),
    "grade.json_written": ("reports written to {path}", "채점 보고서를 {path}에 저장했습니다"),
    "grade.summary": (
        "{marked} of {total} students marked; {failed} with problems (listed above)",
        "학생 {total}명 중 {marked}명 채점, {failed}명에게 문제가 있습니다 (위 목록)",
    ),
    "grade.summary_one": (
        "{marked} of 1 student marked; {failed} with problems (listed above)",
        "학생 1명 중 {marked}명 채점, {failed}명에게 문제가 있습니다 (위 목록)",
    ),
    "grade.all_marked": ("all {total} students marked", "학생 {total}명 모두 채점했습니다"),
    "grade.all_marked_one": ("1 student marked", "학생 1명을 채점했습니다"),
    # inputs-review: a file's own problems (a CSV header's), counted apart from the students
    "grade.file_problems": (
        "{count} files with problems of their own, not of a student (listed above)",
        "학생이 아닌 파일 자체에 문제가 있는 파일 {count}개 (위 목록)",
    ),
    "grade.file_problems_one": (
        "1 file with problems of its own, not of a student (listed above)",
        "학생이 아닌 파일 자체에 문제가 있는 파일 1개 (위 목록)",
    ),
    "grade.class_title": ("Class ({count} students)", "학급 (학생 {count}명)"),
    "grade.class_title_one": ("Class (1 student)", "학급 (학생 1명)"),
    "grade.col.student": ("student", "학생"),
    "grade.col.variant": ("variant", "변형"),
    "grade.col.score": ("score", "점수"),
    "grade.col.max_score": ("of", "만점"),
    "grade.col.percent": ("%", "백분율"),
    "grade.col.errors": ("problems", "문제점"),
    "grade.col.item": ("item", "문항"),
    "grade.col.n": ("n", "학생 수"),
    "grade.col.diagnoses": ("common mistakes", "자주 한 실수"),
    "grade.verdict.correct": ("correct", "정답"),
    "grade.verdict.follow_through": ("follow", "이어 맞음"),
    "grade.verdict.partial": ("partial", "부분 정답"),
    "grade.verdict.wrong": ("wrong", "오답"),
    "grade.verdict.missing": ("missing", "무응답"),
    "grade.analysis_title": ("Item analysis: {problem}", "문항 분석: {problem}"),
    "grade.mistakes_title": ("Common mistakes: {problem}", "자주 한 실수: {problem}"),
    # itemstats: item statistics (attn_tutor.gradebook.itemstats, docs/item-statistics.md)
    "grade.stats_title": (
        "Item statistics: {problem} (D: upper vs lower 27%; r_pb: against the rest of the test)",
        "문항 통계: {problem} (D: 상위·하위 27% 비교, r_pb: 나머지 점수와의 상관)",
    ),
    "grade.col.facility": ("facility", "정답률"),
    "grade.col.discrimination": ("D", "D"),
    "grade.col.point_biserial": ("r_pb", "r_pb"),
    "grade.col.flags": ("check", "점검"),
    "grade.col.option": ("option", "선택지"),
    "grade.col.share_all": ("all", "전체"),
    "grade.col.share_upper": ("upper 27%", "상위 27%"),
    "grade.col.share_lower": ("lower 27%", "하위 27%"),
    "grade.options_title": ("Options chosen: {item}", "선택지별 응답 비율: {item}"),
    "grade.flag.negative": ("discriminates negatively: check the key", "역변별: 정답 확인 필요"),
    "grade.flag.weak": ("weak discrimination", "변별력 약함"),
    "grade.flag.hard": ("extremely hard", "매우 어려움"),
    "grade.flag.easy": ("extremely easy", "매우 쉬움"),
    "grade.flag.unused": ("chosen by no one", "아무도 고르지 않음"),
    "grade.flag.upper": ("chosen more by the upper group", "상위 집단이 더 많이 고름"),
    "grade.flag.right": ("the right answer", "정답"),
    "grade.distribution_title": ("Score distribution ({count} students)", "점수 분포 (학생 {count}명)"),
    "grade.distribution_title_one": ("Score distribution (1 student)", "점수 분포 (학생 1명)"),
    # grade --roster: a class list from an LMS (attn_tutor.classroom.roster, attn_tutor.classroom.lms_gradebook)
    "roster.bad_csv": ("the roster is not valid CSV: {problem}", "명단이 올바른 CSV가 아닙니다: {problem}"),
    "roster.empty": ("the roster is empty", "명단 파일이 비어 있습니다"),
    "roster.no_columns": (
        "the roster has no name, ID or email column; export the class list from Canvas (Grades → Export) or Moodle (Grades → Export → Plain text file)",
        "명단에 이름, 학번, 이메일 열이 없습니다. Canvas(성적 → 내보내기)나 Moodle(성적 → 내보내기 → 일반 텍스트 파일)에서 학생 명단을 내보내세요",
    ),
    "roster.unreadable": ("cannot read the roster: {reason}", "명단을 읽을 수 없습니다: {reason}"),
    "roster.bad_encoding": (
        "the roster is not text in UTF-8, UTF-16 or CP949 (EUC-KR) (byte {offset} cannot be read); save it from Excel as CSV UTF-8",
        "명단이 UTF-8, UTF-16, CP949(EUC-KR) 텍스트가 아닙니다 ({offset}번째 바이트를 읽을 수 없음). Excel에서 CSV UTF-8 형식으로 저장하세요",
    ),
    "roster.too_large": (
        "the roster is larger than {limit} bytes, far more than a class list; export only your course's students (nothing was read)",
        "명단이 {limit}바이트보다 커서 학생 명단으로 보기 어렵습니다. 내 강좌의 학생만 내보내세요 (아무것도 읽지 않았습니다)",
    ),
    "roster.is_directory": (
        "is a directory; give the class list file your LMS exported (.csv)",
        "디렉터리입니다. LMS에서 내보낸 학생 명단 파일(.csv)을 지정하세요",
    ),
    "roster.layout_needs_roster": (
        "--csv-layout {layout} needs --roster: the class list exported from the LMS",
        "--csv-layout {layout}에는 --roster(LMS에서 내보낸 학생 명단)가 필요합니다",
    ),
    "roster.canvas_needs_canvas": (
        "--csv-layout canvas needs a roster exported from Canvas (Grades → Export), whose header starts Student, ID; {file} is not one",
        "--csv-layout canvas에는 Canvas에서 내보낸 명단(성적 → 내보내기, 머리글이 Student, ID로 시작)이 필요합니다. {file}[은] 그런 파일이 아닙니다",
    ),
    "roster.no_assignment": (
        "name the grade column with --assignment NAME (the roster's grade columns: {columns})",
        "--assignment 이름으로 성적 열 이름을 정하세요 (명단의 성적 열: {columns})",
    ),
    "roster.none": ("none", "없음"),
    "roster.how.id": ("{field}", "{field}"),
    "roster.how.email": ("email", "이메일"),
    "roster.how.name": ("name", "이름"),
    "roster.how.id_in_name": ("{field} in the name", "이름 속 {field}"),
    "roster.how.email_in_name": ("email in the name", "이름 속 이메일"),
    "roster.how.match": ("--match {field}", "--match {field}"),
    "roster.match_title": ("Roster matching ({matched} of {total} answer files)", "명단 대조 (답안 {total}개 중 {matched}개)"),
    "roster.col.student": ("answer file", "답안의 학생"),
    "roster.col.entry": ("roster", "명단"),
    "roster.col.line": ("line", "줄"),
    "roster.col.how": ("matched by", "대조 기준"),
    "roster.unmatched.none": (
        "{where}: '{student}' is not in the roster {roster}",
        "{where}: '{student}'[이] 명단 {roster}에 없습니다",
    ),
    "roster.unmatched.ambiguous": (
        "{where}: '{student}' fits several roster students ({candidates}); write an ID number in the answer file, or map it to one in a --match file",
        "{where}: '{student}'에 맞는 학생이 명단에 여럿입니다 ({candidates}). 답안 파일에 학번을 적거나 --match 파일로 한 명에게 짝지으세요",
    ),
    "roster.unmatched.duplicate": (
        "{where}: '{student}' is the same roster student as {others}; keep one answer file",
        "{where}: '{student}'[은] {others}[과] 명단의 같은 학생입니다. 답안 파일을 하나만 두세요",
    ),
    # grade --roster: conflicts, the test student, a roster nobody is in, --match (roster helper)
    "roster.conflict.part": ("{entries} by {how}", "{how} 기준으로는 {entries}"),
    "roster.unmatched.conflict": (
        "{where}: '{student}' names different roster students: {parts}; neither gets a grade until you fix 'student' in the answer file or map it with --match FILE (a line 'student,id')",
        "{where}: 답안의 학생 '{student}': 가리키는 명단의 학생이 서로 다릅니다: {parts}. 답안 파일의 'student'를 고치거나 --match 파일('student,id' 줄)로 짝지을 때까지 어느 쪽에도 점수를 주지 않습니다",
    ),
    "roster.unmatched.held": (
        "{where}: '{student}' is roster student {entry}, whom {others} also names (a conflict); no grade for them until that is resolved",
        "{where}: 답안의 학생 '{student}': 명단의 {entry} 학생에 해당하지만 {others}도 이 학생을 가리킵니다(충돌). 충돌이 풀릴 때까지 점수를 주지 않습니다",
    ),
    "roster.test_student": (
        "Canvas's test student ('{name}', {roster} line {lines}) is the Student View account: left out of the students without an answer file",
        "Canvas의 테스트 학생('{name}', {roster} {lines}번째 줄)은 학생 보기용 계정이므로 답안 파일이 없는 학생으로 세지 않았습니다",
    ),
    "roster.matched_nobody": (
        "none of the {count} answer files' students is in the roster {roster}, so no LMS file was written; write each student's 학번 (ID number) or e-mail in 'student', as the roster has them, or map them with --match FILE",
        "답안 파일 {count}개의 학생 중 명단 {roster}에 있는 학생이 없어 LMS 파일을 쓰지 않았습니다. 각 답안의 'student'에 명단에 있는 학번이나 이메일을 적거나 --match 파일로 짝지으세요",
    ),
    "roster.placed_nobody": (
        "none of the {count} answer files' students could be given a grade in the roster {roster} (see above), so no LMS file was written",
        "답안 파일 {count}개의 학생 중 명단 {roster}에서 점수를 줄 수 있는 학생이 없어 LMS 파일을 쓰지 않았습니다 (위 내용 참고)",
    ),
    "roster.assignment_default": (
        "grade column: '{column}', the roster's only grade column (another with --assignment NAME)",
        "성적 열: '{column}' (명단의 유일한 성적 열, 다른 열은 --assignment 이름으로)",
    ),
    "roster.match_needs_roster": (
        "--match goes with --roster: it maps answer-file students to roster students",
        "--match는 --roster와 함께 씁니다. 답안 파일의 학생을 명단의 학생과 짝짓는 파일입니다",
    ),
    "match.is_directory": (
        "is a directory; give a --match file (.csv with the columns student,id, or .yaml)",
        "디렉터리입니다. --match 파일(student,id 열이 있는 .csv 또는 .yaml)을 지정하세요",
    ),
    "match.bad_encoding": (
        "the --match file is not text in UTF-8, UTF-16 or CP949 (EUC-KR) (byte {offset} cannot be read); save it as CSV UTF-8",
        "--match 파일이 UTF-8, UTF-16, CP949(EUC-KR) 텍스트가 아닙니다 ({offset}번째 바이트를 읽을 수 없음). CSV UTF-8 형식으로 저장하세요",
    ),
    "match.bad_csv": ("the --match file is not valid CSV: {problem}", "--match 파일이 올바른 CSV가 아닙니다: {problem}"),
    "match.bad_yaml": ("the --match file is not valid YAML: {problem}", "--match 파일이 올바른 YAML이 아닙니다: {problem}"),
    "match.empty": ("the --match file is empty; write a line 'student,id' and one line per student", "--match 파일이 비어 있습니다. 'student,id' 줄과 학생마다 한 줄을 쓰세요"),
    "match.no_columns": (
        "the --match file needs the columns 'student' (as the answer file writes it) and 'id' (the roster's ID number, SIS ID, username or e-mail)",
        "--match 파일에는 'student'(답안 파일에 적힌 대로) 열과 'id'(명단의 학번, SIS ID, 사용자명 또는 이메일) 열이 있어야 합니다",
    ),
    "match.not_mapping": ("the --match file must map each student to a roster ID ('student: id')", "--match 파일은 학생마다 명단 ID를 짝지어야 합니다 ('student: id')"),
    "match.not_text": ("a student and a roster ID are single values here, not a list or mapping", "이 자리의 학생과 명단 ID는 값 하나여야 합니다 (목록이나 매핑이 아님)"),
    "match.no_student": ("the student is empty; write it as the answer file writes it", "학생 칸이 비어 있습니다. 답안 파일에 적힌 대로 쓰세요"),
    "match.no_id": ("no roster ID for '{student}'; write their ID number, SIS ID, username or e-mail", "'{student}'의 명단 ID가 없습니다. 학번, SIS ID, 사용자명 또는 이메일을 쓰세요"),
    "match.id_not_in_roster": ("'{id}' is no ID or e-mail in the roster {roster}", "'{id}'에 해당하는 ID나 이메일이 명단 {roster}에 없습니다"),
    "match.id_ambiguous": (
        "'{id}' is the ID of several roster students ({roster} lines {lines}); use an ID that only one has",
        "ID '{id}': 명단의 여러 학생({roster} {lines}번째 줄)이 가진 ID입니다. 한 학생만 가진 ID를 쓰세요",
    ),
    "match.repeated": ("'{student}' is mapped already at {first}; keep one line per student", "학생 '{student}': {first}에서 이미 짝지었습니다. 학생마다 한 줄만 두세요"),
    "match.unused": (
        "{where}: no answer file's student is '{student}'; write it as the answer file does",
        "{where}: 'student'가 '{student}'인 답안 파일이 없습니다. 답안 파일에 적힌 대로 쓰세요",
    ),
    "lms.points_not_a_number": (
        "the roster's Points Possible for '{column}' is '{value}', not a number of points (like 10 or 12.5); fix it or give --out-of",
        "명단에서 '{column}'의 Points Possible 값 '{value}': 점수가 아닙니다 (10, 12.5 같은 수). 고치거나 --out-of를 주세요",
    ),
    "lms.points_ambiguous": (
        "the roster's Points Possible for '{column}' is '{value}', which reads as {thousands} or as {decimal}; write it without the comma, or give --out-of",
        "명단에서 '{column}'의 Points Possible 값 '{value}': 쉼표를 천 단위 구분으로 읽으면 {thousands}, 소수점으로 읽으면 {decimal}입니다. 쉼표 없이 쓰거나 --out-of를 주세요",
    ),
    "lms.no_canvas_id": (
        "{roster}:{line}: '{name}' has no Canvas ID in the roster, so Canvas could not be sure whose grade it is: not written; export the roster again (Grades → Export)",
        "{roster}:{line}: 명단에서 '{name}'의 Canvas ID가 없어 Canvas가 누구의 점수인지 확신할 수 없으므로 쓰지 않았습니다. 명단을 다시 내보내세요 (성적 → 내보내기)",
    ),
    "lms.duplicate_id": (
        "{roster}: lines {lines} share the {column} '{value}', so Canvas would give both grades to one student: neither written",
        "{roster}: {lines}번째 줄의 {column} 값이 모두 '{value}'여서 Canvas가 두 점수를 한 학생에게 줄 것이므로 둘 다 쓰지 않았습니다",
    ),
    "lms.points_possible_name": (
        "{roster}:{line}: the student '{name}' is written with an empty Student cell (Canvas finds them by ID), since Canvas takes any row whose Student says Points Possible for the points row",
        "{roster}:{line}: '{name}' 학생은 Student 칸을 비워 썼습니다 (Canvas는 ID로 찾습니다). Canvas는 Student에 Points Possible이 들어간 줄을 배점 줄로 읽기 때문입니다",
    ),
    "roster.not_written": ("{message} (not written to the LMS file)", "{message} (LMS 파일에 쓰지 않았습니다)"),
    "roster.absent": (
        "in the roster but no answer file: {names}",
        "명단에는 있지만 답안 파일이 없음: {names}",
    ),
    "roster.unmarked": (
        "matched but could not be marked, so not written: {names}",
        "대조는 되었지만 채점할 수 없어 쓰지 않음: {names}",
    ),
    "lms.moodle_no_identifier": (
        "the roster {file} has no Email address, ID number or Username filled in, different for each and written as is, for every matched student; Moodle needs one to find each student:",
        "명단 {file}에 대조된 모든 학생마다 서로 다르고 그대로 쓸 수 있는 Email address, ID number, Username이 없습니다. Moodle은 이 값으로 학생을 찾습니다:",
    ),
    "lms.identifier_empty": ("{column}: empty for {name}", "{column}: {name} 학생은 비어 있음"),
    "lms.identifier_shared": ("{column}: '{value}' on lines {lines}", "{column}: '{value}' 값이 {lines}번째 줄에 중복"),
    "lms.identifier_formula": ("{column}: '{value}' starts like a formula", "{column}: '{value}' 값이 수식처럼 시작함"),
    # grade --roster: one answer file or one student said in the singular (roster review)
    "roster.match_title_one": ("Roster matching ({matched} of 1 answer file)", "명단 대조 (답안 1개 중 {matched}개)"),
    "roster.matched_nobody_one": (
        "the answer file's student is not in the roster {roster}, so no LMS file was written; write the student's 학번 (ID number) or e-mail in 'student', as the roster has them, or map them with --match FILE",
        "답안 파일의 학생이 명단 {roster}에 없어 LMS 파일을 쓰지 않았습니다. 답안의 'student'에 명단에 있는 학번이나 이메일을 적거나 --match 파일로 짝지으세요",
    ),
    "roster.placed_nobody_one": (
        "the answer file's student could not be given a grade in the roster {roster} (see above), so no LMS file was written",
        "답안 파일의 학생에게 명단 {roster}에서 점수를 줄 수 없어 LMS 파일을 쓰지 않았습니다 (위 내용 참고)",
    ),
    "lms.canvas_written_one": (
        "Canvas gradebook (1 student, column '{column}') written to {path}; import it under Grades → Import",
        "Canvas 성적표(학생 1명, 열 '{column}')를 {path}에 저장했습니다. 성적 → 가져오기에서 올리세요",
    ),
    "roster.unmatched.doubted": (
        "{where}: '{student}' is roster student {entry}, whom {others} may also be (a name several roster students have); no grade for them until that file says which student it is",
        "{where}: 답안의 학생 '{student}': 명단의 {entry} 학생에 해당하지만 {others}도 이 학생일 수 있습니다(같은 이름의 학생이 여럿). 그 파일이 어느 학생인지 밝힐 때까지 점수를 주지 않습니다",
    ),
    "grade.assignment_empty": (
        "--assignment is empty; name the grade column, e.g. --assignment \"Attention by hand\"",
        "--assignment 값이 비어 있습니다. 성적 열 이름을 쓰세요 (예: --assignment \"Attention by hand\")",
    ),
    "grade.assignment_unsafe": (
        "--assignment holds a control or invisible character ({char}, character {position}), which the LMS would show in the column's name; type the name without it",
        "--assignment 값에 제어 문자나 보이지 않는 문자({char}, {position}번째 글자)가 있어 LMS의 열 이름에 그대로 나옵니다. 그 문자 없이 쓰세요",
    ),
    "lms.moodle_written_one": (
        "Moodle grades (1 student, column '{column}') written to {path}; import it under Grades → Import → CSV file, identifying users by '{identifier}'",
        "Moodle 성적(학생 1명, 열 '{column}')을 {path}에 저장했습니다. 성적 → 가져오기 → CSV 파일에서 사용자 식별 기준으로 '{identifier}' 열을 고르세요",
    ),
    "lms.points_differ": (
        "the roster gives '{column}' {roster} points possible; the file says {out_of} (--out-of), which Canvas will take on import",
        "명단에서 '{column}'의 배점은 {roster}점인데, 이 파일은 {out_of}점(--out-of)입니다. Canvas는 가져올 때 이 배점을 씁니다",
    ),
    "lms.canvas_written": (
        "Canvas gradebook ({count} students, column '{column}') written to {path}; import it under Grades → Import",
        "Canvas 성적표(학생 {count}명, 열 '{column}')를 {path}에 저장했습니다. 성적 → 가져오기에서 올리세요",
    ),
    "lms.moodle_written": (
        "Moodle grades ({count} students, column '{column}') written to {path}; import it under Grades → Import → CSV file, identifying users by '{identifier}'",
        "Moodle 성적(학생 {count}명, 열 '{column}')을 {path}에 저장했습니다. 성적 → 가져오기 → CSV 파일에서 사용자 식별을 '{identifier}'[으로] 하세요",
    ),
    # grade --feedback: hand-back sheets (attn_tutor.classroom.handback)
    "feedback.title": ("{student}: your marked answers", "{student}: 채점 결과"),
    "feedback.no_name": ("(no name)", "(이름 없음)"),
    "feedback.legend": (
        "✓ right · ↪ right from your own earlier numbers (follow-through) · ✗ wrong · — not marked (masked) or not answered",
        "✓ 맞음 · ↪ 앞 단계의 본인 값으로는 맞음 (이어 계산 인정) · ✗ 틀림 · — 채점하지 않는 칸(마스크) 또는 답 없음",
    ),
    "feedback.item_title": ("{stage}: {verdict}, {points} / 1", "{stage}: {verdict}, {points} / 1점"),
    "feedback.row.given": ("your answer", "내 답"),
    "feedback.row.mark": ("mark", "채점"),
    "feedback.row.expected": ("correct", "정답"),
    "feedback.row.carried": ("from your numbers", "내 값으로 계산"),
    "feedback.cell.correct": ("✓", "✓"),
    "feedback.cell.follow_through": ("↪", "↪"),
    "feedback.cell.wrong": ("✗", "✗"),
    "feedback.cell.missing": ("—", "—"),
    "feedback.cell.masked": ("—", "—"),
    "feedback.follow_from": (
        "↪ {cells}: right from your own {stage} row {row}, which the exam carries forward.",
        "↪ {cells}: 앞 단계 {stage}에서 구한 본인 값 {row}[으로] 계산하면 맞습니다 (이어 계산 인정).",
    ),
    "feedback.follow_from_own": (
        "↪ {cells}: right from your own {stage} numbers, which the exam carries forward.",
        "↪ {cells}: 앞 단계 {stage}의 본인 값으로 계산하면 맞습니다 (이어 계산 인정).",
    ),
    "feedback.missing": ("No answer was found for this stage.", "이 단계의 답이 없습니다."),
    "feedback.working": ("The correct row, worked out:", "정답 행의 계산:"),
    "feedback.problem_found": ("Problem in your answer file: {message}", "답안 파일의 문제: {message}"),
    "feedback.not_marked": (
        "Your answer file could not be marked; ask your teacher.",
        "답안 파일을 채점할 수 없었습니다. 선생님께 문의하세요.",
    ),
    "feedback.dir_not_dir": ("{path} is not a directory", "{path}[은] 디렉터리가 아닙니다"),
    "feedback.written": ("{count} hand-back sheets written to {path}", "채점 결과지 {count}장을 {path}에 저장했습니다"),
    # grade --class-report (attn_tutor.classroom.report)
    "report.title": ("Class report ({count} students)", "학급 보고서 (학생 {count}명)"),
    "report.marked": ("{marked} of {total} students marked.", "학생 {total}명 중 {marked}명을 채점했습니다."),
    "report.mean": ("Mean {mean}%, median {median}%.", "평균 {mean}%, 중앙값 {median}%."),
    "report.unmarked": (
        "{count} could not be marked (see the errors grade printed); they are not in the charts.",
        "{count}명은 채점할 수 없어 (grade가 출력한 오류 참고) 그래프에 넣지 않았습니다.",
    ),
    "report.students": ("students", "학생 수"),
    "report.distribution": ("Score distribution ({count} students)", "점수 분포 (학생 {count}명)"),
    "report.verdicts": ("Verdicts on each item", "문항별 판정 비율"),
    "report.verdicts_note": (
        "Each bar is one item (problem · row · stage), split by how the students' answers were marked.",
        "막대 하나가 문항 하나(문제 · 행 · 단계)이며, 학생들의 답이 어떻게 채점되었는지 나누어 보여 줍니다.",
    ),
    "report.misconceptions": ("Misconception map: students per mistake and item", "오개념 지도: 실수와 문항별 학생 수"),
    "report.misconceptions_note": (
        "Each cell counts the students whose answer to that item matched that mistake; darker is more.",
        "각 칸은 그 문항에서 그 실수와 일치하는 답을 낸 학생 수입니다. 진할수록 많습니다.",
    ),
    "report.no_mistakes": ("No answer matched a known mistake.", "알려진 실수와 일치하는 답이 없습니다."),
    "report.codes": ("What each mistake means", "실수마다의 뜻"),
    "report.numbers": ("In numbers", "숫자로 보기"),
    "report.written": ("class report written to {path}", "학급 보고서를 {path}에 저장했습니다"),
    # --- a live class's storage (attn_tutor.live.store; helper live-store) -------------------
    "live.store.no_session": (
        "there is no session here; start one with attn-tutor serve, or check the path",
        "여기에는 세션이 없습니다. attn-tutor serve로 세션을 시작하거나 경로를 확인하세요",
    ),
    "live.store.not_session": (
        "this is not an attn-tutor session database (serve makes those; give serve a new file name to start one)",
        "attn-tutor 세션 데이터베이스가 아닙니다 (세션은 serve가 만듭니다. 새로 시작하려면 serve에 새 파일 이름을 주세요)",
    ),
    "live.store.other_set": (
        "this session was made for another problem set ({title}); serve that set, or give a new file with --db",
        "이 세션은 다른 문제 세트({title})로 만들어졌습니다. 그 세트로 serve하거나 --db로 새 파일을 주세요",
    ),
    "live.store.changed_set": (
        "the problem set {set} has changed since this session was made, so its answers cannot be marked against it; grade with the set as it was",
        "이 세션을 만든 뒤 문제 세트 {set}[이] 바뀌어 답을 채점할 수 없습니다. 세션 때의 세트로 채점하세요",
    ),
    "live.store.newer": (
        "this session was written by a newer attn-tutor (session format {schema}, this one reads up to {ours}); upgrade attn-tutor",
        "더 새로운 attn-tutor가 쓴 세션입니다 (세션 형식 {schema}, 이 버전은 {ours}까지 읽습니다). attn-tutor를 업그레이드하세요",
    ),
    "live.store.in_use": (
        "another attn-tutor serve is using this session file; stop it first, or give another file with --db",
        "다른 attn-tutor serve가 이 세션 파일을 쓰고 있습니다. 먼저 그것을 멈추거나 --db로 다른 파일을 주세요",
    ),
    "live.store.locked": (
        "the session database is locked by another program; close it and try again",
        "다른 프로그램이 세션 데이터베이스를 잠그고 있습니다. 그 프로그램을 닫고 다시 시도하세요",
    ),
    "live.store.corrupt": (
        "the session database is damaged ({reason}); keep the file for its answers and start a new session with another --db",
        "세션 데이터베이스가 손상되었습니다 ({reason}). 답을 위해 파일은 보관하고 다른 --db로 새 세션을 시작하세요",
    ),
    "live.store.unreadable": (
        "cannot open the session database: {reason}",
        "세션 데이터베이스를 열 수 없습니다: {reason}",
    ),
    "live.store.cannot_write": (
        "cannot write the session file here ({reason}); start serve in a folder you can write to, or give --db FILE",
        "여기에 세션 파일을 쓸 수 없습니다 ({reason}). 쓸 수 있는 폴더에서 serve를 시작하거나 --db FILE을 주세요",
    ),
    "live.store.full": (
        "the disk holding the session database is full: the answer was not saved; free some space (the students' pages keep it and send it again)",
        "세션 데이터베이스가 있는 디스크가 가득 찼습니다. 답은 저장되지 않았습니다. 공간을 비우세요 (학생 페이지가 답을 보관했다가 다시 보냅니다)",
    ),
    "live.store.closed": ("the session database is closed", "세션 데이터베이스가 닫혔습니다"),
    "live.store.refused": ("the session database refused this: {reason}", "세션 데이터베이스가 이 작업을 거부했습니다: {reason}"),
    "live.store.bad_url": (
        "not a PostgreSQL URL libpq can read ({reason}); write postgresql://USER@HOST/DATABASE",
        "libpq가 읽을 수 있는 PostgreSQL URL이 아닙니다 ({reason}). postgresql://USER@HOST/DATABASE 꼴로 쓰세요",
    ),
    "live.store.unreachable": (
        "cannot reach the PostgreSQL database: {reason}",
        "PostgreSQL 데이터베이스에 연결할 수 없습니다: {reason}",
    ),
    "live.store.no_driver": (
        "PostgreSQL needs the psycopg package: pip install 'psycopg[binary]>=3.1'",
        "PostgreSQL에는 psycopg 패키지가 필요합니다: pip install 'psycopg[binary]>=3.1'",
    ),
    "live.store.bad_mode": ("no mode '{mode}': choose one of {modes}", "'{mode}' 모드는 없습니다. {modes} 중에서 고르세요"),
    "live.store.no_problem": ("no problem '{problem}' in this session", "이 세션에는 '{problem}' 문제가 없습니다"),
    # --- export and generate (attn_tutor.render.*, attn_tutor.variants.generate) ------------
    # generate (attn_tutor.variants.generate)
    "export.default_title": ("Attention by hand: worksheet", "어텐션 손계산 활동지"),
    "export.sheet_variant": ("{title} — variant {seed}", "{title} — 변형 {seed}"),
    "export.fairness": (
        "{count} variants, each checked against its source: the largest weight runs {weight_low}–{weight_high} (the set's own: {weight}), the largest e^x {exp_low}–{exp_high} (the set's own: {exp}); checked: every matrix keeps its range and places, every row's scaled scores stay in the source's band, no asked answer sits on a rounding tie, no weights row rounds to one-hot or is uniform and no output row is free of the weights unless the source's is, every mistake the source shows still stands clear of correct work, and no two variants share their numbers or their whole answer key.",
        "변형 {count}개, 모두 원래 문제와 비교해 확인했습니다: 가장 큰 가중치 {weight_low}–{weight_high} (원래 문제: {weight}), 가장 큰 e^x {exp_low}–{exp_high} (원래 문제: {exp}). 확인한 것: 행렬마다 원래의 범위와 자릿수를 지키고, 모든 행의 스케일된 스코어가 원래 문제의 범위 안에 있으며, 반올림 경계에 걸린 답이 없고, 원래 문제가 그렇지 않은 한 원-핫으로 반올림되거나 균등한 가중치 행과 가중치와 무관한 출력 행이 없으며, 원래 문제에서 드러나는 실수는 모두 바른 계산과 구별되고, 어떤 두 변형도 숫자나 답 전체가 같지 않습니다.",
    ),
    "export.key_title": ("Answer key — {title}", "정답 — {title}"),
    "export.key_variant": ("Answer key — {title} — variant {seed}", "정답 — {title} — 변형 {seed}"),
    "export.variant_number": ("variant {seed}", "변형 {seed}"),
    "export.key_table.title": ("Answer table — {title}", "정답표 — {title}"),
    "export.key_table.note": (
        "Each line is one asked row and stage; heads are separated by |, masked cells are —.",
        "한 줄이 묻는 행 하나의 한 단계입니다. 헤드는 |로 나누고, 마스크된 칸은 —입니다.",
    ),
    "export.key_table.variant": ("variant", "변형"),
    "export.key_table.problem": ("problem", "문제"),
    "export.key_table.row": ("row", "행"),
    "export.key_table.stage": ("stage", "단계"),
    "export.key_table.answer": ("answer", "정답"),
    "export.qti_prompt": (
        "{stage}: the cell of row {row}, column {column}. Type it rounded half up to {decimals} decimal places.",
        "{stage}: {row} 행, {column} 열의 칸. 소수점 아래 {decimals}자리까지 반올림해 입력하세요.",
    ),
    "export.qti_mistakes": ("Known mistakes that give a different number here:", "이 칸에 다른 수가 나오는 흔한 실수:"),
    "export.qti_mistake": ("≈ {value}: {sentence}", "≈ {value}: {sentence}"),
    "export.name": ("Name", "이름"),
    "export.class": ("Class", "반"),
    "export.date": ("Date", "날짜"),
    "export.variant_label": ("variant", "변형 번호"),
    "export.copy_variant": (
        "Copy the variant number {seed} into the variant box of your answer sheet (in an answer file, the line variant: {seed} at the top).",
        "답안지의 변형 번호 칸에 {seed}[을] 옮겨 적으세요 (답안 파일이라면 맨 위에 variant: {seed} 줄을 쓰세요).",
    ),
    "export.project": (
        "First project each token: Q = X·W_Q, K = X·W_K, V = X·W_V.",
        "먼저 각 토큰을 투영하세요: Q = X·W_Q, K = X·W_K, V = X·W_V.",
    ),
    "export.rows": ("Compute the row of each query token: {rows}.", "다음 Query 토큰의 행을 계산하세요: {rows}."),
    "export.stages": ("Fill in a table for each stage: {stages}.", "단계마다 표를 채우세요: {stages}."),
    "export.decimals": (
        "Round every answer half up to {decimals} decimal places.",
        "모든 답은 소수점 아래 {decimals}자리까지 반올림하세요.",
    ),
    "export.stage.scores": ("(a) scores S = Q·Kᵀ", "(a) 스코어 S = Q·Kᵀ"),
    "export.stage.scaled": ("(b) scaled scores", "(b) 스케일된 스코어"),
    "export.stage.weights": ("(c) attention weights (softmax of each row)", "(c) 어텐션 가중치 (행별 Softmax)"),
    "export.stage.output": ("(d) output = weights·V", "(d) 출력 = 가중치·V"),
    # concept items on worksheets, keys and banks (issue 21; export/concept_sheet.py, moodle.py, qti.py)
    "export.concepts": ("Concept questions", "개념 문제"),
    "export.concept.heading": ("Concept question {n} ({id})", "개념 문제 {n} ({id})"),
    "export.concept.several": ("(several)", "(여러 개)"),
    "export.concept.option": ("({label}) {text}", "({label}) {text}"),
    "export.concept.choose": ("Write the letter of the right answer.", "정답의 기호를 쓰세요."),
    "export.concept.choose_several": (
        "Several answers are right: write the letter of every one, e.g. A, C.",
        "정답이 여러 개입니다: 정답의 기호를 모두 쓰세요 (예: A, C).",
    ),
    "export.concept.order": (
        "Write the letters of the steps in the right order, one after another.",
        "단계의 기호를 올바른 순서대로 이어서 쓰세요.",
    ),
    "export.concept.order_choose": ("Which is the right order of the steps?", "단계의 올바른 순서는 어느 것인가요?"),
    "export.concept.answer": ("Answer", "답"),
    "export.concept.right": ("Answer: {labels}", "정답: {labels}"),
    "export.concept.right_any": (
        "Answer: any one of {labels} (on this sheet their numbers tie)",
        "정답: {labels} 중 하나 (이 답안지에서는 수가 같습니다)",
    ),
    "export.concept.wrong": ("({label}) is wrong: {feedback}", "({label}) 오답: {feedback}"),
    "export.concept.explanation": ("Why: {text}", "설명: {text}"),
    "export.concept.order_swap": (
        "Two steps are swapped: first “{first}”, then “{second}”.",
        "두 단계가 뒤바뀌었습니다: 먼저 “{first}”, 그다음 “{second}”입니다.",
    ),
    "export.key_table.concept": ("concept", "개념"),
    "export.answers_and_key_only": (
        "--answers and --key-only cannot be used together",
        "--answers와 --key-only는 함께 쓸 수 없습니다",
    ),
    "export.key_table_alone": (
        "--key-table writes the answers as one table; it cannot be combined with --answers or --key-only",
        "--key-table은 정답을 표 하나로 씁니다. --answers나 --key-only와 함께 쓸 수 없습니다",
    ),
    "export.unknown_suffix": (
        "cannot tell the format from the name {path}; use one of these suffixes: {suffixes} (or choose with --format)",
        "{path} 이름으로는 형식을 알 수 없습니다. 다음 확장자 중 하나를 쓰세요: {suffixes} (또는 --format으로 고르세요)",
    ),
    "export.bank_has_key": (
        "a {format} question bank marks itself; --answers, --key-only and --key-table are for printed sheets",
        "{format} 문제 은행은 스스로 채점합니다. --answers, --key-only, --key-table은 인쇄용 활동지에만 씁니다",
    ),
    "export.paper_for_print": (
        "--paper sets the paper of a pdf or tex file, not of {format}; a browser prints HTML on the printer's paper",
        "--paper는 pdf와 tex 파일의 용지 크기입니다 ({format}에는 쓰지 않습니다). HTML은 브라우저가 프린터 용지에 맞춰 인쇄합니다",
    ),
    "export.no_hangul_font": (
        "the sheet has Korean text and no Hangul font was found (looked in {dirs}); install Noto Sans CJK KR "
        "(Debian/Ubuntu: apt install fonts-noto-cjk) or NanumGothic (fonts-nanum); Windows has Malgun Gothic and "
        "macOS Apple SD Gothic Neo, or set ATTN_TUTOR_FONT_DIRS to the folder of one",
        "활동지에 한글이 있는데 한글 글꼴을 찾지 못했습니다 ({dirs}에서 찾음). Noto Sans CJK KR(Debian/Ubuntu: apt install "
        "fonts-noto-cjk)이나 나눔고딕(fonts-nanum)을 설치하세요. Windows에는 맑은 고딕(Malgun Gothic), macOS에는 Apple SD Gothic Neo가 "
        "있습니다. 또는 ATTN_TUTOR_FONT_DIRS에 글꼴 폴더를 지정하세요",
    ),
    # print-flat: a font file that does not load is named, then passed over
    "export.font_unreadable": (
        "skipped the font {path}: it does not load as a font (damaged, cut short or not a font file); "
        "reinstall it, or remove it from the font folder",
        "글꼴 파일을 건너뜁니다: {path} — 글꼴로 읽히지 않습니다(손상되었거나 잘렸거나 글꼴 파일이 아님). "
        "다시 설치하거나 글꼴 폴더에서 지우세요",
    ),
    "export.pdf_failed": (
        "could not typeset the PDF: {reason}; this is a bug in attn-tutor, please report it with the problem file",
        "PDF를 조판하지 못했습니다: {reason}. attn-tutor의 버그이니 문제 파일과 함께 알려 주세요",
    ),
    "export.binary_to_terminal": (
        "a {format} file is binary and would garble the terminal; write it with -o FILE",
        "{format} 파일은 바이너리라 터미널에 출력할 수 없습니다. -o FILE로 저장하세요",
    ),
    "export.variants_need_seed": (
        "--variants needs --seed S, so that every sheet can be made again from the number printed on it",
        "--variants에는 --seed S가 필요합니다. 그래야 활동지에 찍힌 번호로 같은 활동지를 다시 만들 수 있습니다",
    ),
    # the practice page (attn_tutor.practice.page, attn_tutor/practice/assets/widget.js)
    "export.page_no_key_options": (
        "--answers and --key-only do not apply to -f page: the practice page always holds the answers",
        "--answers와 --key-only는 -f page에 쓸 수 없습니다: 연습 페이지에는 언제나 정답이 들어 있습니다",
    ),
    "page.practice_only": (
        "This page is for practice: the answers are inside it (anyone can read them in its source), so tests are taken on paper.",
        "이 페이지는 연습용입니다: 정답이 페이지 안에 들어 있어 소스를 보면 누구나 읽을 수 있으므로, 시험은 종이로 봅니다.",
    ),
    "page.noscript": (
        "This page needs JavaScript for the widget and the practice: open it in a browser with JavaScript on.",
        "위젯과 연습에는 JavaScript가 필요합니다: JavaScript를 켠 브라우저로 여세요.",
    ),
    "page.offline": (
        "Works offline: the page fetches nothing from the network.",
        "오프라인에서 동작합니다: 이 페이지는 네트워크에서 아무것도 가져오지 않습니다.",
    ),
    "page.choose_variant": (
        "Your variant number (your teacher gives it to you):",
        "본인의 변형 번호 (선생님이 알려 줍니다):",
    ),
    "page.variant_fixed": ("Variant {seed}", "변형 {seed}"),
    "page.switch_confirm": (
        "Another variant has other numbers: the answers typed on this page will be cleared. Switch anyway?",
        "다른 변형은 숫자가 다릅니다: 이 페이지에 입력한 답이 지워집니다. 그래도 바꿀까요?",
    ),
    "page.widget": ("Where each token looks", "토큰마다 어디를 보는가"),
    "page.pick_query": ("Pick a query token:", "Query 토큰을 고르세요:"),
    "page.lines_note": (
        "Each line goes from {token} to a key: the thicker and darker it is, the larger the weight.",
        "‘{token}’ 행의 Query에서 각 Key로 가는 선: 굵고 진할수록 가중치가 큽니다.",
    ),
    "page.masked": ("masked", "마스크"),
    "page.working": ("Stage by stage for {token} (open a cell to see its arithmetic)", "‘{token}’ 행의 단계별 계산 (칸을 열면 계산 과정이 보입니다)"),
    "page.projection": ("Projection", "투영"),
    "page.practice": ("Practice", "연습"),
    "page.practice_note": (
        "Type each row on one line: numbers separated by spaces or commas; 3/4, √2, e^0.71/88.5, 78.6% and full-width digits work too. Enter or Check marks it; ? or Hint shows a hint.",
        "각 행을 한 줄에 입력하세요: 숫자는 공백이나 쉼표로 구분하고, 3/4, √2, e^0.71/88.5, 78.6%, 전각 숫자도 됩니다. Enter나 확인을 누르면 채점하고, ?나 힌트를 누르면 힌트를 보여 줍니다.",
    ),
    # what the teacher is told on exporting a page (the page itself speaks to students only)
    "export.page_teacher_note": (
        "The page holds the answers: use it for practice; for a test, print sheets with attn-tutor export and mark them with attn-tutor grade, which marks the answer files students save on the page too.",
        "페이지에 정답이 들어 있으니 연습에만 쓰세요. 시험은 attn-tutor export로 활동지를 인쇄해 치르고 attn-tutor grade로 채점하세요. 학생이 페이지에서 저장한 답안 파일도 attn-tutor grade가 채점합니다.",
    ),
    "page.check": ("Check", "확인"),
    "page.hint": ("Hint", "힌트"),
    "page.restart": ("Start this row again", "이 행을 처음부터 다시"),
    "page.your_row": ("Your row", "입력한 행"),
    "page.exact_row": ("Exact row", "정답 행"),
    "page.save_title": ("Hand in your answers", "답안 제출"),
    "page.student": ("Your name", "이름"),
    "page.save": ("Save my answers", "답안 저장"),
    "page.need_name": ("Type your name first: it goes into the answer file.", "먼저 이름을 입력하세요: 답안 파일에 들어갑니다."),
    "page.nothing_checked": ("Nothing is checked yet: check at least one answer first.", "아직 확인한 답이 없습니다: 먼저 답을 하나 이상 확인하세요."),
    "page.saved": (
        "Saved {file}. Hand it in to your teacher: it is marked as shown below.",
        "{file} 파일을 저장했습니다. 선생님께 제출하세요: 아래와 같이 채점됩니다.",
    ),
    "page.unchecked": (
        "{count} typed answers are not checked yet, so they are not saved: press Check first.",
        "입력했지만 확인하지 않은 답 {count}개는 저장되지 않습니다: 먼저 확인을 누르세요.",
    ),
    "page.score": ("Score on this page: {score} / {max}", "이 페이지의 점수: {score} / {max}"),
    "page.grade_score": (
        "Marked as your teacher marks it, this answer file gets {score} / {max}.",
        "선생님이 채점하면 이 답안 파일은 {score} / {max}점입니다.",
    ),
    "page.grade_differs": (
        "Your teacher's marking differs from this page because it marks as an exam: it carries your own numbers through stages that are not asked, so a later stage can earn follow-through credit here it could not earn on this page.",
        "선생님의 채점은 시험처럼 하기 때문에 이 페이지와 다릅니다: 묻지 않은 단계도 본인 값으로 이어 계산하므로, 이 페이지에서는 받지 못한 이어 계산 인정을 뒤 단계에서 받을 수 있습니다.",
    ),
    "page.file_comment": (
        "Answers saved by the attn-tutor practice page. Hand this file in to your teacher.",
        "attn-tutor 연습 페이지에서 저장한 답안입니다. 이 파일을 선생님께 제출하세요.",
    ),
    # --- a live class: attn-tutor serve (attn_tutor.live, attn_tutor.cli.serve) -------------
    "live.student_note": (
        "Each stage you check is also sent to your teacher, who sees the class's answers as they come.",
        "확인한 단계는 선생님께도 전송되어, 선생님이 반 전체의 답을 실시간으로 봅니다.",
    ),
    "live.join_title": ("Join the class", "수업 참여"),
    "live.join_name": ("Your name or student number", "이름 또는 학번"),
    "live.join": ("Join", "참여"),
    "live.join_need_name": ("Type your name or student number first.", "먼저 이름이나 학번을 입력하세요."),
    "live.all_saved": ("Every answer you checked is saved.", "확인한 답은 모두 저장되었습니다."),
    "live.pending": (
        "{count} answer(s) not saved yet: kept on this device and sent as soon as the server answers.",
        "아직 저장되지 않은 답 {count}개: 이 기기에 보관했다가 서버가 응답하면 바로 보냅니다.",
    ),
    "page.exam_kept": (
        "Answer kept. Marks are shown when your teacher closes this problem.",
        "답을 받았습니다. 채점 결과는 선생님이 이 문제를 마감하면 보입니다.",
    ),
    "live.exam_note": (
        "This is an exam: marks are shown when your teacher closes each problem.",
        "시험입니다: 채점 결과는 선생님이 문제를 마감하면 보입니다.",
    ),
    "live.closed": ("This problem is closed: answers are no longer taken.", "이 문제는 마감되었습니다: 더 이상 답을 받지 않습니다."),
    "live.server_mark": ("Marked by the server: {verdict}, {points} point(s).", "서버 채점: {verdict}, {points}점."),
    "live.solution": ("Worked solution", "풀이"),
    "live.refused": ("Not saved: {message}", "저장되지 않음: {message}"),
    "live.error.not_joined": (
        "Join the class first: type your name or student number on the page.",
        "먼저 수업에 참여하세요: 페이지에서 이름이나 학번을 입력하세요.",
    ),
    "live.error.name_blank": ("Type your name or student number.", "이름이나 학번을 입력하세요."),
    "live.error.name_too_long": (
        "The name is {count} characters long; at most {limit} are allowed.",
        "이름이 {count}자입니다. 최대 {limit}자까지입니다.",
    ),
    "live.error.name_unsafe": (
        "The name holds an invisible or control character ({char}); type it without.",
        "이름에 보이지 않는 문자나 제어 문자({char})가 있습니다. 그 문자 없이 입력하세요.",
    ),
    "live.error.bad_json": (
        "The request is not a JSON object; send the fields as the page does.",
        "요청이 JSON 객체가 아닙니다. 페이지가 보내는 형식으로 보내세요.",
    ),
    "live.error.content_type": ("Send the request as application/json.", "요청을 application/json으로 보내세요."),
    "live.error.too_large": (
        "The request is larger than {limit} bytes; it is refused.",
        "요청이 {limit}바이트보다 커서 거부되었습니다.",
    ),
    "live.error.text_too_long": (
        "The answer is {count} characters long; at most {limit} are taken.",
        "답이 {count}자입니다. 최대 {limit}자까지 받습니다.",
    ),
    "live.error.field": (
        "The request's field {field} is missing or of the wrong kind: it must be {kind}.",
        "요청의 {field} 항목이 없거나 형식이 틀렸습니다: {kind}이어야 합니다.",
    ),
    "live.error.unknown_problem": (
        "There is no problem {problem} in this session; its problems are {ids}.",
        "이 수업에 {problem} 문제는 없습니다. 문제는 {ids}입니다.",
    ),
    "live.error.unknown_row": (
        "Problem {problem} does not ask row {row}; it asks {rows}.",
        "{problem} 문제는 {row} 행을 묻지 않습니다. 묻는 행은 {rows}입니다.",
    ),
    "live.error.unknown_stage": (
        "Problem {problem} does not ask stage {stage}; it asks {stages}.",
        "{problem} 문제는 {stage} 단계를 묻지 않습니다. 묻는 단계는 {stages}입니다.",
    ),
    "live.error.closed": (
        "Problem {problem} is closed; answers are taken again when the teacher opens it.",
        "{problem} 문제는 마감되었습니다. 선생님이 다시 열면 답을 받습니다.",
    ),
    "live.error.csrf": (
        "The page's security token is missing or wrong; reload the page.",
        "페이지의 보안 토큰이 없거나 틀렸습니다. 페이지를 새로 고치세요.",
    ),
    "live.error.origin": (
        "The request comes from another site ({origin}); it is refused.",
        "다른 사이트({origin})에서 온 요청이라 거부되었습니다.",
    ),
    "live.error.rate": (
        "Too many requests from you at once; wait a few seconds and try again.",
        "한꺼번에 요청이 너무 많습니다. 몇 초 기다렸다가 다시 하세요.",
    ),
    "live.error.teacher": (
        "This is the teacher's page: open the teacher's link that `attn-tutor serve` printed.",
        "선생님 페이지입니다: `attn-tutor serve`가 출력한 선생님 링크를 여세요.",
    ),
    "live.error.bad_mode": ("The mode must be practice or exam, not {mode}.", "모드는 practice 또는 exam이어야 합니다 ({mode}[이] 아님)."),
    "live.error.not_found": ("There is no page {path} here; the students' page is /.", "{path} 페이지는 없습니다. 학생 페이지는 /입니다."),
    "live.error.method": ("{method} is not allowed for {path}.", "{path}에는 {method} 요청을 쓸 수 없습니다."),
    # concept items in the live class (live-concepts)
    "live.error.unknown_concept": (
        "There is no concept item {concept} in this session; its concept items are {ids}.",
        "이 수업에 {concept} 개념 문항은 없습니다. 개념 문항은 {ids}입니다.",
    ),
    "live.error.concept_blank": ("The choice is blank; choose an option first.", "선택이 비어 있습니다. 먼저 보기를 고르세요."),
    "live.error.concepts_closed": (
        "The concept questions are closed; answers are taken again when the teacher opens them.",
        "개념 문항은 마감되었습니다. 선생님이 다시 열면 답을 받습니다.",
    ),
    "live.concepts_open": ("Concept questions: open", "개념 문항: 열림"),
    "live.concepts_closed": ("Concept questions: closed", "개념 문항: 마감"),
    "live.concepts_close": ("Close the concept questions", "개념 문항 마감"),
    "live.concepts_reopen": ("Open the concept questions", "개념 문항 열기"),
    "live.teacher_title": ("Live class: {title}", "실시간 수업: {title}"),
    "live.teacher_note": (
        "Names and answers are shown on this page only; keep its link to yourself.",
        "이름과 답은 이 페이지에만 보입니다. 이 링크는 혼자만 쓰세요.",
    ),
    "live.qr_title": ("Students: scan the code or open {url}", "학생: 코드를 스캔하거나 {url}[을] 여세요"),
    "live.counts": ("Joined: {joined} · answered: {answered}", "참여: {joined}명 · 답한 학생: {answered}명"),
    "live.map_title": ("The class's answers, item by item", "문항별 반 전체 답"),
    "live.map_item": ("Item", "문항"),
    "live.map_diagnoses": ("Diagnoses", "진단"),
    "live.roster_title": ("Students", "학생"),
    "live.roster_name": ("Name", "이름"),
    "live.roster_answered": ("Stages answered", "답한 단계"),
    "live.roster_score": ("Score", "점수"),
    "live.distribution_title": ("Scores", "점수 분포"),
    "live.distribution_row": ("{low}–{high} points: {count} student(s)", "{low}–{high}점: {count}명"),
    "live.controls_title": ("Controls", "진행"),
    "live.mode.practice": ("Mode: practice (marks shown at once)", "모드: 연습 (채점 결과 바로 보임)"),
    "live.mode.exam": ("Mode: exam (marks shown when a problem closes)", "모드: 시험 (문제를 마감하면 채점 결과 보임)"),
    "live.to_exam": ("Switch to exam", "시험으로 바꾸기"),
    "live.to_practice": ("Switch to practice", "연습으로 바꾸기"),
    "live.problem_open": ("{problem}: open", "{problem}: 진행 중"),
    "live.problem_closed": ("{problem}: closed", "{problem}: 마감"),
    "live.open": ("Open {problem}", "{problem} 열기"),
    "live.close": ("Close {problem}", "{problem} 마감"),
    "live.reveal": ("Show the solution of {problem}", "{problem} 풀이 보이기"),
    "live.unreveal": ("Hide the solution of {problem}", "{problem} 풀이 숨기기"),
    "live.reconnecting": ("The connection to the server dropped; reconnecting…", "서버 연결이 끊겼습니다. 다시 연결하는 중…"),
    "serve.student": ("student: {url}", "student: {url}"),
    "serve.teacher": ("teacher: {url}", "teacher: {url}"),
    "serve.lan": (
        "Phones on the classroom network open the student link above ({host} is this computer's address there).",
        "같은 네트워크의 휴대폰에서 위의 학생 링크를 여세요 ({host}[은] 이 컴퓨터의 네트워크 주소입니다).",
    ),
    "serve.local_only": (
        "Listening on {host} only: phones cannot reach it. Give --host 0.0.0.0 to let the classroom in.",
        "{host}에서만 받고 있어 휴대폰이 접속할 수 없습니다. 교실에서 쓰려면 --host 0.0.0.0을 주세요.",
    ),
    "serve.no_lan": (
        "No network address found besides this computer's own; connect to the classroom network so phones can reach it.",
        "이 컴퓨터 자신 외의 네트워크 주소를 찾지 못했습니다. 휴대폰이 접속하려면 교실 네트워크에 연결하세요.",
    ),
    "serve.db_default": (
        "The session is kept in {path}: `attn-tutor serve --db {path}` continues it, `attn-tutor grade {path}` marks it.",
        "수업 기록은 {path}에 저장됩니다: `attn-tutor serve --db {path}`로 이어 하고, `attn-tutor grade {path}`로 채점합니다.",
    ),
    "serve.stop_hint": ("Press Ctrl-C to stop.", "끝내려면 Ctrl-C를 누르세요."),
    "serve.stopped": ("Stopped; every answer is saved in {db}.", "멈췄습니다. 모든 답은 {db}에 저장되어 있습니다."),
    "serve.port_in_use": (
        "Port {port} on {host} is in use (another attn-tutor serve?); choose another with --port.",
        "{host}의 {port}번 포트를 이미 쓰고 있습니다 (다른 attn-tutor serve?). --port로 다른 포트를 고르세요.",
    ),
    "serve.cannot_listen": ("Cannot listen on {host} port {port}: {reason}.", "{host}의 {port}번 포트에서 받을 수 없습니다: {reason}."),
    "serve.workers_sqlite": (
        "--workers {workers} needs a PostgreSQL database (--db postgresql://…); a SQLite session is served by one worker.",
        "--workers {workers}에는 PostgreSQL 데이터베이스(--db postgresql://…)가 필요합니다. SQLite 수업은 작업자 하나로 실행합니다.",
    ),
    "serve.bad_port": ("--port must be from 0 to 65535, not {port}.", "--port는 0부터 65535까지여야 합니다 ({port}[이] 아님)."),
    "serve.bad_workers": ("--workers must be at least 1, not {workers}.", "--workers는 1 이상이어야 합니다 ({workers}[이] 아님)."),
    # concept items on the practice page (issue 21; practice/assets/widget.js)
    "page.concepts": ("Concept questions", "개념 문제"),
    "page.concept_pick": ("Choose one answer.", "답을 하나 고르세요."),
    "page.concept_pick_several": (
        "Several answers are right: choose every one, then Check.",
        "정답이 여러 개입니다: 모두 고른 뒤 확인을 누르세요.",
    ),
    "page.concept_pick_order": (
        "Choose the steps one after another, in the right order.",
        "단계를 올바른 순서대로 하나씩 고르세요.",
    ),
    "page.concept_none": ("Choose at least one answer first.", "먼저 답을 하나 이상 고르세요."),
    "page.concept_order_so_far": ("Your order: {labels}", "고른 순서: {labels}"),
    "page.concept_answer": ("The right answer: {labels}", "정답: {labels}"),
    "page.concept_why": ("Why: {text}", "설명: {text}"),
    "page.concept_restart": ("Try this question again", "이 문제 다시 풀기"),
    "generate.title": ("Practice problems (seed {seed})", "연습 문제 (시드 {seed})"),
    "generate.comment.made": (
        "Made by `attn-tutor generate {options}`: the same command makes the same file.",
        "`attn-tutor generate {options}`로 만든 파일입니다. 같은 명령은 같은 파일을 만듭니다.",
    ),
    "generate.comment.edit": (
        "Edit freely: numbers, tokens, rows (the rows asked), ask (the stages asked), decimals, tolerance.",
        "자유롭게 고치세요: 숫자, 토큰, rows(물을 행), ask(물을 단계), decimals(소수 자릿수), tolerance(허용 오차).",
    ),
    "generate.comment.check": (
        "Check your edits with: attn-tutor validate FILE. Solve with: attn-tutor solve FILE.",
        "고친 뒤 확인: attn-tutor validate FILE. 풀이 보기: attn-tutor solve FILE.",
    ),
    "generate.comment.tokens": ("query tokens, one per row of Q", "Query 토큰 (Q의 행마다 하나)"),
    "generate.comment.key_tokens": ("the tokens of the rows of K and V", "K와 V의 행에 해당하는 토큰"),
    "generate.comment.matrix": ("one row per token", "토큰마다 한 행"),
    "generate.comment.weights": ("d_in rows, one column per output dimension", "d_in개의 행, 출력 차원마다 한 열"),
    "generate.comment.divide_by": ("sqrt_d (√d_k, the default) or a positive number; 1 = unscaled", "sqrt_d(기본값, √d_k) 또는 양수. 1이면 나누지 않음"),
    "generate.comment.mask": ("none, causal, or a 0/1 matrix (1 = may attend)", "none, causal 또는 0/1 행렬 (1 = 볼 수 있음)"),
    "generate.comment.rows": ("the rows quizzes and worksheets ask for", "퀴즈와 활동지에서 물을 행"),
    "generate.comment.rows_default": ("rows: every token (the default); list some to ask fewer", "rows: 모든 토큰(기본값). 일부만 물으려면 나열하세요"),
    "generate.comment.ask": ("the stages asked: scores, scaled, weights, output", "물을 단계: scores, scaled, weights, output"),
    "generate.comment.ask_default": ("ask: every stage (the default)", "ask: 모든 단계(기본값)"),
    "generate.comment.decimals": ("decimal places of the answers", "답의 소수 자릿수"),
    "generate.comment.tolerance": ("how far an answer may be off and still be correct", "정답으로 인정하는 오차"),
    "generate.comment.tolerance_default": (
        "tolerance: fits decimals (the default); a number sets how far an answer may be off",
        "tolerance: decimals에 맞춘 기본값. 수를 적으면 정답으로 인정하는 오차가 됩니다",
    ),
}


def t(key: str, lang: str = "en", /, **args: object) -> str:
    """The message ``key`` in ``lang``, with ``args`` filled in and its particles chosen.

    A particle is marked by its form after a consonant in square brackets, ``{path}[을]``;
    :mod:`attn_tutor.core.particles` picks 을 or 를 for what is written before it.
    """
    english, korean = MESSAGES[key]
    template = korean if lang == "ko" else english
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
