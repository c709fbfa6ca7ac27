"""``interview export``: one session in formats other tools read.

- ``formats``: graphml, dot, mermaid, csv, jsonl and md
- ``qdpx``: a REFI-QDA project for QualCoder, ATLAS.ti, NVivo, MAXQDA
- ``drawing``: levelled graphs as Mermaid, DOT and SVG (the report draws with it too)
- ``markdown``: Markdown text that shows what was said as written
"""
