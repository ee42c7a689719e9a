import { AppError } from '../../../shared/errors'

const BUREAU_PROFILE_OFFER =
  'Instead, use "Start Edge for Bureau" in Settings: it opens Edge (or Chrome) on a separate Bureau profile where you sign in once, and switches the browser mode to cdp.'

/** The user's profile is open in the browser already, or the browser refused automation on it. */
export function profileUnavailable(browserName: string, detail: string): AppError {
  return new AppError(
    'UNAVAILABLE',
    `${browserName} could not be started on your profile (${detail}). Close every ${browserName} window and try again; recent Edge and Chrome versions also refuse automation on their default profile. ${BUREAU_PROFILE_OFFER}`,
  )
}

export function cdpUnreachable(endpoint: string, detail: string): AppError {
  return new AppError(
    'UNAVAILABLE',
    `No browser answers at ${endpoint} (${detail}). Start the browser with --remote-debugging-port, or use "Start Edge for Bureau" in Settings.`,
  )
}

export function noBrowserFound(what: string): AppError {
  return new AppError(
    'UNAVAILABLE',
    `No ${what} was found on this computer. Install Microsoft Edge or Google Chrome, or set the browser executable in Settings (browser.executablePath).`,
  )
}

/** The first line of a Playwright error, without its call log. */
export function shortReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.replace(/^[a-zA-Z.]+: /, '')
      .slice(0, 200) ?? 'unknown error'
  )
}
