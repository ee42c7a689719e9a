import { type Session, shell, type WebContents } from 'electron'
import { APP_ORIGIN } from './appProtocol'

function isExternalWebUrl(url: string): boolean {
  return /^https?:\/\//i.test(url)
}

export function isAppUrl(url: string): boolean {
  return url === APP_ORIGIN || url.startsWith(`${APP_ORIGIN}/`)
}

/** New windows are refused (web links go to the system browser); navigation never leaves the app. */
export function hardenWebContents(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebUrl(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  contents.on('will-navigate', (event, url) => {
    if (isAppUrl(url)) return
    event.preventDefault()
    if (isExternalWebUrl(url)) void shell.openExternal(url)
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
}

/** Everything is refused except the microphone, which the voice panel asks for. */
export function restrictPermissions(session: Session): void {
  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    const fromApp = isAppUrl(details.requestingUrl ?? contents.getURL())
    const audioOnly =
      permission === 'media' && (details as { mediaTypes?: string[] }).mediaTypes?.every((t) => t === 'audio')
    callback(Boolean(fromApp && audioOnly))
  })
  session.setPermissionCheckHandler(
    (_contents, permission, origin) => permission === 'media' && isAppUrl(origin),
  )
}
