import { spawn } from 'node:child_process'
import { beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, cliPath, repoRoot } from '../../support/builtCli'
import { fixturePath } from '../../support/fixtures'

beforeAll(assertBuilt)

describe('a reader that closes the pipe early (bureau convert … | head)', () => {
  it('ends quietly with no EPIPE stack trace', async () => {
    const files = ['report.pdf', 'report.docx', 'page.html', 'deck.pptx', 'sheet.xlsx']
    const args = [cliPath, 'convert', ...files.map((file) => fixturePath('core', file))]
    const child = spawn(process.execPath, args, {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d
    })
    // Like `head -c 1`: read the first bytes, then close our end of the pipe.
    child.stdout.once('data', () => child.stdout.destroy())
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(stderr).not.toMatch(/EPIPE|at .*\(/)
    expect(code).toBe(0)
  })
})
