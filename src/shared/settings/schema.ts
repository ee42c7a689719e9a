import { z } from 'zod'
import { AgentSettings } from './sections/agent'
import { AnonymizationSettings } from './sections/anonymization'
import { ApprovalSettings } from './sections/approvals'
import { AttachmentSettings } from './sections/attachments'
import { BridgeSettings } from './sections/bridge'
import { BrowserSettings } from './sections/browser'
import { CalendarSettings } from './sections/calendar'
import { EmailSettings } from './sections/email'
import { KnowledgeSettings } from './sections/knowledge'
import { LocalModelSettings } from './sections/localModels'
import { McpSettings } from './sections/mcp'
import { ActiveProviderSettings, ProviderOverrides } from './sections/providers'
import { ToolSettings } from './sections/tools'
import { UiSettings } from './sections/ui'
import { VoiceSettings } from './sections/voice'
import { WorkspaceSettings } from './sections/workspace'

import { SETTINGS_SCHEMA_VERSION } from './version'

export { SETTINGS_SCHEMA_VERSION }

/**
 * Every section of settings.json. To add one: a `sections/<name>.ts` with a loose object whose
 * fields all have defaults, then one line here. Loose objects keep keys written by a newer Bureau.
 * Secrets never live here: they are named by `secretNames.ts` and stored encrypted apart.
 */
export const settingsSections = {
  workspace: WorkspaceSettings.prefault({}),
  provider: ActiveProviderSettings.prefault({}),
  providers: ProviderOverrides,
  anonymization: AnonymizationSettings.prefault({}),
  attachments: AttachmentSettings.prefault({}),
  agent: AgentSettings.prefault({}),
  tools: ToolSettings.prefault({}),
  browser: BrowserSettings.prefault({}),
  voice: VoiceSettings.prefault({}),
  ui: UiSettings.prefault({}),
  bridge: BridgeSettings.prefault({}),
  localModels: LocalModelSettings.prefault({}),
  knowledge: KnowledgeSettings.prefault({}),
  mcp: McpSettings.prefault({}),
  approvals: ApprovalSettings.prefault({}),
  email: EmailSettings.prefault({}),
  calendar: CalendarSettings.prefault({}),
}

export const Settings = z.looseObject({
  /** The version of the format the file was written in; newer versions are kept as they are. */
  schemaVersion: z.number().int().min(0).default(SETTINGS_SCHEMA_VERSION),
  ...settingsSections,
})
export type Settings = z.output<typeof Settings>

export function defaultSettings(): Settings {
  return Settings.parse({})
}
