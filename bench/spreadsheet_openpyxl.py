"""The openpyxl side of bench/spreadsheet.bench.ts: the same steps on the same file, for /usr/bin/python3."""
import json
import resource
import sys
import time

import openpyxl

path, rows = sys.argv[1], int(sys.argv[2])
peak_mb = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out = {}


def clocks():
    return time.perf_counter(), time.process_time()


def record(name, since):
    wall, cpu = clocks()
    out[name + "Ms"] = (wall - since[0]) * 1000
    out[name + "CpuMs"] = (cpu - since[1]) * 1000


started = clocks()
wb = openpyxl.load_workbook(path)
ws = wb["Data"]
# describe: used range, header row, column types from the first 200 rows, 5 sample rows
dims = ws.dimensions
header = [c.value for c in ws[1]]
types = [set(type(ws.cell(row=r, column=c).value).__name__ for r in range(2, 202)) for c in range(1, ws.max_column + 1)]
sample = [[c.value for c in row] for row in ws.iter_rows(min_row=2, max_row=6)]
record("open", started)
out["openPeakMb"] = peak_mb()

started = clocks()
start = rows - 2000
for r in range(1000):
    for c in range(10):
        ws.cell(row=start + r, column=2 + c, value=(f"edit {r}-{c}" if c % 2 else r * 10 + c))
record("set", started)
out["setPeakMb"] = peak_mb()

started = clocks()
wb.save(path)
record("save", started)
out["savePeakMb"] = peak_mb()
out["usedRange"] = dims
print(json.dumps(out))
