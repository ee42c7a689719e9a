import { afterAll, beforeAll, expect, it } from 'vitest'
import { type EvalEnvironment, loadOfficeBench, runEval, shippedEvalDir } from '../../../src/main/eval'
import { describeNeeding, findThirdParty } from '../../support/requirements'
import { scriptedSuite } from '../../support/scriptedSuite'
import { scriptedModel } from '../agent/support'
import { testEvalEnvironment } from './support'

// Every reference solution in eval/officebench/ replayed against OfficeBench's data must pass without a
// tool error, and every wrong solution must be rejected by the translated checks (minutes: the soak tier).
const solutionsDir = `${shippedEvalDir()}/officebench`

/**
 * The subtasks whose own checks already hold in the start state (see eval/README.md): 1-2/1 (both
 * calendars already hold a dinner and no overlap), 1-11/3 (the workbook is already sorted as the
 * reference), 2-16/0 (the calendar already holds the agenda's people), 2-25/0 (it checks only that the
 * Word file is still there).
 */
const PASS_AT_START = ['ob-1-2-1', 'ob-1-11-3', 'ob-2-16-0', 'ob-2-25-0']

describeNeeding([{ thirdParty: 'officebench' }, 'dovecot', 'chromium'], 'OfficeBench full replay', () => {
  const dir = findThirdParty('officebench') as string
  const suite = scriptedSuite('bureau-ob-soak-')
  let env: EvalEnvironment

  beforeAll(async () => {
    env = await testEvalEnvironment()
  }, 60_000)
  afterAll(() => env?.close())

  it('every reference solution passes', async () => {
    const taskSet = loadOfficeBench(dir, { mode: 'reference', solutionsDir })
    // Every subtask whose own checks can pass has a reference; the others are left out with the reason.
    expect(taskSet.tasks.length).toBeGreaterThanOrEqual(285)
    expect(taskSet.tasks.length + taskSet.omitted.length).toBe(300)
    expect(taskSet.omitted.every((o) => o.reason.startsWith('its checks cannot pass: '))).toBe(true)
    const report = await runEval({ taskSet, evalDir: dir, env, mode: 'reference' })
    const failed = report.runs.filter((r) => !r.passed || r.toolErrors > 0)
    expect(failed.map((r) => `${r.id}: ${r.reason} ${r.errors.join('; ')}`)).toEqual([])
  }, 1_800_000)

  it('every wrong solution fails', async () => {
    const taskSet = loadOfficeBench(dir, { mode: 'wrong', solutionsDir })
    const report = await runEval({ taskSet, evalDir: dir, env, mode: 'wrong' })
    expect(report.runs.filter((r) => r.passed).map((r) => r.id)).toEqual([])
    expect(report.runs.length).toBe(taskSet.tasks.length)
    expect(report.runs.length).toBeGreaterThanOrEqual(285)
  }, 1_800_000)

  it('a model that answers "Done." at once passes only the subtasks whose checks hold in the start state', async () => {
    const taskSet = loadOfficeBench(dir, { mode: 'agent' })
    for (const _ of taskSet.tasks) suite.llm.push({ text: 'Done.' })
    const report = await runEval({
      taskSet,
      evalDir: dir,
      env: {
        ...env,
        openModel: async () => ({
          client: scriptedModel(suite.llm),
          interactionMode: 'api',
          provider: 'scripted',
          model: 'scripted-model',
        }),
      },
      mode: 'agent',
    })
    expect(report.runs.filter((r) => r.passed).map((r) => r.id)).toEqual(PASS_AT_START)
  }, 1_800_000)
})
