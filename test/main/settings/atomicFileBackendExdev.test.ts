import { readFileSync, statSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { atomicFileBackend } from '../../../src/main/settings/atomicFileBackend'
import { tempDirs } from '../../support/tempDir'

// Windows can refuse atomically's rename as a move across devices (EXDEV); this machine cannot, so the
// library's write is made to fail that way, and only that way, here.
const failWith = vi.hoisted(() => ({ code: undefined as string | undefined }))
vi.mock('atomically', async (original) => {
  const actual = await original<typeof import('atomically')>()
  return {
    ...actual,
    writeFileSync: (...args: Parameters<typeof actual.writeFileSync>) => {
      if (failWith.code)
        throw Object.assign(new Error(`${failWith.code}: rename failed`), { code: failWith.code })
      return actual.writeFileSync(...args)
    },
  }
})

const dirs = tempDirs()
afterEach(() => {
  failWith.code = undefined
  return dirs.cleanup()
})

describe('the settings file backend when the atomic rename is refused', () => {
  it('writes the file in place on EXDEV, creating it with its permission bits, and reads it back', async () => {
    const backend = atomicFileBackend({ dir: await dirs.make(), name: 'secrets', mode: 0o600 })
    failWith.code = 'EXDEV'
    backend.write({ a: 'before' })
    expect(statSync(backend.path).mode & 0o777).toBe(0o600)
    backend.write({ a: 'after' })
    expect(backend.read()).toEqual({ a: 'after' })
    expect(readFileSync(backend.path, 'utf8')).toBe('{\n  "a": "after"\n}\n')
    expect(statSync(backend.path).mode & 0o777).toBe(0o600)
  })

  it('passes any other write error on and leaves the file as it was', async () => {
    const backend = atomicFileBackend({ dir: await dirs.make(), name: 'settings' })
    backend.write({ a: 'kept' })
    failWith.code = 'ENOSPC'
    expect(() => backend.write({ a: 'lost' })).toThrow(/ENOSPC/)
    expect(backend.read()).toEqual({ a: 'kept' })
  })
})
