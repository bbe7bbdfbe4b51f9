"""Document blocks as one self-contained HTML file: for the screen and for printing.

No network at all: the CSS is inline, there are no scripts, fonts or images, and a
Content-Security-Policy forbids the browser to fetch anything. Korean is drawn in
the system's fonts. Printing (A4 or Letter, whatever the printer uses): each
:class:`~attn_tutor.render.blocks.PageBreak` starts a new page, no table or problem is
split across pages when it fits on one, and the answer boxes have solid black
borders tall enough to write in. Every text is escaped with :func:`html.escape`. The blocks are
drawn here, in code; the document around them is the template ``templates/document.html``
(:mod:`attn_tutor.render.templating`), its title escaped by :func:`escape`.
"""

from __future__ import annotations

import html as _html

from attn_tutor.core.i18n import language
from attn_tutor.core.text import escape_unsafe
from attn_tutor.render import svg, templating
from attn_tutor.render.blocks import Bars, Block, Chart, Fields, Heading, Instructions, Math, PageBreak, Paragraph, Table


def escape(text: str) -> str:
    """:func:`html.escape`, and control or invisible characters (but line breaks) written as ``\\uXXXX``."""
    return escape_unsafe(_html.escape(text), keep="\n")


FONTS = '"Noto Sans CJK KR", "Noto Sans KR", "Malgun Gothic", "Apple SD Gothic Neo", "NanumGothic", sans-serif'
MONO = '"D2Coding", "Noto Sans Mono CJK KR", "NanumGothicCoding", "Consolas", "DejaVu Sans Mono", monospace'
WIDE = 7  # tables with more columns than this get narrower boxes

