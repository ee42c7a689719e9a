import { useNotices } from './appApi'

/** Shows `app.notice` events, including the ones raised before this window connected. */
export function NoticeBar() {
  const { notices, dismiss } = useNotices()

  if (notices.length === 0) return null
  return (
    <div className="notices" role="status" aria-live="polite">
      {notices.map((notice, index) => (
        <div key={notice.id ?? index} className={`notice notice-${notice.level}`}>
          <span>{notice.message}</span>
          <button
            type="button"
            className="icon-button"
            aria-label="Dismiss notice"
            onClick={() => dismiss(notice)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  )
}
