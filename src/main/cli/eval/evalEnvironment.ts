import { join } from 'node:path'
import type { AppNotice } from '../../../shared/ipc'
import type { EvalEnvironment, EvalModel } from '../../eval'
import type { Logger } from '../../platform'
import { openCliToolEnvironment } from '../cliToolEnvironment'

export interface EvalEnvironmentOptions {
  dataDir: string
  /** Folder for the eval's own browser profile (a temp folder, never the user's profile). */
  scratchDir: string
  provider?: string
  model?: string
  mode?: 'api' | 'cli'
  /** `--browser-executable`: the Chromium to start (default: found like the app finds one). */
  browserExecutable?: string
  logger: Logger
  notify: (notice: AppNotice) => void
  env?: NodeJS.ProcessEnv
}

/**
 * The one place that builds what `bureau eval` runs with: the toolsets, converter and settings of
 * `bureau chat` (the app's), with a headless Chromium of its own for the web tasks, and the model.
 */
export async function openEvalEnvironment(options: EvalEnvironmentOptions): Promise<EvalEnvironment> {
  // `--provider`/`--model` act as BUREAU_PROVIDER/BUREAU_MODEL do for `bureau chat`: the provider service
  // resolves them, so every kind gets its client options (a `local` model its runtime and model store).
  const env = { ...(options.env ?? process.env) }
  if (options.provider) env.BUREAU_PROVIDER = options.provider
  if (options.model) env.BUREAU_MODEL = options.model
  const cli = await openCliToolEnvironment({
    dataDir: options.dataDir,
    browser: {},
    browserEnvironment: (settings) => ({
      dataDir: options.scratchDir,
      // Never the user's Edge profile or a browser they are using: a fresh headless Chromium per run.
      settings: () => ({
        ...settings.get().browser,
        mode: 'bundled-chromium',
        profileDir: null,
        cdpEndpoint: null,
        allowLocalNetwork: false,
      }),
      ...(options.browserExecutable ? { overrides: { executablePath: options.browserExecutable } } : {}),
    }),
    logger: options.logger,
    notify: options.notify,
    env,
  })
  const settings = cli.settings.get()
  let model: Promise<EvalModel> | undefined
  const openModel = async (): Promise<EvalModel> => {
    const providers = await cli.providers()
    const provider = await providers.resolve()
    return {
      client: await providers.client(),
      interactionMode: options.mode ?? (await providers.interactionMode()),
      provider: provider.id,
      model: provider.model,
    }
  }
  return {
    toolsets: () => cli.registry.list(),
    converter: cli.converter,
    attachmentBudgetChars: settings.attachments.budgetChars,
    backupsToKeep: settings.workspace.backupsToKeep,
    openModel: () => {
      model ??= openModel()
      return model
    },
    close: () => cli.close(),
  }
}

export const browserScratch = (dir: string) => join(dir, 'browser')