CSS = f"""
:root {{ color-scheme: light; }}
* {{ box-sizing: border-box; }}
html {{ -webkit-text-size-adjust: 100%; }}
body {{ margin: 0; background: #f3f3f3; color: #000; font-family: {FONTS};
  font-size: 11pt; line-height: 1.45; -webkit-print-color-adjust: exact; print-color-adjust: exact;
  word-break: keep-all; overflow-wrap: break-word; }}  /* Korean breaks between words, not inside one */
main {{ max-width: 190mm; margin: 0 auto; }}
.sheet {{ background: #fff; margin: 8mm auto; padding: 12mm 12mm 14mm; box-shadow: 0 1px 4px rgba(0,0,0,.25); }}
h1 {{ font-size: 16pt; margin: 0 0 3mm; line-height: 1.25; }}
h2 {{ font-size: 13pt; margin: 0 0 2mm; padding-top: 1mm; border-top: 1.5pt solid #000; }}
h3 {{ font-size: 11pt; margin: 3mm 0 1mm; }}
p {{ margin: 0 0 2mm; }}
section.problem {{ margin: 6mm 0 0; }}
.problem-head {{ break-inside: avoid; page-break-inside: avoid; break-after: avoid; page-break-after: avoid; }}
.fields {{ display: flex; flex-wrap: wrap; gap: 2mm 6mm; margin: 0 0 4mm; }}
.field {{ display: inline-flex; align-items: flex-end; gap: 2mm; }}
.field .label {{ font-weight: bold; }}
.field .line {{ display: inline-block; min-width: 38mm; border-bottom: 1pt solid #000; height: 7mm; }}
.field .value {{ font-family: {MONO}; font-weight: bold; border: 1.5pt solid #000; padding: 0 2mm; }}
ol.instructions {{ margin: 0 0 3mm; padding-left: 6mm; }}
ol.instructions li {{ margin: 0 0 .5mm; }}
figure {{ margin: 0 0 4mm; break-inside: avoid; page-break-inside: avoid; }}
figure.values {{ display: inline-block; vertical-align: top; margin-right: 8mm; }}  /* small tables side by side */
figure.work {{ break-inside: auto; page-break-inside: auto; }}  /* long worked arithmetic may continue on the next page */
figcaption {{ font-weight: bold; margin: 0 0 1mm; break-after: avoid; page-break-after: avoid; }}
table {{ border-collapse: collapse; font-variant-numeric: tabular-nums; break-inside: avoid; page-break-inside: avoid; }}
th, td {{ border: .75pt solid #555; padding: 1mm 2.5mm; text-align: right; vertical-align: middle; white-space: nowrap; }}
thead th, thead td {{ background: #e8e8e8; text-align: center; }}
tbody th {{ text-align: left; background: #f4f4f4; }}
table.answer th, table.answer td {{ border: 1.5pt solid #000; }}
table.answer td.box {{ width: 24mm; min-width: 24mm; height: 11mm; padding: 0; background: #fff; }}
table.wide {{ width: 100%; table-layout: fixed; font-size: 8.5pt; }}  /* many keys: share the page width */
table.wide th:first-child {{ width: 20mm; }}
table.wide th, table.wide td {{ white-space: normal; padding: 1mm .8mm; }}
table.wide th {{ overflow-wrap: break-word; }}
figure.values:has(table.wide) {{ display: block; margin-right: 0; }}
table.answer.wide td.box {{ width: auto; min-width: 0; }}
td.masked {{ text-align: center; color: #444; background: #d9d9d9; }}
.note {{ font-size: 9.5pt; margin: 1mm 0 0; }}
pre {{ font-family: {MONO}; font-size: 9.5pt; line-height: 1.5; margin: 0; padding: 2mm 3mm;
  border-left: 2pt solid #000; background: #fafafa; white-space: pre-wrap; overflow-wrap: anywhere;
  orphans: 4; widows: 4; }}
.bars td {{ border: none; padding: .5mm 2mm; }}
.bar {{ display: inline-block; height: 3.5mm; background: #000; vertical-align: middle; }}
figure.chart {{ overflow-x: auto; }}
figure.chart svg {{ display: block; max-width: 100%; min-width: 480px; height: auto; }}
figure.chart .note {{ max-width: 170mm; }}
html:lang(ko) body {{ word-break: keep-all; }}  /* Korean breaks between words, not inside them */
@media screen and (max-width: 640px) {{  /* a phone: the sheet fills the screen, wide tables scroll */
  .sheet {{ margin: 0; padding: 5mm 4mm; }}
  figure {{ max-width: 100%; overflow-x: auto; }}
}}
@page {{ margin: 14mm 13mm; }}
@media print {{
  body {{ background: #fff; font-size: 10.5pt; }}
  main {{ max-width: none; }}
  .sheet {{ margin: 0; padding: 0; box-shadow: none; }}
  .sheet + .sheet {{ break-before: page; page-break-before: always; }}
}}
""".strip()


def _cell(text: str, blank: bool, wide: bool = False) -> str:
    if blank and text == "":
        return '<td class="box"></td>'
    if text == "—":
        return '<td class="masked">—</td>'
    if wide:  # a narrow column may break a long number, but only after its decimal point
        return "<td>" + escape(text).replace(".", ".<wbr>") + "</td>"
    return f"<td>{escape(text)}</td>"


def table(block: Table) -> str:
    classes = ["answer"] if block.blank else ["values"]
    if len(block.header) > WIDE:
        classes.append("wide")
    # on a narrow screen a figure scrolls sideways: focusable, so the arrow keys can scroll it (WCAG 2.1.1)
    parts = [f'<figure class="{classes[0]}" tabindex="0">']
    if block.title:
        parts.append(f"<figcaption>{escape(block.title)}</figcaption>")
    parts.append(f'<table class="{" ".join(classes)}">')
    # an empty corner is no column's header (a screen reader would announce a blank heading): a plain cell
    parts.append("<thead><tr>" + "".join(f'<th scope="col">{escape(h)}</th>' if h else "<td></td>" for h in block.header) + "</tr></thead>")
    parts.append("<tbody>")
    for row in block.rows:
        cells = "".join(_cell(c, block.blank, "wide" in classes) for c in row[1:])
        parts.append(f'<tr><th scope="row">{escape(row[0])}</th>{cells}</tr>')
    parts.append("</tbody></table>")
    if block.note:
        parts.append(f'<p class="note">{escape(block.note)}</p>')
    parts.append("</figure>")
    return "\n".join(parts)


