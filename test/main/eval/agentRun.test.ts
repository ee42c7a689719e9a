import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EvalEnvironment } from '../../../src/main/eval'
import { loadTaskSet, runEval, shippedEvalDir } from '../../../src/main/eval'
import { scriptedSuite } from '../../support/scriptedSuite'
import { scriptedModel, sent } from '../agent/support'
import { testEvalEnvironment } from './support'

// The agent path, not only the tool path: the scripted model replays a task's reference solution as
// native tool calls, runAgent runs them through the app's toolsets, and the checker reads the result.
const suite = scriptedSuite('bureau-eval-agent-')
const evalDir = shippedEvalDir() as string
let base: EvalEnvironment & { dataDir: string }
let env: EvalEnvironment

beforeAll(async () => {
  base = await testEvalEnvironment()
  env = {
    ...base,
    openModel: async () => ({
      client: scriptedModel(suite.llm),
      interactionMode: 'api',
      provider: 'scripted',
      model: 'scripted-model',
    }),
  }
}, 60_000)
afterAll(() => base?.close())

describe('bureau eval through the agent', () => {
  it('a task solved by the model passes, with its steps and tokens counted', async () => {
    const taskSet = loadTaskSet(evalDir, 'sheet-total-column')
    const task = taskSet.tasks[0]
    if (!task) throw new Error('sheet-total-column is missing')
    // A model first opens the toolsets it needs (API mode discloses their methods on request).
    const toolsets = [
      ...new Set(task.reference.flatMap((c) => (c.tool === 'done' ? [] : [c.tool.split('_')[0]]))),
    ]
    suite.llm.push({ toolCalls: [{ name: 'open_toolset', arguments: { toolset: toolsets.join(',') } }] })
    for (const call of task.reference)
      suite.llm.push({ toolCalls: [{ name: call.tool, arguments: call.args }] })
    const report = await runEval({ taskSet, evalDir, env, mode: 'agent' })

    const run = report.runs[0]
    expect(run).toMatchObject({ id: 'sheet-total-column', passed: true, status: 'done', toolErrors: 0 })
    expect(run?.steps).toBe(task.reference.filter((c) => c.tool !== 'done').length)
    expect(run?.tokens.input).toBeGreaterThan(0)
    expect(report).toMatchObject({ mode: 'agent', provider: 'scripted', model: 'scripted-model' })
    // The model saw the task's prompt and got the tool results back.
    const first = sent(suite.llm.requests[0])
    expect(first.find((m) => m.role === 'user')?.content).toContain('/sales.xlsx')
    expect(sent(suite.llm.requests[2]).some((m) => m.role === 'tool')).toBe(true)
  }, 60_000)

  it('a model that answers garbage fails with the checker’s reason, and the run goes on', async () => {
    const taskSet = loadTaskSet(evalDir, 'sheet-fix-formula,files-restore-deleted')
    // Tasks run in id order. files-restore-deleted: prose without doing anything.
    suite.llm.push({ text: 'I restored the file for you!' })
    // sheet-fix-formula: calls to a tool that does not exist until the same failure stops the run.
    for (let i = 0; i < 3; i++)
      suite.llm.push({ toolCalls: [{ name: 'spreadsheet_fix_everything', arguments: { x: 1 } }] })
    const report = await runEval({ taskSet, evalDir, env, mode: 'agent' })

    expect(report.runs.map((r) => [r.id, r.passed])).toEqual([
      ['files-restore-deleted', false],
      ['sheet-fix-formula', false],
    ])
    const [restore, formula] = report.runs
    expect(formula?.status).toBe('repeated_failure')
    expect(formula?.toolErrors).toBeGreaterThanOrEqual(3)
    expect(formula?.reason).toMatch(/Budget!B12/)
    expect(restore?.status).toBe('answered')
    expect(restore?.reason).toMatch(/lease-2025.txt does not exist/)
    expect(report.totals.all).toEqual({ passed: 0, total: 2 })
  }, 60_000)

  it('the step budget ends a model that never stops, and the task fails', async () => {
    const taskSet = loadTaskSet(evalDir, 'web-read-table')
    const budget = taskSet.tasks[0]?.stepBudget ?? 0
    for (let i = 0; i < budget + 2; i++)
      suite.llm.push({ toolCalls: [{ name: 'files_list', arguments: { path: '/' } }] })
    const report = await runEval({ taskSet, evalDir, env, mode: 'agent' })
    expect(report.runs[0]).toMatchObject({ passed: false, status: 'budget' })
    expect(report.runs[0]?.steps).toBeLessThanOrEqual(budget)
  }, 60_000)

  it('a stop signal ends the run with what finished', async () => {
    const taskSet = loadTaskSet(evalDir, 'sheet-question,sheet-share-column')
    const controller = new AbortController()
    suite.llm.push({ text: 'The average March order is 1,046.' })
    const report = await runEval({
      taskSet,
      evalDir,
      env,
      mode: 'agent',
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done === 1) controller.abort(new Error('interrupted'))
      },
    })
    expect(report.interrupted).toBe(true)
    expect(report.runs.map((r) => [r.id, r.passed])).toEqual([['sheet-question', true]])
  }, 60_000)
})
