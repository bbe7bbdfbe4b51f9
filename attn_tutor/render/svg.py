"""A :class:`~attn_tutor.render.blocks.Chart` as inline SVG markup: our own small renderer, no library.

Three kinds (see the block): vertical columns with their counts, 100% stacked
bars with a legend, and a shaded grid of counts. The SVG has a ``<title>`` and
``role="img"``; every text is escaped; sizes are in CSS pixels with a
``viewBox``, so the page scales it. Colours are told apart in grey too (print):
each verdict has its own lightness, and "wrong" is hatched. No fonts, images or
links are fetched: the markup is inert under the page's Content-Security-Policy.
"""

from __future__ import annotations

from html import escape

from attn_tutor.render.blocks import Chart, display_width

WIDTH = 680
FONT = 12  # px
CHAR = 7.0  # px per display cell at FONT (a Hangul syllable takes two)
SERIES_FILL = {
    "correct": "#1b5e20",
    "follow_through": "#66bb6a",
    "partial": "#fdd835",
    "wrong": "url(#hatch-wrong)",
    "missing": "#e0e0e0",
}
SERIES_INK = {"correct": "#fff", "follow_through": "#000", "partial": "#000", "wrong": "#fff", "missing": "#000"}
DEFAULT_FILLS = ("#1f4e79", "#6fa8dc", "#f6b26b", "#cc0000", "#999999")
BAR = "#1f4e79"


def _w(text: str) -> float:
    return display_width(text) * CHAR


def _text(x: float, y: float, text: str, *, anchor: str = "start", size: int = FONT, fill: str = "#000", extra: str = "") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}"{extra}>'
        f"{escape(text)}</text>"
    )


def _svg(height: float, title: str, body: list[str], width: float = WIDTH) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" '
        f'height="{height:.0f}" role="img" font-family="sans-serif">'
        f"<title>{escape(title)}</title>" + "".join(body) + "</svg>"
    )


def _defs() -> str:
    return (
        '<defs><pattern id="hatch-wrong" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#b71c1c"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#ef9a9a" stroke-width="1.2"/></pattern></defs>'
    )


def _nice_step(top: int, ticks: int = 4) -> int:
    """A whole tick step (1, 2, 5, 10, 20, 50...) that reaches ``top`` in at most ``ticks`` steps."""
    step = 1
    while True:
        for m in (1, 2, 5):
            if step * m * ticks >= top:
                return step * m
        step *= 10


