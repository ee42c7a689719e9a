export type { ConfLike } from './confBackend'
export { confBackend, confLikeBackend, confOptions } from './confBackend'
export type { JsonFileBackend, JsonFileBackendFactory, JsonFileBackendOptions } from './jsonFileBackend'
export { CorruptJsonFileError, parseJsonObject } from './jsonFileBackend'
export { createKeyFileCipher, KEY_FILE_NAME } from './keyFileCipher'
export type { SecretCipher, SecretDecryptReason } from './secretCipher'
export { SecretDecryptError } from './secretCipher'
export type { EnvLookup, SecretEnvSource } from './secretEnv'
export { activeProviderKeyName, processEnv } from './secretEnv'
export { settingsHandlers } from './settingsHandlers'
export type {
  SettingsListener,
  SettingsService,
  SettingsServiceOptions,
  SettingsStorageOptions,
} from './settingsService'
export { MAX_SECRET_LENGTH, openSettings } from './settingsService'
export type { WorkspaceSource } from './workspaceFolder'
export { resolveWorkspaceDir } from './workspaceFolder'
