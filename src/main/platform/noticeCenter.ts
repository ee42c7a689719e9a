import type { AppNotice } from '../../shared/ipc'

/**
 * Keeps the notices raised so far (a UI that connects later still sees them) and forwards
 * each new one to the event bus as `app.notice`.
 */
export interface NoticeCenter {
  notify(notice: AppNotice): void
  list(): AppNotice[]
}

export function createNoticeCenter(emit: (notice: AppNotice) => void, keep = 50): NoticeCenter {
  const notices: AppNotice[] = []
  return {
    notify(notice) {
      const existing = notice.id ? notices.findIndex((n) => n.id === notice.id) : -1
      if (existing >= 0) notices.splice(existing, 1)
      notices.push(notice)
      if (notices.length > keep) notices.shift()
      emit(notice)
    },
    list: () => [...notices],
  }
}
