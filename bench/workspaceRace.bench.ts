import { perThousand, startRace } from '../test/main/workspace/swapRace'
import type { BenchRow } from './types'

// 1,000 calls per workspace operation while a renameat2(RENAME_EXCHANGE) loop swaps
// the folder they work in with a link to an outside folder. Target: 0 escapes per 1,000 calls.
const CALLS = 1_000
const HISTORY_CALLS = 300
// A loop bound for a very busy machine; the row's note says when it cut a run short.
const BUDGET_MS = 180_000

export default async function bench(): Promise<BenchRow[]> {
  const race = await startRace()
  if ('reason' in race) return [{ name: 'symlink swap race', value: Number.NaN, unit: '', note: race.reason }]
  const rows: BenchRow[] = []
  try {
    for (const operation of race.operations) {
      const tally = await race.hammer(operation, CALLS, BUDGET_MS)
      rows.push({
        name: `swap race: ${operation.name}`,
        value: perThousand(tally),
        unit: 'escapes / 1,000 calls',
        target: '0',
        pass: tally.escapes === 0,
        note: `${tally.escapes} escapes in ${tally.calls} calls, ${tally.succeeded} succeeded${tally.examples.length ? `; e.g. ${tally.examples.join(' | ')}` : ''}`,
      })
    }
    const history = await race.hammerHistory(HISTORY_CALLS, BUDGET_MS)
    rows.push({
      name: 'swap race: files write_text with history',
      value: perThousand(history),
      unit: 'escapes / 1,000 calls',
      target: '0',
      pass: history.escapes === 0,
      note: `${history.escapes} escapes in ${history.calls} calls; ${history.versions} versions, ${history.leakedVersions} with outside content`,
    })
    const names = await race.outsideNames()
    rows.push({
      name: 'swap race: outside folder untouched',
      value: names.length,
      unit: 'entries',
      target: '4',
      pass: names.join() === 'a.txt,canary.txt,f.txt,h.txt',
      note: names.join(', '),
    })
  } finally {
    await race.stop()
  }
  return rows
}
