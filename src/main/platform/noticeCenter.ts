import type { AppNotice } from '../../shared/ipc'

/**
 * Keeps the notices raised so far (a UI that connects later still sees them) and forwards
 * each new one to the event bus as `app.notice`.
 */
export interface NoticeCenter {
  notify(notice: AppNotice): void
  list(): AppNotice[]
  /** Drops the notices with this id (and `<id>:…`) and tells the UI; false when there was none. */
  clear(id: string): boolean
}

export function createNoticeCenter(
  emit: (notice: AppNotice) => void,
  keep = 50,
  emitCleared: (id: string) => void = () => {},
): NoticeCenter {
  const notices: AppNotice[] = []
  return {
    clear(id) {
      let found = false
      for (let i = notices.length - 1; i >= 0; i--) {
        const other = notices[i]?.id
        if (other === id || other?.startsWith(`${id}:`)) {
          notices.splice(i, 1)
          found = true
          emitCleared(other as string)
        }
      }
      return found
    },
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
