"""Document blocks as a complete XeLaTeX document (kotex for Korean).

Answer tables are ruled grids with tall empty cells to write in; filled tables use
booktabs; a table wider than the page is scaled down to fit (graphicx). Every
table sits in a minipage with its title, so it never splits across
pages (worked arithmetic may: it can be longer than a page); each :class:`~attn_tutor.render.blocks.PageBreak` is a ``\\clearpage``. All text
is escaped by :func:`escape`: TeX's special characters, brackets (``\\\\[`` would
read them as a length) and the ligature characters, so a token prints as typed.
"""

from __future__ import annotations

import unicodedata

from attn_tutor.render.blocks import Bars, Block, Fields, Heading, Instructions, Math, PageBreak, Paragraph, Table

PREAMBLE = r"""% A worksheet made by attn-tutor. Compile it with XeLaTeX:  xelatex worksheet.tex
% It needs: xelatex; the LaTeX packages kotex (Korean, through xetexko), fontspec,
% geometry, graphicx, booktabs, array and longtable (Debian/Ubuntu: texlive-xetex, texlive-lang-korean,
% texlive-latex-recommended); and a Korean font: Noto Serif/Sans CJK KR (fonts-noto-cjk),
% UnBatang (fonts-unfonts-core), NanumMyeongjo, Malgun Gothic or Apple SD Gothic Neo.
% Paper: A4. For Letter, change a4paper to letterpaper below.
\documentclass[11pt]{article}
\usepackage[a4paper,margin=16mm]{geometry}
\usepackage{kotex}
\usepackage{booktabs}
\usepackage{array}
\usepackage{graphicx}
\usepackage{longtable}
\newcommand{\fitwidth}[1]{\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{#1}}
\newcommand*{\attnhangul}[2]{\setmainhangulfont{#1}\setsanshangulfont{#2}\setmonohangulfont{#2}}
\IfFontExistsTF{Noto Serif CJK KR}{\attnhangul{Noto Serif CJK KR}{Noto Sans CJK KR}}{%
\IfFontExistsTF{UnBatang}{\attnhangul{UnBatang}{UnDotum}}{%
\IfFontExistsTF{NanumMyeongjo}{\attnhangul{NanumMyeongjo}{NanumGothic}}{%
\IfFontExistsTF{Malgun Gothic}{\attnhangul{Malgun Gothic}{Malgun Gothic}}{%
\IfFontExistsTF{Apple SD Gothic Neo}{\attnhangul{Apple SD Gothic Neo}{Apple SD Gothic Neo}}{}}}}}
\setlength{\parindent}{0pt}
\setlength{\parskip}{1.2ex}
\renewcommand{\arraystretch}{1.25}
\newcommand{\answerbox}{\rule{0pt}{9mm}}
\pagestyle{plain}
\begin{document}
"""

_SPECIAL = {
    "\\": r"\textbackslash{}",
    "%": r"\%",
    "&": r"\&",
    "_": r"\_",
    "#": r"\#",
    "$": r"\$",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "[": "{[}",
    "]": "{]}",
    "-": "-{}",  # no -- or --- ligatures
    "`": r"\textasciigrave{}",
    "'": r"\textquotesingle{}",
    '"': r"\textquotedbl{}",
    "!": "!{}",  # no !` ligature
    "?": "?{}",
    # symbols of the messages that a text font may lack: typeset them as math
    "√": r"\ensuremath{\surd}",
    "≈": r"\ensuremath{\approx}",
    "·": r"\ensuremath{\cdot}",
    "×": r"\ensuremath{\times}",
    "∞": r"\ensuremath{\infty}",
    "ᵀ": r"\textsuperscript{T}",
    "\n": " ",
    "\t": " ",
}


def escape(text: str) -> str:
    """``text`` as LaTeX that prints it as it is. Control characters become U+FFFD."""
    out = []
    for ch in text:
        if ch in _SPECIAL:
            out.append(_SPECIAL[ch])
        elif unicodedata.category(ch) in ("Cc", "Cs") or ch in "\u2028\u2029\u0085":
            out.append("\ufffd")
        else:
            out.append(ch)
    return "".join(out)


def _column_width(columns: int) -> float:
    """Millimetres per answer box: 20, narrower when many columns must fit the page."""
    return round(min(20.0, 150.0 / max(columns, 1) - 4.0), 1)


LONG = 30  # a table with more rows than this (a key table) is a longtable: it may run over pages


def _long_table(block: Table) -> str:
    """A table longer than a page: booktabs rules, its header repeated on every page."""
    columns = len(block.header) - 1
    head = " & ".join(r"\textbf{" + escape(h) + "}" for h in block.header) + r" \\"
    lines = [r"\begin{longtable}{l" + "l" * columns + "}", r"\toprule", head, r"\midrule", r"\endhead"]
    for row in block.rows:
        lines.append(" & ".join([r"\textbf{" + escape(row[0]) + "}", *(escape(c) for c in row[1:])]) + r" \\")
    lines.append(r"\bottomrule")
    lines.append(r"\end{longtable}")
    return "\n".join(lines)


