import { useQuery } from '@tanstack/react-query'
import { useDeferredValue } from 'react'
import { useBureau } from '../../ipc/BureauProvider'
import { queryKeys } from '../../ipc/queryKeys'

/** The tokens the instructions add to the system prompt, counted by the host (o200k_base). */
export function useInstructionTokens(input: { global?: string; conversation?: string }): number | undefined {
  const bureau = useBureau()
  const deferred = useDeferredValue(input)
  const query = useQuery({
    queryKey: queryKeys.instructionTokens(deferred.global ?? '', deferred.conversation ?? ''),
    queryFn: () => bureau.invoke('chat.instructionTokens', deferred),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  })
  return query.data?.tokens
}
