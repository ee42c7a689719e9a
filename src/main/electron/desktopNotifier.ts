import { type BrowserWindow, Notification } from 'electron'
import type { DesktopNotifier } from '../platform'

/**
 * System notifications through Electron's `Notification` (where the system has none, the fallback).
 * Warnings also go to the fallback, so a failed run stays listed in the window. Clicking one brings
 * the window forward. A shown notification is kept until it closes: one collected early loses its click.
 */
export function electronNotifier(
  fallback: DesktopNotifier,
  window: () => BrowserWindow | undefined,
): DesktopNotifier {
  if (!Notification.isSupported()) return fallback
  const shown = new Map<string, Notification>()
  let untagged = 0
  return {
    native: true,
    notify(notification) {
      const key = notification.tag ?? `untagged:${untagged++}`
      shown.get(key)?.close()
      const native = new Notification({
        title: notification.title,
        body: notification.body,
        urgency: notification.level === 'warning' ? 'critical' : 'normal',
      })
      native.on('click', () => {
        const target = window()
        if (!target || target.isDestroyed()) return
        if (target.isMinimized()) target.restore()
        target.focus()
      })
      native.on('close', () => {
        if (shown.get(key) === native) shown.delete(key)
      })
      shown.set(key, native)
      native.show()
      if (notification.level === 'warning') fallback.notify(notification)
    },
  }
}
