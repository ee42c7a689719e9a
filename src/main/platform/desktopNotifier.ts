import type { NoticeCenter } from './noticeCenter'

/** A message for the user outside the window (a finished or failed automation run). */
export interface DesktopNotification {
  title: string
  body: string
  level: 'info' | 'warning'
  /** Replaces an earlier notification with the same tag (one per automation, not one per run). */
  tag?: string
}

/**
 * How the host tells the user something while they may be elsewhere. The desktop shell shows a system
 * notification (`src/main/electron/desktopNotifier.ts`); the headless host has the notice center.
 */
export interface DesktopNotifier {
  /** True when `notify` reaches the system: the page then shows no notification of its own. */
  readonly native: boolean
  notify(notification: DesktopNotification): void
}

/**
 * The headless host's notifier: a notice (the web page lists it, and its browser notification shows
 * it when the user allowed that), one per tag.
 */
export function noticeNotifier(notices: NoticeCenter): DesktopNotifier {
  return {
    native: false,
    notify(notification) {
      notices.notify({
        level: notification.level,
        message: `${notification.title}: ${notification.body}`,
        ...(notification.tag ? { id: notification.tag } : {}),
      })
    },
  }
}
