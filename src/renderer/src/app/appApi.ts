import { useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useState } from 'react'
import type { AppNotice } from '../../../shared/ipc'
import { useBureau } from '../ipc/BureauProvider'
import { queryKeys } from '../ipc/queryKeys'

/** The host's kind (desktop or headless), version and folders; they do not change while the window lives. */
export function useAppInfo() {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.appInfo(),
    queryFn: () => bureau.invoke('app.info'),
    staleTime: Number.POSITIVE_INFINITY,
  })
}

/**
 * The last five `app.notice` events, including the ones raised before this window connected, and the
 * function that dismisses one.
 */
export function useNotices() {
  const bureau = useBureau()
  const [notices, setNotices] = useState<AppNotice[]>([])
  useEffect(() => {
    const add = (notice: AppNotice) =>
      setNotices((current) => [...current.filter((n) => !notice.id || n.id !== notice.id), notice].slice(-5))
    bureau
      .invoke('app.notices')
      .then((list) => list.forEach(add))
      .catch(() => {})
    const offNotice = bureau.on('app.notice', add)
    // The cause is gone (a removed MCP server): its notice goes too, here and in every other window.
    const offCleared = bureau.on('app.noticeCleared', ({ id }) =>
      setNotices((current) => current.filter((n) => n.id !== id)),
    )
    return () => {
      offNotice()
      offCleared()
    }
  }, [bureau])
  const dismiss = useCallback(
    (notice: AppNotice) => {
      setNotices((current) => current.filter((n) => n !== notice))
      // Dismissed for good: a reload does not bring it back (it comes again only if raised again).
      if (notice.id) bureau.invoke('app.dismissNotice', { id: notice.id }).catch(() => {})
    },
    [bureau],
  )
  return { notices, dismiss }
}
