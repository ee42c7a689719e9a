import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { RouteInput, Routes } from '../../../../shared/ipc'
import { useBureau } from '../../ipc/BureauProvider'
import { queryKeys } from '../../ipc/queryKeys'

/** The conversations, newest first; with a query, those whose text matches it. */
export function useConversations(query: string) {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.conversations.list(query),
    queryFn: () => bureau.invoke('conversations.list', query ? { query } : {}),
    retry: false,
  })
}

/** The conversation routes, bound to the client; callers that change one refresh `queryKeys.conversations.all()`. */
export function useConversationActions() {
  const bureau = useBureau()
  return useMemo(
    () => ({
      get: (id: string) => bureau.invoke('conversations.get', { id }),
      select: (input: RouteInput<Routes, 'conversations.select'>) =>
        bureau.invoke('conversations.select', input),
      update: (input: RouteInput<Routes, 'conversations.update'>) =>
        bureau.invoke('conversations.update', input),
      rename: (input: RouteInput<Routes, 'conversations.rename'>) =>
        bureau.invoke('conversations.rename', input),
      remove: (id: string) => bureau.invoke('conversations.delete', { id }),
      exportAs: (input: RouteInput<Routes, 'conversations.export'>) =>
        bureau.invoke('conversations.export', input),
      importJson: (text: string) => bureau.invoke('conversations.import', { text }),
      exportDocument: (input: RouteInput<Routes, 'documents.exportConversation'>) =>
        bureau.invoke('documents.exportConversation', input),
    }),
    [bureau],
  )
}
