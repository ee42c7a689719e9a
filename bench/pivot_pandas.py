"""The pandas + openpyxl side of the pivot rows in bench/spreadsheet.bench.ts, for /usr/bin/python3:
read the sheet, pivot_table by two fields with two sums, write the result into the workbook with openpyxl, save."""
import json
import resource
import sys
import time

import openpyxl
import pandas as pd

path = sys.argv[1]
started = time.perf_counter()
cpu = time.process_time()
df = pd.read_excel(path, sheet_name="Data", engine="openpyxl")
table = df.pivot_table(index=["Region", "Note"], values=["Qty", "Total"], aggfunc="sum", margins=True)
pivot_ms = (time.perf_counter() - started) * 1000
wb = openpyxl.load_workbook(path)
ws = wb.create_sheet("Pivot")
ws.append(["Region", "Note", "Sum of Qty", "Sum of Total"])
for (region, note), row in table.iterrows():
    ws.append([region, note, float(row["Qty"]), float(row["Total"])])
wb.save(path)
print(json.dumps({
    "pivotMs": pivot_ms,
    "totalMs": (time.perf_counter() - started) * 1000,
    "cpuMs": (time.process_time() - cpu) * 1000,
    "peakMb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "rows": len(table),
}))
