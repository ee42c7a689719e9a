import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import type { EvalReport } from '../../../src/main/eval'
import { assertBuilt, runCli } from '../../support/builtCli'
import { tempDirs } from '../../support/tempDir'
import { itFast as it, itSoak } from '../../support/tier'
import { TINY_MODEL } from '../../support/tinyModel'

// The built CLI with the tiny random-weights GGUF (fixtures/models in the third-party folder) as an installed local
// model. Random weights cannot solve a task: these tests check that the harness and the chat survive a
// model that answers garbage (grammar-valid calls with nonsense in them) and one that never stops.

const MODEL = TINY_MODEL
const dirs = tempDirs('bureau-local-cli-')
// Nothing from the caller's environment picks another provider, model or workspace.
const env = Object.fromEntries(
  [
    'BUREAU_PROVIDER',
    'BUREAU_MODEL',
    'BUREAU_BASE_URL',
    'BUREAU_API_KEY',
    'BUREAU_CONTEXT_WINDOW',
    'BUREAU_INTERACTION_MODE',
    'BUREAU_WORKSPACE',
  ].map((name) => [name, '']),
)
const local = ['--provider', 'local', '--model', 'tiny']

/** A data folder with the fixture installed as `tiny`, one generation thread, and this answer limit. */
async function dataDir(maxOutputTokens: number): Promise<string> {
  const data = await dirs.make()
  const imported = await runCli(['models', 'import', MODEL, '--id', 'tiny', '--data-dir', data], { env })
  expect(imported.code, imported.stderr).toBe(0)
  // The machine's cores are shared: llama.cpp's workers spin against each other with more threads.
  const threads = await runCli(['settings', 'set', 'localModels.threads', '1', '--data-dir', data], { env })
  expect(threads.code, threads.stderr).toBe(0)
  // Only the changed field of the `local` preset (docs/providers-config.md): keeps each call short.
  await writeFile(join(data, 'providers.json'), JSON.stringify([{ id: 'local', maxOutputTokens }]))
  return data
}

let data: string

beforeAll(async () => {
  assertBuilt()
  data = await dataDir(48)
}, 60_000)
afterAll(() => dirs.cleanup())

describe('the tiny local model through the built CLI', () => {
  describe('the tiny local model through the built CLI', () => {
    itSoak(
      'bureau eval --tasks <two easy tasks> runs to the end: both fail with reasons, exit 1, a table and JSON',
      async () => {
        const json = join(data, 'report.json')
        const result = await runCli(
          ['eval', ...local, '--tasks', 'doc-answer-docx,sheet-question', '--json', json, '--data-dir', data],
          { env, timeoutMs: 240_000 },
        )
        // Exit 1: a task failed (`bureau eval --help`); no harness error, no crash.
        expect(result.code, result.stderr).toBe(1)
        expect(result.stderr).toContain('2 of 2 tasks failed')
        expect(result.stderr).not.toMatch(/harness error|TypeError|at .+\.js:\d+/)
        expect(result.stdout).toContain('bureau eval: local/tiny (cli mode)')
        expect(result.stdout).toMatch(/FAIL\s+doc-answer-docx\s+easy/)
        expect(result.stdout).toMatch(/FAIL\s+sheet-question\s+easy/)
        expect(result.stdout).toContain('score: 0/2 (0%)')
        const report = JSON.parse(await readFile(json, 'utf8')) as EvalReport
        expect(report).toMatchObject({ mode: 'agent', provider: 'local', model: 'tiny', interrupted: false })
        expect(report.runs.map((r) => [r.id, r.passed])).toEqual([
          ['doc-answer-docx', false],
          ['sheet-question', false],
        ])
        for (const run of report.runs) {
          // The checker says what is missing: the figure the task asks for.
          expect(run.reason).toMatch(/the answer does not give (279300|1046)/)
          expect(run.status).not.toBe('error')
          // The model really ran: it produced tokens, and stayed within the step budget (random weights may
          // answer without calling a tool, so no tool call is required).
          expect(run.tokens.output).toBeGreaterThan(0)
          expect(run.steps).toBeLessThanOrEqual(run.stepBudget)
        }
        // Its score is stored like any model's.
        const scores = JSON.parse(await readFile(join(data, 'eval', 'last-results.json'), 'utf8'))
        expect(scores.scores['local/tiny']).toMatchObject({ passed: 0, total: 2 })
      },
      300_000,
    )

    itSoak(
      'a model that never stops is cut by the task time limit, and the report says so',
      async () => {
        // An answer limit far beyond the context: the random model generates until something stops it.
        const endless = await dataDir(1_000_000)
        const result = await runCli(
          [
            'eval',
            ...local,
            '--tasks',
            'sheet-question',
            '--timeout',
            '2',
            '--json',
            '-',
            '--data-dir',
            endless,
          ],
          { env, timeoutMs: 180_000 },
        )
        expect(result.code, result.stderr).toBe(1)
        const report = JSON.parse(result.stdout) as EvalReport
        expect(report.runs).toHaveLength(1)
        expect(report.runs[0]).toMatchObject({ id: 'sheet-question', passed: false, status: 'cancelled' })
        expect(report.runs[0]?.reason).toContain("stopped (the task's time limit of 2 s ran out)")
        expect(report.interrupted).toBe(false)
      },
      240_000,
    )

    it('bureau chat --provider local --model tiny answers "hello" and exits 0', async () => {
      const workspace = await dirs.make()
      // The last step's grammar allows only done, so two steps always end in an answer.
      const result = await runCli(
        ['chat', ...local, '--max-iterations', '2', '--workspace', workspace, '--data-dir', data, 'hello'],
        { env, timeoutMs: 120_000 },
      )
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout.trim()).not.toBe('')
      expect(result.stderr).not.toMatch(/error:/)
    }, 180_000)
  })
})
