"""A workbook written by openpyxl, independently of the app, for the import tests: rows of cells given as JSON on
stdin, each null (empty), a string (a text cell, kept as text even when it looks like a number), or
{"n": number, "fmt": "000000000000"} (a number cell with that number format; "General" when no fmt).

Usage: python3 write-sheet.py OUT.xlsx < rows.json
"""
import json
import sys

from openpyxl import Workbook

rows = json.load(sys.stdin)
book = Workbook()
sheet = book.active
sheet.title = "Vendors"
for r, row in enumerate(rows, start=1):
    for c, cell in enumerate(row, start=1):
        if cell is None:
            continue
        target = sheet.cell(row=r, column=c)
        if isinstance(cell, str):
            target.value = cell
            target.data_type = "s"
            target.number_format = "@"
        else:
            target.value = cell["n"]
            target.number_format = cell.get("fmt", "General")
book.save(sys.argv[1])
