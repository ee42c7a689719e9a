import { readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openSettings } from '../../../src/main/settings'
import { atomicFileBackend } from '../../../src/main/settings/atomicFileBackend'
import { KEY_FILE_NAME } from '../../../src/main/settings/keyFileCipher'
import type { SettingsServiceOptions } from '../../../src/main/settings/settingsService'
import { AppError } from '../../../src/shared/errors'
import type { AppNotice } from '../../../src/shared/ipc'
import { tempDirs } from '../../support/tempDir'
import { containsSecret, filesContaining, listFiles } from './secretScan'

const dirs = tempDirs()
afterEach(() => dirs.cleanup())

const SECRET = 'sk-testsecret-9f8e7d6c5b4a39281706a1b2'

async function open(dataDir: string, extra: Partial<SettingsServiceOptions> = {}) {
  const notices: AppNotice[] = []
  const settings = await openSettings({
    dataDir,
    env: () => undefined,
    notify: (notice) => notices.push(notice),
    ...extra,
  })
  return { settings, notices }
}

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, 'utf8'))
}

describe('secrets at rest', () => {
  it('after setSecret no file under the data folder, no reply and no event holds the secret', async () => {
    const dataDir = await dirs.make()
    const { settings } = await open(dataDir)
    const seen: unknown[] = []
    settings.onChange((event) => seen.push(event))
    const reply = await settings.setSecret('providers.deepseek.apiKey', SECRET)
    await settings.update({ ui: { theme: 'dark' } })

    const files = await listFiles(dataDir)
    expect(files.map((f) => f.slice(dataDir.length + 1)).sort()).toEqual([
      'secrets.json',
      KEY_FILE_NAME,
      'settings.json',
    ])
    expect(await filesContaining(dataDir, SECRET)).toEqual([])
    expect(containsSecret(JSON.stringify(reply), SECRET)).toBe(false)
    expect(containsSecret(JSON.stringify(settings.getPublic()), SECRET)).toBe(false)
    expect(seen.length).toBe(2)
    expect(containsSecret(JSON.stringify(seen), SECRET)).toBe(false)

    expect(reply.secrets['providers.deepseek.apiKey']).toEqual({
      set: true,
      source: 'stored',
      hint: 'sk-…a1b2',
    })
    expect(await settings.getSecret('providers.deepseek.apiKey')).toBe(SECRET)
  })

  it('creates the key file and secrets.json with mode 0600', async () => {
    const dataDir = await dirs.make()
    const { settings } = await open(dataDir)
    await settings.setSecret('email.smtpPassword', 'pw-1234567')
    expect((await stat(join(dataDir, KEY_FILE_NAME))).mode & 0o777).toBe(0o600)
    expect((await stat(join(dataDir, 'secrets.json'))).mode & 0o777).toBe(0o600)
  })

  it('reads the secret back from a fresh process-like instance and clears it', async () => {
    const dataDir = await dirs.make()
    await (await open(dataDir)).settings.setSecret('bridge.tokens.ci', SECRET)
    const { settings } = await open(dataDir)
    expect(settings.listSecretNames('bridge.tokens.')).toEqual(['bridge.tokens.ci'])
    expect(await settings.getSecret('bridge.tokens.ci')).toBe(SECRET)
    const cleared = await settings.clearSecret('bridge.tokens.ci')
    expect(cleared.secrets['bridge.tokens.ci']).toBeUndefined()
    expect(await settings.getSecret('bridge.tokens.ci')).toBeUndefined()
  })

  it('a tampered ciphertext gives a "re-enter" notice and undefined, never a crash or garbage', async () => {
    const dataDir = await dirs.make()
    await (await open(dataDir)).settings.setSecret('providers.deepseek.apiKey', SECRET)
    const file = join(dataDir, 'secrets.json')
    const stored = await readJson(file)
    const entry = (stored.entries as Record<string, { ciphertext: string }>)['providers.deepseek.apiKey']!
    const bytes = Buffer.from(entry.ciphertext.slice(3), 'base64')
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01
    entry.ciphertext = `v1.${bytes.toString('base64')}`
    await writeFile(file, JSON.stringify(stored))

    const { settings, notices } = await open(dataDir)
    expect(await settings.getSecret('providers.deepseek.apiKey')).toBeUndefined()
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatchObject({
      level: 'warning',
      id: 'settings.secret-unreadable:providers.deepseek.apiKey',
    })
    expect(notices[0]?.message).toMatch(/^Re-enter the API key of provider "deepseek" in Settings/)
    expect(settings.getPublic().secrets['providers.deepseek.apiKey']).toMatchObject({
      set: true,
      unreadable: true,
    })

    // Entering it again repairs it.
    await settings.setSecret('providers.deepseek.apiKey', SECRET)
    expect(await settings.getSecret('providers.deepseek.apiKey')).toBe(SECRET)
    expect(settings.getPublic().secrets['providers.deepseek.apiKey']?.unreadable).toBeUndefined()
  })

  it('a ciphertext moved to another name does not decrypt as that name', async () => {
    const dataDir = await dirs.make()
    const first = (await open(dataDir)).settings
    await first.setSecret('providers.openai.apiKey', SECRET)
    await first.setSecret('providers.deepseek.apiKey', 'sk-other-key-0000000000000000')
    const file = join(dataDir, 'secrets.json')
    const stored = await readJson(file)
    const entries = stored.entries as Record<string, { ciphertext: string }>
    entries['providers.deepseek.apiKey']!.ciphertext = entries['providers.openai.apiKey']!.ciphertext
    await writeFile(file, JSON.stringify(stored))
    const { settings, notices } = await open(dataDir)
    expect(await settings.getSecret('providers.deepseek.apiKey')).toBeUndefined()
    expect(notices[0]?.message).toContain('Re-enter the API key of provider "deepseek"')
  })

  it('a missing key file gives the notice and no crash; a new secret still works', async () => {
    const dataDir = await dirs.make()
    await (await open(dataDir)).settings.setSecret('providers.deepseek.apiKey', SECRET)
    await unlink(join(dataDir, KEY_FILE_NAME))
    const { settings, notices } = await open(dataDir)
    // Settings flags the key before anything tries to use it.
    expect(settings.getPublic().secrets['providers.deepseek.apiKey']).toMatchObject({
      set: true,
      unreadable: true,
    })
    expect(await settings.getSecret('providers.deepseek.apiKey')).toBeUndefined()
    expect(notices.map((n) => n.message)).toEqual([
      'Re-enter the API key of provider "deepseek" in Settings: the stored copy cannot be decrypted (the key file secrets.key is missing from the data folder).',
    ])
    await settings.setSecret('providers.openai.apiKey', 'sk-new-key-1111111111111111')
    expect(await settings.getSecret('providers.openai.apiKey')).toBe('sk-new-key-1111111111111111')
  })

  it('a secret written by another cipher is reported, not decrypted as garbage', async () => {
    const dataDir = await dirs.make()
    await writeFile(
      join(dataDir, 'secrets.json'),
      JSON.stringify({
        format: 1,
        entries: {
          'email.imapPassword': { cipher: 'electron-safe-storage', ciphertext: 'AAAA', hint: '…abcd' },
        },
      }),
    )
    const { settings, notices } = await open(dataDir)
    // No cipher at hand can decrypt it: flagged before anything tries to use it.
    expect(settings.getPublic().secrets['email.imapPassword']).toEqual({
      set: true,
      source: 'stored',
      hint: '…abcd',
      unreadable: true,
    })
    expect(await settings.getSecret('email.imapPassword')).toBeUndefined()
    expect(notices[0]?.message).toContain('Re-enter the IMAP password')
    expect(notices[0]?.message).toContain('another kind of Bureau')
  })

  it('refuses bad secret names and empty values without echoing the value', async () => {
    const { settings } = await open(await dirs.make())
    const badName = await settings.setSecret('providers.deepseek.baseUrl', SECRET).catch((e: unknown) => e)
    expect(badName).toBeInstanceOf(AppError)
    expect((badName as AppError).code).toBe('VALIDATION_FAILED')
    expect(containsSecret(JSON.stringify((badName as AppError).toPayload()), SECRET)).toBe(false)
    await expect(settings.setSecret('email.smtpPassword', '   ')).rejects.toThrow(/is empty/)
    const tooLong = await settings
      .setSecret('email.smtpPassword', 'x'.repeat(20_000))
      .catch((e: unknown) => e)
    expect((tooLong as AppError).message).not.toContain('xxxx')
  })

  it('a damaged secrets.json is moved aside with a notice', async () => {
    const dataDir = await dirs.make()
    await writeFile(join(dataDir, 'secrets.json'), '{"entries": ')
    const { settings, notices } = await open(dataDir)
    expect(notices[0]).toMatchObject({ level: 'error', id: 'settings.secrets-corrupt' })
    expect((await readdir(dataDir)).some((f) => /^secrets\.corrupt-.+\.json$/.test(f))).toBe(true)
    await settings.setSecret('email.smtpPassword', 'pw-1234567')
    expect(await settings.getSecret('email.smtpPassword')).toBe('pw-1234567')
  })
})

