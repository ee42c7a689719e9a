// Settings: one zod schema (each value doubles as its TypeScript type), the patch form used by
// `settings.update`, migrations, secret names and masking. Pure: no Node, no Electron.

export {
  CLI_MODE_CONTEXT_LIMIT,
  type InteractionModeInput,
  selectInteractionMode,
} from './interactionMode'
export { MaskedSecret, secretHint } from './maskedSecret'
export type { JsonObject } from './mergePatch'
export { applyMergePatch, isPlainObject, patchForPath, valueAtPath } from './mergePatch'
export type { MigrationOutcome } from './migrations'
export { migrateSettings, schemaVersionOf, settingsMigrations } from './migrations'
export { PublicSettings, SecretStorageInfo } from './publicSettings'
export { defaultSettings, SETTINGS_SCHEMA_VERSION, Settings, settingsSections } from './schema'
export type { SecretNameRule } from './secretNames'
export {
  extractSecrets,
  isSecretName,
  looksLikeSecretKey,
  SecretName,
  secretLabel,
  secretNameRules,
  withoutSecretLikeKeys,
} from './secretNames'
export { AgentSettings } from './sections/agent'
export { AnonymizationSettings } from './sections/anonymization'
export { ApprovalPolicy, ApprovalRuleKey, ApprovalSettings } from './sections/approvals'
export { AttachmentSettings, AttachmentVision, DEFAULT_ATTACHMENT_BUDGET_CHARS } from './sections/attachments'
export { BridgeSettings } from './sections/bridge'
export { BrowserMode, BrowserSettings } from './sections/browser'
export {
  CalendarAccount,
  CalendarAccountName,
  CalendarSettings,
  calendarPasswordSecret,
  removedCalendarPasswords,
} from './sections/calendar'
export {
  EmailAccount,
  EmailAccountName,
  EmailSettings,
  emailPasswordSecret,
  removedAccountPasswords,
} from './sections/email'
export { KnowledgeEmbeddings, KnowledgeSettings } from './sections/knowledge'
export { LocalModelSettings } from './sections/localModels'
export { McpServerName, McpServerSettings, McpSettings } from './sections/mcp'
export {
  ActiveProviderSettings,
  InteractionMode,
  ProviderId,
  ProviderOverride,
  ProviderOverrides,
} from './sections/providers'
export { ToolSettings } from './sections/tools'
export { Theme, UiSettings } from './sections/ui'
export { SttEngine, TtsEngine, VoiceSettings } from './sections/voice'
export { WorkspaceSettings } from './sections/workspace'
export type { DeepPatch, SettingsPatch } from './settingsPatch'
export { patchSchemaOf, SettingsUpdate } from './settingsPatch'
