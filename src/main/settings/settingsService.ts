import type { z } from 'zod'
import { AppError, toIssues } from '../../shared/errors'
import type { AppNotice } from '../../shared/ipc'
import {
  applyMergePatch,
  isSecretName,
  type JsonObject,
  type MaskedSecret,
  type PublicSettings,
  removedAccountPasswords,
  removedCalendarPasswords,
  SecretName,
  Settings,
  type SettingsPatch,
  SettingsUpdate,
  secretHint,
  secretLabel,
  withoutSecretLikeKeys,
} from '../../shared/settings'
import { atomicFileBackend } from './atomicFileBackend'
import { SETTINGS_FILE_NAME } from './fileNames'
import type { JsonFileBackendFactory } from './jsonFileBackend'
import { createKeyFileCipher } from './keyFileCipher'
import { loadSettingsFile } from './loadSettingsFile'
import type { SecretCipher } from './secretCipher'
import { bureauApiKeyEnv, type EnvLookup, envOverride, processEnv, type SecretEnvSource } from './secretEnv'
import { createSecretVault, SECRETS_FILE_NAME } from './secretVault'
import { createSerialQueue } from './serialQueue'
import { credentialAdvice, findUrlCredentials, stripUrlCredentials } from './urlCredentials'
import { resolveWorkspaceDir, type WorkspaceSource } from './workspaceFolder'

export const MAX_SECRET_LENGTH = 16_384

export interface SettingsStorageOptions {
  /** How JSON files are stored: `atomicFileBackend` in the headless host (default), electron-store in the desktop app. */
  backend?: JsonFileBackendFactory
  /** How secrets are encrypted: the AES key file in the data folder (default), safeStorage in the desktop app. */
  cipher?: SecretCipher
  /** Ciphers that may have written existing entries, used only to read them. */
  decryptOnlyCiphers?: readonly SecretCipher[]
  /** Environment lookup for secret overrides and BUREAU_WORKSPACE (default: process.env). */
  env?: EnvLookup
}

export interface SettingsServiceOptions extends SettingsStorageOptions {
  dataDir: string
  /** Where notices go (the app's notice center; stderr in the CLI). */
  notify?: (notice: AppNotice) => void
  /** The `--workspace` flag: wins over the setting. */
  workspaceOverride?: string
  now?: () => Date
}

export type SettingsListener = (event: { settings: Settings; publicSettings: PublicSettings }) => void

export interface SettingsService {
  /** The current settings, validated, every default filled in. Never contains a secret. */
  get(): Settings
  /** What the renderer may see: settings plus every secret masked. */
  getPublic(): PublicSettings
  /** Applies a validated partial update (JSON Merge Patch: `null` resets to the default). */
  update(patch: SettingsPatch): Promise<PublicSettings>
  setSecret(name: string, value: string): Promise<PublicSettings>
  clearSecret(name: string): Promise<PublicSettings>
  /**
   * The secret in effect: an environment override, else the decrypted stored value. `undefined` when
   * none is set or the stored copy cannot be decrypted (then a "re-enter ..." notice is raised).
   */
  getSecret(name: string): Promise<string | undefined>
  /** Names of stored secrets, optionally under a prefix (`bridge.tokens.`). No decryption. */
  listSecretNames(prefix?: string): string[]
  /** Adds an environment override source (the providers service maps each preset's `apiKeyEnv`). */
  registerSecretEnv(source: SecretEnvSource): () => void
  /** The workspace folder in effect and where it came from (flag > BUREAU_WORKSPACE > setting > ~/Bureau). */
  workspaceDir(): { dir: string; source: WorkspaceSource }
  onChange(listener: SettingsListener): () => void
  /**
   * Re-reads both files. Secrets are re-read on every `getSecret`/`getPublic` anyway; settings.json
   * is re-read before every update, and here (e.g. after `bureau settings set` from another process).
   */
  reload(): Promise<PublicSettings>
}

function validationError(message: string, error: z.ZodError): AppError {
  return new AppError('VALIDATION_FAILED', message, toIssues(error))
}

function unreadableNotice(name: string, reason: string): AppNotice {
  return {
    level: 'warning',
    id: `settings.secret-unreadable:${name}`,
    message: `Re-enter ${secretLabel(name)} in Settings: the stored copy cannot be decrypted (${reason}).`,
  }
}

