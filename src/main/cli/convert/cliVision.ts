import type { ProviderVisionOptions, VisionMode } from '../../convert'
import type { ProviderService } from '../../llm'
import { defaultDataDir } from '../../platform'
import type { SettingsService } from '../../settings'
import { visionSettingIsOff } from '../../settings/prestart'
import { noticePrinter, type TextIo } from '../textIo'

/**
 * Who reads pictures in `bureau convert`: `--vision`, else the setting `attachments.vision`, and the
 * active provider of the settings (with the BUREAU_* overrides). Settings and providers are opened
 * (and their modules loaded) only when a file that may hold pictures is met and settings.json does not
 * plainly leave the setting off, so converting a .docx, or a PDF with the default, touches no data
 * folder and does not wait for the settings service.
 * `undefined` when the flag says `off`: OCR only.
 */
export function cliVision(
  options: { vision?: VisionMode; dataDir?: string },
  io: TextIo,
  env: NodeJS.ProcessEnv,
): ProviderVisionOptions | undefined {
  if (options.vision === 'off') return undefined
  const dataDir = options.dataDir ?? defaultDataDir(env)
  const notify = noticePrinter(io)
  let settings: Promise<SettingsService> | undefined
  let providers: Promise<ProviderService> | undefined
  // Read once, as the settings service reads settings.json once: a batch asks for every PDF.
  let plainlyOff: boolean | undefined
  const openOnce = () => {
    settings ??= import('../../settings').then(({ openSettings }) =>
      openSettings({ dataDir, notify, env: (name) => env[name] }),
    )
    return settings
  }
  return {
    mode: async () => {
      if (options.vision) return options.vision
      // The common case (off, or no settings yet) without loading the settings service.
      plainlyOff ??= visionSettingIsOff(dataDir)
      if (plainlyOff) return 'off'
      return (await openOnce()).get().attachments.vision
    },
    client: async () => {
      providers ??= Promise.all([openOnce(), import('../../llm')]).then(
        ([opened, { createSettingsProviders }]) => createSettingsProviders(opened, { dataDir, notify, env }),
      )
      return (await providers).client()
    },
  }
}
