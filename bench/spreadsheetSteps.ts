import { loadSpreadsheetToolset } from '../src/main/spreadsheet'
import { createToolSession, invoke } from '../src/main/tools'
import { createWorkspace } from '../src/main/workspace'

// Child process of spreadsheet.bench.ts: open + describe_worksheet, set_range of 10,000 cells, save,
// through the real toolset; prints one JSON line with wall time, CPU time (user + system, all threads)
// and peak RSS after each step.

const [root, rows] = [process.argv[2]!, Number(process.argv[3])]
const workspace = createWorkspace({ root })
const session = createToolSession({ toolsets: [await loadSpreadsheetToolset()], workspace })
const peakMb = () => process.resourceUsage().maxRSS / 1024

async function step(name: string, args: Record<string, unknown>) {
  const cpu = process.cpuUsage()
  const started = performance.now()
  const result = await invoke(session, `spreadsheet_${name}`, args)
  if (!result.ok) throw new Error(`${name}: ${result.error}`)
  const used = process.cpuUsage(cpu)
  return {
    ms: performance.now() - started,
    cpuMs: (used.user + used.system) / 1000,
    value: result.value as Record<string, unknown>,
  }
}

const out: Record<string, number | string> = {}
const open = await step('open', { path: '/big.xlsx' })
const describe = await step('describe_worksheet', { path: '/big.xlsx', sheet: 'Data' })
out.openMs = open.ms + describe.ms
out.openCpuMs = open.cpuMs + describe.cpuMs
out.openPeakMb = peakMb()
out.usedRange = String(describe.value.usedRange)
const values = Array.from({ length: 1000 }, (_, r) =>
  Array.from({ length: 10 }, (_, c) => (c % 2 ? `edit ${r}-${c}` : r * 10 + c)),
)
const set = await step('set_range', { path: '/big.xlsx', sheet: 'Data', start: `B${rows - 2000}`, values })
out.setMs = set.ms
out.setCpuMs = set.cpuMs
out.setPeakMb = peakMb()
// The same call again (same cells, so the save writes what openpyxl's does): the first call includes V8
// compiling the code paths it is the first to run hot.
const again = await step('set_range', { path: '/big.xlsx', sheet: 'Data', start: `B${rows - 2000}`, values })
out.setAgainMs = again.ms
out.setAgainCpuMs = again.cpuMs
const save = await step('save', { path: '/big.xlsx' })
out.saveMs = save.ms
out.saveCpuMs = save.cpuMs
out.savePeakMb = peakMb()
out.verified = String(save.value.verified)
await session.dispose()
await workspace.close()
console.log(JSON.stringify(out))
