import { afterAll, beforeAll, expect, it } from 'vitest'
import { type EvalReport, loadTaskSet, runEval } from '../../../src/main/eval'

type TaskSet = ReturnType<typeof loadTaskSet>

import { DOVECOT, DOVECOT_REQUIRED } from '../../support/mailServers'
import { describeNeeding } from '../../support/requirements'
import { testEvalEnvironment } from './support'

/**
 * The eval suite replayed without a model: every reference solution must pass and every wrong solution must
 * be rejected by its checker. `npm test` replays a task per family (suite.test.ts); the soak tier replays
 * every task (suite.soak.test.ts).
 */
export function describeReplay(name: string, evalDir: string | undefined, taskSet: TaskSet): void {
  if (!evalDir) throw new Error('the shipped eval folder is missing')
  // The web tasks drive Chromium, the document tasks print with it.
  describeNeeding(['chromium'], name, () => {
    let reference: EvalReport
    let wrong: EvalReport
    let noDovecot: EvalReport
    // Where Dovecot is missing (and CI does not demand it) the e-mail tasks must fail with the reason.
    const dovecotAbsent = !DOVECOT && !DOVECOT_REQUIRED
    const needsMail = (id: string) => (taskSet.tasks.find((t) => t.id === id)?.mailbox.length ?? 0) > 0
    beforeAll(async () => {
      const env = await testEvalEnvironment()
      const saved = process.env.BUREAU_DOVECOT
      try {
        reference = await runEval({ taskSet, evalDir: evalDir, env, mode: 'reference' })
        wrong = await runEval({ taskSet, evalDir: evalDir, env, mode: 'wrong' })
        process.env.BUREAU_DOVECOT = '/nonexistent/dovecot'
        const mailTasks = loadTaskSet(evalDir, 'email-*')
        noDovecot = await runEval({ taskSet: mailTasks, evalDir: evalDir, env, mode: 'reference' })
      } finally {
        if (saved === undefined) delete process.env.BUREAU_DOVECOT
        else process.env.BUREAU_DOVECOT = saved
        await env.close()
      }
    }, 600_000)

    it('an e-mail task where Dovecot is absent fails with that reason, not a crash', () => {
      expect(noDovecot.runs.length).toBeGreaterThanOrEqual(2)
      for (const run of noDovecot.runs) {
        expect(run.passed).toBe(false)
        expect(run.reason).toMatch(/Dovecot is not installed \(apt-get install -y dovecot-imapd\)/)
      }
    })
    afterAll(() => {})

    it.each(taskSet.tasks.map((t) => t.id))(
      '%s: the reference passes with no tool error, the wrong solution fails',
      (id) => {
        const ref = reference.runs.find((r) => r.id === id)
        const bad = wrong.runs.find((r) => r.id === id)
        expect(ref, 'reference run').toBeDefined()
        if (dovecotAbsent && needsMail(id)) {
          console.log(`${id}: Dovecot is not installed, so only its failure reason is checked`)
          expect(ref?.reason).toMatch(/Dovecot is not installed/)
          return
        }
        expect({ passed: ref?.passed, reason: ref?.reason, errors: ref?.errors }).toEqual({
          passed: true,
          reason: expect.stringMatching(/checks? passed/),
          errors: [],
        })
        expect(bad?.passed, `wrong solution accepted: ${bad?.reason}`).toBe(false)
        expect(bad?.reason).not.toMatch(/harness error|crashed/)
        expect(bad?.errors).toEqual([])
      },
    )

    it('totals add up per difficulty and per toolset', () => {
      const unrunnable = dovecotAbsent ? taskSet.tasks.filter((t) => t.mailbox.length > 0).length : 0
      expect(reference.totals.all).toEqual({
        passed: taskSet.tasks.length - unrunnable,
        total: taskSet.tasks.length,
      })
      expect(wrong.totals.all.passed).toBe(0)
      const byDifficulty = Object.values(reference.totals.byDifficulty).reduce((n, t) => n + t.total, 0)
      expect(byDifficulty).toBe(taskSet.tasks.length)
      expect(reference.totals.byToolset.web?.total).toBe(
        taskSet.tasks.filter((t) => t.toolsets.includes('web')).length,
      )
      expect(reference.interrupted).toBe(false)
    })
  })
}