def columns(chart: Chart) -> str:
    counts = [row[0] if row else 0 for row in chart.values]
    step = _nice_step(max(counts, default=0))
    ticks = max(-(-max(counts, default=0) // step), 1)
    top = step * ticks  # whole numbers of students on the axis
    left, right, head, foot = 40, 10, 22, 34
    plot_h = 180
    n = max(len(counts), 1)
    slot = (WIDTH - left - right) / n
    bar = slot * 0.72
    body = []
    for k in range(ticks + 1):
        y = head + plot_h - plot_h * k / ticks
        body.append(f'<line x1="{left}" y1="{y:.1f}" x2="{WIDTH - right}" y2="{y:.1f}" stroke="#ccc" stroke-width="1"/>')
        body.append(_text(left - 6, y + 4, str(step * k), anchor="end", size=11))
    for i, (label, count) in enumerate(zip(chart.labels, counts)):
        x = left + slot * i + (slot - bar) / 2
        h = plot_h * count / top if top else 0
        y = head + plot_h - h
        body.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar:.1f}" height="{h:.1f}" fill="{BAR}"/>')
        body.append(_text(x + bar / 2, y - 4, str(count), anchor="middle", size=11))
        body.append(_text(x + bar / 2, head + plot_h + 16, label, anchor="middle", size=11))
    body.append(f'<line x1="{left}" y1="{head + plot_h}" x2="{WIDTH - right}" y2="{head + plot_h}" stroke="#000"/>')
    return _svg(head + plot_h + foot, chart.title, body)


def _legend(series: tuple[str, ...], labels: tuple[str, ...], fills: dict[str, str], x0: float, y: float) -> tuple[list[str], float]:
    body, x = [], x0
    for key, label in zip(series, labels):
        width = 14 + 6 + _w(label) + 16
        if x + width > WIDTH:
            x, y = x0, y + 18
        body.append(f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="14" height="12" fill="{fills[key]}" stroke="#000" stroke-width=".5"/>')
        body.append(_text(x + 20, y, label, size=11))
        x += width
    return body, y


def stacked(chart: Chart) -> str:
    """Each label's counts as shares of one bar; ``chart.keys`` (verdict codes) choose the fills."""
    keys = chart.keys or chart.series
    names = chart.series
    fills = {key: SERIES_FILL.get(key, DEFAULT_FILLS[i % len(DEFAULT_FILLS)]) for i, key in enumerate(keys)}
    ink = {key: SERIES_INK.get(key, "#fff") for key in keys}
    label_w = min(max((_w(label) for label in chart.labels), default=0) + 12, WIDTH * 0.45)
    body = [_defs()]
    legend, y = _legend(keys, names, fills, 0, 14)
    body += legend
    top = y + 14
    row_h, bar_h = 24, 16
    x0, span = label_w, WIDTH - label_w - 8
    for i, (label, counts) in enumerate(zip(chart.labels, chart.values)):
        y = top + i * row_h
        body.append(_text(x0 - 8, y + bar_h - 4, label, anchor="end", size=11))
        total = sum(counts)
        x = x0
        if total == 0:
            body.append(f'<rect x="{x0:.1f}" y="{y:.1f}" width="{span:.1f}" height="{bar_h}" fill="#fff" stroke="#999"/>')
            continue
        for key, count in zip(keys, counts):
            if not count:
                continue
            w = span * count / total
            body.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{bar_h}" fill="{fills[key]}"/>')
            share = f"{round(100 * count / total)}%"
            if w >= _w(share) + 6:
                halo = ' font-weight="bold" stroke="#000" stroke-width="2.5" paint-order="stroke"' if key == "wrong" else ""
                body.append(_text(x + w / 2, y + bar_h - 4, share, anchor="middle", size=10, fill=ink[key], extra=halo))
            x += w
        body.append(f'<rect x="{x0:.1f}" y="{y:.1f}" width="{span:.1f}" height="{bar_h}" fill="none" stroke="#000" stroke-width=".5"/>')
    height = top + len(chart.labels) * row_h + 4
    return _svg(height, chart.title, body)


def grid(chart: Chart) -> str:
    names = chart.series
    label_w = min(max((_w(label) for label in chart.labels), default=0) + 12, WIDTH * 0.4)
    columns_n = max(len(chart.series), 1)
    cell_w = max(min((WIDTH - label_w - 8) / columns_n, 64), 28)
    cell_h = 22
    head = max((_w(name) for name in names), default=0) * 0.72 + 16  # the header is written at -45°
    top_count = max((max(row, default=0) for row in chart.values), default=0) or 1
    body = []
    for j, name in enumerate(names):
        x = label_w + cell_w * j + cell_w / 2
        body.append(_text(x, head - 6, name, size=11, extra=f' transform="rotate(-45 {x:.1f} {head - 6:.1f})"'))
    width = label_w + cell_w * columns_n + 8 + head * 0.7  # rotated headers lean right
    for i, (label, counts) in enumerate(zip(chart.labels, chart.values)):
        y = head + i * cell_h
        body.append(_text(label_w - 8, y + cell_h - 7, label, anchor="end", size=11))
        for j, count in enumerate(counts):
            x = label_w + cell_w * j
            level = count / top_count
            shade = round(255 - 200 * level)  # white (none) to dark blue-grey (the most)
            fill = "#fff" if not count else f"rgb({shade - 40 if shade > 40 else 0},{shade - 10 if shade > 10 else 0},{shade})"
            body.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{cell_w:.1f}" height="{cell_h}" fill="{fill}" stroke="#999" stroke-width=".5"/>')
            if count:
                ink = "#fff" if level > 0.5 else "#000"
                body.append(_text(x + cell_w / 2, y + cell_h - 7, str(count), anchor="middle", size=11, fill=ink))
    height = head + len(chart.labels) * cell_h + 6
    return _svg(height, chart.title, body, width=max(width, 200))


def render(chart: Chart) -> str:
    if chart.kind == "columns":
        return columns(chart)
    if chart.kind == "stacked":
        return stacked(chart)
    if chart.kind == "grid":
        return grid(chart)
    raise ValueError(f"unknown chart kind {chart.kind!r}")
