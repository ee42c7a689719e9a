import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type EvalReport, evalHandlers } from '../../../src/main/eval'
import { lastResultsPath } from '../../../src/main/eval/lastResults'
import { runCliInProcess } from '../../support/inProcessCli'
import { scriptedProviderEnv } from '../../support/scriptedProviderEnv'
import { scriptedSuite } from '../../support/scriptedSuite'

const suite = scriptedSuite('bureau-eval-cli-', { built: true })

describe('bureau eval', () => {
  it('--help lists the options', async () => {
    const result = await runCliInProcess(['eval', '--help'])
    expect(result.code).toBe(0)
    for (const flag of ['--provider', '--model', '--mode', '--tasks', '--repeat', '--json', '--reference'])
      expect(result.stdout).toContain(flag)
  })

  it('--reference --tasks <glob> --json: replays the tasks, prints the table, writes the JSON; no score is stored', async () => {
    const data = await suite.dirs.make()
    const json = join(data, 'report.json')
    const result = await runCliInProcess(
      [
        'eval',
        '--reference',
        '--tasks',
        'sheet-total-column,files-restore-*,mcp-reserve-stock',
        '--json',
        json,
        '--data-dir',
        data,
      ],
      { timeoutMs: 120_000 },
    )
    expect(result.stderr).toMatch(/\[1\/4\] files-restore-deleted \.\.\./)
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/PASS\s+sheet-total-column\s+easy\s+3\/12/)
    expect(result.stdout).toContain('score: 4/4 (100%)')
    const report = JSON.parse(await readFile(json, 'utf8')) as EvalReport
    expect(report.mode).toBe('reference')
    expect(report.runs.map((r) => [r.id, r.passed])).toEqual([
      ['files-restore-deleted', true],
      ['files-restore-version', true],
      // The built CLI starts the eval's own MCP server (the running Node, the shipped SDK).
      ['mcp-reserve-stock', true],
      ['sheet-total-column', true],
    ])
    expect(report.totals.byToolset.history).toEqual({ passed: 2, total: 2 })
    expect(report.totals.byToolset.mcp).toEqual({ passed: 1, total: 1 })
    expect(existsSync(lastResultsPath(data))).toBe(false)
  }, 150_000)

  it('a model run stores its score per provider/model, which the eval.lastResults route returns', async () => {
    const data = await suite.dirs.make()
    suite.llm.push({ text: 'The five March orders average 1,046.' })
    const env = scriptedProviderEnv(suite.llm, 'sk-eval-test', { BUREAU_INTERACTION_MODE: 'api' })
    const result = await runCliInProcess(['eval', '--tasks', 'sheet-question', '--data-dir', data], {
      env,
      timeoutMs: 60_000,
    })
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/bureau eval: openai\/scripted-model \(api mode\)/)
    expect(result.stderr).toContain('score saved for openai/scripted-model: 1/1')
    const scores = await evalHandlers({ dataDir: data })['eval.lastResults']()
    expect(scores).toEqual([
      expect.objectContaining({
        provider: 'openai',
        model: 'scripted-model',
        passed: 1,
        total: 1,
        partial: true,
      }),
    ])
  }, 90_000)

  it('a failed task exits 1 with the checker’s reason; a glob that matches nothing is an error', async () => {
    const data = await suite.dirs.make()
    suite.llm.push({ text: 'About 900.' })
    const env = scriptedProviderEnv(suite.llm, 'sk-eval-test', { BUREAU_INTERACTION_MODE: 'api' })
    const failed = await runCliInProcess(['eval', '--tasks', 'sheet-question', '--data-dir', data], {
      env,
      timeoutMs: 60_000,
    })
    expect(failed.code).toBe(1)
    expect(failed.stdout).toMatch(
      /FAIL\s+sheet-question.*the answer does not give 1046 \(numbers in it: 900\)/,
    )
    expect(failed.stderr).toContain('error: 1 of 1 tasks failed')

    const none = await runCliInProcess([
      'eval',
      '--reference',
      '--tasks',
      'nothing-like-this',
      '--data-dir',
      data,
    ])
    expect(none.code).toBe(1)
    expect(none.stderr).toMatch(/no eval task matches --tasks nothing-like-this/)
  }, 90_000)
})
