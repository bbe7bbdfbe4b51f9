"""Document blocks and their renderers: terminal, Markdown, HTML, LaTeX, Typst (PDF), SVG.

blocks holds the vocabulary (Heading, Paragraph, Table, Math, Bars, ...); each
renderer turns a list of blocks into text or bytes. Nothing here knows attention.
terminal is the one module that imports rich (inside its functions); typst imports
the Typst compiler only when a PDF is made. templating fills the pages' Jinja2 templates
(this package's document, the practice page's and the live class's), importing Jinja2 only
when a page is made.

May import: core.
"""
