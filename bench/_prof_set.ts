import { Session } from 'node:inspector/promises'
import { writeFileSync } from 'node:fs'
import { loadSpreadsheetToolset } from '../src/main/spreadsheet'
import { createToolSession, invoke } from '../src/main/tools'
import { createWorkspace } from '../src/main/workspace'
const rows = 50_000
const workspace = createWorkspace({ root: '/tmp/sheet' })
const session = createToolSession({ toolsets: [await loadSpreadsheetToolset()], workspace })
await invoke(session, 'spreadsheet_open', { path: '/big.xlsx' })
await invoke(session, 'spreadsheet_describe_worksheet', { path: '/big.xlsx', sheet: 'Data' })
const values = Array.from({ length: 1000 }, (_, r) => Array.from({ length: 10 }, (_, c) => (c % 2 ? `edit ${r}-${c}` : r * 10 + c)))
const ins = new Session(); ins.connect()
const prof = process.env.PROF === '1'
if (prof) { await ins.post('Profiler.enable'); await ins.post('Profiler.setSamplingInterval', { interval: 100 }); await ins.post('Profiler.start') }
const cpu = process.cpuUsage(); const t = performance.now()
const r = await invoke(session, 'spreadsheet_set_range', { path: '/big.xlsx', sheet: 'Data', start: `B${rows - 2000}`, values })
const ms = performance.now() - t; const u = process.cpuUsage(cpu)
if (prof) { const { profile } = await ins.post('Profiler.stop'); writeFileSync('/tmp/set.cpuprofile', JSON.stringify(profile)) }
const t2 = performance.now()
await invoke(session, 'spreadsheet_set_range', { path: '/big.xlsx', sheet: 'Data', start: `B${rows - 2000}`, values })
console.log(JSON.stringify({ ok: r.ok, ms, cpu: (u.user + u.system) / 1000, again: performance.now() - t2 }))
process.exit(0)
