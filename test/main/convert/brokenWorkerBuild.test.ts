import { spawnSync } from 'node:child_process'
import { cpSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, repoRoot } from '../../support/builtCli'
import { tempDirs } from '../../support/tempDir'
import { core } from './corpus'

// A build whose worker is missing, or lacks a chunk (only the app's half built, a copy cut short): the
// command says what is wrong and exits 1, file by file, instead of dying of an unheard worker error or
// calling the user's file damaged. Run from a copy of the build (the real one is shared by other tests).
const dirs = tempDirs('bureau-broken-worker-')
afterAll(() => dirs.cleanup())

let root = ''
beforeAll(async () => {
  assertBuilt()
  root = await dirs.make()
  cpSync(join(repoRoot, 'bin'), join(root, 'bin'), { recursive: true })
  cpSync(join(repoRoot, 'out'), join(root, 'out'), { recursive: true })
  cpSync(join(repoRoot, 'package.json'), join(root, 'package.json'))
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'), 'dir')
})

const convert = (...files: string[]) =>
  spawnSync(process.execPath, [join(root, 'bin', 'bureau.js'), 'convert', '--json', ...files], {
    encoding: 'utf8',
    env: { ...process.env, BUREAU_CODE_CACHE: 'off', BUREAU_DATA_DIR: join(root, 'data') },
    timeout: 60_000,
  })

describe('bureau convert with a broken worker build', () => {
  it('reports a worker that cannot load its code as a failure of the conversion', () => {
    const worker = readdirSync(join(root, 'out', 'worker')).find((name) => /^convertWorker-/.test(name))
    rmSync(join(root, 'out', 'worker', worker as string))
    const result = convert(core.path('notes.json'), core.path('report.docx'))
    expect(result.status, result.stderr).toBe(1)
    expect(result.stderr).not.toMatch(/Unhandled 'error' event|node:internal/)
    const report = JSON.parse(result.stdout) as { files: { ok: boolean; error?: { failure: string } }[] }
    expect(report.files.map((file) => [file.ok, file.error?.failure])).toEqual([
      [false, 'failed'],
      [false, 'failed'],
    ])
  })

  it('says that the worker is missing from the build, not that the file is damaged', () => {
    rmSync(join(root, 'out', 'worker'), { recursive: true })
    const result = convert(core.path('notes.json'))

    expect(result.status, result.stderr).toBe(1)
    const report = JSON.parse(result.stdout) as { files: { error?: { failure: string; message: string } }[] }
    expect(report.files[0]?.error?.failure).toBe('failed')
    expect(report.files[0]?.error?.message).toMatch(
      /conversion worker is missing from this build.*npm run build/,
    )
  })
})
