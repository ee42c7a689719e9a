import { selectMemories } from '../src/main/memory'
import { MemoryFile } from '../src/shared/memory'
import { INVOICE_FOLDER_MEMORY, officeMemories } from '../test/main/memory/memoryFixtures'
import { SCENARIOS } from './promptScenarios'
import type { Bench, BenchRow } from './types'

// `npm run bench memory`: choosing the memory block of a request (BM25 over every memory that applies,
// then the token budget counted with gpt-tokenizer), and the prompt tokens it adds per request.

function fileOf(count: number): MemoryFile {
  const at = '2026-01-01T00:00:00.000Z'
  return MemoryFile.parse({
    memories: officeMemories(count).map((text, i) => ({
      id: `m${i.toString(16).padStart(8, '0')}`,
      text,
      scope: { kind: 'everywhere' },
      source: { kind: 'settings' },
      createdAt: at,
      updatedAt: at,
    })),
  })
}

const ctx = { root: '/tmp/bench', siteUrl: 'http://127.0.0.1:1', toolsets: [] }
const QUERIES = [
  ...SCENARIOS.map((s) => s.prompt(ctx)),
  'Where do I save the invoice from Schmidt AG?',
  'Write a mail to Anna about the Müller GmbH project budget',
  'Which meeting room fits twelve people?',
]

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

const bench: Bench = async () => {
  const rows: BenchRow[] = []
  await selectMemories(fileOf(10), { query: 'warm up' }) // loads the tokenizer once
  const cold: number[] = []
  for (let round = 0; round < 5; round++) {
    const fresh = fileOf(5_000)
    const started = performance.now()
    await selectMemories(fresh, { query: QUERIES[round] ?? 'invoice' })
    cold.push(performance.now() - started)
  }
  rows.push({
    name: 'select, 5,000 memories, first after a change (median)',
    value: median(cold),
    unit: 'ms',
    note: 'builds the BM25 index (once per change of the store)',
  })
  const large = fileOf(5_000)
  await selectMemories(large, { query: 'warm up' })
  const times: number[] = []
  for (let round = 0; round < 5; round++) {
    for (const query of QUERIES) {
      const started = performance.now()
      await selectMemories(large, { query })
      times.push(performance.now() - started)
    }
  }
  rows.push({
    name: 'select, 5,000 memories (median)',
    value: median(times),
    unit: 'ms',
    target: '< 50 ms',
    pass: median(times) < 50,
    note: `${times.length} selections on an unchanged store`,
  })
  rows.push({ name: 'select, 5,000 memories (max)', value: Math.max(...times), unit: 'ms' })
  const invoice = await selectMemories(large, { query: 'Where do I save the invoice from Schmidt AG?' })
  rows.push({
    name: 'invoice question finds the invoice-folder memory',
    value: invoice.used.some((m) => m.text === INVOICE_FOLDER_MEMORY) ? 1 : 0,
    unit: 'bool',
    target: '1',
    pass: invoice.used.some((m) => m.text === INVOICE_FOLDER_MEMORY),
  })
  for (const [label, file] of [
    ['5,000 memories', large],
    ['50 memories', fileOf(50)],
  ] as const) {
    const tokens: number[] = []
    for (const scenario of SCENARIOS)
      tokens.push((await selectMemories(file, { query: scenario.prompt(ctx) })).tokens)
    rows.push({
      name: `tokens added, token-economy scenarios, ${label} (median)`,
      value: median(tokens),
      unit: 'tokens',
      target: '≤ 300',
      pass: Math.max(...tokens) <= 300,
      note: `per scenario: ${tokens.join(', ')}`,
    })
    rows.push({ name: `tokens added, ${label} (max)`, value: Math.max(...tokens), unit: 'tokens' })
  }
  return rows
}

export default bench
