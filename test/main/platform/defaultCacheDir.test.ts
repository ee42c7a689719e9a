import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { codeCacheDir } from '../../../src/main/convert/worker/workerEntry'
import { defaultCacheDir } from '../../../src/main/platform'

describe('the per-user cache folder', () => {
  it('is the OS cache folder of each platform', () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x/cache' }, 'linux')).toBe(join('/x/cache', 'Bureau'))
    expect(defaultCacheDir({}, 'linux')).toBe(join(homedir(), '.cache', 'Bureau'))
    // An empty variable is unset, not the current folder.
    expect(defaultCacheDir({ XDG_CACHE_HOME: '' }, 'linux')).toBe(join(homedir(), '.cache', 'Bureau'))
    expect(defaultCacheDir({}, 'darwin')).toBe(join(homedir(), 'Library', 'Caches', 'Bureau'))
    expect(defaultCacheDir({ LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local' }, 'win32')).toBe(
      join('C:\\Users\\a\\AppData\\Local', 'Bureau', 'Cache'),
    )
  })

  it('holds the conversion worker’s code cache unless BUREAU_CODE_CACHE moves it or turns it off', () => {
    expect(codeCacheDir({ XDG_CACHE_HOME: '/x/cache', LOCALAPPDATA: '/x/cache' })).toBe(
      resolve(join(defaultCacheDir({ XDG_CACHE_HOME: '/x/cache', LOCALAPPDATA: '/x/cache' }), 'code')),
    )
    expect(codeCacheDir({ BUREAU_CODE_CACHE: 'off' })).toBeUndefined()
    expect(codeCacheDir({ BUREAU_CODE_CACHE: ' off ' })).toBeUndefined()
    // A relative folder is taken from where the command was started, once, as an absolute path.
    expect(codeCacheDir({ BUREAU_CODE_CACHE: 'rel/cache' })).toBe(resolve('rel/cache'))
  })
})
