import { readdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Bench, BenchRow } from './types'

// `npm run bench [filter]`: runs every bench/*.bench.ts (or those whose name contains the filter)
// and prints one table. Benchmarks never run inside `npm test`.
const dir = fileURLToPath(new URL('.', import.meta.url))
const filter = process.argv[2]

function format(value: number): string {
  if (!Number.isFinite(value)) return String(value)
  if (Math.abs(value) >= 100) return value.toFixed(0)
  if (Math.abs(value) >= 1) return value.toFixed(2)
  return value.toPrecision(3)
}

function printTable(rows: Array<BenchRow & { suite: string }>): void {
  const header = ['suite', 'measure', 'value', 'unit', 'target', 'ok', 'note']
  const lines = rows.map((r) => [
    r.suite,
    r.name,
    format(r.value),
    r.unit,
    r.target ?? '',
    r.pass === undefined ? '' : r.pass ? 'yes' : 'NO',
    r.note ?? '',
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)))
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`
  console.log(row(header))
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
  for (const line of lines) console.log(row(line))
}

const files = (await readdir(dir))
  .filter((f) => f.endsWith('.bench.ts') && (!filter || f.includes(filter)))
  .sort()
const all: Array<BenchRow & { suite: string }> = []
let failed = false
for (const file of files) {
  const suite = file.replace(/\.bench\.ts$/, '')
  process.stderr.write(`running ${suite}…\n`)
  try {
    const mod = (await import(new URL(file, import.meta.url).href)) as { default: Bench }
    for (const row of await mod.default()) all.push({ ...row, suite })
  } catch (error) {
    failed = true
    all.push({
      suite,
      name: 'ERROR',
      value: Number.NaN,
      unit: '',
      note: error instanceof Error ? error.message : String(error),
    })
  }
}
printTable(all)
process.exitCode = failed ? 1 : 0
