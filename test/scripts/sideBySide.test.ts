import { execFile } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { repoRoot } from '../support/builtCli'
import { tempDirs } from '../support/tempDir'

const run = promisify(execFile)
const dirs = tempDirs('bureau-side-by-side-')
afterAll(() => dirs.cleanup())
const script = join(repoRoot, 'scripts', 'sideBySide.js')

/** A package whose npm scripts are small Node programs: `slow` prints twice with a pause, the rest once. */
async function project(): Promise<string> {
  const dir = await dirs.make()
  const node = (code: string) => `node -e ${JSON.stringify(code)}`
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'side-by-side-fixture',
      private: true,
      scripts: {
        slow: node("console.log('slow 1'); setTimeout(() => console.log('slow 2'), 600)"),
        fast: node("console.log('fast'); console.error('fast on stderr')"),
        failing: node("console.log('failing'); process.exit(3)"),
      },
    }),
  )
  return dir
}

async function sideBySide(cwd: string, ...names: string[]) {
  return run(process.execPath, [script, ...names], { cwd }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  )
}

describe('scripts/sideBySide.js (npm test runs the test suites with it)', () => {
  it('prints each script’s output in the order named, though the later one finished first', async () => {
    const result = await sideBySide(await project(), 'slow', 'fast')
    expect(result.code).toBe(0)
    expect(result.stdout.split('\n').filter(Boolean)).toEqual(['slow 1', 'slow 2', 'fast'])
    expect(result.stderr).toContain('fast on stderr')
  })

  it('exits 1 and names the script that failed, after running the others to the end', async () => {
    const result = await sideBySide(await project(), 'failing', 'slow')
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('slow 2')
    expect(result.stderr).toContain('Failed: failing (exit 3)')
  })

  it('without a script name, says how to use it and exits 2', async () => {
    const result = await sideBySide(await project())
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('usage: node scripts/sideBySide.js')
  })
})
