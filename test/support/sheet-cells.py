"""Every cell of a small workbook as openpyxl reads it, with its type: what LibreOffice made of an export it opened
(tests convert with soffice, then read the result here). Formulas are kept as formulas, not evaluated, so a cell
that a spreadsheet would run shows as type "f".

Usage: python3 sheet-cells.py FILE.xlsx  ->  {"sheet": [[[type, value], ...], ...], ...} on stdout, where type is
openpyxl's data type ("s" text, "n" number, "d" date, "f" formula, "b" boolean) and dates are ISO text.
"""
import datetime
import json
import sys

from openpyxl import load_workbook


def value(v):
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time)):
        return v.isoformat()
    return v


workbook = load_workbook(sys.argv[1])
print(
    json.dumps(
        {
            sheet.title: [[[c.data_type, value(c.value)] for c in row] for row in sheet.iter_rows()]
            for sheet in workbook.worksheets
        }
    )
)
