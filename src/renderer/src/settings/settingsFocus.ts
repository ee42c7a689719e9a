import { create } from 'zustand'

/** A field another page asks the Settings page to focus when it opens (e.g. "Re-enter key"). */
export type SettingsTarget = 'provider' | 'apiKey' | 'workspace'

interface SettingsFocusState {
  target: SettingsTarget | undefined
  request(target: SettingsTarget): void
  consume(): SettingsTarget | undefined
}

export const useSettingsFocus = create<SettingsFocusState>((set, get) => ({
  target: undefined,
  request: (target) => set({ target }),
  consume() {
    const { target } = get()
    set({ target: undefined })
    return target
  },
}))
