import { afterAll, beforeAll, expect, it } from 'vitest'
import { type EvalEnvironment, loadOfficeBench, runEval, shippedEvalDir } from '../../../src/main/eval'
import { describeNeeding, findThirdParty } from '../../support/requirements'
import { testEvalEnvironment } from './support'

// Every reference solution in eval/officebench/ replayed against OfficeBench's data must pass without a
// tool error, and every wrong solution must be rejected by the translated checks (minutes: the soak tier).
const solutionsDir = `${shippedEvalDir()}/officebench`

describeNeeding([{ thirdParty: 'officebench' }, 'dovecot', 'chromium'], 'OfficeBench full replay', () => {
  const dir = findThirdParty('officebench') as string
  let env: EvalEnvironment

  beforeAll(async () => {
    env = await testEvalEnvironment()
  }, 60_000)
  afterAll(() => env?.close())

  it('every reference solution passes', async () => {
    const taskSet = loadOfficeBench(dir, { mode: 'reference', solutionsDir })
    expect(taskSet.tasks.length).toBeGreaterThanOrEqual(40)
    const report = await runEval({ taskSet, evalDir: dir, env, mode: 'reference' })
    const failed = report.runs.filter((r) => !r.passed || r.toolErrors > 0)
    expect(failed.map((r) => `${r.id}: ${r.reason} ${r.errors.join('; ')}`)).toEqual([])
  }, 1_800_000)

  it('every wrong solution fails', async () => {
    const taskSet = loadOfficeBench(dir, { mode: 'wrong', solutionsDir })
    const report = await runEval({ taskSet, evalDir: dir, env, mode: 'wrong' })
    expect(report.runs.filter((r) => r.passed).map((r) => r.id)).toEqual([])
    expect(report.runs.length).toBe(taskSet.tasks.length)
  }, 1_800_000)
})