describe('environment overrides', () => {
  it('BUREAU_API_KEY overrides the active provider key only; apiKeyEnv sources can be registered', async () => {
    const env: Record<string, string> = { BUREAU_API_KEY: 'sk-from-bureau-env-000000000001' }
    const { settings } = await open(await dirs.make(), { env: (name) => env[name] })
    await settings.update({ provider: { active: 'deepseek' } })
    await settings.setSecret('providers.deepseek.apiKey', SECRET)
    await settings.setSecret('providers.openai.apiKey', 'sk-stored-openai-00000000000000')

    expect(await settings.getSecret('providers.deepseek.apiKey')).toBe('sk-from-bureau-env-000000000001')
    expect(await settings.getSecret('providers.openai.apiKey')).toBe('sk-stored-openai-00000000000000')
    expect(settings.getPublic().secrets['providers.deepseek.apiKey']).toEqual({
      set: true,
      source: 'env',
      envVar: 'BUREAU_API_KEY',
      hint: 'sk-…0001',
    })

    env.OPENAI_API_KEY = 'sk-from-openai-env-000000000002'
    const unregister = settings.registerSecretEnv({
      envVarsFor: (name) => (name === 'providers.openai.apiKey' ? ['OPENAI_API_KEY'] : []),
      knownNames: () => ['providers.openai.apiKey', 'providers.gemini.apiKey'],
    })
    expect(await settings.getSecret('providers.openai.apiKey')).toBe('sk-from-openai-env-000000000002')
    expect(settings.getPublic().secrets['providers.gemini.apiKey']).toEqual({ set: false })
    unregister()
    expect(await settings.getSecret('providers.openai.apiKey')).toBe('sk-stored-openai-00000000000000')
    expect(containsSecret(JSON.stringify(settings.getPublic()), 'sk-from-bureau-env-000000000001')).toBe(
      false,
    )
  })
})

