"""The openpyxl side of bench/spreadsheet.bench.ts: the same steps on the same file, for /usr/bin/python3."""
import json
import resource
import sys
import time

import openpyxl

path, rows = sys.argv[1], int(sys.argv[2])
peak_mb = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out = {}

started = time.perf_counter()
wb = openpyxl.load_workbook(path)
ws = wb["Data"]
# describe: used range, header row, column types from the first 200 rows, 5 sample rows
dims = ws.dimensions
header = [c.value for c in ws[1]]
types = [set(type(ws.cell(row=r, column=c).value).__name__ for r in range(2, 202)) for c in range(1, ws.max_column + 1)]
sample = [[c.value for c in row] for row in ws.iter_rows(min_row=2, max_row=6)]
out["openMs"] = (time.perf_counter() - started) * 1000
out["openPeakMb"] = peak_mb()

started = time.perf_counter()
start = rows - 2000
for r in range(1000):
    for c in range(10):
        ws.cell(row=start + r, column=2 + c, value=(f"edit {r}-{c}" if c % 2 else r * 10 + c))
out["setMs"] = (time.perf_counter() - started) * 1000
out["setPeakMb"] = peak_mb()

started = time.perf_counter()
wb.save(path)
out["saveMs"] = (time.perf_counter() - started) * 1000
out["savePeakMb"] = peak_mb()
out["usedRange"] = dims
print(json.dumps(out))