function checkSecretName(name: string): void {
  const parsed = SecretName.safeParse(name)
  if (!parsed.success) throw validationError(`"${name.slice(0, 80)}" is not a secret name.`, parsed.error)
}

/** Opens the settings store in `dataDir`: settings.json and secrets.json (encrypted values only). */
export async function openSettings(options: SettingsServiceOptions): Promise<SettingsService> {
  const now = options.now ?? (() => new Date())
  const notify = options.notify ?? (() => {})
  const env = options.env ?? processEnv
  const backendOf = options.backend ?? atomicFileBackend
  const cipher = options.cipher ?? createKeyFileCipher(options.dataDir, { notify })
  const settingsFile = backendOf({ dir: options.dataDir, name: SETTINGS_FILE_NAME })
  const queue = createSerialQueue()
  const envSources = new Set<SecretEnvSource>([bureauApiKeyEnv])
  const listeners = new Set<SettingsListener>()
  const unreadable = new Set<string>()
  const announced = new Set<string>()

  const vault = createSecretVault({
    backend: backendOf({ dir: options.dataDir, name: SECRETS_FILE_NAME, mode: 0o600 }),
    cipher,
    decryptOnly: options.decryptOnlyCiphers,
    notify,
    now,
  })

  let raw: JsonObject = {}
  let current: Settings = Settings.parse({})

  /** Reads settings.json; plaintext secrets found in it are encrypted, then the file is rewritten without them. */
  async function load(): Promise<void> {
    const loaded = loadSettingsFile(settingsFile, now())
    for (const notice of loaded.notices) announce(notice)
    let keptPlaintext = false
    for (const [name, value] of loaded.secrets) {
      if (vault.has(name)) continue
      try {
        await vault.set(name, value)
      } catch {
        keptPlaintext = true
        notify({
          level: 'error',
          id: `settings.secret-unencrypted:${name}`,
          message: `settings.json holds ${secretLabel(name)} in plain text and it could not be encrypted. Re-enter it in Settings.`,
        })
      }
    }
    if (loaded.ok) {
      raw = loaded.raw
      current = withoutUrlCredentials(loaded.raw, loaded.settings)
      if (loaded.rewrite && !keptPlaintext) settingsFile.write(raw)
    }
  }

  /** A hand-edited settings.json with a key in a URL: the key is not used or returned, and the user is told. */
  function withoutUrlCredentials(data: JsonObject, settings: Settings): Settings {
    const found = findUrlCredentials(data)
    if (found.length === 0) return settings
    for (const credential of found)
      announce({
        level: 'error',
        id: `settings.url-credential:${credential.path}`,
        message: `${credentialAdvice(credential)} Until then the URL is used without it.`,
      })
    const stripped = Settings.safeParse(stripUrlCredentials(data))
    return stripped.success ? stripped.data : settings
  }

  /** A secret set or cleared again: a later problem with it is announced anew. */
  function forgetAnnouncements(name: string): void {
    const prefix = `settings.secret-unreadable:${name}|`
    for (const key of announced) if (key.startsWith(prefix)) announced.delete(key)
  }

  function announce(notice: AppNotice): void {
    const key = `${notice.id}|${notice.message}`
    if (announced.has(key)) return
    announced.add(key)
    notify(notice)
  }

  /** Decrypts every stored secret once, so a tampered copy or a replaced key shows as unreadable at once. */
  async function checkStoredSecrets(): Promise<void> {
    for (const { name } of vault.list()) {
      const result = await vault.reveal(name)
      if (result.status === 'ok') unreadable.delete(name)
      if (result.status !== 'unreadable') continue
      unreadable.add(name)
      announce(unreadableNotice(name, result.error.message))
    }
  }

  function mask(name: string): MaskedSecret {
    const fromEnv = envOverride(name, current, envSources, env)
    if (fromEnv)
      return { set: true, source: 'env', envVar: fromEnv.envVar, hint: secretHint(fromEnv.value, name) }
    const stored = vault.list().find((entry) => entry.name === name)
    if (!stored) return { set: false }
    return {
      set: true,
      source: 'stored',
      ...(stored.hint ? { hint: stored.hint } : {}),
      ...(unreadable.has(name) || !stored.readable ? { unreadable: true } : {}),
    }
  }

  function getPublic(): PublicSettings {
    // secrets.json is small and may have been changed by `bureau settings set-secret` meanwhile.
    vault.reload()
    const names = new Set(vault.list().map((entry) => entry.name))
    for (const source of envSources) for (const name of source.knownNames?.(current) ?? []) names.add(name)
    const secrets: Record<string, MaskedSecret> = {}
    for (const name of [...names].filter(isSecretName).sort()) secrets[name] = mask(name)
    return {
      ...(withoutSecretLikeKeys(current) as Settings),
      secrets,
      secretStorage: cipher.storage,
    }
  }

  function changed(): PublicSettings {
    const publicSettings = getPublic()
    for (const listener of [...listeners]) listener({ settings: current, publicSettings })
    return publicSettings
  }

  function saveFailed(error: unknown): AppError {
    const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error'
    return new AppError(
      'UNAVAILABLE',
      `Settings could not be saved (${code}). Check that the data folder is writable.`,
    )
  }

  await load()
  await checkStoredSecrets()

  return {
    get: () => current,
    getPublic,
    async update(patch) {
      const checked = SettingsUpdate.safeParse(patch)
      if (!checked.success) throw validationError('Invalid settings update.', checked.error)
      const credential = findUrlCredentials(checked.data)[0]
      if (credential) throw new AppError('VALIDATION_FAILED', credentialAdvice(credential))
      return queue.run(async () => {
        await load()
        const merged = applyMergePatch(raw, checked.data) as JsonObject
        const parsed = Settings.safeParse(merged)
        if (!parsed.success) throw validationError('Invalid settings update.', parsed.error)
        // A removed account's password goes first and in the same step: should the settings file then
        // fail to save, the account stays, shown without a password, rather than a password staying
        // behind for an account no one can see.
        const passwords = [
          ...removedAccountPasswords(current.email, parsed.data.email),
          ...removedCalendarPasswords(current.calendar, parsed.data.calendar),
        ]
        try {
          for (const name of passwords) await vault.clear(name)
          settingsFile.write(merged)
        } catch (error) {
          throw saveFailed(error)
        }
        for (const name of passwords) {
          unreadable.delete(name)
          forgetAnnouncements(name)
        }
        raw = merged
        current = parsed.data
        return changed()
      })
    },
    async setSecret(name, value) {
      checkSecretName(name)
      const secret = value.trim()
      if (secret === '')
        throw new AppError(
          'VALIDATION_FAILED',
          `The value for ${name} is empty. To remove it, clear the secret.`,
        )
      if (secret.length > MAX_SECRET_LENGTH)
        throw new AppError(
          'VALIDATION_FAILED',
          `The value for ${name} is longer than ${MAX_SECRET_LENGTH} characters.`,
        )
      return queue.run(async () => {
        try {
          await vault.set(name, secret)
        } catch (error) {
          if (error instanceof AppError) throw error
          throw saveFailed(error)
        }
        unreadable.delete(name)
        forgetAnnouncements(name)
        return changed()
      })
    },
    async clearSecret(name) {
      checkSecretName(name)
      return queue.run(async () => {
        try {
          await vault.clear(name)
        } catch (error) {
          throw saveFailed(error)
        }
        unreadable.delete(name)
        forgetAnnouncements(name)
        return changed()
      })
    },
    async getSecret(name) {
      checkSecretName(name)
      const fromEnv = envOverride(name, current, envSources, env)
      if (fromEnv) return fromEnv.value
      vault.reload()
      const result = await vault.reveal(name)
      if (result.status === 'ok') {
        if (unreadable.delete(name)) changed()
        return result.value
      }
      if (result.status === 'unreadable') {
        // Once per problem: the check at load may have said it already.
        announce(unreadableNotice(name, result.error.message))
        if (!unreadable.has(name)) {
          unreadable.add(name)
          changed()
        }
      }
      return undefined
    },
    listSecretNames: (prefix = '') =>
      vault
        .list()
        .map((entry) => entry.name)
        .filter((name) => name.startsWith(prefix))
        .sort(),
    registerSecretEnv(source) {
      envSources.add(source)
      return () => envSources.delete(source)
    },
    workspaceDir: () =>
      resolveWorkspaceDir({ flag: options.workspaceOverride, settingsFolder: current.workspace.folder, env }),
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    reload: () =>
      queue.run(async () => {
        vault.reload()
        await load()
        await checkStoredSecrets()
        return changed()
      }),
  }
}
