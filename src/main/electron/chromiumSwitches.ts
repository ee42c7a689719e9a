/** The part of Electron's `app.commandLine` this needs (plain objects in tests). */
export interface SwitchTarget {
  appendSwitch(name: string, value?: string): void
}

/**
 * Chromium switches the shell sets before the app is ready. On Linux, Web Speech `speechSynthesis`
 * gets its voices from speech-dispatcher, which Chromium only talks to with this switch.
 */
export function appendChromiumSwitches(target: SwitchTarget, platform: NodeJS.Platform): void {
  if (platform === 'linux') target.appendSwitch('enable-speech-dispatcher')
}
