import { AppError } from '../../shared/errors'

export type PickFolder = (options: { title?: string; defaultPath?: string }) => Promise<string | null>

/** `ui.pickFolder` is answered by the desktop shell's native dialog; the web host has none. */
export function uiHandlers(deps: { pickFolder?: PickFolder }) {
  return {
    'ui.pickFolder': async (input: { title?: string; defaultPath?: string }) => {
      if (!deps.pickFolder) {
        throw new AppError(
          'UNSUPPORTED',
          'The folder picker is only in the desktop app: type the folder path instead.',
        )
      }
      return { path: await deps.pickFolder(input) }
    },
  }
}
