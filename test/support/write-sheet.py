"""A workbook written by openpyxl, independently of the app, for the import tests: rows of cells given as JSON on
stdin, each null (empty), a string (a text cell, kept as text even when it looks like a number), or
{"n": number, "fmt": "000000000000"} (a number cell with that number format; "General" when no fmt). The input may
instead be {"rows": [...], "widths": [characters per column], "fit": true}: column widths, and a landscape page one
page wide, so that a PDF printed from the workbook shows every cell whole (a statement as banks print it); and
"points": the type size of every cell, with the page printed at 100% (a reference for the size of printed text).

Usage: python3 write-sheet.py OUT.xlsx < rows.json
"""
import json
import sys

from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

given = json.load(sys.stdin)
rows = given["rows"] if isinstance(given, dict) else given
book = Workbook()
sheet = book.active
sheet.title = "Vendors"
if isinstance(given, dict):
    for c, width in enumerate(given.get("widths", []), start=1):
        sheet.column_dimensions[get_column_letter(c)].width = width
    if given.get("fit"):
        sheet.page_setup.orientation = "landscape"
        sheet.sheet_properties.pageSetUpPr.fitToPage = True
        sheet.page_setup.fitToWidth = 1
        sheet.page_setup.fitToHeight = 0
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
        if isinstance(given, dict) and "points" in given:
            target.font = Font(name="Calibri", size=given["points"])
book.save(sys.argv[1])