def _bars(block: Bars) -> str:
    rows = []
    for bar in block.bars:
        width = round(max(0.0, min(1.0, bar.fraction)) * 60, 1)
        rows.append(
            f'<tr><th scope="row">{escape(bar.label)}</th>'
            f'<td><span class="bar" style="width: {width}mm"></span></td><td>{escape(bar.text)}</td></tr>'
        )
    return f'<figure><figcaption>{escape(block.title)}</figcaption><table class="bars">{"".join(rows)}</table></figure>'


def _fields(block: Fields) -> str:
    parts = []
    for label, value in block.fields:
        if value:
            inner = f'<span class="label">{escape(label)}:</span><span class="value">{escape(value)}</span>'
        else:
            inner = f'<span class="label">{escape(label)}</span><span class="line"></span>'
        parts.append(f'<span class="field">{inner}</span>')
    return '<div class="fields">' + "".join(parts) + "</div>"


def block_html(block: Block) -> str:
    if isinstance(block, Heading):
        level = min(max(block.level, 1), 3)
        return f"<h{level}>{escape(block.text)}</h{level}>"
    if isinstance(block, Paragraph):
        return f"<p>{escape(block.text)}</p>"
    if isinstance(block, Table):
        return table(block)
    if isinstance(block, Bars):
        return _bars(block)
    if isinstance(block, Math):
        caption = f"<figcaption>{escape(block.title)}</figcaption>" if block.title else ""
        return f'<figure class="work">{caption}<pre>{escape(chr(10).join(block.lines))}</pre></figure>'
    if isinstance(block, Instructions):
        return '<ol class="instructions">' + "".join(f"<li>{escape(item)}</li>" for item in block.items) + "</ol>"
    if isinstance(block, Fields):
        return _fields(block)
    if isinstance(block, Chart):

        note = f'<p class="note">{escape(block.note)}</p>' if block.note else ""
        return f'<figure class="chart" tabindex="0"><figcaption>{escape(block.title)}</figcaption>{svg.render(block)}{note}</figure>'
    raise TypeError(f"cannot draw {type(block).__name__} as HTML")


def render(blocks: list[Block], *, title: str = "attn-tutor") -> str:
    """A complete HTML document, its ``lang`` the language spoken.

    Each PageBreak closes a ``<div class="sheet">`` and opens the next one, which
    starts a new printed page. Each level-2 heading (a problem) opens a
    ``<section class="problem">``; its heading, notes and instructions stay
    together with the first table after them, and no table is split across pages.
    A whole problem may run over a page break: keeping it whole would leave most
    of a page blank whenever it does not fit under the sheet's header.
    """
    body: list[str] = ['<div class="sheet">']
    in_section = in_head = False

    def close_head() -> None:
        nonlocal in_head
        if in_head:
            body.append("</div>")
            in_head = False

    def close_section() -> None:
        nonlocal in_section
        close_head()
        if in_section:
            body.append("</section>")
            in_section = False

    for block in blocks:
        if isinstance(block, PageBreak):
            close_section()
            body.append('</div>\n<div class="sheet">')
            continue
        if isinstance(block, Heading) and block.level <= 2:
            close_section()
            if block.level == 2:
                body.append('<section class="problem">\n<div class="problem-head">')
                in_section = in_head = True
        elif isinstance(block, (Table, Math, Bars, Chart)):
            close_head()
        body.append(block_html(block))
    close_section()
    body.append("</div>")
    context = {"lang": "ko" if language() == "ko" else "en", "title": title, "css": CSS, "body": "\n".join(body)}
    return templating.render("attn_tutor.render", "document.html", context, escape)
