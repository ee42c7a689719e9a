import { loadSpreadsheetToolset } from '../src/main/spreadsheet'
import { createToolSession, invoke } from '../src/main/tools'
import { createWorkspace } from '../src/main/workspace'

// Child process of spreadsheet.bench.ts (pivot rows): open the 50,000 x 12 workbook, create_pivot_table
// by two row fields with two sums, save; prints one JSON line with wall and CPU time and peak RSS.

const root = process.argv[2]!
const workspace = createWorkspace({ root })
const session = createToolSession({ toolsets: [await loadSpreadsheetToolset()], workspace })
const cpu = process.cpuUsage()
const started = performance.now()
const pivot = await invoke(session, 'spreadsheet_create_pivot_table', {
  path: '/big.xlsx',
  source: 'Data!A:L',
  target: { sheet: 'Pivot', cell: 'A1' },
  rows: ['Region', 'Note'],
  values: [
    { field: 'Qty', summary: 'sum' },
    { field: 'Total', summary: 'sum' },
  ],
})
if (!pivot.ok) throw new Error(`create_pivot_table: ${pivot.error}`)
const pivotMs = performance.now() - started
const save = await invoke(session, 'spreadsheet_save', { path: '/big.xlsx' })
if (!save.ok) throw new Error(`save: ${save.error}`)
const used = process.cpuUsage(cpu)
const value = pivot.value as { pivot: { location: string } }
console.log(
  JSON.stringify({
    pivotMs,
    totalMs: performance.now() - started,
    cpuMs: (used.user + used.system) / 1000,
    peakMb: process.resourceUsage().maxRSS / 1024,
    location: value.pivot.location,
  }),
)
await session.dispose()
await workspace.close()
