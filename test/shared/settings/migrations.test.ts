import { describe, expect, it } from 'vitest'
import { AppError } from '../../../src/shared/errors'
import {
  extractSecrets,
  migrateSettings,
  SETTINGS_SCHEMA_VERSION,
  Settings,
  settingsMigrations,
} from '../../../src/shared/settings'

const v0File = {
  provider: 'DeepSeek',
  model: 'deepseek-chat',
  baseUrl: 'https://api.deepseek.com/v1',
  apiKey: 'sk-v0plaintextkey0123456789',
  contextWindow: 64000,
  workspace: '/home/me/Bureau',
  anonymize: ['ACME', 'Jane Doe'],
  attachmentBudget: 20000,
  theme: 'dark',
  browser: 'cdp',
  cdpUrl: 'http://127.0.0.1:9222',
  somethingElse: { kept: true },
}

describe('settings migrations', () => {
  it('has a step for every version below the current one', () => {
    for (let version = 0; version < SETTINGS_SCHEMA_VERSION; version++)
      expect(settingsMigrations[version], `step from ${version}`).toBeTypeOf('function')
  })

  it('migrates the flat v0 format to v1 sections', () => {
    const outcome = migrateSettings(v0File)
    expect(outcome.fromVersion).toBe(0)
    expect(outcome.newer).toBe(false)
    const { data, secrets } = extractSecrets(outcome.data)
    expect([...secrets]).toEqual([['providers.deepseek.apiKey', 'sk-v0plaintextkey0123456789']])
    const settings = Settings.parse(data)
    expect(settings.schemaVersion).toBe(1)
    expect(settings.provider).toEqual({ active: 'deepseek', model: 'deepseek-chat' })
    expect(settings.providers.deepseek).toEqual({
      baseUrl: 'https://api.deepseek.com/v1',
      contextWindow: 64000,
    })
    expect(settings.workspace.folder).toBe('/home/me/Bureau')
    expect(settings.anonymization).toEqual({ enabled: true, terms: ['ACME', 'Jane Doe'] })
    expect(settings.attachments.budgetChars).toBe(20000)
    expect(settings.ui.theme).toBe('dark')
    expect(settings.browser).toMatchObject({ mode: 'cdp', cdpEndpoint: 'http://127.0.0.1:9222' })
    expect(settings.somethingElse).toEqual({ kept: true })
    expect(JSON.stringify(settings)).not.toContain('sk-v0plaintextkey')
  })

  it('puts v0 provider keys on ollama when no provider was named, and reads anonymize: false', () => {
    const { data } = migrateSettings({ baseUrl: 'http://127.0.0.1:11434', anonymize: false })
    const settings = Settings.parse(data)
    expect(settings.provider.active).toBe('ollama')
    expect(settings.providers.ollama?.baseUrl).toBe('http://127.0.0.1:11434')
    expect(settings.anonymization.enabled).toBe(false)
  })

  it('leaves a current file alone and a newer one untouched', () => {
    const current = { schemaVersion: 1, ui: { theme: 'light' } }
    expect(migrateSettings(current)).toEqual({ data: current, fromVersion: 1, newer: false })
    const newer = { schemaVersion: 7, brandNew: { x: 1 } }
    expect(migrateSettings(newer)).toEqual({ data: newer, fromVersion: 7, newer: true })
  })

  it('refuses a broken version or a non-object', () => {
    expect(() => migrateSettings({ schemaVersion: 'one' })).toThrow(AppError)
    expect(() => migrateSettings({ schemaVersion: -1 })).toThrow(AppError)
    expect(() => migrateSettings([1, 2])).toThrow(AppError)
    expect(() => migrateSettings({ schemaVersion: 1.5 })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    )
  })
})