describe('settings file', () => {
  it('a file that does not parse is moved aside, the defaults load and a notice says so', async () => {
    const dataDir = await dirs.make()
    await writeFile(join(dataDir, 'settings.json'), '{"ui": {"theme": "dark"')
    const { settings, notices } = await open(dataDir, { now: () => new Date('2026-01-02T03:04:05.678Z') })
    expect(settings.get().ui.theme).toBe('system')
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatchObject({ level: 'error', id: 'settings.corrupt' })
    expect(notices[0]?.message).toContain('settings.corrupt-2026-01-02T03-04-05-678Z.json')
    expect(notices[0]?.message).not.toContain(dataDir)
    const aside = await readFile(join(dataDir, 'settings.corrupt-2026-01-02T03-04-05-678Z.json'), 'utf8')
    expect(aside).toBe('{"ui": {"theme": "dark"')
    // The store works again afterwards.
    await settings.update({ ui: { theme: 'light' } })
    expect((await readJson(join(dataDir, 'settings.json'))).ui).toEqual({ theme: 'light' })
  })

  it('a parseable but invalid file is moved aside too, naming the field but not its value', async () => {
    const dataDir = await dirs.make()
    await writeFile(
      join(dataDir, 'settings.json'),
      JSON.stringify({ schemaVersion: 1, attachments: { budgetChars: 'a-secret-looking-value' } }),
    )
    const { settings, notices } = await open(dataDir)
    expect(settings.get().attachments.budgetChars).toBe(30_000)
    expect(notices[0]?.message).toContain('attachments.budgetChars')
    expect(notices[0]?.message).not.toContain('a-secret-looking-value')
    const files = await readdir(dataDir)
    expect(files.filter((f) => f.startsWith('settings.corrupt-'))).toHaveLength(1)
    expect(files).not.toContain('settings.json')
  })

  it('a non-object and a bad schemaVersion are invalid as well', async () => {
    for (const content of ['[1,2,3]', '"text"', '{"schemaVersion": "two"}']) {
      const dataDir = await dirs.make()
      await writeFile(join(dataDir, 'settings.json'), content)
      const { settings, notices } = await open(dataDir)
      expect(settings.get().schemaVersion, content).toBe(1)
      expect(notices[0]?.id, content).toBe('settings.corrupt')
    }
  })

  it('an invalid file holding a plaintext key: the key is encrypted and the kept copy no longer has it', async () => {
    const dataDir = await dirs.make()
    await writeFile(
      join(dataDir, 'settings.json'),
      JSON.stringify({ schemaVersion: 1, providers: { openai: { apiKey: SECRET } }, ui: { theme: 'neon' } }),
    )
    const { settings } = await open(dataDir)
    expect(await filesContaining(dataDir, SECRET)).toEqual([])
    expect(await settings.getSecret('providers.openai.apiKey')).toBe(SECRET)
  })

  it('migrates a v0 file: rewritten as v1, its plaintext key encrypted', async () => {
    const dataDir = await dirs.make()
    await writeFile(
      join(dataDir, 'settings.json'),
      JSON.stringify({
        provider: 'deepseek',
        model: 'deepseek-chat',
        apiKey: SECRET,
        theme: 'dark',
        custom: 1,
      }),
    )
    const { settings, notices } = await open(dataDir)
    expect(notices).toEqual([])
    expect(settings.get().provider).toEqual({ active: 'deepseek', model: 'deepseek-chat' })
    expect(settings.get().ui.theme).toBe('dark')
    const onDisk = await readJson(join(dataDir, 'settings.json'))
    expect(onDisk).toMatchObject({ schemaVersion: 1, custom: 1, ui: { theme: 'dark' } })
    expect(await filesContaining(dataDir, SECRET)).toEqual([])
    expect(await settings.getSecret('providers.deepseek.apiKey')).toBe(SECRET)
    expect(settings.getPublic().secrets['providers.deepseek.apiKey']).toMatchObject({
      set: true,
      source: 'stored',
    })
  })

  it('keeps unknown keys from a newer version across a save, without lowering its version', async () => {
    const dataDir = await dirs.make()
    const file = join(dataDir, 'settings.json')
    await writeFile(
      file,
      JSON.stringify({ schemaVersion: 9, hologram: { depth: 3 }, ui: { theme: 'dark', density: 'compact' } }),
    )
    const { settings, notices } = await open(dataDir)
    expect(notices[0]).toMatchObject({ level: 'info', id: 'settings.newer' })
    await settings.update({ ui: { theme: 'light' }, attachments: { budgetChars: 12_000 } })
    expect(await readJson(file)).toEqual({
      schemaVersion: 9,
      hologram: { depth: 3 },
      ui: { theme: 'light', density: 'compact' },
      attachments: { budgetChars: 12_000 },
    })
    expect(settings.getPublic().hologram).toEqual({ depth: 3 })
  })

  it('stores only what changed, and null resets to the default', async () => {
    const dataDir = await dirs.make()
    const { settings } = await open(dataDir)
    await settings.update({ attachments: { budgetChars: 5000 }, providers: { deepseek: { model: 'x' } } })
    const after = await settings.update({ attachments: { budgetChars: null }, providers: { deepseek: null } })
    expect(after.attachments.budgetChars).toBe(30_000)
    expect(after.providers).toEqual({})
    expect(await readJson(join(dataDir, 'settings.json'))).toEqual({
      schemaVersion: 1,
      attachments: {},
      providers: {},
    })
  })

  it('removing an e-mail account removes its password in the same update; the other account keeps its own', async () => {
    const dataDir = await dirs.make()
    const { settings } = await open(dataDir)
    const account = { imap: { host: 'imap.example.com' }, user: 'me@example.com', from: 'me@example.com' }
    await settings.update({ email: { accounts: { work: account, home: account } } })
    await settings.setSecret('email.accounts.work.password', SECRET)
    await settings.setSecret('email.accounts.home.password', 'home-password-1234')

    const reply = await settings.update({ email: { accounts: { work: null } } })
    expect(Object.keys(reply.email.accounts)).toEqual(['home'])
    expect(reply.secrets['email.accounts.work.password']).toBeUndefined()
    expect(reply.secrets['email.accounts.home.password']?.set).toBe(true)
    expect(settings.listSecretNames('email.')).toEqual(['email.accounts.home.password'])
    expect(await settings.getSecret('email.accounts.work.password')).toBeUndefined()
    expect(await filesContaining(dataDir, SECRET)).toEqual([])
  })

  it('when removing an account cannot be saved, the account stays and the update fails', async () => {
    const dataDir = await dirs.make()
    let failWrites = false
    const { settings } = await open(dataDir, {
      backend: (options) => {
        const file = atomicFileBackend(options)
        return {
          path: file.path,
          read: () => file.read(),
          write: (data) => {
            if (failWrites && options.name === 'settings') throw new Error('disk full')
            file.write(data)
          },
        }
      },
    })
    await settings.update({ email: { accounts: { work: { user: 'me@example.com' } } } })
    await settings.setSecret('email.accounts.work.password', SECRET)
    failWrites = true
    const error = await settings.update({ email: { accounts: { work: null } } }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('UNAVAILABLE')
    const reopened = (await open(dataDir)).settings.getPublic()
    expect(Object.keys(reopened.email.accounts)).toEqual(['work'])
  })

  it('a bad update is refused with issues and writes nothing', async () => {
    const dataDir = await dirs.make()
    const { settings } = await open(dataDir)
    await settings.update({ ui: { theme: 'dark' } })
    const before = await readFile(join(dataDir, 'settings.json'), 'utf8')
    const error = await settings
      .update({ attachments: { budgetChars: -1 } } as never)
      .catch((e: unknown) => e as AppError)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('VALIDATION_FAILED')
    expect((error as AppError).issues?.[0]?.path).toEqual(['attachments', 'budgetChars'])
    expect(await readFile(join(dataDir, 'settings.json'), 'utf8')).toBe(before)
  })

  it('50 concurrent updates on different keys lose nothing, also with secrets set in between', async () => {
    const dataDir = await dirs.make()
    const { settings } = await open(dataDir)
    const events: unknown[] = []
    settings.onChange((e) => events.push(e))
    await Promise.all([
      ...Array.from({ length: 50 }, (_, i) =>
        settings.update({ providers: { [`p${i}`]: { model: `m${i}` } } }),
      ),
      ...Array.from({ length: 5 }, (_, i) =>
        settings.setSecret(`bridge.tokens.t${i}`, `token-value-${i}-0123456789`),
      ),
    ])
    expect(events).toHaveLength(55)
    const expected = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { model: `m${i}` }]))
    expect(settings.get().providers).toEqual(expected)
    const reopened = (await open(dataDir)).settings
    expect(reopened.get().providers).toEqual(expected)
    expect(reopened.listSecretNames('bridge.tokens.')).toHaveLength(5)
  })

  it('sees secrets another process stored at once, and its settings on the next update or reload', async () => {
    const dataDir = await dirs.make()
    const app = (await open(dataDir)).settings
    const cli = (await open(dataDir)).settings
    await cli.update({ ui: { theme: 'dark' } })
    await app.update({ attachments: { budgetChars: 9000 } })
    expect(app.get().ui.theme).toBe('dark')
    await cli.setSecret('email.smtpPassword', 'pw-7654321')
    expect(await app.getSecret('email.smtpPassword')).toBe('pw-7654321')
    expect(app.getPublic().secrets['email.smtpPassword']).toEqual({ set: true, source: 'stored' })
    await cli.update({ ui: { theme: 'light' } })
    expect(app.get().ui.theme).toBe('dark')
    expect((await app.reload()).ui.theme).toBe('light')
  })
})
