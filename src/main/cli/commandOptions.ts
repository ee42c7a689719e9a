import type { BridgeCliOptions } from './bridge/bridgeFlags'
import type { BrowserCliOptions } from './browserOptions'
import type { ProviderFlags } from './program'

// The options each command's action receives, apart from the command files, so that the lazily loaded
// implementations can name their options without importing the command that loads them (no cycle).

export interface BridgeCliCommandOptions {
  dataDir?: string
}

export interface ChatCliOptions extends BrowserCliOptions, ProviderFlags {
  workspace?: string
  dataDir?: string
  attach: string[]
  toolset: string[]
  subagent: string[]
  interactionMode?: 'api' | 'cli'
  anonymize: string[]
  maxIterations?: number
  json?: boolean
  /** What runs without asking where the approval settings say `ask` (default: `approvals.nonInteractive`). */
  approve?: 'read' | 'write' | 'all'
}

export interface ConvertCommandOptions {
  keepDataUris?: boolean
  acceptedText?: boolean
  maxChars?: number
  json?: boolean
  /** commander's `--no-cache`: false when given. */
  cache?: boolean
  vision?: 'off' | 'when-supported'
  dataDir?: string
}

export interface ProvidersCliOptions {
  dataDir?: string
  json?: boolean
}

export interface SayCliOptions {
  engine?: 'espeak-ng' | 'openai' | 'festival' | 'piper'
  voice?: string
  rate?: number
  out?: string
  dataDir?: string
  listVoices?: boolean
}

export interface TranscribeCliOptions {
  engine?: 'whisper' | 'pocketsphinx' | 'openai'
  model?: string
  modelFile?: string
  language?: string
  dataDir?: string
  json?: boolean
}

export interface ServeOptions extends BrowserCliOptions, BridgeCliOptions, ProviderFlags {
  host: string
  port: number
  dataDir?: string
  workspace?: string
  token?: string
  toolsDebounceMs?: number
  /** commander's `--no-index`: false when given. */
  index?: boolean
}

export interface IndexCliOptions {
  workspace?: string
  dataDir?: string
  json?: boolean
  topK?: number
  pathGlob?: string
}

export interface SettingsCliOptions {
  dataDir?: string
}

export interface ToolOptions extends BrowserCliOptions {
  workspace?: string
  dataDir?: string
}

export interface EvalCliOptions {
  browserExecutable?: string
  provider?: string
  model?: string
  mode?: 'api' | 'cli'
  tasks?: string
  tasksDir?: string
  suite?: string
  repeat: number
  json?: string
  reference?: boolean
  wrong?: boolean
  timeout: number
  dataDir?: string
}

export interface ModelsCliOptions {
  dataDir?: string
  json?: boolean
  sha256?: string
  id?: string
}

export interface McpCliOptions extends BrowserCliOptions {
  workspace?: string
  dataDir?: string
  /** Comma-separated toolset names (default: every built-in and plugin toolset). */
  toolsets?: string
}

export interface EmailAccountAddOptions {
  dataDir?: string
  imapHost: string
  imapPort?: string
  imapTls: boolean
  smtpHost: string
  smtpPort?: string
  smtpTls?: boolean
  user: string
  from: string
  displayName?: string
  passwordEnv?: string
  default?: boolean
}

export interface EmailCliOptions {
  dataDir?: string
}

export interface MemoryCliOptions {
  dataDir?: string
  json?: boolean
  /** `add`: only in this workspace folder; `list`: what applies there. */
  workspace?: string
  query?: string
}

export interface CalendarAccountAddOptions {
  dataDir?: string
  url: string
  user: string
  passwordEnv?: string
}

export interface CalendarCliOptions {
  dataDir?: string
}
