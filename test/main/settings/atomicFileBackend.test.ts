import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { atomicFileBackend } from '../../../src/main/settings/atomicFileBackend'
import { CorruptJsonFileError } from '../../../src/main/settings/jsonFileBackend'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs()
afterEach(() => dirs.cleanup())

describe('the headless host’s settings file backend', () => {
  it('reads a missing file as {} and creates its folder, as conf did', async () => {
    const dir = join(await dirs.make(), 'data', 'nested')
    const backend = atomicFileBackend({ dir, name: 'settings' })
    expect(backend.path).toBe(join(dir, 'settings.json'))
    expect(backend.read()).toEqual({})
    expect(existsSync(dir)).toBe(true)
    expect(existsSync(backend.path)).toBe(false)
  })

  it('writes two-space JSON with a final newline, replaces the whole file and leaves no temp file', async () => {
    const dir = await dirs.make()
    const backend = atomicFileBackend({ dir, name: 'settings' })
    backend.write({ ui: { theme: 'dark' }, schemaVersion: 1 })
    backend.write({ ui: { theme: 'light' } })
    expect(readFileSync(backend.path, 'utf8')).toBe('{\n  "ui": {\n    "theme": "light"\n  }\n}\n')
    expect(backend.read()).toEqual({ ui: { theme: 'light' } })
    expect(readdirSync(dir)).toEqual(['settings.json'])
  })

  it('gives the secrets file the permission bits it is opened with, on every write', async () => {
    const dir = await dirs.make()
    const backend = atomicFileBackend({ dir, name: 'secrets', mode: 0o600 })
    backend.write({ a: 'x' })
    expect(statSync(backend.path).mode & 0o777).toBe(0o600)
    backend.write({ a: 'y' })
    expect(statSync(backend.path).mode & 0o777).toBe(0o600)
  })

  it('refuses a file that is not a JSON object and leaves it as it was', async () => {
    const dir = await dirs.make()
    const backend = atomicFileBackend({ dir, name: 'settings' })
    for (const text of ['{"ui": ', '[1, 2]', 'null', '']) {
      writeFileSync(backend.path, text)
      expect(() => backend.read()).toThrow(CorruptJsonFileError)
      expect(() => backend.read()).toThrow(
        expect.objectContaining({ code: 'VALIDATION_FAILED', cause: expect.any(SyntaxError) }),
      )
      expect(readFileSync(backend.path, 'utf8')).toBe(text)
    }
  })

  it('reports a path that is not a readable file as it is, not as an empty store', async () => {
    const dir = await dirs.make()
    const backend = atomicFileBackend({ dir, name: 'settings' })
    await import('node:fs/promises').then((fs) => fs.mkdir(backend.path))
    expect(() => backend.read()).toThrow(/EISDIR/)
  })
})
