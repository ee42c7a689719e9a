import type { SettingsService } from '../settings'

/** The `settings.*` routes; input is already validated by the router. */
export function settingsHandlers(settings: SettingsService) {
  return {
    'settings.get': () => settings.getPublic(),
    'settings.update': (patch: Parameters<SettingsService['update']>[0]) => settings.update(patch),
    'settings.setSecret': ({ name, value }: { name: string; value: string }) =>
      settings.setSecret(name, value),
    'settings.clearSecret': ({ name }: { name: string }) => settings.clearSecret(name),
  }
}
