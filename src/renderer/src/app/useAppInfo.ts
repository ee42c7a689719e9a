import { useQuery } from '@tanstack/react-query'
import { bureau } from '../ipc/bureauClient'

export function useAppInfo() {
  return useQuery({
    queryKey: ['app.info'],
    queryFn: () => bureau.invoke('app.info'),
    staleTime: Number.POSITIVE_INFINITY,
  })
}
