import { chmod, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openSettings } from '../../../src/main/settings'
import { KEY_FILE_NAME } from '../../../src/main/settings/keyFileCipher'
import type { AppNotice } from '../../../src/shared/ipc'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs()
afterEach(() => dirs.cleanup())

const NAME = 'providers.openai.apiKey'
const SECRET = 'sk-hostile-0123456789abcdef'

async function open(dataDir: string) {
  const notices: AppNotice[] = []
  const settings = await openSettings({ dataDir, env: () => undefined, notify: (n) => notices.push(n) })
  return { settings, notices }
}

async function withStoredSecret(): Promise<string> {
  const dataDir = await dirs.make()
  await (await open(dataDir)).settings.setSecret(NAME, SECRET)
  return dataDir
}

describe('data-folder files that cannot be used get a message naming the file and what to do', () => {
  it('secrets.json as a folder', async () => {
    const dataDir = await dirs.make()
    await mkdir(join(dataDir, 'secrets.json'))
    await expect(open(dataDir)).rejects.toThrow(
      `${join(dataDir, 'secrets.json')} is a folder, not a file. Move it out of the data folder`,
    )
  })

  it('settings.json as a folder', async () => {
    const dataDir = await dirs.make()
    await mkdir(join(dataDir, 'settings.json'))
    await expect(open(dataDir)).rejects.toThrow(`${join(dataDir, 'settings.json')} is a folder, not a file.`)
  })

  it('a dangling secrets.key symlink (was ERR_INVALID_ARG_TYPE)', async () => {
    const dataDir = await dirs.make()
    await symlink(join(dataDir, 'gone.key'), join(dataDir, KEY_FILE_NAME))
    const { settings } = await open(dataDir)
    const error = await settings.setSecret(NAME, SECRET).catch((e: Error) => e)
    expect(String(error)).not.toContain('ERR_INVALID_ARG_TYPE')
    expect((error as Error).message).toBe(
      `${join(dataDir, KEY_FILE_NAME)} is a symbolic link to ${join(dataDir, 'gone.key')}, which does not exist. Restore the file it points to, or delete the link to start a new key (stored API keys and passwords must then be entered again).`,
    )
  })
})

describe('secrets that cannot be read are flagged when the settings load', () => {
  it('a tampered ciphertext: settings.get says unreadable before anything asked for the key', async () => {
    const dataDir = await withStoredSecret()
    const file = join(dataDir, 'secrets.json')
    const stored = JSON.parse(await readFile(file, 'utf8'))
    const entry = stored.entries[NAME]
    entry.ciphertext = `${entry.ciphertext.slice(0, -6)}AAAAAA`
    await writeFile(file, JSON.stringify(stored))
    const { settings, notices } = await open(dataDir)
    expect(settings.getPublic().secrets[NAME]).toMatchObject({ set: true, unreadable: true })
    expect(notices.map((n) => n.id)).toContain(`settings.secret-unreadable:${NAME}`)
  })

  it('a regenerated key file', async () => {
    const dataDir = await withStoredSecret()
    await writeFile(join(dataDir, KEY_FILE_NAME), `${Buffer.alloc(32, 7).toString('base64')}\n`, {
      mode: 0o600,
    })
    const { settings } = await open(dataDir)
    expect(settings.getPublic().secrets[NAME]).toMatchObject({ set: true, unreadable: true })
  })
})

describe('credentials in URLs never land in plain settings.json', () => {
  const urls = [
    'http://user:sk-in-the-url-1234@proxy.example/v1',
    'https://api.example/v1?key=sk-in-the-query-1234',
    'https://api.example/v1?api_key=sk-in-the-query-1234&x=1',
  ]

  it('settings.update refuses each, names the secret to use, and writes nothing', async () => {
    const dataDir = await dirs.make()
    const { settings } = await open(dataDir)
    for (const baseUrl of urls) {
      await expect(settings.update({ providers: { openai: { baseUrl } } })).rejects.toThrow(
        'providers.openai.baseUrl has a credential in its URL',
      )
    }
    await expect(settings.update({ providers: { openai: { baseUrl: urls[0] } } })).rejects.toThrow(
      'store the key as the secret providers.openai.apiKey',
    )
    const file = await readFile(join(dataDir, 'settings.json'), 'utf8').catch(() => '')
    expect(file).not.toContain('sk-in-the')
    expect(JSON.stringify(settings.get())).not.toContain('sk-in-the')
  })

  it('a hand-edited settings.json: the key is not returned by settings.get, and an error notice says what to do', async () => {
    const dataDir = await dirs.make()
    const providers = { openai: { baseUrl: urls[2] }, deepseek: { baseUrl: urls[0] } }
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ schemaVersion: 1, providers }))
    const { settings, notices } = await open(dataDir)
    expect(JSON.stringify(settings.get())).not.toContain('sk-in-the')
    expect(JSON.stringify(settings.getPublic())).not.toContain('sk-in-the')
    expect(settings.get().providers.openai?.baseUrl).toBe('https://api.example/v1?x=1')
    expect(settings.get().providers.deepseek?.baseUrl).toBe('http://proxy.example/v1')
    expect(notices.filter((n) => n.id?.startsWith('settings.url-credential:')).map((n) => n.level)).toEqual([
      'error',
      'error',
    ])
  })
})

describe('the key file mode', () => {
  it('0644 is set back to 0600 with a warning', async () => {
    const dataDir = await withStoredSecret()
    const keyFile = join(dataDir, KEY_FILE_NAME)
    await chmod(keyFile, 0o644)
    const { settings, notices } = await open(dataDir)
    expect(await settings.getSecret(NAME)).toBe(SECRET)
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600)
    const warning = notices.find((n) => n.id === 'settings.key-file-mode')
    expect(warning?.level).toBe('warning')
    expect(warning?.message).toContain(
      `${keyFile} could be read by other users (mode 0644); its mode was set to 0600.`,
    )
  })
})
