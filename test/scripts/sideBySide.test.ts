import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
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
        // `waiting` ends only once `signalling` (named after it) has written its file: both must run at once.
        waiting: node(
          "const fs = require('fs'); const t = setInterval(() => { if (fs.existsSync('signal')) { console.log('saw the signal'); process.exit(0) } }, 20); setTimeout(() => { console.log('no signal'); process.exit(4) }, 8000)",
        ),
        signalling: node("require('fs').writeFileSync('signal', 'x')"),
        // Exits at once but leaves a process behind that holds the output pipe open for a minute.
        holding: node(
          "const c = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'inherit', detached: true }); require('fs').writeFileSync('held.pid', String(c.pid)); console.log('holding'); process.exit(0)",
        ),
      },
    }),
  )
  return dir
}

async function sideBySide(cwd: string, ...names: string[]) {
  // Killed if it hangs, so a broken script fails its test instead of running on beside the suite.
  return run(process.execPath, [script, ...names], { cwd, timeout: 15_000, killSignal: 'SIGKILL' }).then(
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

  it('runs the scripts at the same time: the first one waits for a file the second one writes', async () => {
    const result = await sideBySide(await project(), 'waiting', 'signalling')
    expect(result.stdout).toContain('saw the signal')
    expect(result.code).toBe(0)
  })

  it('finishes when a script has exited, though a process it left behind still holds its output open', async () => {
    const dir = await project()
    try {
      const result = await sideBySide(dir, 'holding', 'fast')
      expect(result.code).toBe(0)
      expect(result.stdout.split('\n').filter(Boolean)).toEqual(['holding', 'fast'])
    } finally {
      const pid = Number(await readFile(join(dir, 'held.pid'), 'utf8').catch(() => ''))
      try {
        if (pid > 0) process.kill(pid)
      } catch {
        // Already gone.
      }
    }
  }, 20_000)

  it('without a script name, says how to use it and exits 2', async () => {
    const result = await sideBySide(await project())
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('usage: node scripts/sideBySide.js')
  })
})
