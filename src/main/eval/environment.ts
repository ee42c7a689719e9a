import type { InteractionMode } from '../../shared/settings'
import type { AttachmentConverter } from '../agent'
import type { LlmClient } from '../llm'
import type { Toolset } from '../tools'

/** The model under test. */
export interface EvalModel {
  client: LlmClient
  interactionMode: InteractionMode
  provider: string
  model: string
}

/**
 * What the eval needs from the host: the app's toolsets (with a browser of its own for the web
 * tasks), its converter and agent settings, and the model. Built by the caller (the CLI) so the
 * composition can change without touching the runner.
 */
export interface EvalEnvironment {
  toolsets(): readonly Toolset[]
  converter: AttachmentConverter
  attachmentBudgetChars: number
  backupsToKeep: number
  /** Opened only for model runs (a --reference run needs no provider). */
  openModel(): Promise<EvalModel>
  close(): Promise<void>
}
