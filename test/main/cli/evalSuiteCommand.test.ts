import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { runCli } from '../../support/builtCli'
import { describeNeeding, findThirdParty } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'

// `bureau eval --suite`, through the built CLI, on OfficeBench's own data (../shared/officebench).
const dirs = tempDirs('bureau-eval-suite-')
afterAll(() => dirs.cleanup())

describeNeeding([{ thirdParty: 'officebench' }], 'bureau eval --suite', () => {
  const dir = findThirdParty('officebench') as string

  it('--suite <dir> --reference --tasks --json: the per-task lines, the paper’s table, the JSON with what was left out', async () => {
    const data = await dirs.make()
    const json = join(data, 'ob.json')
    const result = await runCli(
      [
        'eval',
        '--suite',
        dir,
        '--reference',
        '--tasks',
        'ob-1-3-*,ob-1-14-2',
        '--json',
        json,
        '--data-dir',
        data,
      ],
      { timeoutMs: 120_000 },
    )
    expect(result.stderr).toContain(
      'left out 1 subtasks: 0 without a reference solution, 1 whose own checks cannot pass',
    )
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/PASS\s+ob-1-3-0\s+easy\s+2\/50/)
    expect(result.stdout).toMatch(
      /reference solutions, every subtask run\s+100\.0% \(5\/5\)\s+-\s+-\s+100\.0% \(5\/5\)/,
    )
    expect(result.stdout).toMatch(/Humans \(paper\)\s+-\s+-\s+-\s+93\.3%/)
    const report = JSON.parse(await readFile(json, 'utf8')) as {
      runs: { id: string; passed: boolean; tokens: unknown; wallMs: number }[]
      omitted: { id: string; reason: string }[]
    }
    expect(report.runs.map((r) => [r.id, r.passed])).toEqual(
      [0, 1, 2, 3, 4].map((n) => [`ob-1-3-${n}`, true]),
    )
    expect(report.runs[0]).toMatchObject({
      tokens: { input: 0, output: 0, cached: 0 },
      wallMs: expect.any(Number),
    })
    expect(report.omitted).toEqual([
      { id: 'ob-1-14-2', reason: expect.stringMatching(/reference\/salery\.xlsx does not exist/) },
    ])
  }, 150_000)

  it('a folder that is not OfficeBench is a usage error naming it', async () => {
    const data = await dirs.make()
    const result = await runCli(['eval', '--suite', data, '--reference', '--data-dir', data])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`${data} is not an OfficeBench folder`)
  }, 60_000)
})
