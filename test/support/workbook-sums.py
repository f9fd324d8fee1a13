"""What openpyxl, a reader independent of the app's writer and of exceljs, reads in a workbook: per sheet, the
rows below the header, the sum of every money column (header ending "(INR)") in paise, and the kinds of value
each column holds. Cells are added up as decimal.Decimal(str(value)): str() gives the shortest text that reads
back as the same float, so a cell written as "2506.60" adds exactly 2506.6 and the sums are exact.

The sheets are read as a streaming reader reads them, sized by their <dimension> (no reset_dimensions): "declared"
is the size the sheet states and "short_rows" counts rows the reader returned shorter than the header.

With --print, each sheet's print setup as openpyxl loads it in full (and its rows under the header): orientation, fit to width and height, the
scale, the manual column breaks (the zero-based index of the first column of each next page width), the rows repeated on
every page and the footer.

Usage: python3 workbook-sums.py [--print] FILE.xlsx  ->  one JSON object on stdout.
"""
import datetime
import json
import sys
from decimal import Decimal

from openpyxl import load_workbook


def kind(value):
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, datetime.datetime):
        return "datetime"
    return type(value).__name__


def paise(sheet, header, total):
    minor = total * 100
    if minor != minor.to_integral_value():
        sys.exit(f"{sheet} / {header}: the cells add up to {total}, which is not a whole number of paise")
    return int(minor)


def read(path):
    workbook = load_workbook(path, read_only=True)
    out = {}
    for sheet in workbook.worksheets:
        declared = sheet.max_row
        rows = sheet.iter_rows(values_only=True)
        header = next(rows, ())
        money = {i for i, h in enumerate(header) if isinstance(h, str) and h.endswith("(INR)")}
        sums = {header[i]: Decimal(0) for i in money}
        kinds = {h: set() for h in header if h is not None}
        count = 0
        short = 0
        for row in rows:
            count += 1
            if len(row) < len(header):
                short += 1
            for i, value in enumerate(row):
                if value is None:
                    continue
                kinds[header[i]].add(kind(value))
                if i in money and kind(value) == "number":
                    sums[header[i]] += Decimal(str(value))
        out[sheet.title] = {
            "rows": count,
            "declared": None if declared is None else declared - 1,
            "short_rows": short,
            "sums": {h: paise(sheet.title, h, total) for h, total in sums.items()},
            "kinds": {h: sorted(k) for h, k in kinds.items()},
        }
    return out


def print_setup(path):
    workbook = load_workbook(path)
    out = {}
    for sheet in workbook.worksheets:
        setup = sheet.page_setup
        out[sheet.title] = {
            "orientation": setup.orientation,
            "fit_to_width": setup.fitToWidth,
            "fit_to_height": setup.fitToHeight,
            "fit_to_page": bool(sheet.sheet_properties.pageSetUpPr and sheet.sheet_properties.pageSetUpPr.fitToPage),
            "scale": setup.scale,
            "column_breaks": [b.id for b in sheet.col_breaks.brk],
            "print_title_rows": sheet.print_title_rows,
            "footer": [sheet.oddFooter.left.text, sheet.oddFooter.right.text],
            "rows": sheet.max_row - 1,
        }
    return out


if sys.argv[1] == "--print":
    print(json.dumps(print_setup(sys.argv[2])))
else:
    print(json.dumps(read(sys.argv[1])))
