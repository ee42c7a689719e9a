import { AppError } from '../../shared/errors'

// Routes whose services are still being wired: they answer with a clear error instead of crashing.
// Each entry disappears when its service registers real handlers in createApp.
export const unavailable = (what: string) => () => {
  throw new AppError('UNAVAILABLE', `${what} is not available in this build yet.`)
}

export function unavailableHandlers() {
  return {
    'ui.pickFolder': () => {
      throw new AppError(
        'UNSUPPORTED',
        'The folder picker is only in the desktop app: type the folder path instead.',
      )
    },
  }
}
