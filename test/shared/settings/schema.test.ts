import { describe, expect, it } from 'vitest'
import {
  DEFAULT_ATTACHMENT_BUDGET_CHARS,
  defaultSettings,
  PublicSettings,
  SETTINGS_SCHEMA_VERSION,
  Settings,
  SettingsUpdate,
} from '../../../src/shared/settings'

describe('settings schema', () => {
  it('has a default for everything the issue lists', () => {
    const defaults = defaultSettings()
    expect(defaults.schemaVersion).toBe(SETTINGS_SCHEMA_VERSION)
    expect(defaults.workspace.folder).toBeNull()
    expect(defaults.provider).toEqual({ active: 'ollama', model: null })
    expect(defaults.providers).toEqual({})
    expect(defaults.anonymization).toEqual({ enabled: false, terms: [] })
    expect(defaults.attachments.budgetChars).toBe(DEFAULT_ATTACHMENT_BUDGET_CHARS)
    expect(DEFAULT_ATTACHMENT_BUDGET_CHARS).toBe(30_000)
    // Pictures stay on this computer (offline OCR) unless the user allows the provider to see them.
    expect(defaults.attachments.vision).toBe('off')
    expect(defaults.tools).toEqual({ watchDebounceMs: 30_000, extraFolder: null })
    expect(defaults.browser).toMatchObject({
      mode: 'edge-profile',
      executablePath: null,
      profileDir: null,
      cdpEndpoint: null,
    })
    expect(defaults.voice.tts).toMatchObject({ engine: 'espeak-ng', voice: null, rate: 1 })
    expect(defaults.voice.autoSpeak).toBe(false)
    expect(defaults.ui.theme).toBe('system')
  })

  it('keeps unknown keys at every level (a newer version wrote them)', () => {
    const parsed = Settings.parse({
      future: { a: 1 },
      ui: { theme: 'dark', density: 'compact' },
      providers: { deepseek: { model: 'deepseek-chat', topK: 3 } },
      voice: { tts: { pitch: 2 } },
    })
    expect(parsed.future).toEqual({ a: 1 })
    expect(parsed.ui).toEqual({
      theme: 'dark',
      density: 'compact',
      setupChoice: null,
      providerWorked: false,
      lastConversationId: null,
    })
    expect(parsed.providers.deepseek).toEqual({ model: 'deepseek-chat', topK: 3 })
    expect(parsed.voice.tts).toMatchObject({ pitch: 2, engine: 'espeak-ng' })
  })

  it('refuses wrong types and out-of-range values', () => {
    expect(Settings.safeParse({ attachments: { budgetChars: 'lots' } }).success).toBe(false)
    expect(Settings.safeParse({ attachments: { budgetChars: 10 } }).success).toBe(false)
    expect(Settings.safeParse({ attachments: { vision: 'always' } }).success).toBe(false)
    expect(Settings.parse({ attachments: { vision: 'when-supported' } }).attachments.vision).toBe(
      'when-supported',
    )
    expect(Settings.safeParse({ browser: { mode: 'netscape' } }).success).toBe(false)
    expect(Settings.safeParse({ providers: { 'Bad Id': {} } }).success).toBe(false)
    expect(Settings.safeParse({ providers: { deepseek: { baseUrl: 'ftp://x' } } }).success).toBe(false)
  })

  it('public settings carry masked secrets and the storage kind', () => {
    const ok = PublicSettings.safeParse({
      ...defaultSettings(),
      secrets: { 'providers.deepseek.apiKey': { set: true, hint: 'sk-…a1b2', source: 'stored' } },
      secretStorage: { kind: 'key-file', secure: true },
    })
    expect(ok.success).toBe(true)
    const withValue = PublicSettings.safeParse({
      ...defaultSettings(),
      secrets: { x: { set: true, value: 'sk-123' } },
      secretStorage: { kind: 'key-file', secure: true },
    })
    // Unknown fields of a masked secret are stripped: a value can never ride along to the renderer.
    expect(withValue.success && 'value' in (withValue.data.secrets.x ?? {})).toBe(false)
  })
})

describe('settings.update input (merge patch)', () => {
  it('accepts a deep partial and null (reset to default)', () => {
    const patch = {
      attachments: { budgetChars: 5000 },
      providers: { deepseek: { baseUrl: 'https://api.deepseek.com/v1' }, old: null },
      voice: { tts: { rate: 1.5 } },
      ui: null,
    }
    expect(SettingsUpdate.parse(patch)).toEqual(patch)
  })

  it('refuses unknown keys, schemaVersion and wrong values with paths', () => {
    const unknown = SettingsUpdate.safeParse({ ui: { colour: 'red' } })
    expect(unknown.success).toBe(false)
    expect(unknown.error?.issues[0]?.code).toBe('unrecognized_keys')
    expect(SettingsUpdate.safeParse({ schemaVersion: 5 }).success).toBe(false)
    const wrong = SettingsUpdate.safeParse({ attachments: { budgetChars: 'x' } })
    expect(wrong.error?.issues[0]?.path).toEqual(['attachments', 'budgetChars'])
    expect(SettingsUpdate.safeParse('theme=dark').success).toBe(false)
  })

  it('refuses secrets with a pointer to settings.setSecret, without echoing the value', () => {
    const result = SettingsUpdate.safeParse({ providers: { deepseek: { apiKey: 'sk-do-not-echo-me' } } })
    expect(result.success).toBe(false)
    const text = JSON.stringify(result.error?.issues)
    expect(text).toContain('settings.setSecret')
    expect(text).toContain('providers.deepseek.apiKey')
    expect(text).not.toContain('sk-do-not-echo-me')
    expect(SettingsUpdate.safeParse({ email: { smtpPassword: 'x' } }).success).toBe(false)
  })

  it('refuses a workspace folder that is not a full path, and takes full ones of every system', () => {
    const relative = SettingsUpdate.safeParse({ workspace: { folder: 'relative/folder' } })
    expect(relative.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [['workspace', 'folder'], expect.stringContaining('Enter the full path of the folder')],
    ])
    for (const folder of ['~', '~/Bureau', '/srv/bureau', 'C:\\Users\\ana\\Bureau', '\\\\nas\\share'])
      expect(SettingsUpdate.safeParse({ workspace: { folder } }).success, folder).toBe(true)
    expect(SettingsUpdate.safeParse({ workspace: { folder: null } }).success).toBe(true)
  })
})
