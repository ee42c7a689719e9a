import { useEffect, useState } from 'react'
import type { AppNotice } from '../../../shared/ipc'
import { useBureau } from '../ipc/BureauProvider'

/** Shows `app.notice` events, including the ones raised before this window connected. */
export function NoticeBar() {
  const bureau = useBureau()
  const [notices, setNotices] = useState<AppNotice[]>([])

  useEffect(() => {
    const add = (notice: AppNotice) =>
      setNotices((current) => [...current.filter((n) => !notice.id || n.id !== notice.id), notice].slice(-5))
    bureau
      .invoke('app.notices')
      .then((list) => list.forEach(add))
      .catch(() => {})
    return bureau.on('app.notice', add)
  }, [bureau])

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
            onClick={() => setNotices((current) => current.filter((n) => n !== notice))}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  )
}
