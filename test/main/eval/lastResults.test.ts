import { afterAll, describe, expect, it } from 'vitest'
import { evalHandlers, saveLastResult } from '../../../src/main/eval'
import { totalsOf } from '../../../src/main/eval/report'
import type { EvalReport } from '../../../src/main/eval/results'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-last-results-')
afterAll(() => dirs.cleanup())

function report(passed: number, total: number, version: string, finishedAt: string): EvalReport {
  return {
    mode: 'agent',
    provider: 'ollama',
    model: 'qwen3:8b',
    interactionMode: 'api',
    taskSet: { version, digest: 'abcdef123456', tasks: total },
    startedAt: finishedAt,
    finishedAt,
    interrupted: false,
    repeat: 1,
    runs: [],
    totals: { ...totalsOf([]), all: { passed, total } },
  }
}

describe('the last eval score per provider/model and suite', () => {
  it("keeps a model's OfficeBench score apart from its own suite's; a newer run of a suite replaces only that suite's", async () => {
    const data = await dirs.make()
    await saveLastResult(data, report(17, 24, '1', '2026-12-01T10:00:00.000Z'), false)
    const ob = await saveLastResult(
      data,
      report(120, 300, 'officebench-2024-07-25', '2026-12-02T10:00:00.000Z'),
      false,
      'officebench',
    )
    expect(ob).toMatchObject({ suite: 'officebench', passed: 120, total: 300 })
    await saveLastResult(
      data,
      report(141, 300, 'officebench-2024-07-25', '2026-12-03T10:00:00.000Z'),
      true,
      'officebench',
    )
    const scores = await evalHandlers({ dataDir: data })['eval.lastResults']()
    expect(scores).toEqual([
      expect.objectContaining({ suite: 'officebench', passed: 141, total: 300, partial: true }),
      expect.objectContaining({ passed: 17, total: 24, taskSetVersion: '1' }),
    ])
    expect(scores[1]).not.toHaveProperty('suite')
  })

  it('a replay is not a score', async () => {
    const data = await dirs.make()
    const replay = {
      ...report(300, 300, 'officebench-2024-07-25', '2026-12-01T10:00:00.000Z'),
      mode: 'reference' as const,
    }
    expect(await saveLastResult(data, replay, false, 'officebench')).toBeUndefined()
    expect(await evalHandlers({ dataDir: data })['eval.lastResults']()).toEqual([])
  })
})