def table(block: Table) -> str:
    columns = len(block.header) - 1
    if len(block.rows) > LONG and not block.blank:
        return _long_table(block)
    lines = [r"\par\noindent\begin{minipage}{\linewidth}"]
    if block.title:
        lines.append(r"\textbf{" + escape(block.title) + r"}\par\smallskip")
    if block.blank:
        width = _column_width(columns)
        spec = "|l|" + f">{{\\centering\\arraybackslash}}p{{{width}mm}}|" * columns
        lines.append(r"\fitwidth{\begin{tabular}{" + spec + "}")
        lines.append(r"\hline")
        lines.append(" & ".join(r"\textbf{" + escape(h) + "}" for h in block.header) + r" \\ \hline")
        for row in block.rows:
            cells = [r"\answerbox" if c == "" else escape(c) for c in row[1:]]
            lines.append(" & ".join([r"\textbf{" + escape(row[0]) + "}", *cells]) + r" \\ \hline")
    else:
        lines.append(r"\fitwidth{\begin{tabular}{l" + "r" * columns + "}")
        lines.append(r"\toprule")
        lines.append(" & ".join(r"\textbf{" + escape(h) + "}" for h in block.header) + r" \\")
        lines.append(r"\midrule")
        for row in block.rows:
            lines.append(" & ".join([r"\textbf{" + escape(row[0]) + "}", *(escape(c) for c in row[1:])]) + r" \\")
        lines.append(r"\bottomrule")
    lines.append(r"\end{tabular}}")
    if block.note:
        lines.append(r"\par\smallskip{\small " + escape(block.note) + "}")
    lines.append(r"\end{minipage}\par\medskip")
    return "\n".join(lines)


def _math(block: Math) -> str:
    """Worked arithmetic: one paragraph a line, so a long block may continue on the next page."""
    lines = [r"\par\noindent"]
    if block.title:
        lines.append(r"\textbf{" + escape(block.title) + r"}\par\nopagebreak\smallskip")
    lines.append(r"{\ttfamily\small\raggedright\setlength{\parskip}{0.3ex}")
    for line in block.lines:
        indent = len(line) - len(line.lstrip(" "))
        prefix = rf"\hspace*{{{indent * 0.5:g}em}}" if indent else ""
        lines.append(r"\hangindent=3em\hangafter=1 " + prefix + escape(line.lstrip(" ")) + r"\par")
    lines.append(r"}\par\medskip")
    return "\n".join(lines)


def _bars(block: Bars) -> str:
    lines = [r"\par\noindent\begin{minipage}{\linewidth}", r"\textbf{" + escape(block.title) + r"}\par\smallskip"]
    lines.append(r"\begin{tabular}{lll}")
    for bar in block.bars:
        length = round(max(0.0, min(1.0, bar.fraction)) * 60, 1)
        lines.append(rf"{escape(bar.label)} & \rule{{{length:g}mm}}{{2.5mm}} & {escape(bar.text)} \\")
    lines.append(r"\end{tabular}\end{minipage}\par\medskip")
    return "\n".join(lines)


def _fields(block: Fields) -> str:
    parts = []
    for label, value in block.fields:
        if value:
            parts.append(r"\textbf{" + escape(label) + r":}~\fbox{\texttt{" + escape(value) + "}}")
        else:
            parts.append(r"\textbf{" + escape(label) + r"}~\underline{\hspace{38mm}}")
    return r"\par\noindent " + r"\quad ".join(parts) + r"\par\medskip"


def _block(block: Block) -> str:
    if isinstance(block, Heading):
        command = {1: "section", 2: "subsection"}.get(block.level, "subsubsection")
        return rf"\{command}*{{{escape(block.text)}}}"
    if isinstance(block, Paragraph):
        return escape(block.text) + r"\par"
    if isinstance(block, Table):
        return table(block)
    if isinstance(block, Bars):
        return _bars(block)
    if isinstance(block, Math):
        return _math(block)
    if isinstance(block, Instructions):
        items = "\n".join(r"\item " + escape(item) for item in block.items)
        return "\\begin{enumerate}\n" + items + "\n\\end{enumerate}"
    if isinstance(block, Fields):
        return _fields(block)
    if isinstance(block, PageBreak):
        return r"\clearpage"
    raise TypeError(f"cannot draw {type(block).__name__} as LaTeX")


def render(blocks: list[Block], *, paper: str = "a4") -> str:
    """A complete document: the preamble, every block, ``\\end{document}``. ``paper``: a4 or letter."""
    body = "\n\n".join(_block(block) for block in blocks)
    preamble = PREAMBLE
    if paper == "letter":
        preamble = preamble.replace("% Paper: A4. For Letter, change a4paper to letterpaper below.", "% Paper: Letter.")
        preamble = preamble.replace("[a4paper,", "[letterpaper,")
    return preamble + "\n" + body + "\n\n\\end{document}\n"
