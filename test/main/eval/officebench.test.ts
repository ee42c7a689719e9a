import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  type EvalEnvironment,
  formatPaperTable,
  loadOfficeBench,
  runEval,
  shippedEvalDir,
} from '../../../src/main/eval'
import { describeNeeding, findThirdParty } from '../../support/requirements'
import { scriptedSuite } from '../../support/scriptedSuite'
import { scriptedModel } from '../agent/support'
import { testEvalEnvironment } from './support'

// OfficeBench's own data (../shared/officebench, never copied here) through `bureau eval --suite`: the
// loader, a smoke subset of the project's reference and wrong solutions (one subtask per combination of
// apps it exercises: files, a sheet, reading mail, a PDF into an image, a sheet into Word, a PDF into a
// calendar, a sheet into a sent mail, a calendar into a sent mail, a sheet into a sheet and a PDF), and
// models that do nothing or call a tool badly. The full replay is officebench.soak.test.ts.
const SMOKE = 'ob-1-3-0,ob-1-4-0,ob-1-19-2,ob-1-22-4,ob-2-18-2,ob-2-29-0,ob-2-40-1,ob-2-43-0,ob-3-8-1'
const solutionsDir = `${shippedEvalDir()}/officebench`

describeNeeding(
  [{ thirdParty: 'officebench' }, 'dovecot', 'chromium'],
  'OfficeBench through bureau eval',
  () => {
    const dir = findThirdParty('officebench') as string
    const suite = scriptedSuite('bureau-ob-')
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

    it('reads all 300 subtasks as ob-<folder>-<n> with the paper’s tiers, step budget and preamble', () => {
      const set = loadOfficeBench(dir, { mode: 'agent', solutionsDir })
      expect(set.tasks).toHaveLength(300)
      const tiers = [1, 2, 3].map((apps) => set.tasks.filter((t) => t.apps === apps).length)
      expect(tiers).toEqual([93, 95, 112])
      expect(set.tasks.every((t) => /^ob-\d-\d+-\d+$/.test(t.id) && t.stepBudget === 50)).toBe(true)
      const task = set.tasks.find((t) => t.id === 'ob-2-14-0')
      expect(task?.difficulty).toBe('medium')
      expect(task?.prompt).toMatch(/^Today is \w+day, \d{4}-\d\d-\d\d, .+ You are working for \w+\./)
      expect([...(task?.files?.keys() ?? [])]).toEqual(['/data/score.xlsx'])
      // The subtasks whose own checks cannot pass carry the reason, and are not dropped.
      const apart = set.tasks.filter((t) => t.cannotPass)
      expect(apart.map((t) => t.id)).toEqual(
        expect.arrayContaining(['ob-1-14-2', 'ob-3-62-0', 'ob-3-82-0', 'ob-3-99-0']),
      )
      expect(apart.length).toBeLessThanOrEqual(15)
      expect(set.tasks.find((t) => t.id === 'ob-1-14-2')?.cannotPass).toMatch(/salery\.xlsx does not exist/)
      // --tasks globs select by id.
      expect(loadOfficeBench(dir, { mode: 'agent', filter: 'ob-1-3-*' }).tasks.map((t) => t.id)).toEqual([
        'ob-1-3-0',
        'ob-1-3-1',
        'ob-1-3-2',
        'ob-1-3-3',
        'ob-1-3-4',
      ])
    })

    it('the smoke subset’s reference solutions pass and its wrong solutions fail', async () => {
      const reference = await runEval({
        taskSet: loadOfficeBench(dir, { mode: 'reference', filter: SMOKE, solutionsDir }),
        evalDir: dir,
        env,
        mode: 'reference',
      })
      expect(reference.runs.map((r) => [r.id, r.passed, r.toolErrors, r.reason])).toEqual(
        SMOKE.split(',').map((id) => [id, true, 0, expect.stringMatching(/checks? passed/)]),
      )
      const table = formatPaperTable(reference)
      expect(table).toMatch(
        /reference solutions, every subtask run\s+100\.0% \(4\/4\)\s+100\.0% \(4\/4\)\s+100\.0% \(1\/1\)\s+100\.0% \(9\/9\)/,
      )
      expect(table).toMatch(/GPT-4o \(paper\)\s+64\.5%\s+60\.0%\s+21\.4%\s+47\.0%/)
      // The three-app one's mistake prints a PDF too (Chromium, seconds): the soak replay covers it.
      const quick = SMOKE.replace(',ob-3-8-1', '')
      const wrong = await runEval({
        taskSet: loadOfficeBench(dir, { mode: 'wrong', filter: quick, solutionsDir }),
        evalDir: dir,
        env,
        mode: 'wrong',
      })
      expect(wrong.runs.map((r) => [r.id, r.passed])).toEqual(quick.split(',').map((id) => [id, false]))
    }, 300_000)

    it('a model that answers "Done." at once scores 0, each with the checker’s reason', async () => {
      const taskSet = loadOfficeBench(dir, { mode: 'agent', filter: SMOKE })
      for (const _ of taskSet.tasks) suite.llm.push({ text: 'Done.' })
      const report = await runEval({ taskSet, evalDir: dir, env, mode: 'agent' })
      expect(report.totals.all).toEqual({ passed: 0, total: 9 })
      expect(report.runs.map((r) => r.reason)).toEqual([
        '/data/test_file1.docx does not exist',
        '/data/score.xlsx: the cell (12, 2) does not read "100"',
        '/data/abstract.png does not exist',
        '/data/answer.txt does not exist',
        '/data/shopping_list.docx does not exist',
        '/calendar/Alice.ics does not exist',
        'there is no mail folder of Bob',
        'there is no mail folder of Bob',
        '/data/good.xlsx does not exist',
      ])
    }, 180_000)

    it('a subtask whose own checks cannot pass fails with the reason, even where its other checks hold', async () => {
      const taskSet = loadOfficeBench(dir, { mode: 'agent', filter: 'ob-1-14-2' })
      suite.llm.push({ text: 'Done.' })
      const report = await runEval({ taskSet, evalDir: dir, env, mode: 'agent' })
      expect(report.runs[0]).toMatchObject({ id: 'ob-1-14-2', passed: false })
      expect(report.runs[0]?.reason).toMatch(/its own checks cannot pass: .*salery\.xlsx does not exist/)
      expect(report.totals).toMatchObject({ all: { passed: 0, total: 0 }, apart: { passed: 0, total: 1 } })
    }, 180_000)

    it('a model that calls a tool with bad arguments fails honestly, with the checker’s reason', async () => {
      const taskSet = loadOfficeBench(dir, { mode: 'agent', filter: 'ob-1-4-0' })
      suite.llm.push({ toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'spreadsheet' } }] })
      for (let i = 0; i < 3; i++)
        suite.llm.push({
          toolCalls: [
            {
              name: 'spreadsheet_set_cell_value',
              arguments: { path: '/data/score.xlsx', sheet: 'Sheet1', cell: 'twelve' },
            },
          ],
        })
      const report = await runEval({ taskSet, evalDir: dir, env, mode: 'agent' })
      const run = report.runs[0]
      expect(run).toMatchObject({ id: 'ob-1-4-0', passed: false, status: 'repeated_failure' })
      expect(run?.toolErrors).toBeGreaterThanOrEqual(3)
      expect(run?.reason).toBe(
        '/data/score.xlsx: the cell (12, 2) does not read "100"; the agent stopped after the same tool error three times',
      )
    }, 180_000)
  },
)
